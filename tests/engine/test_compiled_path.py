"""The compiled compiled path of the built-in strategies against the reference engine: the same ledger, bit for bit."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.engine.compiled import DISABLE_ENV, play_compiled
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Progression, Strategy
from baccarat.plugin.manager import registry
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset

PROGRESSIONS = ("flat", "martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind")
SIDES = (
    {"side": "banker"},
    {"side": "player"},
    {"side": "tie"},
    {"side": "player_pair"},
    {"side": "banker_pair"},
    {"side": "follow-last"},
    {"side": "chop"},
    {"side": "streak", "length": 2},
    {"side": "streak"},
    {"side": "pattern", "pattern": "BBP"},
    {"side": "pattern", "pattern": "p"},
    {"side": "random"},
)
CONFIGS = (
    SessionConfig(100_000, 1_000, 100_000, 1),  # plenty of bankroll
    SessionConfig(20_000, 1_000, 8_000, 2),  # table-maximum restarts, ruin, two shoes a session
    SessionConfig(4_000, 500, 3_000, 3),
)  # bankroll caps


def both_paths(use: str, params: dict, rules_name: str, seed: int, config: SessionConfig, shoes: int = 12):
    rules = preset(rules_name)
    table = seeded_table_compiled(rules, seed, 1, shoes)
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, config.shoes_per_session)
    cls, full = registry().configure(use, params)
    run = StrategyRun(f"{use} {params}", cls, full)
    fast = play_compiled(run, table, multipliers, rules, config, seed, sessions)
    reference = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    return fast, reference


def assert_same(fast, reference) -> None:
    assert fast is not None, "the compiled path should cover this strategy"
    assert set(fast) == set(reference)
    for name, column in reference.items():
        assert np.array_equal(fast[name], column), name


@pytest.mark.slow
@pytest.mark.parametrize("use", PROGRESSIONS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_progression_on_every_selector_matches_the_reference(use: str, seed: int) -> None:
    for config in CONFIGS:
        for side in SIDES:
            fast, reference = both_paths(use, {**side, "unit": 10}, "punto-banco-8-pairs", seed, config)
            assert_same(fast, reference)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["ez-baccarat-8", "super-6-8", "single-deck", "punto-banco-6"])
def test_variants_settle_alike_on_both_paths(rules_name: str) -> None:
    sides = [{"side": "banker"}, {"side": "player"}, {"side": "follow-last"}, {"side": "tie"}]
    if rules_name == "ez-baccarat-8":
        sides += [{"side": "dragon7"}, {"side": "panda8"}]
    shoes = 400 if rules_name == "single-deck" else 12
    for use in ("martingale", "labouchere", "oscars-grind", "paroli"):
        for side in sides:
            for seed in (4, 5):
                fast, reference = both_paths(use, {**side, "unit": 10}, rules_name, seed, CONFIGS[1], shoes)
                assert_same(fast, reference)


@pytest.mark.slow
def test_stop_rules_and_parameters_match_the_reference() -> None:
    cases = [
        ("martingale", {"side": "banker", "unit": 10, "stop_loss": 100}),
        ("martingale", {"side": "banker", "unit": 10, "stop_win": 30}),
        ("paroli", {"side": "follow-last", "unit": 10, "wins": 2, "max_rounds": 25}),
        ("dalembert", {"side": "chop", "unit": "12.50", "stop_loss": 50, "stop_win": 50, "max_rounds": 70}),
        ("labouchere", {"side": "banker", "unit": 10, "line": [1, 1, 2, 1.5]}),
        ("oscars-grind", {"side": "player", "unit": "10.05"}),
        ("fibonacci", {"side": "random", "unit": 20, "stop_loss": 300}),
    ]
    for use, params in cases:
        for seed in (6, 7, 8):
            for config in CONFIGS:
                fast, reference = both_paths(use, params, "punto-banco-8", seed, config)
                assert_same(fast, reference)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    use=st.sampled_from(PROGRESSIONS),
    side=st.sampled_from(SIDES),
    seed=st.integers(0, 2**64),
    unit=st.sampled_from([10, 15, "10.50", 25]),
    bankroll=st.integers(20, 3000),
    table_max=st.integers(25, 2000),
    per_session=st.integers(1, 3),
    stop_loss=st.one_of(st.none(), st.integers(1, 500)),
    stop_win=st.one_of(st.none(), st.integers(1, 500)),
    max_rounds=st.one_of(st.none(), st.integers(1, 150)),
)
def test_random_experiments_match_the_reference(
    use, side, seed, unit, bankroll, table_max, per_session, stop_loss, stop_win, max_rounds
) -> None:
    params = {**side, "unit": unit, "stop_loss": stop_loss, "stop_win": stop_win, "max_rounds": max_rounds}
    config = SessionConfig(bankroll * 100, 1_000, table_max * 100, per_session)
    fast, reference = both_paths(use, params, "punto-banco-8-pairs", seed, config, shoes=6)
    assert_same(fast, reference)


class HalfMartingale(Progression):
    name = "half-martingale"

    def lost(self, net: Decimal) -> None:
        self.stake = (self.stake * 3 / 2).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)  # whole cents


class FreeForm(Strategy):
    name = "free-form"

    def bets(self, view):
        return {"banker": 10}


def test_what_the_fast_path_does_not_cover_is_left_to_the_reference() -> None:
    from baccarat.plugin.compose import compose
    from baccarat_strategies import progressions, selectors

    rules = preset("punto-banco-8")
    table = seeded_table_compiled(rules, 1, 1, 3)
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, 1)
    config = CONFIGS[0]

    class Doubling(progressions.Martingale):  # a plugin's subclass of a built-in piece
        name = "doubling"

    for cls in (compose(HalfMartingale, selectors.BUILT_IN), compose(Doubling, selectors.BUILT_IN), FreeForm):
        run = StrategyRun("x", cls, {**cls.params, "side": "banker", "unit": 10} if cls is not FreeForm else {})
        assert play_compiled(run, table, multipliers, rules, config, 1, sessions) is None
    cls, params = registry().configure("flat", {"side": "banker", "unit": 5})  # below the table minimum: an error there
    assert play_compiled(StrategyRun("x", cls, params), table, multipliers, rules, config, 1, sessions) is None


def test_the_fast_path_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, _ = both_paths("flat", {"side": "banker", "unit": 10}, "punto-banco-8", 1, CONFIGS[0], shoes=2)
    assert fast is not None
    monkeypatch.setenv(DISABLE_ENV, "1")
    fast, _ = both_paths("flat", {"side": "banker", "unit": 10}, "punto-banco-8", 1, CONFIGS[0], shoes=2)
    assert fast is None


def test_the_built_ins_reach_their_kernels_only_through_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from baccarat.plugin.manager import clear_registry
    from baccarat_strategies import piece_twins

    framework = Path(__file__).resolve().parents[2] / "framework"
    assert not [p for p in framework.rglob("*.py") if "baccarat_strategies" in p.read_text(encoding="utf-8")]
    fast, _ = both_paths("martingale", {"side": "banker", "unit": 10}, "punto-banco-8", 1, CONFIGS[0], shoes=2)
    assert fast is not None
    monkeypatch.setattr(piece_twins, "TWINS", {})  # the built-in plugin registers no twin: nothing plays compiled
    clear_registry()
    try:
        fast, reference = both_paths("martingale", {"side": "banker", "unit": 10}, "punto-banco-8", 1, CONFIGS[0], shoes=2)
        assert fast is None and len(reference["stake"]) > 100
    finally:
        monkeypatch.undo()
        clear_registry()
