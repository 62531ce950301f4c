"""Parameter readers: plugin authors check their parameters with them, in the units of the plugin API.

Each returns the checked value or raises ``ValueError`` naming the parameter
(the message a user sees, with the file, line and column of the value).
Amounts are exact ``Decimal`` currency units, read by
:func:`baccarat.money.parse_amount`, the one reader of a user's amount.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from baccarat.money import MAX_AMOUNT, AmountError, parse_amount

__all__ = ["MAX_AMOUNT", "MAX_COUNT", "positive_amount", "positive_int"]

MAX_COUNT = 10**9
"""Largest whole number a count parameter may hold (streak lengths, rounds, wins in a row)."""


def positive_amount(value: Any, what: str) -> Decimal:
    """Return a positive amount in currency units (``10``, ``2.5``, ``"0.25"``) as an exact Decimal.

    Raise ``ValueError`` naming ``what`` when it is not a positive whole number
    of cents, or is more than :data:`~baccarat.money.MAX_AMOUNT`.
    """
    try:
        return parse_amount(value)
    except AmountError as exc:
        reason = exc.reason
    if reason == "not a number":
        raise ValueError(f"{what} must be an amount such as 10 or 2.5, not {value!r}")
    if reason == "too large":
        raise ValueError(f"{what} must be at most {MAX_AMOUNT:,}, not {value!r}")
    if reason == "not whole cents":
        raise ValueError(f"{what} must be a whole number of cents, not {value!r}")
    raise ValueError(f"{what} must be a positive amount, not {value!r}")


def positive_int(value: Any, what: str) -> int:
    """Return ``value`` as an int from 1 to :data:`MAX_COUNT`, or raise ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a whole number of at least 1, not {value!r}")
    if value > MAX_COUNT:
        raise ValueError(f"{what} must be at most {MAX_COUNT:,}, not {value!r}")
    return value
