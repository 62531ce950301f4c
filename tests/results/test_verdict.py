"""The comparison verdict: it reads the expected edge of the bets placed, never the luck of the sample.

Calibration: over many seeds, strategies whose expected edge equals the
baseline's are never called better or worse, and the realised-edge test the
verdict falls back on (Holm over the table) rejects a true null in no more
tables than its nominal family-wise rate allows. Power: a card counter that
bets only when the exact odds favour it is found better than the flat bet.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import baccarat
from baccarat.errors import InputError
from baccarat.results.comparisons.runs import check_run_count
from baccarat.results.comparisons.verdict import FAMILY_RATE, explanation, holm, with_verdicts
from baccarat.results.ledger import expected_net

SEEDS = 40
SHOES = 150
"""One-shoe sessions per table of the calibration. With 40, 6 of the 40 tables flagged a true null: the normal
intervals of so few sessions are too narrow in their tails (docs/results.md: a few dozen sessions or more)."""


def experiment(seed: int, shoes: int, strategies: list[dict], rules: str = "punto-banco-8", per_session: int = 1) -> dict:
    return {
        "name": f"verdict-{seed}",
        "rules": rules,
        "shoes": {"source": "seeded", "seed": seed, "count": shoes},
        "session": {"bankroll": 1000, "shoes_per_session": per_session, "table_min": 5, "table_max": 1000},
        "strategies": strategies,
    }


FLAT_BANKER = {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}}
FAMILY = [
    FLAT_BANKER,
    {"name": "flat banker 20 rounds", "use": "flat", "params": {"side": "banker", "unit": 5, "max_rounds": 20}},
    {"name": "martingale banker", "use": "martingale", "params": {"side": "banker", "unit": 10}},
    {"name": "paroli banker", "use": "paroli", "params": {"side": "banker", "unit": 10}},
    {"name": "follow-last", "use": "flat", "params": {"side": "follow-last", "unit": 10}},
    {"name": "chop", "use": "flat", "params": {"side": "chop", "unit": 10}},
]
SAME_EDGE = {"flat banker 20 rounds", "martingale banker", "paroli banker"}


def binomial_upper(n: int, p: float, tail: float = 0.001) -> int:
    """The smallest count k with P(X > k) < tail for X ~ Binomial(n, p): the most tables a rate-p test may flag."""
    below = 0.0
    for k in range(n + 1):
        below += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if 1 - below < tail:
            return k
    return n


def test_holm_step_down() -> None:
    # m = 3: sorted 0.01*3 = 0.03, 0.03*2 = 0.06, max(0.06, 0.04*1) = 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([None, 0.2]) == [None, 0.2]


@pytest.mark.slow
def test_calibration_over_seeds() -> None:
    """Same edge -> never better/worse; the realised-edge test flags true nulls within its family-wise rate."""
    wrong, flagged = 0, 0
    for seed in range(1, SEEDS + 1):
        table = baccarat.run(experiment(seed, SHOES, FAMILY)).comparison
        for row in table.iter_rows(named=True):
            truth = "same edge" if row["strategy"] in SAME_EDGE else ("better" if row["expected_edge_diff"] < 0 else "worse")
            wrong += row["verdict"] != truth
        # The fallback (expected edges withheld, as for a strategy whose bets' EV is not known), on a true null:
        # the realised edge difference minus its exact expected value, for every strategy of the table.
        shift = pl.col("expected_edge_diff")
        null = table.with_columns(
            (pl.col("edge_diff") - shift).alias("edge_diff"),
            (pl.col("edge_diff_ci_low") - shift).alias("edge_diff_ci_low"),
            (pl.col("edge_diff_ci_high") - shift).alias("edge_diff_ci_high"),
            pl.lit(None, dtype=pl.Float64).alias("expected_edge_diff"),
        ).drop("edge_diff_p_value", "edge_diff_p_holm", "verdict")
        flagged += with_verdicts(null).get_column("verdict").is_in(["better", "worse"]).any()
    assert wrong == 0
    assert flagged <= binomial_upper(SEEDS, FAMILY_RATE), f"{flagged} of {SEEDS} tables flagged a true null"


@pytest.mark.slow
def test_ev_counter_is_better_than_the_flat_pair() -> None:
    """ev-counter on the pairs (as configs/ev-counter.yaml, fewer shoes) against flat Player Pair."""
    strategies = [
        {"name": "flat player pair", "use": "flat", "params": {"side": "player_pair", "unit": 10}},
        {"name": "ev counter", "use": "ev-counter", "params": {"bets": ["player_pair", "banker_pair"], "threshold": 0, "unit": 10}},
    ]
    result = baccarat.run(experiment(2024, 1500, strategies, rules="punto-banco-8-pairs"))
    summary = {row["strategy"]: row for row in result.summary.iter_rows(named=True)}
    # The counter's expected edge is that of the odds it saw, not the pair's off the top (about 10.36%).
    assert summary["flat player pair"]["expected_edge"] == pytest.approx(0.1036, abs=5e-4)
    assert summary["ev counter"]["expected_edge"] < 0
    (row,) = result.comparison.iter_rows(named=True)
    assert row["verdict"] == "better"
    assert row["edge_diff_ci_high"] < 0


def test_same_edge_less_volume_is_not_better(tmp_path: Path) -> None:
    """Flat Banker for 10 rounds a session against flat Banker on 3,000 shoes: the same edge, less lost by volume."""
    strategies = [FLAT_BANKER, {"name": "ten rounds", "use": "flat", "params": {"side": "banker", "unit": 10, "max_rounds": 10}}]
    (row,) = baccarat.run(experiment(11, 3000, strategies)).comparison.iter_rows(named=True)
    assert row["verdict"] == "same edge"
    assert row["wagered_diff_mean"] < 0 and row["expected_net_diff_mean"] > 0
    assert row["net_diff_mean"] == pytest.approx(row["expected_net_diff_mean"] + row["luck_diff_mean"])
    said = explanation(row)
    assert "expected to lose" in said and "less per session" in said and "(volume)" in said


def test_unknown_expected_value_is_nan() -> None:
    """A bet placed after reading the cards without asking the view for its EV has no known expected value."""
    columns = {"stake": np.array([10, 10]), "stake_banker": np.array([1000, 1000])}
    priced = np.array([[0, 0, 1000, -0.5], [1, 0, 1000, math.nan]])
    values = expected_net({**columns, "priced": priced, "priced_bets": np.array(["banker"])}, ("banker",), {"banker": -0.01})
    assert values[0] == pytest.approx(-5.0) and math.isnan(values[1])


def test_compare_refuses_the_same_folder(tmp_path: Path) -> None:
    (tmp_path / "r").mkdir()
    for pair in (["r", "r"], ["r", "./r"], ["r", "r/"]):
        with pytest.raises(InputError, match="same run folder"):
            check_run_count([str(tmp_path / name) for name in pair])


def test_a_loaded_run_reads_its_own_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = experiment(3, 4, [FLAT_BANKER])
    played = baccarat.run(first, out=out)
    loaded = baccarat.load(out)
    second = experiment(4, 4, [FLAT_BANKER])
    baccarat.run(second, out=out, force=True)
    with pytest.raises(InputError, match="holds another run since it was loaded"):
        _ = loaded.summary
    with pytest.raises(InputError, match="holds another run since it was loaded"):
        _ = played.ledger
    assert baccarat.load(out).summary.height == 1


@pytest.mark.slow
def test_compare_command_says_same_edge(tmp_path: Path) -> None:
    """The README's compare example: quickstart, then Martingale's unit 5: no better/worse, the volume said."""
    quickstart = Path(__file__).parents[2] / "configs" / "quickstart.yaml"
    command = [sys.executable, "-m", "baccarat"]
    for out, extra in (("a", []), ("b", ["--set", "strategies.1.params.unit=5"])):
        subprocess.run([*command, "run", str(quickstart), "--out", str(tmp_path / out), "--quiet", *extra], check=True)
    shown = subprocess.run([*command, "compare", str(tmp_path / "a"), str(tmp_path / "b")], capture_output=True, text=True, check=True)
    table = shown.stdout.split("paired 95% intervals:")[1]
    assert "better" not in table and "worse" not in table
    assert table.count("same edge") >= 3 and "(volume)" in table


@pytest.mark.slow
def test_counter_expected_matches_the_recount_from_the_cards(tmp_path: Path) -> None:
    """The summary's expected edge of ev-counter equals docs/ev_counter_expected.py's recount from the cards seen."""
    strategies = [{"name": "ev counter", "use": "ev-counter", "params": {"bets": ["player_pair", "banker_pair"], "unit": 10}}]
    result = baccarat.run(experiment(2024, 200, strategies, rules="punto-banco-8-pairs"), out=tmp_path / "run")
    script = Path(__file__).parents[2] / "docs" / "ev_counter_expected.py"
    shown = subprocess.run([sys.executable, str(script), str(tmp_path / "run"), "ev counter"], capture_output=True, text=True, check=True)
    recounted = float(shown.stdout.split("exact expected edge ")[1].split("%")[0]) / 100
    assert result.summary.get_column("expected_edge")[0] == pytest.approx(recounted, abs=5e-6)


PEEKER = '''
from baccarat import hookimpl
from baccarat.plugin import Strategy


class Peeker(Strategy):
    """Bets Banker when an even number of cards has been dealt from the shoe: it reads the cards, never asks the odds."""

    name = "peeker"

    def bets(self, view):
        return {"banker": 10} if len(view.shoe_cards()) % 2 == 0 else None


@hookimpl
def register_strategies(register):
    register(Peeker)
'''


@pytest.mark.slow
def test_a_strategy_that_reads_the_cards_without_the_odds_has_no_known_expected_edge(tmp_path: Path) -> None:
    """Its expected edge is not known: shown empty, and the verdict is the realised-edge test with Holm's correction."""
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "peeker.py").write_text(PEEKER)
    exp = experiment(9, 60, [FLAT_BANKER, {"name": "peeker", "use": "peeker"}])
    exp["plugins_dir"] = str(tmp_path / "plugins")
    result = baccarat.run(exp)
    summary = {row["strategy"]: row for row in result.summary.iter_rows(named=True)}
    assert summary["peeker"]["expected_edge"] is None and summary["flat banker"]["expected_edge"] is not None
    (row,) = result.comparison.iter_rows(named=True)
    assert row["expected_edge_diff"] is None and row["luck_diff_mean"] is None
    beyond = row["edge_diff_p_holm"] < FAMILY_RATE
    assert row["verdict"] == (("better" if row["edge_diff"] < 0 else "worse") if beyond else "no clear difference")
    assert "expected edge not known" in explanation(row)
