"""Money: its units, the conversions between them, the one reader of a user's amount, and the exact decimal context.

Three units, each with one job:

- **currency units** as exact :class:`~decimal.Decimal` (``Decimal("12.5")``):
  what users write in experiment files, what the ledger stores, and the one
  unit of the plugin-facing API (a strategy's bets, the nets it settles, a
  progression's ``unit`` and ``stake``, the view's bankroll, profit and table
  limits, :class:`~baccarat.plugin.SessionInfo`);
- **cents** (``int``): every stake, because every amount bet is a whole
  number of cents; the engines hold stakes, table limits and the bankroll
  setting in cents;
- **micro-units** (``int``, a millionth of a currency unit): every net and
  bankroll inside the engines, because a stake in cents times a payout in
  basis points (:data:`BASIS_POINTS`) is exactly
  micro-units (``stake_cents * multiplier_bp``).

The engines keep integers inside and convert once at the plugin boundary
with the functions here. The compiled twins (``baccarat.plugin.twins``)
and the exact forms (``baccarat.plugin.exact_forms``) are compiled and
analytic encodings of plugin pieces: they keep this integer encoding (stakes
and limits in cents, nets, bankroll and profit in micro-units), named here as
:data:`CENTS_PER_UNIT` and :data:`MICROS_PER_CENT`.

``decimal.getcontext()`` is shared by everything in a thread: a plugin that
sets ``decimal.getcontext().prec = 3`` would otherwise round every amount the
framework computes. Money is computed with :data:`EXACT` explicitly (its
precision far exceeds any amount a run may hold), plugins are imported
inside a local context, so that what they change there is undone, and every
strategy plays in a copy of :data:`EXACT` of its own, so that its plain
Decimal arithmetic on amounts is exact.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any

EXACT = decimal.Context(
    prec=60,
    rounding=decimal.ROUND_HALF_EVEN,
    Emax=999_999,
    Emin=-999_999,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)
"""Sixty digits, and an error (never a silent rounding to infinity) when a value overflows."""

CENTS_PER_UNIT = 100
"""Cents in a currency unit."""

MICROS_PER_UNIT = 1_000_000
"""Micro-units in a currency unit: the ledger's exact money scale (six decimal places)."""

MICROS_PER_CENT = MICROS_PER_UNIT // CENTS_PER_UNIT
"""Micro-units in a cent (10 000); also ``stake_cents * multiplier_bp`` is micro-units."""

CENT = Decimal("0.01")
"""The smallest amount a bet may be a multiple of."""

CENT_PLACES = 2
"""Decimal places of a cent."""

MICRO_PLACES = 6
"""Decimal places of a micro-unit."""

BASIS_POINTS = 10_000
"""Basis points in one: a bet's result per round is in basis points of its stake, so cents times it are micro-units."""

MAX_AMOUNT = 10**9
"""Largest amount of money any setting may hold (bankroll, limits, units, stop rules), in currency units."""

MAX_AMOUNT_CENTS = MAX_AMOUNT * CENTS_PER_UNIT
""":data:`MAX_AMOUNT` in cents."""


def scaled(amount: Decimal, places: int) -> Decimal:
    """Return ``amount * 10**places`` exactly (``scaled(Decimal("12.5"), 2)`` is ``1250``); ArithmeticError when it overflows."""
    return amount.scaleb(places, EXACT)


def is_whole(amount: Decimal) -> bool:
    """Tell whether the finite ``amount`` is a whole number, whatever the current decimal context."""
    return amount == amount.to_integral_value(context=EXACT)


def cents_to_decimal(cents: int) -> Decimal:
    """Return integer cents as an exact Decimal amount (``1250`` is ``Decimal("12.50")``)."""
    return Decimal(cents).scaleb(-CENT_PLACES, EXACT)


def micros_to_decimal(micros: int) -> Decimal:
    """Return integer micro-units as an exact Decimal amount (``9_500`` is ``Decimal("0.009500")``)."""
    return Decimal(micros).scaleb(-MICRO_PLACES, EXACT)


def cents_to_amount(cents: int) -> int | Decimal:
    """Return whole cents as the plainest amount: an ``int`` of currency units when whole, else a ``Decimal``."""
    return cents // CENTS_PER_UNIT if cents % CENTS_PER_UNIT == 0 else cents_to_decimal(cents)


def _whole(amount: Decimal, places: int, unit: str) -> int:
    """Return ``amount`` times 10 ** ``places`` as an int; ValueError when it is not a whole number of ``unit``."""
    scaled = amount.scaleb(places, EXACT)
    whole = int(scaled)
    if whole != scaled:
        raise ValueError(f"{amount} is not a whole number of {unit}")
    return whole


def decimal_to_cents(amount: Decimal) -> int:
    """Return a finite Decimal amount as integer cents; ValueError when it is not a whole number of cents."""
    return _whole(amount, CENT_PLACES, "cents")


def decimal_to_micros(amount: Decimal) -> int:
    """Return a finite Decimal amount as integer micro-units; ValueError when it is not a whole number of them."""
    return _whole(amount, MICRO_PLACES, "micro-units")


class AmountError(ValueError):
    """Why a value is not an amount of money; ``reason`` is one of :data:`AMOUNT_REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


AMOUNT_REASONS = ("not a number", "not finite", "negative", "zero", "too large", "not whole cents")
"""What :func:`parse_amount` may find wrong with a value, in the order it checks."""


def parse_amount(value: Any, allow_zero: bool = False) -> Decimal:
    """Return a user's amount in currency units (``10``, ``2.5``, ``"0.25"``, a Decimal) as an exact Decimal.

    The one reader of an amount of money a user writes (experiment settings,
    strategy parameters). Raise :class:`AmountError` when it is not a number
    (booleans are not), not finite, negative, zero (unless ``allow_zero``),
    more than :data:`MAX_AMOUNT`, or not a whole number of cents. Each caller
    words the reason in its own message.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise AmountError("not a number")
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
    except ArithmeticError:  # not a number, or an exponent beyond any Decimal ("1e99999999999999999999")
        raise AmountError("not a number") from None
    if not amount.is_finite():
        raise AmountError("not finite")
    if amount < 0:
        raise AmountError("negative")
    if amount == 0 and not allow_zero:
        raise AmountError("zero")
    if amount > MAX_AMOUNT:  # before any arithmetic: 1e999999 * 100 overflows
        raise AmountError("too large")
    if not is_whole(scaled(amount, CENT_PLACES)):
        raise AmountError("not whole cents")
    return amount
