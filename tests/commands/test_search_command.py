"""``baccarat search``: the text it prints, and bad input in one sentence."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from baccarat.cli import main

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.mark.slow
def test_text_names_the_method_and_both_searches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(CONFIGS / "parameter-grid.yaml"), "--set", "shoes.count=10", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "7 candidates on the training shoes (seed 3), the best 2 on fresh shoes (seed 4)" in out
    assert "expected maximum of N standard normal draws (1.35 standard errors for N = 7)" in out
    assert "flat bets on a seeded coin" in out and out.rstrip().endswith(".")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty seeded shoes written in each recorded format, and an experiment replaying the cards file."""
    folder = tmp_path_factory.mktemp("recorded")
    for fmt in ("cards", "outcomes", "rounds"):
        argv = ["shoes", "generate", "--rules", "punto-banco-8", "--count", "40", "--seed", "11", "--format", fmt, "--quiet"]
        assert main([*argv, "--out", str(folder / f"s40.{fmt}")]) == 0
    (folder / "exp.yaml").write_text(
        "shoes: {source: recorded, path: s40.cards, format: cards}\n"
        "strategies:\n  - name: flat\n    use: flat\n    grid: {side: [banker, player], unit: [10, 20]}\n"
    )
    return folder


@pytest.mark.parametrize("fmt", ["cards", "outcomes", "rounds"])
def test_a_recorded_file_is_cut_into_its_first_shoes_and_its_last_exactly(recorded: Path, fmt: str, tmp_path: Path) -> None:
    from baccarat.plugin import load_rules
    from baccarat.shoes.recorded import read_shoes
    from baccarat.shoes.recorded.split import split_shoes

    rules = load_rules("punto-banco-8")
    split = split_shoes(recorded / f"s40.{fmt}", fmt, rules, 0.3, tmp_path)
    assert (split.training_shoes, split.held_out_shoes) == (28, 12)
    whole = read_shoes(recorded / f"s40.{fmt}", fmt, rules).table
    parts = [read_shoes(path, fmt, rules).table for path in (split.training, split.held_out)]
    assert [read_shoes(path, fmt, rules).shoes for path in (split.training, split.held_out)] == [28, 12]
    for column in ("outcome", "player_cards", "banker_cards") if whole.has_cards else ("outcome",):
        assert (np.concatenate([getattr(part, column) for part in parts]) == getattr(whole, column)).all()


def test_a_search_on_a_recorded_file_replays_its_best_on_the_held_out_shoes(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fresh edge of the best candidates is their edge over the file's last 10 shoes, summed from a whole run's sessions."""
    import json

    import baccarat

    assert main(["search", str(recorded / "exp.yaml"), "--top", "2", "--hold-out", "0.25", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["training"], data["fresh"]) == ("the first 30 shoes of s40.cards", "its last 10 shoes, held out")
    assert data["training_seed"] is None and len(data["best"]) == 2
    sessions = baccarat.run(recorded / "exp.yaml").sessions
    for best in data["best"]:
        mine = sessions.filter(pl.col("strategy") == best["strategy"]).sort("session")
        first, last = mine.head(30), mine.tail(10)
        assert best["in_sample"] == pytest.approx(float(first["net"].sum()) / float(first["wagered"].sum()), abs=1e-12)
        assert best["out_of_sample"] == pytest.approx(float(last["net"].sum()) / float(last["wagered"].sum()), abs=1e-12)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--hold-out", "0.3"], "--hold-out is for recorded shoes"),
        (["--hold-out", "1.5"], "must be a share between 0 and 1"),
    ],
)
def test_hold_out_is_for_recorded_shoes_and_a_share(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) if "1.5" in argv else nullcontext():
        assert main(["search", str(CONFIGS / "parameter-grid.yaml"), *argv]) == 2
    assert said in capsys.readouterr().err


def test_a_recorded_search_refuses_a_fresh_seed_and_a_file_too_short(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(recorded / "exp.yaml"), "--fresh-seed", "5"]) == 2
    assert "--fresh-seed is for seeded shoes" in capsys.readouterr().err
    assert main(["search", str(CONFIGS / "recorded-replay.yaml")]) == 2
    err = capsys.readouterr().err
    assert "no candidate has an interval of its edge on the first shoe of sample-rounds.csv" in err and err.count("\n") == 1


def test_fresh_shoes_need_another_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(CONFIGS / "parameter-grid.yaml"), "--fresh-seed", "3"]) == 2
    assert "--fresh-seed 3 is the training seed" in capsys.readouterr().err


@pytest.mark.slow
def test_the_chart_draws_every_kept_candidate_of_both_searches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    chart = tmp_path / "search.json"
    argv = ["search", str(CONFIGS / "parameter-grid.yaml"), "--set", "shoes.count=10", "--top", "2", "--chart", str(chart), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    spec = json.loads(chart.read_text())
    points = [row for values in spec["datasets"].values() for row in values if "strategy" in row]
    kept = {r["strategy"] for r in data["best"] + data["null_best"]}
    assert {p["strategy"] for p in points} == kept and len(kept) == 4
    assert {p["search"] for p in points} == {"candidates", "coins (house edge)"}
