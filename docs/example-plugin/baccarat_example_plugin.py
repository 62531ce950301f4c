"""An example baccarat plugin: one strategy, one progression, one selector, one stop rule and one bet.

The progression and the selector also have compiled twins (plain functions
over small integer arrays, see ``docs/plugins.md``), registered with the
``register_twins`` hook: composed strategies made of them run at compiled
speed, with the very ledger of their plain-Python definitions.

The package's ``pyproject.toml`` names this module in the ``baccarat``
entry-point group; baccarat imports it and calls the hooks below once per
command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from baccarat.plugin import (
    BetDefinition,
    Progression,
    Selector,
    SessionInfo,
    StopRule,
    Strategy,
    TableView,
    hookimpl,
    positive_amount,
)
from baccarat.plugin.twins import BANKER, PLAYER, SIT_OUT, STAKE, ProgressionTwin, SelectorTwin


class BankerAndTie(Strategy):
    """Free-form strategy placing two bets every round: ``unit`` on Banker, ``tie_unit`` on Tie."""

    name = "banker-and-tie"
    params = {"unit": 10, "tie_unit": 2}
    description = "unit on Banker and tie_unit on Tie every round"

    def __init__(self, session: SessionInfo, unit: Any = 10, tie_unit: Any = 2) -> None:
        super().__init__(session)
        self.unit = positive_amount(unit, "unit")
        self.tie_unit = positive_amount(tie_unit, "tie_unit")

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Banker and Tie."""
        return {"banker", "tie"}

    def bets(self, view: TableView) -> dict[str, Any]:
        """Both bets, every round."""
        return {"banker": self.unit, "tie": self.tie_unit}


class ReverseDalembert(Progression):
    """One unit more after a win, one unit less after a loss (never below one unit)."""

    name = "reverse-dalembert"
    description = "one unit more after a win, one less after a loss (not below one)"

    def won(self, net: Decimal) -> None:
        """One unit more."""
        self.stake += self.unit

    def lost(self, net: Decimal) -> None:
        """One unit less, not below one."""
        self.stake = max(self.unit, self.stake - self.unit)


class Majority(Selector):
    """Back the side that has won more decided rounds in this shoe; sit out while they are level."""

    name = "majority"
    description = "the side with more wins in this shoe"

    def choose(self, view: TableView) -> str | None:
        """Count this shoe's Banker and Player wins."""
        history = view.shoe_history
        banker, player = history.count("banker"), history.count("player")
        if banker == player:
            return None
        return "banker" if banker > player else "player"


# Compiled twins of ReverseDalembert and Majority: the same rules over int64 arrays. -----------------


def reverse_dalembert_won(state: Any, params: Any, net: int) -> None:
    """One unit more (``state[STAKE]``: the next stake in cents; ``params[0]``: the unit in cents)."""
    state[STAKE] += params[0]


def reverse_dalembert_lost(state: Any, params: Any, net: int) -> None:
    """One unit less, not below one."""
    state[STAKE] = max(params[0], state[STAKE] - params[0])


def majority(view: Any, history: Any, state: Any, params: Any, rng: Any) -> int:
    """Count this shoe's Banker and Player wins (``history``: the shoe's outcome codes so far)."""
    banker = 0
    player = 0
    for outcome in history:
        if outcome == BANKER:
            banker += 1
        elif outcome == PLAYER:
            player += 1
    if banker == player:
        return SIT_OUT
    return BANKER if banker > player else PLAYER


class TrailingStop(StopRule):
    """Stop once the bankroll has fallen ``trailing_stop`` below its highest point in the session."""

    name = "trailing_stop"
    params = {"trailing_stop": None}
    description = "stop once the bankroll is this much below its session high"

    def __init__(self, session: SessionInfo, trailing_stop: Any = None) -> None:
        super().__init__(session)
        self.drop = positive_amount(trailing_stop, "trailing_stop")
        self.high = session.bankroll

    def stop(self, view: TableView) -> bool:
        """Track the session's high and compare."""
        bankroll = view.bankroll
        self.high = max(self.high, bankroll)
        return self.high - bankroll >= self.drop


TIE_ON_SIX = BetDefinition(
    name="tie_on_6",
    label="Tie on 6",
    needs=frozenset({"totals"}),  # it reads the hands' totals (and, as every bet, the winner)
    pays={"win": Fraction(35)},  # 35:1
    wins=lambda r: {"win": r.tie & (r.player_total == 6)},
    description="the hands tie on 6",
)
"""A side bet: the round ends in a tie on 6, paying 35:1; anything else loses."""


@hookimpl
def register_bets(register: Callable[[BetDefinition], None]) -> None:
    """Register the bet."""
    register(TIE_ON_SIX)


@hookimpl
def register_strategies(register: Callable[[type], None]) -> None:
    """Register the free-form strategy."""
    register(BankerAndTie)


@hookimpl
def register_progressions(register: Callable[[type], None]) -> None:
    """Register the progression."""
    register(ReverseDalembert)


@hookimpl
def register_selectors(register: Callable[[type], None]) -> None:
    """Register the selector."""
    register(Majority)


@hookimpl
def register_stop_rules(register: Callable[[type], None]) -> None:
    """Register the stop rule."""
    register(TrailingStop)


@hookimpl
def register_twins(register: Callable[[type, Any], None]) -> None:
    """Register the compiled twins of the progression and the selector."""
    register(ReverseDalembert, ProgressionTwin(won=reverse_dalembert_won, lost=reverse_dalembert_lost))
    register(Majority, SelectorTwin(majority))
