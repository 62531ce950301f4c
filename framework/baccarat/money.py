"""The framework's own decimal context, so that exact money never depends on the caller's.

``decimal.getcontext()`` is shared by everything in a thread: a plugin that
sets ``decimal.getcontext().prec = 3`` would otherwise round every amount the
framework computes. Money is computed with :data:`EXACT` explicitly (its
precision far exceeds any amount a run may hold) and plugins are imported
inside a local context, so that what they change there is undone.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

EXACT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999,
                        traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])
"""Sixty digits, and an error (never a silent rounding to infinity) when a value overflows."""


def scaled(amount: Decimal, places: int) -> Decimal:
    """Return ``amount * 10**places`` exactly (``scaled(Decimal("12.5"), 2)`` is ``1250``); ArithmeticError when it overflows."""
    return amount.scaleb(places, EXACT)


def is_whole(amount: Decimal) -> bool:
    """Tell whether the finite ``amount`` is a whole number, whatever the current decimal context."""
    return amount == amount.to_integral_value(context=EXACT)
