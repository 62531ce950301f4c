"""The pieces a composed strategy is made of: a selector chooses the side, a progression sets the stake, stop rules end betting.

Each is registered by plugins (``docs/plugins.md``) and made fresh for every
session; :mod:`baccarat.plugin.compose` puts them together. Amounts are
exact ``Decimal`` currency units.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

from baccarat.plugin.view import SessionInfo, TableView


def _set_params(piece: Any, params: Mapping[str, Any]) -> None:
    """Make each parameter given an attribute of ``piece``, as a :class:`~baccarat.plugin.Strategy`'s are.

    A piece without an ``__init__`` of its own reads ``self.cap`` for ``params = {"cap": 4}``; the base
    classes set them before anything else runs (a progression's ``restart()`` among them).
    """
    for key, value in params.items():
        setattr(piece, key, value)


class _Piece:
    """What every piece has: class attributes ``name`` (what a strategy's parameters call it), ``params`` (its own
    parameters with defaults) and ``description``; made for one session (``self.session``), each parameter given
    becomes an attribute before ``__init__`` returns."""

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        self.session = session
        _set_params(self, params)


class Selector(_Piece):
    """Chooses the side a composed strategy backs each round (fresh per session).

    Each parameter given becomes an attribute (``self.length``) before ``__init__`` returns.
    Class attributes: ``name`` (the value of a strategy's ``side`` parameter),
    ``params`` (its own parameters with defaults), ``description``.
    """

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Return every side ``choose`` may return (default: banker and player)."""
        return {"banker", "player"}

    def choose(self, view: TableView) -> str | None:
        """Return the side to back this round, or None to sit out."""
        raise NotImplementedError


class FixedSideSelector(Selector):
    """Backs the same bet (``side``) every round; ``name`` is the value of ``side`` that chooses it."""

    side: ClassVar[str] = ""

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Only the fixed bet."""
        return {cls.side}

    def choose(self, view: TableView) -> str | None:
        """The fixed bet."""
        return self.side


def fixed_side_selector(bet: str, label: str) -> type[FixedSideSelector]:
    """Return a selector class backing ``bet`` every round (made for the bets plugins register)."""
    return type(
        f"Fixed_{bet}",
        (FixedSideSelector,),
        {"name": bet, "side": bet, "__doc__": f"{label} every round.", "description": f"{label} every round"},
    )


class Progression(_Piece):
    """Sets the stake of a composed strategy (fresh per session).

    Each parameter given becomes an attribute (``self.cap`` for ``params = {"cap": 4}``) before ``restart()`` runs.

    ``unit`` and ``stake`` are exact ``Decimal`` currency units. The composed
    strategy reads ``self.stake`` before each bet (it must be a whole number
    of cents), calls ``restart()`` when that stake exceeds the table maximum,
    and after a settled bet calls ``won(net)`` or ``lost(net)`` with the
    bet's exact net, a ``Decimal`` (a lost bet loses its whole stake, so
    ``-net`` is the amount lost). A push calls neither.
    """

    def __init__(self, session: SessionInfo, unit: Decimal, **params: Any) -> None:
        self.session = session
        self.unit = unit
        self.stake = unit
        _set_params(self, params)
        self.restart()

    def restart(self) -> None:
        """Start a new series at the first stake, forgetting all state."""
        self.stake = self.unit

    def won(self, net: Decimal) -> None:
        """Move on after a win of ``net`` (> 0)."""

    def lost(self, net: Decimal) -> None:
        """Move on after a loss of ``-net`` (``net`` < 0)."""


class StopRule(_Piece):
    """Ends a composed strategy's betting for the rest of the session (fresh per session).

    Every parameter of a stop rule defaults to ``None``; the rule is active in
    a strategy when at least one of its parameters is given. Each parameter
    given becomes an attribute before ``__init__`` returns.
    """

    def stop(self, view: TableView) -> bool:
        """Return True to stop betting from this round on (checked before every round)."""
        raise NotImplementedError
