"""The search that guards against its own luck: the expected maximum, and the best of many candidates falling back."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
import yaml

from baccarat.cli import main
from baccarat.results.patterns.search_luck import best_of, expected_max_normal


@pytest.mark.parametrize(("n", "value"), [(1, 0.0), (2, 0.5641895835), (10, 1.5387527308), (1000, 3.2414)])
def test_expected_max_of_normal_draws(n: int, value: float) -> None:
    # E[max of 2] = 1/sqrt(pi); of 10 and 1,000 from the tables of normal order statistics.
    assert expected_max_normal(n) == pytest.approx(value, abs=2e-4)


def test_the_best_is_the_lowest_house_edge_and_deflation_subtracts_the_luck_of_n() -> None:
    rows = [
        {"strategy": "a", "edge": 0.02, "edge_ci_low": 0.0, "edge_ci_high": 0.04, "expected_edge": 0.012},
        {"strategy": "b", "edge": -0.01, "edge_ci_low": -0.03, "edge_ci_high": 0.01, "expected_edge": 0.012},
    ]
    [best] = best_of(rows, {"b": {"edge": 0.015, "edge_ci_low": 0.0, "edge_ci_high": 0.03, "expected_edge": 0.011}}, 1, 10)
    assert best.strategy == "b" and best.in_sample == pytest.approx(0.01)
    se = 0.02 / 1.959963984540054
    assert best.deflated == pytest.approx(0.01 - se * expected_max_normal(10))
    assert (best.out_of_sample, best.out_of_sample_low, best.out_of_sample_high) == pytest.approx((-0.015, -0.03, 0.0))
    assert best.expected == pytest.approx(-0.012) and best.out_of_sample_expected == pytest.approx(-0.011)


def search(tmp_path: Path, capsys: pytest.CaptureFixture[str], grid: dict, shoes: int) -> dict:
    experiment = {
        "name": "grid",
        "rules": "punto-banco-8",
        "shoes": {"source": "seeded", "seed": 21, "count": shoes},
        "session": {"bankroll": 100000, "shoes_per_session": 1, "table_min": 10, "table_max": 100000},
        "strategies": [{"name": "m", "use": "flat", "grid": grid}],
    }
    path = tmp_path / "grid.yaml"
    path.write_text(yaml.safe_dump(experiment), encoding="utf-8")
    assert main(["search", str(path), "--top", "5", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def regresses(data: dict) -> None:
    for side in ("best", "null_best"):
        best = data[side][0]
        # Luck lifted it in sample: above what the house edge of its bets gives.
        assert best["in_sample"] > best["expected"]
        # Out of sample the luck is gone: the exact expectation lies within the interval of its fresh edge.
        assert best["out_of_sample_low"] <= best["out_of_sample_expected"] <= best["out_of_sample_high"], best
        assert best["deflated"] < best["in_sample"]


@pytest.mark.slow
def test_a_small_search_regresses_out_of_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = search(tmp_path, capsys, {"side": ["banker", "player", "follow-last", "chop", "random"], "unit": [10, 20, 30, 40]}, 30)
    assert data["candidates"] == 20 and len(data["best"]) == 5 and len(data["null_best"]) == 5
    regresses(data)
    assert data["verdict"].startswith("The best of 20 candidates")


@pytest.mark.slow
def test_the_best_of_a_thousand_candidates_regresses_to_the_house_edge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 1,000 different strategies: flat bets following each repeating pattern of B and P of length 1 to 9.
    patterns = ["".join(p) for k in range(1, 10) for p in itertools.product("BP", repeat=k)][:1000]
    data = search(tmp_path, capsys, {"side": ["pattern"], "pattern": patterns}, 20)
    assert data["candidates"] == 1000
    assert data["expected_max"] == pytest.approx(3.2414, abs=2e-4)
    regresses(data)
