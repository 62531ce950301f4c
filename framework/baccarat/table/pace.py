"""The pace of a table: how many hands (rounds) it deals in an hour, to turn a loss per hand into a loss per hour.

:data:`HANDS_PER_HOUR` is the default of ``baccarat plan --hands-per-hour``.
"""

from __future__ import annotations

HANDS_PER_HOUR = 72
"""Hands an hour at a full table: 72, within the 70 to 80 commonly published for a full (mini-)baccarat table.

Game-pace figures published for casino table games put a full baccarat table (seven or more players betting)
at about 70 to 80 hands an hour; 72 (1.2 hands a minute) is taken from the low end of that range, the pace a
player meets sitting through whole shoes at a busy table, shuffles included.
A table with one or two players, or an electronic table, deals two to three times as many: give your own pace
(``--hands-per-hour``). The loss per hour is the expected loss per hand times the pace, so it scales with it.
"""


def hours(hands: int, hands_per_hour: float = HANDS_PER_HOUR) -> float:
    """Return the hours ``hands`` hands take at ``hands_per_hour``."""
    if hands_per_hour <= 0:
        raise ValueError(f"hands_per_hour must be more than 0, not {hands_per_hour!r}")
    return hands / hands_per_hour
