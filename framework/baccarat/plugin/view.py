"""What a strategy sees: the fixed facts of its session, and a read-only view of the table before each round.

Money here is exact ``Decimal`` currency units (:mod:`baccarat.money`): the
engine keeps the bankroll in integer micro-units and the view converts it
once each time it changes.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np

from baccarat.money import cents_to_decimal, decimal_to_cents, micros_to_decimal
from baccarat.odds.counting import exact_ev_fraction, exact_evs
from baccarat.table.cards import SUIT_SHIFT
from baccarat.table.payouts import needs_suits
from baccarat.table.roads import Roads
from baccarat.table.rules import Rules


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

    @property
    def table_min_cents(self) -> int:
        """Deprecated (0.1): ``table_min`` in integer cents."""
        _moved("SessionInfo.table_min_cents", "SessionInfo.table_min (an exact Decimal)")
        return decimal_to_cents(self.table_min)

    @property
    def table_max_cents(self) -> int:
        """Deprecated (0.1): ``table_max`` in integer cents."""
        _moved("SessionInfo.table_max_cents", "SessionInfo.table_max (an exact Decimal)")
        return decimal_to_cents(self.table_max)


def _moved(old: str, new: str) -> None:
    """Warn that the 0.1 attribute ``old`` is deprecated in favour of ``new`` (removed in 0.4; CHANGELOG.md)."""
    warnings.warn(f"{old} is deprecated and will be removed in baccarat 0.4: use {new}", DeprecationWarning, stacklevel=3)


class TableView:
    """Read-only view of a session before a round is dealt (maintained by the engine).

    Everything it shows comes from rounds already dealt and settled: the
    session's past outcomes, the current shoe's outcomes and cards, the
    bankroll and the table limits. It holds no reference, public or private,
    to the table of rounds: the engine hands it each round once the round is
    dealt (its outcome, and its cards as a tuple), so that no
    strategy can reach a round not yet dealt through it.
    """

    __slots__ = (
        "_has_cards",
        "_cards_source",
        "_shoe",
        "_hand",
        "_turned",
        "_dealt",
        "_bankroll_micros",
        "_initial_micros",
        "_bankroll",
        "_bankroll_of",
        "_profit",
        "_profit_of",
        "round",
        "session",
        "table_min",
        "table_max",
        "_outcomes",
        "_earlier_shoes",
        "_last_decided",
        "_decided",
        "_streak",
        "_tallied",
        "_roads",
        "rules",
        "_unseen",
        "_counted",
        "_evs",
        "_card_reads",
    )

    def __init__(
        self, has_cards: bool, session: int, initial_micros: int, table_min_cents: int, table_max_cents: int, rules: Rules | None = None
    ) -> None:
        self._has_cards = bool(has_cards)
        self._cards_source: Callable[[], list[tuple[int, ...]]] | None = None
        """Gives the cards of this shoe's rounds so far, the first time a strategy reads them (the engine keeps ``_dealt``
        up to date from then on)."""
        self._shoe = self._hand = self._turned = 0
        self._dealt: list[tuple[int, ...]] | None = None
        """Card codes of each round dealt so far from this shoe (player's three, then banker's three, 0 = none); None
        until the strategy first reads a card (a strategy that reads no card costs nothing for them)."""
        self.rules = rules
        self.session = session
        self.table_min: Decimal = cents_to_decimal(table_min_cents)
        """Smallest bet the table takes."""
        self.table_max: Decimal = cents_to_decimal(table_max_cents)
        """Largest bet the table takes."""
        self._initial_micros = initial_micros
        self._bankroll_micros = initial_micros
        """The bankroll in micro-units, kept by the engine; ``_bankroll`` and ``_profit`` are its exact values, made
        when read for the micro-units in ``_bankroll_of`` and ``_profit_of``."""
        self._bankroll = self._profit = Decimal(0)
        self._bankroll_of = self._profit_of = -1
        self._outcomes: list[str] = []
        self._earlier_shoes: list[str] = []
        """Outcomes of the session's shoes before this one (this shoe's are ``_outcomes``)."""
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
        self._card_reads = False
        """Whether the strategy has read the cards dealt (the engine then records the expected value of its bets as seen)."""
        self.round = 0

    # Bankroll and limits -------------------------------------------------
    @property
    def bankroll(self) -> Decimal:
        """Bankroll now, exact (converted once each time it changes)."""
        micros = self._bankroll_micros
        if self._bankroll_of != micros:
            self._bankroll = micros_to_decimal(micros)
            self._bankroll_of = micros
        return self._bankroll

    @property
    def profit(self) -> Decimal:
        """Bankroll now minus the bankroll at the start of the session, exact."""
        micros = self._bankroll_micros
        if self._profit_of != micros:
            self._profit = micros_to_decimal(micros - self._initial_micros)
            self._profit_of = micros
        return self._profit

    # The 0.1 names, in integer units (deprecated) --------------------------
    @property
    def bankroll_micros(self) -> int:
        """Deprecated (0.1): the bankroll in integer micro-units."""
        _moved("TableView.bankroll_micros", "view.bankroll (an exact Decimal)")
        return self._bankroll_micros

    @property
    def profit_micros(self) -> int:
        """Deprecated (0.1): the profit in integer micro-units."""
        _moved("TableView.profit_micros", "view.profit (an exact Decimal)")
        return self._bankroll_micros - self._initial_micros

    @property
    def table_min_cents(self) -> int:
        """Deprecated (0.1): the table minimum in integer cents."""
        _moved("TableView.table_min_cents", "view.table_min (an exact Decimal)")
        return decimal_to_cents(self.table_min)

    @property
    def table_max_cents(self) -> int:
        """Deprecated (0.1): the table maximum in integer cents."""
        _moved("TableView.table_max_cents", "view.table_max (an exact Decimal)")
        return decimal_to_cents(self.table_max)

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
        return (*self._earlier_shoes, *self._outcomes)

    @property
    def last_decided(self) -> str | None:
        """Winner of this shoe's last round that was not a tie, or None."""
        outcomes = self._outcomes
        if outcomes:  # the last round, unless it was a tie: read every round, it needs no tally
            last = outcomes[-1]
            if last != "tie":
                return last
        if self._tallied < len(outcomes):
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
        last, decided, streak = self._last_decided, self._decided, self._streak
        for k in range(self._tallied, len(outcomes)):  # usually the one round dealt since the last read
            outcome = outcomes[k]
            if outcome != "tie":
                decided += 1
                streak = streak + 1 if outcome == last else 1
                last = outcome
        self._last_decided, self._decided, self._streak = last, decided, streak
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
        for outcome in outcomes[len(road) :]:
            road._push(outcome)
        return road

    def shoe_cards(self) -> np.ndarray:
        """Card codes dealt so far from this shoe, in dealing order by hand (never a future card).

        Empty for outcome-only shoes.
        """
        if not self._has_cards:
            return np.zeros(0, dtype=np.int8)
        self._card_reads = True
        return np.array([card for cards in self._cards_dealt() for card in cards if card], dtype=np.int8)

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

        key = None if bets is None else tuple(bets)
        cached = self._evs
        if cached is not None and cached[0] == self.round and cached[1] == key:
            return dict(cached[2])
        values = exact_evs(self._rules(), self.pricing_counts(key), key)
        self._evs = (self.round, key, values)
        return dict(values)

    def exact_ev_fraction(self, bet: str) -> Fraction:
        """Exact expected value per unit staked of ``bet`` for the next round, as a fraction."""

        return exact_ev_fraction(self._rules(), self.pricing_counts((bet,)), bet)

    def pricing_counts(self, bets: Sequence[str] | None = None) -> tuple[int, ...]:
        """The composition of the unseen cards that prices ``bets`` (default: every bet offered).

        By rank (13 counts, as :meth:`unseen_counts`); one count per rank and
        suit (52) when one of the bets reads suits and this shoe's cards have them.
        """

        rules = self._rules()
        wanted = rules.bets if bets is None else bets
        counts = self._counts()  # checks the ranks first
        if not any(rules.offers(bet) and needs_suits(rules, bet) for bet in wanted):
            return tuple(counts)
        seen = ([self._turned] if self._turned else []) + [card for cards in self._cards_dealt() for card in cards if card]
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

    def _cards_dealt(self) -> list[tuple[int, ...]]:
        """The cards of this shoe's rounds so far (asked for from the engine the first time in a shoe)."""
        dealt = self._dealt
        if dealt is None:
            dealt = self._dealt = self._cards_source() if self._cards_source is not None else []
        return dealt

    def _counts(self) -> list[int]:
        if not self._has_cards:
            raise ValueError("this shoe was recorded without cards, so the cards seen are unknown")
        self._card_reads = True
        if self._unseen is None:
            self._unseen = [4 * self._rules().decks] * 13
            self._counted = 0
            turned = self._turned % SUIT_SHIFT
            if turned:  # the card turned to start the burn is seen by everyone at the table
                self._unseen[turned - 1] -= 1
        unseen = self._unseen
        dealt = self._cards_dealt()
        if self._counted < len(dealt):
            for cards in dealt[self._counted :]:
                for card in cards:
                    if card:
                        unseen[card % SUIT_SHIFT - 1] -= 1
            self._counted = len(dealt)
            if min(unseen) < 0:
                raise ValueError(f"the shoe holds more cards of a rank than {self._rules().decks} deck(s)")
        return unseen

    # Engine side (not for strategies) --------------------------------------
    def _enter_shoe(self, shoe: int, turned: int, cards: Callable[[], list[tuple[int, ...]]] | None = None) -> None:
        """A new shoe starts: forget the last one; ``turned`` is the card turned to start its burn.

        Round by round, the engine then sets ``_hand`` and ``round`` before the
        strategy bets, and appends the round's outcome to ``_outcomes`` once
        it is dealt, before the strategy settles; once the strategy has read
        a card in this shoe, also the round's cards (a tuple) to ``_dealt``.
        ``cards`` gives the cards of the shoe's rounds so far, the first time
        the strategy reads them.
        """
        self._earlier_shoes += self._outcomes
        self._shoe = shoe
        self._turned = turned
        self._dealt = None
        self._cards_source = cards if self._has_cards else None
        self._outcomes = []
        self._last_decided = None
        self._decided = 0
        self._streak = 0
        self._tallied = 0
        self._roads = None
        self._unseen = None
