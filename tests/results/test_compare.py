"""``baccarat compare``: saved runs side by side, paired when they played the very same rounds, unpaired otherwise."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import polars as pl
import pytest
from helpers.ledger_reference import session_table

from baccarat.cli import main
from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.statistics import ledger_stats as stats

EXPERIMENT = """name: cmp
shoes: {seed: 5, count: 12}
session: {bankroll: 300, table_min: 10, table_max: 500, shoes_per_session: 1}
strategies:
  - name: flat
    use: flat
    params: {side: banker, unit: 10}
  - name: marti
    use: martingale
    params: {side: player, unit: 10}
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("compare")
    (folder / "exp.yaml").write_text(EXPERIMENT)
    for name, overrides in (("a", []), ("b", ["--set", "strategies.1.params.unit=20"]), ("c", ["--set", "shoes.seed=6"])):
        assert main(["run", str(folder / "exp.yaml"), "--out", str(folder / name), "--quiet", "--workers", "1", *overrides]) == 0
    return folder


def compare_json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["compare", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def sessions_of(folder: Path, name: str) -> pl.DataFrame:
    """The session table folded from the run's ledger (the definition), labelled ``NAME: label``."""
    table = session_table(pl.read_parquet(folder / name / "ledger.parquet"), 300, 10)
    return table.with_columns((pl.lit(f"{name}: ") + pl.col("strategy")).alias("strategy"))


@pytest.mark.slow
def test_runs_on_the_same_rounds_are_paired_session_by_session(runs: Path, capsys) -> None:
    doc = compare_json(capsys, str(runs / "a"), str(runs / "b"))
    assert doc["paired"] is True and "the same rounds shoe by shoe" in doc["reason"]
    assert [r["strategy"] for r in doc["summary"]] == ["a: flat", "a: marti", "b: flat", "b: marti"]
    # The same flat strategy in both runs: every pair of sessions is equal, so the paired difference is exactly 0.
    same = next(r for r in doc["comparison"] if r["strategy"] == "b: flat")
    assert (same["net_diff_mean"], same["net_diff_ci_low"], same["net_diff_ci_high"]) == (0, 0, 0)
    assert same["sessions_better"] == same["sessions_worse"] == 0
    expected = comparisons.paired_comparison(pl.concat([sessions_of(runs, "a"), sessions_of(runs, "b")]))
    for row, want in zip(doc["comparison"], expected.iter_rows(named=True), strict=True):
        assert row["strategy"] == want["strategy"] and row["baseline"] == "a: flat"
        for key in ("net_diff_mean", "net_diff_ci_low", "net_diff_ci_high", "edge_diff", "risk_of_ruin_diff"):
            assert row[key] == pytest.approx(want[key]), key


@pytest.mark.slow
def test_runs_on_other_shoes_are_unpaired_with_welch_intervals(runs: Path, capsys) -> None:
    doc = compare_json(capsys, str(runs / "a"), str(runs / "c"), "--baseline", "a: marti")
    assert doc["paired"] is False and "shoes.seed" in doc["reason"] and "independent samples" in doc["reason"]
    row = next(r for r in doc["comparison"] if r["strategy"] == "c: marti")
    assert row["baseline"] == "a: marti" and row["sessions_better"] is None
    a = [float(x) for x in sessions_of(runs, "a").filter(pl.col("strategy") == "a: marti").get_column("net")]
    c = [float(x) for x in sessions_of(runs, "c").filter(pl.col("strategy") == "c: marti").get_column("net")]
    diff = statistics.mean(c) - statistics.mean(a)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(c) / len(c))
    assert row["net_diff_mean"] == pytest.approx(diff)
    assert (row["net_diff_ci_low"], row["net_diff_ci_high"]) == pytest.approx((diff - stats.Z95 * se, diff + stats.Z95 * se))


def test_the_table_says_whether_the_runs_pair(runs: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["compare", str(runs / "a"), str(runs / "b")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("paired: ") and "paired 95% intervals" in out
    assert main(["compare", str(runs / "a"), str(runs / "c")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("unpaired: ") and "independent-sample 95% intervals" in out
    for label in ("a: flat", "a: marti", "c: flat", "c: marti"):
        assert label in out


@pytest.mark.slow
def test_a_seeded_run_and_the_replay_of_its_own_shoes_from_a_file_are_paired(runs: Path, capsys) -> None:
    # The shoes of run a written to a file and replayed: their source differs, their rounds do not.
    shoes = runs / "shoes-of-a.txt"
    assert main(["shoes", "generate", "--rules", "punto-banco-8", "--count", "12", "--seed", "5", "--out", str(shoes), "--quiet"]) == 0
    replay = runs / "replay.yaml"
    replay.write_text(EXPERIMENT.replace("shoes: {seed: 5, count: 12}", f"shoes: {{source: recorded, path: {shoes}, format: cards}}"))
    assert main(["run", str(replay), "--out", str(runs / "replay"), "--quiet", "--workers", "1"]) == 0
    doc = compare_json(capsys, str(runs / "a"), str(runs / "replay"))
    assert doc["paired"] is True, doc["reason"]
    rows = {r["strategy"]: r for r in doc["comparison"]}
    # The same flat strategy on the same rounds: every pair of sessions is equal, so the paired difference is exactly 0;
    # the same Martingale differs from the baseline exactly as the run's own does, session by session.
    flat = rows["replay: flat"]
    assert flat["sessions"] == 12 and (flat["net_diff_mean"], flat["net_diff_ci_low"], flat["net_diff_ci_high"]) == (0, 0, 0)
    for key in ("net_diff_mean", "net_diff_ci_low", "net_diff_ci_high", "sessions_better", "sessions_worse"):
        assert rows["replay: marti"][key] == rows["a: marti"][key], key
    # Shoes of another seed in a file: the rounds differ, and the reason names the shoes' settings that differ.
    assert (
        main(["shoes", "generate", "--rules", "punto-banco-8", "--count", "12", "--seed", "6", "--out", str(shoes), "--force", "--quiet"])
        == 0
    )
    assert main(["run", str(replay), "--out", str(runs / "replay6"), "--quiet", "--workers", "1"]) == 0
    doc = compare_json(capsys, str(runs / "a"), str(runs / "replay6"))
    assert doc["paired"] is False and "rounds.parquet hold different rounds" in doc["reason"] and "shoes.source" in doc["reason"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["a"], "compare needs two run folders or more"),
        (["a", "nowhere"], "nowhere: no such run folder"),
        (["a", "b", "--baseline", "a: mart"], "no strategy is labelled 'a: mart' (did you mean 'a: marti'?)"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(runs: Path, capsys, monkeypatch, args: list[str], message: str) -> None:
    monkeypatch.chdir(runs)
    capsys.readouterr()
    assert main(["compare", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("baccarat: error: ") and message in err and err.count("\n") == 1
