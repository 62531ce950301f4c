"""Staking progressions on a fixed side (SPEC section 7).

Each progression keeps its stake in integer cents. A push (a tie for a
Banker or Player bet) leaves stake and state unchanged. When the next stake
would exceed the table maximum, the series is abandoned and starts over at
its first stake.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from baccarat.strategy import SessionInfo, Strategy, TableView

SIDES = ("banker", "player", "tie", "player_pair", "banker_pair", "dragon7", "panda8")


def to_cents(amount: Any, what: str) -> int:
    """Return a positive amount in currency units as whole cents, or raise ValueError."""
    cents = Decimal(str(amount)) * 100
    if cents != cents.to_integral_value() or cents <= 0:
        raise ValueError(f"{what} must be a positive whole number of cents, not {amount!r}")
    return int(cents)


def from_cents(cents: int) -> int | Decimal:
    """Return whole cents as currency units (an int when whole)."""
    return cents // 100 if cents % 100 == 0 else Decimal(cents) / 100


class FixedSideProgression(Strategy):
    """Back one fixed side with a stake set by a progression."""

    params = {"side": "banker", "unit": 10}

    def __init__(self, session: SessionInfo, side: str = "banker", unit: Any = 10) -> None:
        super().__init__(session)
        self.side = side
        self.unit = to_cents(unit, "unit")
        self.stake = self.unit

    def first_stake(self) -> int:
        """Stake in cents at the start of a series."""
        return self.unit

    def bets(self, view: TableView) -> Mapping[str, Any]:
        """Bet the progression's stake on the side, restarting the series above the table maximum."""
        if self.stake > view.table_max_cents:
            self.stake = self.first_stake()
        return {self.side: from_cents(self.stake)}

    def settle(self, view: TableView, nets: Mapping[str, int]) -> None:
        """Move the progression on a win or a loss; a push changes nothing."""
        net = nets.get(self.side, 0)
        if net > 0:
            self.won()
        elif net < 0:
            self.lost()

    def won(self) -> None:
        """Update the stake after a win."""

    def lost(self) -> None:
        """Update the stake after a loss."""


class Flat(FixedSideProgression):
    """Bet one unit every round."""

    name = "flat"
    description = "one unit on a fixed side every round"


class Martingale(FixedSideProgression):
    """Double after a loss, back to one unit after a win."""

    name = "martingale"
    description = "double after a loss, one unit after a win"

    def won(self) -> None:
        """Back to one unit."""
        self.stake = self.unit

    def lost(self) -> None:
        """Double the stake."""
        self.stake *= 2


BUILT_IN = (Flat, Martingale)
