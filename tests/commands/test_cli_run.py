"""``baccarat run``: exit status and one line for bad input, atomic output folders, overrides, seeds."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest
import yaml

from baccarat.cli import main
from baccarat.commands.run import default_out
from baccarat.execution.runner import run_experiment
from baccarat.experiment import load_experiment

SMALL = (
    "name: small\nshoes: {seed: 5, count: 4}\nsession: {bankroll: 1000, table_min: 5, table_max: 200, shoes_per_session: 2}\n"
    "strategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
    "  - use: martingale\n    params: {side: player, unit: 5}\n"
)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.yaml").write_text(SMALL)
    return tmp_path


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_bad_input_is_one_line_exit_2_and_creates_nothing(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "bad.yaml").write_text("session:\n  bankroll: 100\n  table_max: 5\n  table_min: 10\nstrategies:\n  - use: flat\n")
    before = everything_under(workdir)
    assert main(["run", "bad.yaml"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "baccarat: error: bad.yaml:3:14: session.table_max (5) is below session.table_min (10)\n"
    assert everything_under(workdir) == before  # not even results/


def test_a_bad_override_exits_2_and_creates_nothing(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--set", "strategies.1.params.unit=abc", "--out", "here"]) == 2
    assert capsys.readouterr().err == (
        "baccarat: error: --set strategies.1.params.unit=abc: parameter 'unit' of strategy 'martingale' must be a number, not 'abc'\n"
    )
    assert everything_under(workdir) == ["small.yaml"]


def test_an_out_folder_holding_other_files_is_refused_before_running(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "busy").mkdir()
    (workdir / "busy" / "notes.txt").write_text("mine")
    assert main(["run", "small.yaml", "--out", "busy"]) == 2
    assert "exists and does not hold a previous run" in capsys.readouterr().err
    assert everything_under(workdir / "busy") == ["notes.txt"]


@pytest.mark.slow
def test_default_output_folder_is_results_name_timestamp(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--quiet"]) == 0
    runs = list((workdir / "results").iterdir())
    assert len(runs) == 1 and re.fullmatch(r"small-\d{8}-\d{6}", runs[0].name)
    assert {p.name for p in runs[0].iterdir()} >= {
        "experiment.yaml",
        "ledger.parquet",
        "manifest.json",
        "rounds.parquet",
        "summary.csv",
        "report.html",
    }
    out = capsys.readouterr().out
    assert str(Path("results") / runs[0].name) in out.splitlines()[-1]
    # The plain conclusion first: Martingale on Player has the higher edge of its bet (Player's against Banker's).
    assert out.splitlines()[0].startswith("martingale has a higher expected house edge than flat banker, by 0.177%")
    assert out.splitlines()[1].split()[:3] == ["strategy", "sessions", "rounds"]
    assert any(line.startswith("flat banker") for line in out.splitlines())


def test_default_output_folder_never_overwrites_a_run(tmp_path: Path) -> None:
    now = datetime(2024, 5, 6, 7, 8, 9)
    first = default_out("my run/1", now, tmp_path)
    assert first.name == "my-run-1-20240506-070809"
    first.mkdir()
    assert default_out("my run/1", now, tmp_path).name == "my-run-1-20240506-070809-2"


@pytest.mark.slow
def test_output_folder_contents_overrides_and_manifest(workdir: Path) -> None:
    assert main(["run", "small.yaml", "--out", "out", "--quiet", "--set", "shoes.count=3", "--set", "strategies.0.params.unit=20"]) == 0
    out = workdir / "out"
    resolved = yaml.safe_load((out / "experiment.yaml").read_text())
    assert resolved["shoes"] == {"source": "seeded", "seed": 5, "count": 3}
    assert resolved["strategies"][0] == {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 20}}
    manifest = json.loads((out / "manifest.json").read_text())
    rounds = pl.read_parquet(out / "rounds.parquet")
    ledger = pl.read_parquet(out / "ledger.parquet")
    assert manifest["seed"] == 5 and manifest["seeds"] == [5]
    assert manifest["overrides"] == ["shoes.count=3", "strategies.0.params.unit=20"]
    assert manifest["counts"] == {
        "seeds": 1,
        "shoes": 3,
        "rounds": rounds.height,
        "strategies": 2,
        "sessions": 2,
        "ledger_rows": 2 * rounds.height,
    }
    assert ledger.height == 2 * rounds.height and rounds["shoe"].unique().sort().to_list() == [1, 2, 3]
    assert {"baccarat", "python", "polars"} <= set(manifest["versions"])
    assert manifest["timings_seconds"]["run"] >= 0
    assert set(ledger.filter(pl.col("strategy") == "flat banker")["stake"].cast(pl.Float64).to_list()) == {20.0}
    assert everything_under(workdir) == sorted(["small.yaml", "out", *(f"out/{name}" for name in everything_under(out))])
    assert not [name for name in everything_under(out) if Path(name).name.startswith(".")]  # nothing hidden left behind


@pytest.mark.slow
def test_rerunning_the_resolved_experiment_gives_the_same_ledger(workdir: Path) -> None:
    assert main(["run", "small.yaml", "--out", "first", "--quiet", "--set", "shoes.seed=[5, 6]"]) == 0
    assert main(["run", "first/experiment.yaml", "--out", "second", "--quiet"]) == 0
    for name in ("rounds.parquet", "ledger.parquet"):
        assert pl.read_parquet(workdir / "first" / name).equals(pl.read_parquet(workdir / "second" / name))


def test_a_failure_while_writing_leaves_no_folder_and_no_temporary_files(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = Path.write_bytes

    def failing(path: Path, data: bytes) -> int:
        if path.parent.name == "ledger.parquet":  # a part of the ledger dataset
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    assert main(["run", "small.yaml", "--quiet", "--out", "results/run"]) == 1
    assert capsys.readouterr().err == (
        "baccarat: error: results/run: cannot write the results: No space left on device (the disk is full); nothing was left behind\n"
    )
    assert everything_under(workdir) == ["small.yaml"]  # not even results/


def test_an_interrupted_run_leaves_nothing(workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import baccarat.execution.executor

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(baccarat.execution.executor, "run_chunk", interrupted)
    assert main(["run", "small.yaml", "--quiet"]) == 130
    assert everything_under(workdir) == ["small.yaml"]


def test_several_seeds_join_with_a_seed_column_and_continuing_numbers(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    both = run_experiment(load_experiment(path, ["shoes.seed=[5, 9]"]))
    alone = {seed: run_experiment(load_experiment(path, [f"shoes.seed={seed}"])) for seed in (5, 9)}
    shoes5 = alone[5].rounds["shoe"].max()
    sessions5 = alone[5].ledger["session"].max()
    assert both.rounds["seed"].unique(maintain_order=True).to_list() == [5, 9]
    assert both.rounds.height == alone[5].rounds.height + alone[9].rounds.height
    assert both.rounds["shoe"].n_unique() == 8 and both.ledger["session"].n_unique() == 4
    part9 = both.ledger.filter(pl.col("seed") == 9).drop("seed")
    shifted = alone[9].ledger.with_columns(pl.col("shoe") + shoes5, pl.col("session") + sessions5)
    assert part9.equals(shifted)
    assert both.ledger.filter(pl.col("seed") == 5).drop("seed").equals(alone[5].ledger)
    part9_rounds = both.rounds.filter(pl.col("seed") == 9).with_columns(pl.col("shoe") - shoes5)
    assert part9_rounds.drop("seed").equals(alone[9].rounds)
    assert "seed" not in alone[5].ledger.columns and "seed" not in alone[5].rounds.columns


@pytest.mark.slow
def test_progress_bar_is_off_when_stderr_is_not_a_terminal(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--out", "o"]) == 0
    assert capsys.readouterr().err == ""


def test_version_prints_the_package_version() -> None:
    import subprocess
    import sys

    from baccarat import __version__

    done = subprocess.run([sys.executable, "-m", "baccarat", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"baccarat {__version__}\n", "")


def test_a_bare_baccarat_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("usage: baccarat")
    for command in ("run", "strategies", "roads", "shoes", "report", "odds"):
        assert re.search(rf"^\s+{command}\s", out, re.M), command


def test_json_prints_the_summary_as_one_object_and_nothing_else(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--out", "out", "--json", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)  # the whole of stdout is one JSON object
    assert err == ""
    assert doc["out_dir"] == "out" and doc["name"] == "small"
    csv = pl.read_csv(workdir / "out" / "summary.csv")
    assert [row["strategy"] for row in doc["summary"]] == csv.get_column("strategy").to_list() == ["flat banker", "martingale"]
    for row, line in zip(doc["summary"], csv.iter_rows(named=True), strict=True):
        assert set(row) == set(line)
        for key, value in line.items():
            assert row[key] == (pytest.approx(value) if isinstance(value, float) else value), key
    assert doc["rounds"] == pl.read_parquet(workdir / "out" / "rounds.parquet").height
    assert [row["baseline"] for row in doc["comparison"]] == ["flat banker"]


@pytest.mark.slow
def test_baseline_sets_the_strategy_compared_with(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--out", "out", "--baseline", "martingale", "--quiet", "--workers", "1"]) == 0
    comparison = pl.read_csv(workdir / "out" / "comparison.csv")
    assert comparison.get_column("strategy").to_list() == ["flat banker"]
    assert comparison.get_column("baseline").to_list() == ["martingale"]
    assert "<b>martingale</b>" in (workdir / "out" / "report.html").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "small.yaml", "--out", "out2", "--baseline", "martingal", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert err == (
        "baccarat: error: --baseline: no strategy is labelled 'martingal' (did you mean 'martingale'?); "
        "the strategies are flat banker, martingale\n"
    )
    assert not (workdir / "out2").exists()


def test_the_printed_table_names_its_columns_as_summary_csv_does(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--out", "out", "--quiet", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(line for line in out if line.startswith("strategy "))
    csv = pl.read_csv(workdir / "out" / "summary.csv")
    named = [word for word in re.split(r"\s{2,}", header) if re.fullmatch(r"[a-z_]+", word)]
    # Its counts and money by summary.csv's names (edge, expected, ruin and in profit are explained beneath it).
    assert named[:5] == ["strategy", "sessions", "rounds", "wagered", "net"] and set(named[:5]) <= set(csv.columns)
    assert "bets" not in header
    # Each strategy's line gives summary.csv's rounds (rounds with a bet: fewer than those dealt for a Martingale).
    for row in csv.iter_rows(named=True):
        line = next(line for line in out if line.startswith(row["strategy"] + "  "))
        assert re.split(r"\s{2,}", line)[1:3] == [f"{row['sessions']:,}", f"{row['rounds']:,}"]
    assert any(line.startswith("rounds: rounds with a bet; ") for line in out)


def test_the_printed_time_and_the_reports_run_time_are_one_measurement(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "small.yaml", "--out", "out", "--quiet", "--workers", "1"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    found = re.fullmatch(r"[\d,]+ rounds x 2 strategies played in (\d+\.\d) s \((\d+\.\d) s with the results written\) -> out", last)
    assert found, last
    played = json.loads((workdir / "out" / "manifest.json").read_text(encoding="utf-8"))["timings_seconds"]["run"]
    assert found.group(1) == f"{played:.1f}" and float(found.group(2)) >= float(found.group(1))
    page = (workdir / "out" / "report.html").read_text(encoding="utf-8")
    assert f"played in {played:.2f} s (the shoes dealt, the strategies played, the sessions folded" in page
    assert main(["run", "small.yaml", "--out", "out2", "--json", "--workers", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    played = json.loads((workdir / "out2" / "manifest.json").read_text(encoding="utf-8"))["timings_seconds"]["run"]
    assert doc["played_seconds"] == round(played, 3) and doc["seconds"] >= doc["played_seconds"]
