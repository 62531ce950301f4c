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

Most strategies are composed from three smaller pieces, each registered by
plugins (see ``docs/plugins.md``): a :class:`Selector` chooses the side, a
:class:`Progression` sets the stake, :class:`StopRule` objects end the
session's betting early. :mod:`baccarat.plugin.compose` puts them together.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from baccarat.money import (
    MAX_AMOUNT,
    AmountError,
    cents_to_decimal,
    micros_to_decimal,
    parse_amount,
)
from baccarat.table.bet_registry import bet_names
from baccarat.table.cards import SUIT_SHIFT
from baccarat.table.roads import Roads
from baccarat.table.rules import MAIN_BETS, SIDE_BETS, Rules

if TYPE_CHECKING:
    from baccarat.shoes.rounds import RoundTable

Bets = Mapping[str, Any] | None
"""What ``bets`` returns: ``{side: amount}``; ``None`` or ``{}`` sits the round out."""

FIXED_SIDES: tuple[str, ...] = MAIN_BETS + SIDE_BETS
"""The built-in bets: the main bets, then the side bets (plugins may register more: :func:`bet_names`)."""

OPPOSITE = {"banker": "player", "player": "banker"}
"""The other main side."""

# Parameter readers: plugin authors use them to check their parameters --------

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


@dataclasses.dataclass(frozen=True)
class SessionInfo:
    """Fixed facts of a session, given to a strategy when it is made."""

    number: int
    rules: Rules
    bankroll: Decimal
    table_min: Decimal
    table_max: Decimal
    random_stream: np.random.Generator | Callable[[], np.random.Generator]
    """The strategy's random stream, or a function that makes it (called when ``rng`` is first read)."""

    @functools.cached_property
    def rng(self) -> np.random.Generator:
        """A random stream of this strategy in this session, from the experiment seed (made when first read)."""
        stream = self.random_stream
        return stream if isinstance(stream, np.random.Generator) else stream()


class TableView:
    """Read-only view of a session before a round is dealt (maintained by the engine).

    Everything it shows comes from rounds already dealt and settled: the
    session's past outcomes, the current shoe's outcomes and cards, the
    bankroll and the table limits. It holds no reference, public or private,
    to the table of rounds: the engine hands it each round once the round is
    dealt (its outcome, and its cards as a list of their own), so that no
    strategy can reach a round not yet dealt through it.
    """

    __slots__ = ("_has_cards", "_shoe", "_hand", "_turned", "_dealt", "_bankroll_micros", "_initial_micros", "_bankroll",
                 "_profit", "round", "session", "table_min", "table_max", "_outcomes", "_session_outcomes",
                 "_last_decided", "_decided", "_streak", "_tallied", "_roads", "rules", "_unseen", "_counted", "_evs")

    def __init__(self, table: RoundTable, session: int, initial_micros: int,
                 table_min_cents: int, table_max_cents: int, rules: Rules | None = None) -> None:
        self._has_cards = bool(table.has_cards)  # the table itself is not kept
        self._shoe = self._hand = self._turned = 0
        self._dealt: list[list[int]] = []
        """Card codes of each round dealt so far from this shoe (player's three, then banker's three, 0 = none)."""
        self.rules = rules
        self.session = session
        self.table_min: Decimal = cents_to_decimal(table_min_cents)
        """Smallest bet the table takes."""
        self.table_max: Decimal = cents_to_decimal(table_max_cents)
        """Largest bet the table takes."""
        self._initial_micros = initial_micros
        self._bankroll_micros = initial_micros
        """The bankroll in micro-units, kept by the engine; it sets ``_bankroll`` and ``_profit`` to None when it changes."""
        self._bankroll: Decimal | None = None
        self._profit: Decimal | None = None
        self._outcomes: list[str] = []
        self._session_outcomes: list[str] = []
        self._last_decided: str | None = None
        self._decided = 0
        self._streak = 0
        self._tallied = 0
        """How many of this shoe's outcomes ``_last_decided``, ``_decided`` and ``_streak`` count (brought up to date
        when read, so that strategies that never read them cost nothing)."""
        self._roads: Roads | None = None
        self._unseen: list[int] | None = None
        self._counted = 0
        self._evs: tuple[int, tuple[str, ...] | None, dict[str, float]] | None = None
        self.round = 0

    # Bankroll and limits -------------------------------------------------
    @property
    def bankroll(self) -> Decimal:
        """Bankroll now, exact (converted once each time it changes)."""
        bankroll = self._bankroll
        if bankroll is None:
            bankroll = self._bankroll = micros_to_decimal(self._bankroll_micros)
        return bankroll

    @property
    def profit(self) -> Decimal:
        """Bankroll now minus the bankroll at the start of the session, exact."""
        profit = self._profit
        if profit is None:
            profit = self._profit = micros_to_decimal(self._bankroll_micros - self._initial_micros)
        return profit

    # Where we are ---------------------------------------------------------
    @property
    def shoe(self) -> int:
        """Id of the shoe the next round comes from."""
        return self._shoe

    @property
    def hand(self) -> int:
        """Number of the next round in its shoe (from 1)."""
        return self._hand

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
        if self._tallied < len(self._outcomes):
            self._tally()
        return self._last_decided

    @property
    def decided_in_shoe(self) -> int:
        """Number of this shoe's rounds so far that were not ties."""
        if self._tallied < len(self._outcomes):
            self._tally()
        return self._decided

    @property
    def streak_length(self) -> int:
        """How many decided rounds in a row ``last_decided`` has won in this shoe (ties skipped; 0 when none)."""
        if self._tallied < len(self._outcomes):
            self._tally()
        return self._streak

    def _tally(self) -> None:
        """Count the shoe's outcomes not counted yet into the last decided winner, decided rounds and streak."""
        outcomes = self._outcomes
        for outcome in outcomes[self._tallied:]:
            if outcome != "tie":
                self._decided += 1
                self._streak = self._streak + 1 if outcome == self._last_decided else 1
                self._last_decided = outcome
        self._tallied = len(outcomes)

    @property
    def roads(self) -> Roads:
        """Scoreboard roads of this shoe so far: bead plate, big road, derived roads (see ``baccarat.table.roads``).

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
        if not self._has_cards:
            return np.zeros(0, dtype=np.int8)
        return np.array([card for cards in self._dealt for card in cards if card], dtype=np.int8)

    # Exact odds from the cards seen (see baccarat.odds.counting) ---------------
    def unseen_counts(self) -> tuple[int, ...]:
        """Count per rank (ace first) of the cards not seen yet in this shoe: the full shoe minus the cards seen.

        Seen: the card turned to start the burn (seeded shoes) and every card
        dealt so far; the cards burned face down are unseen (see
        ``baccarat.odds.counting``). Raises ValueError for a shoe recorded without cards.
        """
        return tuple(self._counts())

    def exact_ev(self, bets: Sequence[str] | None = None) -> dict[str, float]:
        """Exact expected value per unit staked of each of ``bets`` (default: every bet offered) for the next round.

        Computed from the cards not seen yet in this shoe (never a future
        card); floats of the exact fractions. Asking only for pair bets is
        fast (microseconds); other bets take a full enumeration (well under
        a millisecond).
        """
        from baccarat.odds.counting import exact_evs

        key = None if bets is None else tuple(bets)
        cached = self._evs
        if cached is not None and cached[0] == self.round and cached[1] == key:
            return dict(cached[2])
        values = exact_evs(self._rules(), self.pricing_counts(key), key)
        self._evs = (self.round, key, values)
        return dict(values)

    def exact_ev_fraction(self, bet: str) -> Fraction:
        """Exact expected value per unit staked of ``bet`` for the next round, as a fraction."""
        from baccarat.odds.counting import exact_ev_fraction

        return exact_ev_fraction(self._rules(), self.pricing_counts((bet,)), bet)

    def pricing_counts(self, bets: Sequence[str] | None = None) -> tuple[int, ...]:
        """The composition of the unseen cards that prices ``bets`` (default: every bet offered).

        By rank (13 counts, as :meth:`unseen_counts`); one count per rank and
        suit (52) when one of the bets reads suits and this shoe's cards have them.
        """
        from baccarat.table.payouts import needs_suits

        rules = self._rules()
        wanted = rules.bets if bets is None else bets
        counts = self._counts()  # checks the ranks first
        if not any(rules.offers(bet) and needs_suits(rules, bet) for bet in wanted):
            return tuple(counts)
        seen = ([self._turned] if self._turned else []) + [card for cards in self._dealt for card in cards if card]
        if any(card < SUIT_SHIFT for card in seen):  # cards recorded by rank only
            return tuple(counts)
        suited = [rules.decks] * 52
        for card in seen:
            suited[(card % SUIT_SHIFT - 1) * 4 + card // SUIT_SHIFT - 1] -= 1
        return tuple(suited)

    def _rules(self) -> Rules:
        if self.rules is None:
            raise ValueError("this table view was made without rules, so it cannot price bets")
        return self.rules

    def _counts(self) -> list[int]:
        if not self._has_cards:
            raise ValueError("this shoe was recorded without cards, so the cards seen are unknown")
        if self._unseen is None:
            self._unseen = [4 * self._rules().decks] * 13
            self._counted = 0
            turned = self._turned % SUIT_SHIFT
            if turned:  # the card turned to start the burn is seen by everyone at the table
                self._unseen[turned - 1] -= 1
        unseen = self._unseen
        dealt = self._dealt
        if self._counted < len(dealt):
            for cards in dealt[self._counted:]:
                for card in cards:
                    if card:
                        unseen[card % SUIT_SHIFT - 1] -= 1
            self._counted = len(dealt)
            if min(unseen) < 0:
                raise ValueError(f"the shoe holds more cards of a rank than {self._rules().decks} deck(s)")
        return unseen

    # Engine side (not for strategies) --------------------------------------
    def _enter_shoe(self, shoe: int, turned: int) -> None:
        """A new shoe starts: forget the last one; ``turned`` is the card turned to start its burn.

        Round by round, the engine then sets ``_hand`` and ``round`` before the
        strategy bets, and appends the round's outcome to ``_outcomes`` and
        ``_session_outcomes`` and its cards (a list of their own) to ``_dealt``
        once it is dealt, before the strategy settles.
        """
        self._shoe = shoe
        self._turned = turned
        self._dealt = []
        self._outcomes = []
        self._last_decided = None
        self._decided = 0
        self._streak = 0
        self._tallied = 0
        self._roads = None
        self._unseen = None


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

        The default reads a ``side`` parameter naming a fixed bet; override it
        when the strategy bets elsewhere.
        """
        side = params.get("side")
        return {side} if isinstance(side, str) and side in bet_names() else set()

    def bets(self, view: TableView) -> Bets:
        """Return this round's bets as ``{side: amount}``, or None to sit out."""
        raise NotImplementedError

    def settle(self, view: TableView, nets: Mapping[str, Decimal]) -> None:
        """Learn the round's result: ``nets`` maps each bet placed to its exact net (``> 0`` won, ``< 0`` lost, 0 pushed)."""


class Selector:
    """Chooses the side a composed strategy backs each round (fresh per session).

    Class attributes: ``name`` (the value of a strategy's ``side`` parameter),
    ``params`` (its own parameters with defaults), ``description``.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        self.session = session

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
    return type(f"Fixed_{bet}", (FixedSideSelector,), {"name": bet, "side": bet, "__doc__": f"{label} every round.",
                                                        "description": f"{label} every round"})


class Progression:
    """Sets the stake of a composed strategy (fresh per session).

    ``unit`` and ``stake`` are exact ``Decimal`` currency units. The composed
    strategy reads ``self.stake`` before each bet (it must be a whole number
    of cents), calls ``restart()`` when that stake exceeds the table maximum,
    and after a settled bet calls ``won(net)`` or ``lost(net)`` with the
    bet's exact net, a ``Decimal`` (a lost bet loses its whole stake, so
    ``-net`` is the amount lost). A push calls neither.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, session: SessionInfo, unit: Decimal, **params: Any) -> None:
        self.session = session
        self.unit = unit
        self.stake = unit
        self.restart()

    def restart(self) -> None:
        """Start a new series at the first stake, forgetting all state."""
        self.stake = self.unit

    def won(self, net: Decimal) -> None:
        """Move on after a win of ``net`` (> 0)."""

    def lost(self, net: Decimal) -> None:
        """Move on after a loss of ``-net`` (``net`` < 0)."""


class StopRule:
    """Ends a composed strategy's betting for the rest of the session (fresh per session).

    Every parameter of a stop rule defaults to ``None``; the rule is active in
    a strategy when at least one of its parameters is given.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        self.session = session

    def stop(self, view: TableView) -> bool:
        """Return True to stop betting from this round on (checked before every round)."""
        raise NotImplementedError
