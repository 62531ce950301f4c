"""``baccarat search``: the text it prints, and bad input in one sentence."""

from __future__ import annotations

from pathlib import Path

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


def test_recorded_shoes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", str(CONFIGS / "recorded-replay.yaml")]) == 2
    assert "baccarat search plays its candidates on seeded shoes" in capsys.readouterr().err


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
