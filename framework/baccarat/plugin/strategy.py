"""The strategy protocol: what a strategy sees, what it returns, how it is made.

A strategy is a class. The engine makes a fresh instance for every session
(``cls(session, **params)``), then for each round calls ``bets(view)`` before
the cards are shown and ``settle(view, nets)`` after. ``view`` is a read-only
:class:`TableView` of the session and the current shoe: it never shows a card
that has not been dealt yet.

Money has one unit in this API: currency units. Amounts a strategy returns
are currency units (``10``, ``Decimal("2.50")``, ``12.5``) and must be whole
cents; every amount it is given or sees (nets, bankroll, profit, table
limits, a progression's unit and stake) is an exact ``Decimal`` of currency
units (see :mod:`baccarat.money`).

What a strategy sees is in :mod:`baccarat.plugin.view`; most strategies are
composed from the smaller pieces of :mod:`baccarat.plugin.pieces`, each
registered by plugins (see ``docs/plugins.md``); the parameter readers are
in :mod:`baccarat.plugin.params`.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

from baccarat.plugin.view import SessionInfo, TableView
from baccarat.table.rules import MAIN_BETS, SIDE_BETS

Bets = Mapping[str, Any] | None
"""What ``bets`` returns: ``{side: amount}``; ``None`` or ``{}`` sits the round out."""

FIXED_SIDES: tuple[str, ...] = MAIN_BETS + SIDE_BETS
"""The built-in bets: the main bets, then the side bets (plugins may register more: a table's are ``rules.bet_registry``)."""

OPPOSITE = {"banker": "player", "player": "banker"}
"""The other main side."""


class Strategy:
    """Base class of every strategy; subclass it and register it from a plugin.

    Class attributes: ``name`` (registered name), ``params`` (parameter names
    with their defaults), ``description`` (one line). ``__init__`` receives the
    session facts and the parameters; keep all state on the instance.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        self.session = session
        for key, value in params.items():
            setattr(self, key, value)

    @classmethod
    def accepted_params(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the parameters this strategy takes, with their defaults, once ``given`` are chosen.

        A plain strategy takes its ``params``; a composed one may take more
        depending on its parts (e.g. a selector's own parameters).
        """
        return dict(cls.params)

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Return the bets this strategy may place with ``params`` (checked against the rules before a run).

        The default reads a ``side`` parameter naming a fixed bet, a guess the
        run keeps only when it names one of the table's bets (``rules.bet_registry``);
        override it when the strategy bets elsewhere.
        """
        side = params.get("side")
        return {side} if isinstance(side, str) else set()

    def bets(self, view: TableView) -> Bets:
        """Return this round's bets as ``{side: amount}``, or None to sit out."""
        raise NotImplementedError

    def settle(self, view: TableView, nets: Mapping[str, Decimal]) -> None:
        """Learn the round's result: ``nets`` maps each bet placed to its exact net (``> 0`` won, ``< 0`` lost, 0 pushed)."""
