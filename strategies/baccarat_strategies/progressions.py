"""Staking progressions of docs/strategies.md, in exact Decimal currency units.

Every progression keeps ``self.stake`` and its amounts as exact ``Decimal``
currency units and its counts as plain ints (the engine plays every strategy
in a copy of :data:`baccarat.money.EXACT`, where this arithmetic is exact). The composed strategy
(``baccarat.plugin.compose``) calls ``restart()`` when the stake exceeds the
table maximum, ``won(net)`` after a win and ``lost(net)`` after a loss
(``net``, the bet's exact net, a Decimal); a push calls neither, so it leaves
stake and state unchanged. ``docs/strategies.md`` gives the same rules as a
table.

A stake cut by the engine (to the table maximum or to the bankroll) does not
change the progression: its next stake follows from the stake it asked
for, except that Labouchere appends the amount actually lost and Oscar's
Grind counts the series' actual net result.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal
from typing import Any

from baccarat.plugin import CENT, EXACT, MAX_AMOUNT, Progression, SessionInfo, decimal_to_cents, positive_int


class Flat(Progression):
    """One unit every round."""

    name = "flat"
    description = "one unit every round"


class Martingale(Progression):
    """Double after a loss, back to one unit after a win."""

    name = "martingale"
    description = "double after a loss, one unit after a win"

    def won(self, net: Decimal) -> None:
        """Back to one unit."""
        self.stake = self.unit

    def lost(self, net: Decimal) -> None:
        """Double the stake."""
        self.stake *= 2


class GrandMartingale(Progression):
    """Double plus one unit after a loss, back to one unit after a win."""

    name = "grand-martingale"
    description = "double plus one unit after a loss, one unit after a win"

    def won(self, net: Decimal) -> None:
        """Back to one unit."""
        self.stake = self.unit

    def lost(self, net: Decimal) -> None:
        """Double the stake and add one unit."""
        self.stake = 2 * self.stake + self.unit


class Paroli(Progression):
    """Double after a win; after ``wins`` wins in a row, or after a loss, back to one unit."""

    name = "paroli"
    params = {"wins": 3}
    description = "double after a win, back to one unit after `wins` wins in a row or a loss"

    def __init__(self, session: SessionInfo, unit: Decimal, wins: Any = 3) -> None:
        self.wins = positive_int(wins, "wins")
        super().__init__(session, unit)

    def restart(self) -> None:
        """One unit, no wins counted."""
        self.stake = self.unit
        self.streak = 0

    def won(self, net: Decimal) -> None:
        """Count the win; double, or start over after ``wins`` in a row."""
        self.streak += 1
        if self.streak >= self.wins:
            self.restart()
        else:
            self.stake *= 2

    def lost(self, net: Decimal) -> None:
        """Back to one unit."""
        self.restart()


class Fibonacci(Progression):
    """Units 1, 1, 2, 3, 5, ...: one term on after a loss, two terms back after a win."""

    name = "fibonacci"
    description = "Fibonacci units: one term on after a loss, two back after a win"

    def restart(self) -> None:
        """Back to the first term."""
        self.terms = [1, 1]
        self.index = 0
        self.stake = self.unit

    def _set(self, index: int) -> None:
        terms = self.terms
        while len(terms) <= index:
            terms.append(terms[-1] + terms[-2])
        self.index = index
        self.stake = terms[index] * self.unit

    def won(self, net: Decimal) -> None:
        """Two terms back, not before the first."""
        self._set(max(0, self.index - 2))

    def lost(self, net: Decimal) -> None:
        """One term on."""
        self._set(self.index + 1)


class Dalembert(Progression):
    """One unit more after a loss, one unit less after a win (never below one unit)."""

    name = "dalembert"
    description = "one unit more after a loss, one less after a win (not below one)"

    def won(self, net: Decimal) -> None:
        """One unit less, not below one unit."""
        self.stake = max(self.unit, self.stake - self.unit)

    def lost(self, net: Decimal) -> None:
        """One unit more."""
        self.stake += self.unit


class Labouchere(Progression):
    """Bet first + last of a line; a win crosses them off, a loss appends the amount lost."""

    name = "labouchere"
    params = {"line": [1, 2, 3, 4]}
    description = "bet first + last of the line; cross off on a win, append the loss"

    def __init__(self, session: SessionInfo, unit: Decimal, line: Any = (1, 2, 3, 4)) -> None:
        self.start = line_amounts(line, unit)
        super().__init__(session, unit)

    def restart(self) -> None:
        """The line as given."""
        self.line = list(self.start)
        self._set_stake()

    def _set_stake(self) -> None:
        line = self.line
        self.stake = line[0] + line[-1] if len(line) > 1 else line[0]

    def won(self, net: Decimal) -> None:
        """Cross off the first and last numbers (the only one when one is left); restart an emptied line."""
        del self.line[0]
        if self.line:
            del self.line[-1]
        if self.line:
            self._set_stake()
        else:
            self.restart()

    def lost(self, net: Decimal) -> None:
        """Append the amount actually lost."""
        self.line.append(-net)
        self._set_stake()


def line_amounts(line: Any, unit: Decimal) -> list[Decimal]:
    """Return a Labouchere line given in units as stakes (exact amounts), or raise ValueError."""
    wrong = f"line must be a non-empty list of positive numbers of units such as [1, 2, 3, 4], not {line!r}"
    if not isinstance(line, list | tuple) or not line:
        raise ValueError(wrong)
    out = []
    for number in line:
        if isinstance(number, bool) or not isinstance(number, int | float | Decimal):
            raise ValueError(wrong)
        amount = Decimal(str(number))
        if not amount.is_finite() or amount <= 0:
            raise ValueError(wrong)
        if amount > MAX_AMOUNT * 100:  # before any arithmetic: no unit is less than a cent
            raise ValueError(f"line number {number!r} times the unit is more than {MAX_AMOUNT:,}")
        stake = EXACT.multiply(amount, unit)
        try:
            decimal_to_cents(stake)
        except ValueError:
            raise ValueError(f"line number {number!r} times the unit is not a whole number of cents") from None
        if stake > MAX_AMOUNT:
            raise ValueError(f"line number {number!r} times the unit is more than {MAX_AMOUNT:,}")
        out.append(stake)
    return out


class OneThreeTwoSix(Progression):
    """Units 1, 3, 2, 6 in turn while winning; back to the first after the fourth win or a loss."""

    name = "1-3-2-6"
    description = "units 1, 3, 2, 6 while winning; back to 1 after the 4th or a loss"

    SEQUENCE = (1, 3, 2, 6)

    def restart(self) -> None:
        """The first step."""
        self.step = 0
        self.stake = self.unit

    def won(self, net: Decimal) -> None:
        """Next step; after the fourth, back to the first."""
        self.step = (self.step + 1) % len(self.SEQUENCE)
        self.stake = self.SEQUENCE[self.step] * self.unit

    def lost(self, net: Decimal) -> None:
        """Back to the first step."""
        self.restart()


class OscarsGrind(Progression):
    """Series aiming at +1 unit: one unit more after a win, never more than the series still needs."""

    name = "oscars-grind"
    description = "a series aims at +1 unit; one unit more after a win, never more than needed"

    def __init__(self, session: SessionInfo, unit: Decimal) -> None:
        self.floor = session.table_min
        super().__init__(session, unit)

    def restart(self) -> None:
        """A new series: one unit, nothing won or lost yet."""
        self.stake = self.unit
        self.series = Decimal(0)  # won (> 0) or lost (< 0) in this series

    def won(self, net: Decimal) -> None:
        """Count the win; a series at +1 unit or more starts over, else one unit more, cut to what is needed."""
        self.series += net
        needed = self.unit - self.series
        if needed <= 0:
            self.restart()
            return
        needed = needed.quantize(CENT, rounding=ROUND_CEILING, context=EXACT)  # up to a whole cent
        self.stake = min(self.stake + self.unit, max(needed, self.floor))

    def lost(self, net: Decimal) -> None:
        """Count the loss; same stake."""
        self.series += net


BUILT_IN = (Flat, Martingale, GrandMartingale, Paroli, Fibonacci, Dalembert, Labouchere, OneThreeTwoSix, OscarsGrind)
"""Built-in progressions, in the order `baccarat strategies` lists them."""
