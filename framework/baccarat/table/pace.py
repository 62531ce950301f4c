"""The pace of a table: how many hands (rounds) it deals in an hour, to turn a loss per hand into a loss per hour.

:data:`HANDS_PER_HOUR` is the default of ``baccarat plan --hands-per-hour`` and of an experiment's
``session.hands_per_hour``; both take a pace with decimals (72.5), checked by :func:`checked_pace`.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

HANDS_PER_HOUR = 72
"""Hands an hour at a full table: 72, within the 70 to 80 commonly published for a full (mini-)baccarat table.

Game-pace figures published for casino table games put a full baccarat table (seven or more players betting)
at about 70 to 80 hands an hour; 72 (1.2 hands a minute) is taken from the low end of that range, the pace a
player meets sitting through whole shoes at a busy table, shuffles included.
A table with one or two players, or an electronic table, deals two to three times as many: give your own pace
(``--hands-per-hour``). The loss per hour is the expected loss per hand times the pace, so it scales with it.
"""


MAX_HANDS_PER_HOUR = 10_000
"""The most hands an hour a pace may be (an electronic table deals a few hundred)."""
PACE_EXAMPLE = "72 or 72.5"
"""The paces an error about a pace gives as examples."""
PACE_RULE = f"more than 0 and at most {MAX_HANDS_PER_HOUR:,}, such as {PACE_EXAMPLE}"
"""What a pace must be, in the words of every error about one (``--hands-per-hour``, ``session.hands_per_hour``)."""


def checked_pace(value: object) -> float:
    """Return ``value`` (a number, or a number's text) as hands per hour; raise ``ValueError`` unless :data:`PACE_RULE` holds."""
    number: float | None = None
    if isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    if number is None or not math.isfinite(number) or not 0 < number <= MAX_HANDS_PER_HOUR:
        raise ValueError(PACE_RULE)
    return int(number) if number.is_integer() else number


def hours(hands: int, hands_per_hour: float = HANDS_PER_HOUR) -> float:
    """Return the hours ``hands`` hands take at ``hands_per_hour``."""
    if hands_per_hour <= 0:
        raise ValueError(f"hands_per_hour must be more than 0, not {hands_per_hour!r}")
    return hands / hands_per_hour
