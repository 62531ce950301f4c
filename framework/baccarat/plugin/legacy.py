"""The 0.1 plugin API, kept working for plugins written against it (deprecated, to be removed in 0.4).

Version 0.1 spoke integer cents and micro-units where 0.2 speaks exact
``Decimal`` currency units. The deprecated modules of :data:`DEPRECATED_MODULES`
(``baccarat.strategy`` among them) give a 0.1 plugin these classes, which translate at their
edge so that its numbers stay right:

- :class:`Strategy`: a 0.1 ``settle(view, nets)`` receives each net in
  integer micro-units, as 0.1 gave it;
- :class:`Progression`: a 0.1 progression receives ``unit`` and keeps
  ``stake`` in integer cents, and its ``won(net)`` and ``lost(net)`` receive
  micro-units; the composed strategy reads its stake through
  :class:`CentsProgression`;
- :func:`amount_cents` and :func:`cents_to_amount`: the 0.1 parameter reader
  (an amount as whole cents) and its inverse.

Everything else a 0.1 plugin imported keeps its meaning under its 0.2 name.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from baccarat.money import cents_to_decimal, decimal_to_cents, decimal_to_micros
from baccarat.plugin import pieces
from baccarat.plugin import strategy as strategy_module
from baccarat.plugin.params import positive_amount
from baccarat.plugin.view import SessionInfo, TableView

__all__ = [
    "DEPRECATED_MODULES",
    "CentsProgression",
    "Progression",
    "Strategy",
    "amount_cents",
    "cents_to_amount",
    "progression_maker",
    "warn_moved",
]

REMOVED_IN = "0.4"
"""The first version without the 0.1 names."""

DEPRECATED_MODULES = (
    "baccarat.strategy",
    "baccarat.kernels",
    "baccarat.bet_registry",
    "baccarat.cards",
    "baccarat.rules",
    "baccarat.exact_forms",
    "baccarat.roads",
    "baccarat.plugin.kernels",
)
"""The 0.1 modules (and ``baccarat.plugin.kernels``, 0.2) kept as deprecated aliases (each warns when a plugin imports it)."""


def warn_moved(old: str, new: str) -> None:
    """Warn (``DeprecationWarning``) that the module ``old`` is now ``new``, pointing at the plugin that imported it."""
    warnings.warn(
        f"{old} is deprecated and will be removed in baccarat {REMOVED_IN}: import from {new} instead (CHANGELOG.md, 0.2.0)",
        DeprecationWarning,
        stacklevel=3,
    )


def amount_cents(value: Any, what: str) -> int:
    """Return a positive amount in currency units (``10``, ``2.5``, ``"0.25"``) as whole cents (0.1; use ``positive_amount``)."""
    return decimal_to_cents(positive_amount(value, what))


def cents_to_amount(cents: int) -> int | Decimal:
    """Return whole cents as a currency amount a strategy may bet: an ``int`` when whole, else a ``Decimal`` (0.1)."""
    return cents // 100 if cents % 100 == 0 else cents_to_decimal(cents)


def _in_micros(nets: Mapping[str, Any]) -> dict[str, Any]:
    return {bet: decimal_to_micros(net) if isinstance(net, Decimal) else net for bet, net in nets.items()}


class Strategy(strategy_module.Strategy):
    """The 0.1 strategy base class: ``settle(view, nets)`` receives each net in integer micro-units."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        settle = cls.__dict__.get("settle")
        if settle is not None:

            @functools.wraps(settle)
            def settle_in_micros(self: Any, view: TableView, nets: Mapping[str, Any]) -> None:
                settle(self, view, _in_micros(nets))

            cls.settle = settle_in_micros  # type: ignore[method-assign]


class Progression(pieces.Progression):
    """The 0.1 progression base class: ``unit`` and ``stake`` in integer cents, nets in micro-units."""

    in_cents: ClassVar[bool] = True

    def __init__(self, session: SessionInfo, unit: int, **params: Any) -> None:  # noqa: D107 - the 0.1 signature
        super().__init__(session, unit, **params)  # type: ignore[arg-type]


class CentsProgression:
    """A 0.1 progression as a composed strategy sees a 0.2 one: the stake in currency units, nets as ``Decimal``."""

    def __init__(self, cls: type[Progression], session: SessionInfo, unit: Decimal, **params: Any) -> None:
        self.inner = cls(session, decimal_to_cents(unit), **params)
        self.unit = unit

    @property
    def stake(self) -> Decimal:
        """The 0.1 progression's stake (cents) in currency units."""
        return cents_to_decimal(self.inner.stake)

    def restart(self) -> None:
        """Start a new series."""
        self.inner.restart()

    def won(self, net: Decimal) -> None:
        """Pass on a win, in micro-units."""
        self.inner.won(decimal_to_micros(net))

    def lost(self, net: Decimal) -> None:
        """Pass on a loss, in micro-units."""
        self.inner.lost(decimal_to_micros(net))


def progression_maker(cls: type) -> Callable[..., Any]:
    """Return what makes a composed strategy's progression of class ``cls``: the class, or a 0.1 one's adapter."""
    return functools.partial(CentsProgression, cls) if getattr(cls, "in_cents", False) else cls
