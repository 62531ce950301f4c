"""Exact forms of the built-in pieces, for ``baccarat exact`` (see ``baccarat.plugin.exact_forms``).

Each progression's state is the attributes its own methods move (every
built-in keeps its state in them: exact Decimal amounts, ints, or a list of them); Labouchere and
Oscar's Grind read the amount won or lost. Fixed sides back one bet, the
``random`` coin backs Banker or Player with chance 1/2 each whatever came
before; the pattern and road selectors choose from the rounds already dealt,
so they have no exact form. The stop rules are limits on profit and rounds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from baccarat.plugin import ExactProgression, ExactSelector, ExactStopRule, StopLimits, decimal_to_micros
from baccarat_strategies import progressions, selectors, stop_rules

PROGRESSIONS: dict[type, ExactProgression] = {
    progressions.Flat: ExactProgression(("stake",)),
    progressions.Martingale: ExactProgression(("stake",)),
    progressions.GrandMartingale: ExactProgression(("stake",)),
    progressions.Paroli: ExactProgression(("stake", "streak")),
    progressions.Fibonacci: ExactProgression(("stake", "index")),
    progressions.Dalembert: ExactProgression(("stake",)),
    progressions.Labouchere: ExactProgression(("stake", "line"), reads_net=True),
    progressions.OneThreeTwoSix: ExactProgression(("stake", "step")),
    progressions.OscarsGrind: ExactProgression(("stake", "series"), reads_net=True),
}


def _fixed(selector: Any) -> dict[str, Fraction]:
    return {selector.side: Fraction(1)}


def _coin(selector: Any) -> dict[str, Fraction]:
    return {"banker": Fraction(1, 2), "player": Fraction(1, 2)}


SELECTORS: dict[type, ExactSelector] = {
    **{cls: ExactSelector(_fixed) for cls in selectors.BUILT_IN if issubclass(cls, selectors.FixedSide)},
    selectors.Random: ExactSelector(_coin),
}

STOP_RULES: dict[type, ExactStopRule] = {
    stop_rules.StopLoss: ExactStopRule(lambda rule: StopLimits(loss_micros=decimal_to_micros(rule.limit))),
    stop_rules.StopWin: ExactStopRule(lambda rule: StopLimits(win_micros=decimal_to_micros(rule.goal))),
    stop_rules.MaxRounds: ExactStopRule(lambda rule: StopLimits(rounds=rule.rounds)),
}

FORMS: dict[type, Any] = {**PROGRESSIONS, **SELECTORS, **STOP_RULES}
"""Every built-in piece that has an exact form -> its form."""
