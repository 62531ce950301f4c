"""Properties that hold for any shoes, any strategy, any bankroll and table limits (hypothesis).

- money is conserved: in every session the nets add up to the final bankroll
  less the initial one, round by round;
- the bankroll is never negative, a stake never exceeds the bankroll before
  its round, and a session stops betting once ruined;
- every stake placed lies within the table limits;
- every bet's net is its stake times its settlement, exactly;
- any number of worker processes gives the same rounds and ledger;
- shoes written by the generator replay as the very rounds they were dealt.

Example counts are kept small so that the suite stays fast; each example
draws rules, seeds, limits and strategies at random.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.execution import chunks as chunking
from baccarat.execution.chunk_play import play_strategy
from baccarat.experiment import load_experiment
from baccarat.money import MICROS_PER_CENT
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.plugin.manager import registry
from baccarat.shoes.recorded import FORMATS, read_shoes
from baccarat.shoes.recorded.write import write_shoes
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.shoes.seeded import seeded_rounds, seeded_table
from baccarat.table.rules import preset, preset_names

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
REGISTRY = registry()
PROGRESSIONS = sorted(REGISTRY.entries["progression"])
SELECTORS = sorted(REGISTRY.entries["selector"])
FREE_FORM = sorted(REGISTRY.entries["strategy"])


# Drawing experiments ------------------------------------------------------------------------


@st.composite
def money(draw: st.DrawFn) -> SessionConfig:
    """Random session money in cents: table minimum, maximum and bankroll, the bankroll at least the minimum."""
    table_min = draw(st.sampled_from([0, 1, 100, 500, 1000, 2500]))
    table_max = draw(st.integers(max(table_min, 1), 200_000))
    bankroll = draw(st.integers(max(table_min, 1), 500_000))
    return SessionConfig(bankroll, table_min, table_max, draw(st.integers(1, 3)))


@st.composite
def composed(draw: st.DrawFn, config: SessionConfig, offered: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """A registered progression on a registered selector (or a fixed side the rules offer), with random stop rules."""
    use = draw(st.sampled_from(PROGRESSIONS))
    fixed = [s for s in SELECTORS if s in offered]
    patterned = [s for s in SELECTORS if s not in ("banker", "player", "tie", "player_pair", "banker_pair", "dragon7", "panda8")]
    side = draw(st.sampled_from(fixed + patterned))
    low, high = max(config.table_min_cents, 1), config.table_max_cents
    unit_cents = draw(st.integers(low, max(low, min(high, 5_000))))
    params: dict[str, Any] = {"side": side, "unit": unit_cents / 100 if unit_cents % 100 else unit_cents // 100}
    for rule, values in (("stop_loss", st.integers(1, 2000)), ("stop_win", st.integers(1, 2000)), ("max_rounds", st.integers(1, 120))):
        if draw(st.booleans()):
            params[rule] = draw(values)
    return use, params


class RandomBets(Strategy):
    """A free-form strategy placing random bets on several sides, some far above the limits or the bankroll."""

    name = "random-bets"
    params: dict[str, Any] = {"choices": ()}

    def __init__(self, session: Any, choices: tuple = ()) -> None:
        super().__init__(session)
        self.choices = choices
        self.rng = session.rng

    def bets(self, view: Any) -> dict[str, int] | None:
        pick = self.choices[int(self.rng.integers(len(self.choices)))]
        return dict(pick) or None


@st.composite
def random_bets(draw: st.DrawFn, config: SessionConfig, offered: tuple[str, ...]) -> tuple[type[Strategy], dict[str, Any]]:
    """A :class:`RandomBets` with a few random bet mappings of valid amounts (0 or at least the table minimum)."""
    minimum = config.table_min_cents // 100 + (1 if config.table_min_cents % 100 else 0)
    amount = st.one_of(st.just(0), st.integers(max(minimum, 1), max(minimum, 1) * 50), st.integers(10**4, 10**9))
    pick = st.dictionaries(st.sampled_from(offered), amount, min_size=1, max_size=3).map(lambda d: tuple(sorted(d.items())))
    return RandomBets, {"choices": tuple(draw(st.lists(pick, min_size=1, max_size=5)))}


@st.composite
def table_and_rules(draw: st.DrawFn) -> tuple[RoundTable, Any]:
    """Seeded shoes under a random preset, or random outcome-only shoes."""
    rules = preset(draw(st.sampled_from(preset_names())))
    if draw(st.booleans()):
        count = draw(st.integers(1, 40 if rules.reshuffle_every_round else 3))
        return seeded_table(rules, draw(st.integers(0, 2**63 - 1)), 1, count), rules
    codes = st.lists(st.sampled_from(sorted(OUTCOME_CODE.values())), min_size=1, max_size=90)
    shoes = draw(st.lists(codes, min_size=1, max_size=4))
    return RoundTable.from_outcomes([(k, shoe) for k, shoe in enumerate(shoes, start=1)]), rules


# Checking a ledger -------------------------------------------------------------------------


def check_ledger(
    columns: dict[str, np.ndarray],
    multipliers: dict[str, np.ndarray],
    table: RoundTable,
    sessions: list[tuple[int, int, int]],
    config: SessionConfig,
) -> None:
    initial = config.bankroll_cents * MICROS_PER_CENT
    minimum = config.table_min_cents * MICROS_PER_CENT
    rows = np.concatenate([np.arange(start, stop) for _, start, stop in sessions])
    stake, net, bankroll = columns["stake"], columns["net"], columns["bankroll"]
    assert len(stake) == len(rows)
    bets = [name[len("stake_") :] for name in columns if name.startswith("stake_")]
    assert set(bets) == set(multipliers)
    assert np.array_equal(stake, sum(columns[f"stake_{b}"] for b in bets))
    assert np.array_equal(net, sum(columns[f"net_{b}"] for b in bets))
    for bet in bets:
        placed = columns[f"stake_{bet}"]
        assert ((placed == 0) | ((placed >= config.table_min_cents) & (placed <= config.table_max_cents))).all(), bet
        assert np.array_equal(columns[f"net_{bet}"], placed * multipliers[bet][rows]), bet  # exact settlement
    first = 0
    for _, start, stop in sessions:
        last = first + stop - start
        s_net, s_bank, s_stake = net[first:last], bankroll[first:last], stake[first:last]
        assert np.array_equal(s_bank, initial + np.cumsum(s_net))  # money conserved round by round
        assert int(s_net.sum()) == int(s_bank[-1]) - initial  # ... and over the session
        before = np.concatenate([[initial], s_bank[:-1]])
        assert (s_bank >= 0).all()
        assert (s_stake * MICROS_PER_CENT <= before).all()  # never more than the bankroll
        assert (s_net >= -s_stake * MICROS_PER_CENT).all()  # never lose more than the stake
        ruined = np.flatnonzero(before < minimum)
        if len(ruined):
            assert (s_stake[ruined[0] :] == 0).all()  # ruin stops the session's betting
        first = last
    assert first == len(rows)


def play_both(run: StrategyRun, table: RoundTable, rules: Any, config: SessionConfig, seed: int) -> None:
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, config.shoes_per_session)
    reference = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    check_ledger(reference, multipliers, table, sessions, config)
    event("bets placed" if reference["stake"].any() else "no bet")
    event("some bets cut" if reference["capped"].any() else "no bet cut")
    product = play_strategy(run, table, multipliers, rules, config, seed, sessions)  # the compiled path where it applies
    for name, column in reference.items():
        assert np.array_equal(product[name], column), name


@FEW
@given(data=st.data(), seed=st.integers(0, 2**63 - 1))
def test_any_registered_strategy_conserves_money_and_keeps_to_the_limits(data: st.DataObject, seed: int) -> None:
    table, rules = data.draw(table_and_rules())
    config = data.draw(money())
    offered = tuple(settlement_table(table, rules))
    use, params = data.draw(composed(config, offered))
    try:
        cls, full = REGISTRY.configure(use, params)
        if not cls.sides(full) <= set(offered):
            return  # refused before any run (a bet these shoes cannot settle)
    except Exception:
        pytest.fail(f"valid parameters refused: {use} {params}")
    play_both(StrategyRun("drawn", cls, full), table, rules, config, seed)


@FEW
@given(data=st.data(), seed=st.integers(0, 2**63 - 1))
def test_free_form_strategies_conserve_money_and_keep_to_the_limits(data: st.DataObject, seed: int) -> None:
    table, rules = data.draw(table_and_rules())
    config = data.draw(money())
    offered = tuple(settlement_table(table, rules))
    unit = -(-max(config.table_min_cents, 1) // 100)  # the smallest whole unit the table takes
    if FREE_FORM and table.has_cards and unit * 100 <= config.table_max_cents and data.draw(st.booleans()):
        use = data.draw(st.sampled_from(FREE_FORM))
        cls, full = REGISTRY.configure(use, {"unit": unit} if "unit" in REGISTRY.entries["strategy"][use].params else {})
        if not cls.sides(full) <= set(offered):
            return
    else:
        cls, full = data.draw(random_bets(config, offered))
    play_both(StrategyRun("drawn", cls, full), table, rules, config, seed)


# Worker counts -------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    count=st.integers(2, 30),
    per_session=st.integers(1, 4),
    strategies=st.lists(
        st.tuples(st.sampled_from(PROGRESSIONS), st.sampled_from(["banker", "player", "follow-last", "random"])),
        min_size=1,
        max_size=3,
        unique=True,
    ),
)
def test_any_number_of_workers_gives_the_same_rounds_and_ledger(
    seed: int, count: int, per_session: int, strategies: list[tuple[str, str]]
) -> None:
    from baccarat.execution.runner import run_experiment

    exp = load_experiment(
        {
            "shoes": {"seed": seed, "count": count},
            "session": {"bankroll": 400, "table_min": 5, "table_max": 300, "shoes_per_session": per_session},
            "strategies": [{"name": f"{use} {side}", "use": use, "params": {"side": side, "unit": 5}} for use, side in strategies],
        }
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 150)  # many chunks, spread over the workers
        one = run_experiment(exp, workers=1)
        two = run_experiment(exp, workers=2)
    assert_frame_equal(one.rounds, two.rounds)
    assert_frame_equal(one.ledger, two.ledger)


# Generate, then replay -----------------------------------------------------------------------


@FEW
@given(rules_name=st.sampled_from(preset_names()), seed=st.integers(0, 2**63 - 1), count=st.integers(1, 3), fmt=st.sampled_from(FORMATS))
def test_generated_shoes_replay_as_dealt(rules_name: str, seed: int, count: int, fmt: str) -> None:
    rules = preset(rules_name)
    count = count * 10 if rules.reshuffle_every_round else count
    dealt = seeded_table(rules, seed, 1, count)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"shoes.{fmt}"
        shoes, rounds = write_shoes(path, fmt, seeded_rounds(rules, seed, 1, count), "generated")
        replayed = read_shoes(path, fmt, rules)
    assert (shoes, rounds) == (replayed.shoes, len(dealt))
    assert replayed.warnings == []
    expected, got = dealt.to_frame(), replayed.table.to_frame()
    if fmt == "outcomes":  # the winners only: the card columns stay empty
        columns = ["shoe", "hand", "outcome"]
        expected, got = expected.select(columns), got.select(columns)
    if rules.reshuffle_every_round and fmt == "cards":  # one deck a round: a line per round, each a shoe of one round
        assert len(got) == len(expected)
        expected, got = expected.drop("shoe", "hand"), got.drop("shoe", "hand")
    assert_frame_equal(got, expected)
