"""The reference engine hands the cards to a strategy's view only once it reads one: the ledger is the same.

A strategy that reads a card late (in its third session), or that swallows what the view raises when it
first asks, is played again from the start with the cards, and its ledger is the one of the same strategy
reading the cards from its first round.
"""

from __future__ import annotations

import numpy as np

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")


class CardReader(Strategy):
    """From session ``start`` on, back Banker when the shoe has dealt an even number of cards so far, else Player."""

    name = "card-reader"
    params = {"start": 1, "swallow": False}

    def bets(self, view):
        if self.session.number < self.start:
            return {"banker": 10}
        try:
            dealt = len(view.shoe_cards())
        except Exception:
            if not self.swallow:
                raise
            dealt = 0  # a wrong answer the engine must not keep
        return {"banker" if dealt % 2 == 0 else "player": 10}


class EveryRound(CardReader):
    """The same, reading the cards every round from the start (so handed them from the first round)."""

    name = "every-round"

    def bets(self, view):
        view.shoe_cards()
        return super().bets(view)


def play(cls: type[Strategy], **params) -> dict[str, np.ndarray]:
    table = seeded_table(RULES, 4, 1, 6)
    config = SessionConfig(100_000, 1_000, 100_000, 2)
    return run_strategy(StrategyRun("s", cls, params), table, settlement_table(table, RULES), RULES, config, 4, session_bounds(table, 2))


LEDGER = ("session", "shoe", "hand", "round", "outcome", "stake", "net", "bankroll", "capped", "stake_banker", "stake_player")


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray], names: tuple[str, ...] = LEDGER) -> bool:
    """The ledger columns of both are equal (``priced``, the EVs a card reader saw, starts where it first read)."""
    return all(np.array_equal(a[name], b[name], equal_nan=a[name].dtype.kind == "f") for name in names)


def test_a_strategy_reading_cards_late_gets_the_ledger_of_one_reading_them_always() -> None:
    always = play(EveryRound, start=3)
    assert same(play(CardReader, start=3), always)
    player = np.nonzero(always["stake_player"])[0]
    assert len(player) and int(always["session"][player.min()]) == 3  # Player only from the third session on


def test_a_strategy_that_swallows_the_views_first_refusal_is_played_again_with_the_cards() -> None:
    assert same(play(CardReader, start=3, swallow=True), play(CardReader, start=3), (*LEDGER, "priced"))
    assert same(play(CardReader, start=1, swallow=True), play(EveryRound, start=1), (*LEDGER, "priced"))
