"""Sessions measured in rounds (``session.rounds``, ``new_shoe``) and the dealer's session rules (win goal, stop-loss).

Worked by hand on scripted rounds, and the same ledger, bit for bit, on both engines.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.scripted import scripted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.engine.compiled import play_compiled
from baccarat.engine.reference import SESSION_RULES, SessionConfig, StrategyRun, end_names, run_strategy
from baccarat.engine.sessions import played_rows, round_windows, sessions_of
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset


def windows(lengths, rounds, new_shoe, offset=0, limit=None) -> list[tuple[int, int]]:
    return [tuple(w) for w in round_windows(np.array(lengths), rounds, new_shoe, offset, limit).tolist()]


def test_sessions_continue_in_the_same_shoe_and_across_shoes() -> None:
    # Shoes of 5, 3 and 4 rounds (rows 0-4, 5-7, 8-11): sessions of 4 rounds are rows 0-3, 4-7, 8-11.
    assert windows([5, 3, 4], 4, False) == [(0, 4), (4, 8), (8, 12)]
    # Sessions of 5: two whole ones; the last two rounds are no session's.
    assert windows([5, 3, 4], 5, False) == [(0, 5), (5, 10)]
    # From round 2 of the first shoe, at most one session.
    assert windows([5, 3, 4], 4, False, offset=2, limit=1) == [(2, 6)]


def test_new_shoe_sessions_start_on_the_next_shoe() -> None:
    # Sessions of 2: one per shoe, the rest of each shoe unplayed.
    assert windows([5, 3, 4], 2, True) == [(0, 2), (5, 7), (8, 10)]
    # Sessions of 4: the 3-round shoe cannot hold one, so the session from row 5 runs into the third shoe
    # (rows 5-8); the third shoe is then taken, and nothing follows.
    assert windows([5, 3, 4], 4, True) == [(0, 4), (5, 9)]
    assert windows([5, 3, 4], 6, True) == [(0, 6)]
    assert windows([2, 2], 3, True) == [(0, 3)]
    assert windows([2], 3, True) == []


def test_played_rows_keep_only_the_sessions_rounds() -> None:
    table = scripted("BPBPBBPPTBPB", [5, 3, 4])
    config = SessionConfig(100_000, 1_000, 10_000, rounds=2, new_shoe=True)
    sessions = sessions_of(table, config)
    assert sessions == [(1, 0, 2), (2, 5, 7), (3, 8, 10)]
    part, inside = played_rows(table, sessions)
    assert inside == [(1, 0, 2), (2, 2, 4), (3, 4, 6)]
    assert part.shoe.tolist() == [1, 1, 2, 2, 3, 3]
    assert part.hand.tolist() == [1, 2, 1, 2, 1, 2]


def play_both(use: str, params: dict, config: SessionConfig, seed: int = 5, shoes: int = 10, rules_name: str = "punto-banco-8"):
    rules = preset(rules_name)
    table, sessions = played_rows(*_table_and_sessions(rules, seed, shoes, config))
    multipliers = settlement_table(table, rules)
    cls, full = registry().configure(use, params)
    run = StrategyRun(f"{use} {params}", cls, full)
    fast = play_compiled(run, table, multipliers, rules, config, seed, sessions)
    reference = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    return fast, reference, run


def _table_and_sessions(rules, seed, shoes, config):
    table = seeded_table_compiled(rules, seed, 1, shoes)
    return table, sessions_of(table, config)


def assert_same(fast, reference) -> None:
    assert fast is not None, "the compiled path should cover this strategy"
    assert set(fast) == set(reference)
    for name, column in reference.items():
        assert np.array_equal(fast[name], column), name


CONFIGS = (
    SessionConfig(20_000, 1_000, 8_000, rounds=60),
    SessionConfig(20_000, 1_000, 8_000, rounds=130, new_shoe=True),
    SessionConfig(20_000, 1_000, 8_000, rounds=45, new_shoe=True, win_goal_cents=4_000, stop_loss_cents=6_000),
    SessionConfig(4_000, 500, 3_000, rounds=70, win_goal_cents=1_500),
    SessionConfig(100_000, 1_000, 100_000, 2, stop_loss_cents=5_000),
)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize(
    ("use", "params"),
    [
        ("martingale", {"side": "banker", "unit": 10}),
        ("paroli", {"side": "random", "unit": 10, "stop_win": 30}),
        ("flat", {"side": "follow-last", "unit": 10, "stop_loss": 40}),
    ],
)
def test_both_engines_play_sessions_in_rounds_and_session_rules_alike(use: str, params: dict, config: SessionConfig) -> None:
    fast, reference, _ = play_both(use, params, config)
    assert_same(fast, reference)
    if config.rounds is not None:
        _, counts = np.unique(reference["session"], return_counts=True)
        assert (counts == config.rounds).all()


def test_session_rules_end_betting_in_the_round_the_bankroll_reaches_them() -> None:
    config = SessionConfig(20_000, 1_000, 8_000, rounds=60, win_goal_cents=3_000, stop_loss_cents=5_000)
    fast, cols, run = play_both("martingale", {"side": "player", "unit": 10}, config, shoes=20)
    assert_same(fast, cols)
    names = end_names(run.cls)
    initial = config.bankroll_cents * 10_000
    ended = {"session.win_goal": 0, "session.stop_loss": 0}
    for session in np.unique(cols["session"]).tolist():
        rows = np.flatnonzero(cols["session"] == session)
        profit = cols["bankroll"][rows] - initial
        codes = cols["stopped_by"][rows]
        reached = np.flatnonzero((profit >= config.win_goal_cents * 10_000) | (profit <= -config.stop_loss_cents * 10_000))
        if not len(reached):
            assert not codes.any()
            continue
        first = int(reached[0])
        name = names[int(codes[first]) - 1]
        assert name == ("session.win_goal" if profit[first] > 0 else "session.stop_loss")
        assert not codes[np.arange(len(rows)) != first].any()
        assert not cols["stake"][rows[first + 1 :]].any()  # no bet after the session rule held
        ended[name] += 1
    assert ended["session.win_goal"] and ended["session.stop_loss"]  # both happened in these shoes
    assert SESSION_RULES == ("session.win_goal", "session.stop_loss")


@pytest.mark.parametrize(("rounds", "new_shoe"), [(50, False), (100, True), (30, True)])
def test_the_cut_into_sessions_does_not_depend_on_the_chunks_and_only_sessions_are_dealt(rounds: int, new_shoe: bool) -> None:
    from polars.testing import assert_frame_equal

    from baccarat.execution import chunks as chunking
    from baccarat.execution.runner import run_experiment
    from baccarat.experiment import load_experiment
    from baccarat.shoes.seeded import seeded_table

    session = {"bankroll": 400, "table_min": 5, "table_max": 300, "rounds": rounds, "new_shoe": new_shoe, "win_goal": 60}
    exp = load_experiment(
        {
            "shoes": {"seed": [4, 9], "count": 9},
            "session": session,
            "strategies": [
                {"name": f"m {side}", "use": "martingale", "params": {"side": side, "unit": 5}} for side in ("banker", "random")
            ],
        }
    )
    counted: dict[str, list[int]] = {"whole": [], "cut": []}
    whole = run_experiment(exp, workers=1, progress=counted["whole"].append)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 150)  # many chunks
        cut = run_experiment(exp, workers=1, progress=counted["cut"].append)
    assert_frame_equal(whole.rounds, cut.rounds)
    assert_frame_equal(whole.ledger, cut.ledger)
    assert len(counted["cut"]) > 4  # many chunks, and each shoe counted once, by the chunk that began it
    assert sum(counted["whole"]) == sum(counted["cut"]) == whole.rounds["shoe"].n_unique()
    # The rounds written are those of the sessions, seed after seed, and each session is `rounds` rounds of them.
    expected_shoes, expected_hands, sessions = [], [], 0
    for k, seed in enumerate((4, 9)):
        table = seeded_table(exp.rules, seed, 1, 9)
        part, bounds = played_rows(table, sessions_of(table, exp.session))
        expected_shoes += (part.shoe + 9 * k).tolist()
        expected_hands += part.hand.tolist()
        sessions += len(bounds)
    assert whole.rounds["shoe"].to_list() == expected_shoes
    assert whole.rounds["hand"].to_list() == expected_hands
    per_session = whole.ledger.group_by("strategy", "session").len()
    assert per_session.height == 2 * sessions and (per_session["len"] == rounds).all()
    assert sorted(whole.ledger["session"].unique().to_list()) == list(range(1, sessions + 1))


def test_session_rounds_in_an_experiment_and_its_resolved_copy() -> None:
    from baccarat.experiment import load_experiment

    data = {"session": {"bankroll": 500, "shoes_per_session": 3}, "strategies": [{"use": "flat"}]}
    plain = load_experiment(data)
    assert plain.session.rounds is None and plain.to_mapping()["session"]["shoes_per_session"] == 3
    exp = load_experiment(data, ["session.rounds=60", "session.new_shoe=true", "session.win_goal=20.5", "session.stop_loss=300"])
    assert (exp.session.rounds, exp.session.new_shoe, exp.session.win_goal_cents, exp.session.stop_loss_cents) == (60, True, 2050, 30_000)
    written = exp.to_mapping()["session"]
    assert written == {
        "bankroll": 500,
        "rounds": 60,
        "new_shoe": True,
        "table_min": 10,
        "table_max": 1000,
        "win_goal": 20.5,
        "stop_loss": 300,
    }
    again = load_experiment({"session": written, "strategies": [{"use": "flat"}]})
    assert again.session == exp.session


def test_recorded_shoes_are_cut_into_sessions_of_rounds_alike_whatever_the_chunks() -> None:
    from pathlib import Path

    from polars.testing import assert_frame_equal

    from baccarat.execution import chunks as chunking
    from baccarat.execution.runner import run_experiment
    from baccarat.experiment import load_experiment
    from baccarat.shoes.recorded import read_shoes

    cards = Path(__file__).resolve().parents[2] / "configs" / "shoes" / "sample-cards.txt"
    exp = load_experiment(
        {
            "shoes": {"source": "recorded", "path": str(cards), "format": "cards"},
            "session": {"rounds": 45, "win_goal": 40},
            "strategies": [{"use": "martingale", "params": {"side": "banker", "unit": 10}}],
        }
    )
    table = read_shoes(cards, "cards", exp.rules).table
    counted: dict[str, list[int]] = {"whole": [], "cut": []}
    whole = run_experiment(exp, workers=1, progress=counted["whole"].append)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 60)  # a chunk a session or two
        cut = run_experiment(exp, workers=1, progress=counted["cut"].append)
    assert_frame_equal(whole.ledger, cut.ledger)
    assert_frame_equal(whole.rounds, cut.rounds)
    sessions = len(table) // 45
    assert whole.rounds.height == sessions * 45 and whole.ledger["session"].n_unique() == sessions
    assert whole.rounds["hand"].to_list() == table.hand[: sessions * 45].tolist()
    assert sum(counted["whole"]) == sum(counted["cut"]) == whole.rounds["shoe"].n_unique()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    use=st.sampled_from(("flat", "martingale", "paroli", "fibonacci", "dalembert", "labouchere", "oscars-grind")),
    side=st.sampled_from(({"side": "banker"}, {"side": "player_pair"}, {"side": "chop"}, {"side": "random"}, {"side": "streak"})),
    seed=st.integers(0, 2**64),
    bankroll=st.integers(20, 3000),
    table_max=st.integers(25, 2000),
    rounds=st.integers(1, 200),
    new_shoe=st.booleans(),
    win_goal=st.one_of(st.none(), st.integers(1, 500)),
    loss=st.one_of(st.none(), st.integers(1, 500)),
    stop_win=st.one_of(st.none(), st.integers(1, 500)),
)
def test_random_sessions_in_rounds_under_session_rules_match_the_reference(
    use, side, seed, bankroll, table_max, rounds, new_shoe, win_goal, loss, stop_win
) -> None:
    config = SessionConfig(
        bankroll * 100,
        1_000,
        table_max * 100,
        rounds=rounds,
        new_shoe=new_shoe,
        win_goal_cents=None if win_goal is None else win_goal * 100,
        stop_loss_cents=None if loss is None else loss * 100,
    )
    params = {**side, "unit": 10, "stop_win": stop_win}
    fast, reference, _ = play_both(use, params, config, seed % 2**63, shoes=6, rules_name="punto-banco-8-pairs")
    if len(reference["session"]):
        assert_same(fast, reference)


def test_a_free_form_strategy_is_stopped_by_the_session_rules_too() -> None:
    from baccarat.plugin import Strategy

    class AlwaysPlayer(Strategy):
        name = "always-player"

        def bets(self, view):
            return {"player": 10}

    # Player wins pay 10: profit 10, 20, 30 after rounds 1-3; the goal 25 is reached in round 3, no bet after it.
    table = scripted("PPPPBB")
    rules = preset("punto-banco-8")
    config = SessionConfig(100_000, 1_000, 10_000, rounds=6, win_goal_cents=2_500)
    cols = run_strategy(StrategyRun("always", AlwaysPlayer, {}), table, settlement_table(table, rules), rules, config, seed=0)
    assert cols["stake"].tolist() == [1000, 1000, 1000, 0, 0, 0]
    assert cols["stopped_by"].tolist() == [0, 0, len(end_names(AlwaysPlayer)) - 1, 0, 0, 0]
    assert end_names(AlwaysPlayer) == SESSION_RULES
    # Banker wins lose 10 a round: the stop-loss 20 holds in round 2.
    config = SessionConfig(100_000, 1_000, 10_000, rounds=6, stop_loss_cents=2_000)
    table = scripted("BBBBBB")
    cols = run_strategy(StrategyRun("always", AlwaysPlayer, {}), table, settlement_table(table, rules), rules, config, seed=0)
    assert cols["stake"].tolist() == [1000, 1000, 0, 0, 0, 0]
    assert cols["stopped_by"].tolist() == [0, 2, 0, 0, 0, 0]
