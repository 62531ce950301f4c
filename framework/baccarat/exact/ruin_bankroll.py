"""The smallest starting bankroll whose exact risk of ruin is at most a target, searched in table-minimum steps.

For each strategy with an exact form, the session's dynamic program
(:func:`baccarat.exact.analysis.analyse_strategy`) is run from bankrolls of
1, 2, 4, ... table minimums until the risk of ruin is at most the target,
then the steps between the last two are halved (a binary search), so the
answer is a whole number of table minimums ``B`` with ``risk(B) <= p`` and
``risk(B - table_min) > p``. The search assumes that the risk does not rise
with the bankroll (true of every built-in progression: a larger bankroll
plays the same bets until the smaller one would have been ruined or cut).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from baccarat.exact.bounds import ExactLimitError
from baccarat.exact.results import ExactResult, Skipped
from baccarat.money import cents_to_decimal

MAX_DOUBLINGS = 40
"""Doublings of the bankroll tried before the search gives up (2**40 table minimums)."""


@dataclasses.dataclass(frozen=True)
class RuinBankroll:
    """The smallest bankroll (in table-minimum steps) whose exact risk of ruin is at most ``ruin_at_most``."""

    strategy: str
    ruin_at_most: float
    bankroll: float | None
    """None when the search stopped before finding one (``reason`` says why)."""
    risk_of_ruin: float | None
    """The exact risk of ruin from ``bankroll``."""
    risk_one_step_less: float | None
    """The exact risk of ruin from one table minimum less (None when ``bankroll`` is the table minimum)."""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the figures as plain JSON data."""
        return {
            "strategy": self.strategy,
            "ruin_at_most": self.ruin_at_most,
            "bankroll_for_ruin": self.bankroll,
            "risk_of_ruin": self.risk_of_ruin,
            "risk_of_ruin_one_step_less": self.risk_one_step_less,
            **({"reason": self.reason} if self.reason else {}),
        }


def smallest_bankroll(
    label: str, analyse: Callable[[int], ExactResult | Skipped], step_cents: int, target: float
) -> RuinBankroll | Skipped:
    """Search the smallest ``k * step_cents`` bankroll whose risk of ruin (``analyse(bankroll_cents)``) is at most ``target``."""
    risks: dict[int, float] = {}

    def risk(k: int) -> float | Skipped:
        if k not in risks:
            outcome = analyse(k * step_cents)
            if isinstance(outcome, Skipped):
                return outcome
            risks[k] = outcome.risk_of_ruin
        return risks[k]

    low, high = 0, 1  # risk(low) > target (0: no bankroll at all), risk(high) to be found <= target
    try:
        for _ in range(MAX_DOUBLINGS):
            value = risk(high)
            if isinstance(value, Skipped):
                return value
            if value <= target:
                break
            low, high = high, high * 2
        else:
            return RuinBankroll(label, target, None, None, None, f"no bankroll up to {2**MAX_DOUBLINGS:,} table minimums is enough")
        while high - low > 1:
            middle = (low + high) // 2
            value = risk(middle)
            if isinstance(value, Skipped):
                return value
            low, high = (low, middle) if value <= target else (middle, high)
    except ExactLimitError as exc:
        return RuinBankroll(label, target, None, None, None, f"the search stopped at a bankroll too large to analyse: {exc}")
    below = risks.get(high - 1) if high > 1 else None
    if high > 1 and below is None:
        value = risk(high - 1)
        below = None if isinstance(value, Skipped) else value
    return RuinBankroll(label, target, float(cents_to_decimal(high * step_cents)), risks[high], below)
