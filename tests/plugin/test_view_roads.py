"""Strategies read the current shoe's roads from the view: up to date, never ahead, fresh each shoe."""

from __future__ import annotations

import numpy as np

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.shoes.rounds import RoundTable
from baccarat.table.roads import roads
from baccarat.table.rules import preset


class Recorder(Strategy):
    name = "recorder"
    params = {"every": 1}
    seen: list[tuple[int, int, tuple, tuple, tuple]] = []

    def bets(self, view):
        if view.hand % self.every == 0:
            r = view.roads
            Recorder.seen.append((view.shoe, view.hand, r.outcomes, r.big_road, r.cockroach_pig))
        return None


def walk(table: RoundTable, every: int, shoes_per_session: int = 2):
    Recorder.seen = []
    rules = preset("punto-banco-8")
    run = StrategyRun("rec", Recorder, {"every": every})
    run_strategy(run, table, settlement_table(table, rules), rules, SessionConfig(100000, 1000, 100000, shoes_per_session), seed=1)
    return Recorder.seen


def table_of(shoes: list[str]) -> RoundTable:
    code = {"B": 0, "P": 1, "T": 2}
    return RoundTable.from_outcomes([(k, [code[c] for c in s]) for k, s in enumerate(shoes, start=1)])


def test_view_roads_hold_exactly_the_rounds_before_this_one() -> None:
    rng = np.random.default_rng(3)
    shoes = ["".join(rng.choice(list("BBBBPPPPT"), size=n)) for n in (40, 55, 31)]
    for every in (1, 3, 7):  # read every round, or now and then (the roads catch up)
        seen = walk(table_of(shoes), every)
        assert len(seen) == sum(len(s) // every for s in shoes)
        for shoe, hand, outcomes, big, cockroach in seen:
            past = shoes[shoe - 1][: hand - 1]
            expected = roads(past)
            assert "".join(o[0].upper() for o in outcomes) == past
            assert big == expected.big_road
            assert cockroach == expected.cockroach_pig


class Tallier(Strategy):
    name = "tallier"
    params = {"every": 1}
    seen: list[tuple[int, int, str | None, int, int]] = []

    def bets(self, view):
        if view.hand % self.every == 0:
            Tallier.seen.append((view.shoe, view.hand, view.last_decided, view.decided_in_shoe, view.streak_length))
        return None


def tallies(past: str) -> tuple[str | None, int, int]:
    """The last decided winner, the decided rounds and the streak of ``past`` (letters B, P, T), counted directly."""
    decided = past.replace("T", "")
    if not decided:
        return None, 0, 0
    last = decided[-1]
    return {"B": "banker", "P": "player"}[last], len(decided), len(decided) - len(decided.rstrip(last))


def test_the_last_decided_winner_and_streak_count_the_shoes_rounds_so_far_ties_skipped() -> None:
    rng = np.random.default_rng(5)
    shoes = ["".join(rng.choice(list("BBPPTTT"), size=n)) for n in (40, 55, 31)]  # many ties, runs of them
    rules = preset("punto-banco-8")
    table = table_of(shoes)
    for every in (1, 2, 5):  # read every round, or now and then (the tallies catch up)
        Tallier.seen = []
        run = StrategyRun("tally", Tallier, {"every": every})
        run_strategy(run, table, settlement_table(table, rules), rules, SessionConfig(100000, 1000, 100000, 2), seed=1)
        assert len(Tallier.seen) == sum(len(s) // every for s in shoes)
        for shoe, hand, last, decided, streak in Tallier.seen:
            assert (last, decided, streak) == tallies(shoes[shoe - 1][: hand - 1])
