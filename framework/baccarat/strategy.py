"""The strategy protocol: what a strategy sees, what it returns, how it is made.

A strategy is a class. The engine makes a fresh instance for every session
(``cls(session, **params)``), then for each round calls ``bets(view)`` before
the cards are shown and ``settle(view, nets)`` after. ``view`` is a read-only
:class:`TableView` of the session and the current shoe: it never shows a card
that has not been dealt yet.

Amounts a strategy returns are in currency units (``10``, ``Decimal("2.50")``,
``12.5``) and must be whole cents. Amounts it sees are exact ``Decimal``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from baccarat.dealer import OUTCOMES
from baccarat.roads import Roads
from baccarat.rules import Rules

if TYPE_CHECKING:
    from baccarat.rounds import RoundTable

Bets = Mapping[str, Any] | None
"""What ``bets`` returns: ``{side: amount}``; ``None`` or ``{}`` sits the round out."""

_CENT = Decimal("0.01")
_MICRO = Decimal("0.000001")


def micros_to_decimal(micros: int) -> Decimal:
    """Return an exact Decimal amount from integer micro-units."""
    return (Decimal(micros) * _MICRO).quantize(_MICRO)


def cents_to_decimal(cents: int) -> Decimal:
    """Return an exact Decimal amount from integer cents."""
    return (Decimal(cents) * _CENT).quantize(_CENT)


@dataclasses.dataclass(frozen=True)
class SessionInfo:
    """Fixed facts of a session, given to a strategy when it is made."""

    number: int
    rules: Rules
    bankroll: Decimal
    table_min: Decimal
    table_max: Decimal
    rng: np.random.Generator
    """A random stream of this strategy in this session, from the experiment seed."""


class TableView:
    """Read-only view of a session before a round is dealt (maintained by the engine)."""

    __slots__ = ("_table", "_shoe_start", "_row", "_bankroll_micros", "round", "session", "initial_micros",
                 "table_min_cents", "table_max_cents", "_outcomes", "_session_outcomes", "_roads")

    def __init__(self, table: RoundTable, session: int, initial_micros: int,
                 table_min_cents: int, table_max_cents: int) -> None:
        self._table = table
        self.session = session
        self.initial_micros = initial_micros
        self.table_min_cents = table_min_cents
        self.table_max_cents = table_max_cents
        self._bankroll_micros = initial_micros
        self._shoe_start = 0
        self._row = 0
        self._outcomes: list[str] = []
        self._session_outcomes: list[str] = []
        self._roads: Roads | None = None
        self.round = 0

    # Bankroll and limits -------------------------------------------------
    @property
    def bankroll(self) -> Decimal:
        """Bankroll now, exact."""
        return micros_to_decimal(self._bankroll_micros)

    @property
    def bankroll_micros(self) -> int:
        """Bankroll now, in integer micro-units."""
        return self._bankroll_micros

    @property
    def table_min(self) -> Decimal:
        """Smallest bet the table takes."""
        return cents_to_decimal(self.table_min_cents)

    @property
    def table_max(self) -> Decimal:
        """Largest bet the table takes."""
        return cents_to_decimal(self.table_max_cents)

    @property
    def profit(self) -> Decimal:
        """Bankroll now minus the bankroll at the start of the session."""
        return micros_to_decimal(self._bankroll_micros - self.initial_micros)

    # Where we are ---------------------------------------------------------
    @property
    def shoe(self) -> int:
        """Id of the shoe the next round comes from."""
        return int(self._table.shoe[self._row])

    @property
    def hand(self) -> int:
        """Number of the next round in its shoe (from 1)."""
        return int(self._table.hand[self._row])

    @property
    def shoe_history(self) -> tuple[str, ...]:
        """Outcomes ('banker', 'player', 'tie') of this shoe's rounds so far, oldest first."""
        return tuple(self._outcomes)

    @property
    def session_history(self) -> tuple[str, ...]:
        """Outcomes of this session's rounds so far, across shoes, oldest first."""
        return tuple(self._session_outcomes)

    @property
    def last_decided(self) -> str | None:
        """Winner of this shoe's last round that was not a tie, or None."""
        for outcome in reversed(self._outcomes):
            if outcome != "tie":
                return outcome
        return None

    @property
    def roads(self) -> Roads:
        """Scoreboard roads of this shoe so far: bead plate, big road, derived roads (see ``baccarat.roads``).

        Read-only. Built when first read in a shoe, then brought up to date
        round by round, so reading it every round costs little.
        """
        road = self._roads
        if road is None:
            road = self._roads = Roads()
        outcomes = self._outcomes
        for outcome in outcomes[len(road):]:
            road._push(outcome)
        return road

    def shoe_cards(self) -> np.ndarray:
        """Card codes dealt so far from this shoe, in dealing order by hand (never a future card).

        Empty for outcome-only shoes.
        """
        table = self._table
        if not table.has_cards:
            return np.zeros(0, dtype=np.int8)
        rows = slice(self._shoe_start, self._row)
        cards = np.concatenate([table.player_cards[rows], table.banker_cards[rows]], axis=1).ravel()
        return cards[cards != 0]

    # Engine side (not for strategies) --------------------------------------
    def _enter(self, row: int, new_shoe: bool) -> None:
        if new_shoe:
            self._shoe_start = row
            self._outcomes = []
            self._roads = None
        self._row = row
        self.round += 1

    def _record(self, outcome_code: int, bankroll_micros: int) -> None:
        outcome = OUTCOMES[outcome_code]
        self._outcomes.append(outcome)
        self._session_outcomes.append(outcome)
        self._bankroll_micros = bankroll_micros


class Strategy:
    """Base class of every strategy; subclass it and register it from a plugin.

    Class attributes: ``name`` (registered name), ``params`` (parameter names
    with their defaults), ``description`` (one line). ``__init__`` receives the
    session facts and the parameters; keep all state on the instance.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""
    bets_used: ClassVar[tuple[str, ...] | None] = None

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
        """Return the bets this strategy may place with ``params`` (checked against the rules before a run)."""
        side = params.get("side")
        return {side} if isinstance(side, str) and side in _FIXED_SIDES else set()

    def bets(self, view: TableView) -> Bets:
        """Return this round's bets as ``{side: amount}``, or None to sit out."""
        raise NotImplementedError

    def settle(self, view: TableView, nets: Mapping[str, int]) -> None:
        """Learn the round's result: ``nets`` maps each side bet to its net in micro-units."""


_FIXED_SIDES = frozenset({"banker", "player", "tie", "player_pair", "banker_pair", "dragon7", "panda8"})
