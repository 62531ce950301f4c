"""A seat at the table: one strategy played over every session of a chunk in lock-step, from the rounds dealt.

The seat runs where the strategy's code runs: in a player process
(:mod:`baccarat.players.process`) for a plugin's strategy, in the dealer for
the framework's own. It is told each session's fixed facts once
(:class:`Opening`), then, round after round, what was dealt in the round just
played and what is known of the next one before it is dealt (:class:`Step`);
it answers with every session's bets for that next round (:class:`Answer`).
It never holds a round not dealt yet, the experiment's seed, or an object the
dealer uses: the strategy's random streams come from a key the seed cannot be
recovered from (:func:`baccarat.streams.strategy_key`).

The seat checks what the strategy returns (sides offered, amounts that are
whole cents, nothing negative, nothing below the table minimum) and says what
is wrong in one sentence naming the session, shoe, hand and round; the dealer
cuts the bets to the table maximum and the bankroll and settles them.
"""

from __future__ import annotations

import dataclasses
import decimal
import functools
import math
import numbers
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from baccarat.errors import code_homes, plugin_traceback, raised_at
from baccarat.interrupts import is_stop
from baccarat.money import CENT_PLACES, CENTS_PER_UNIT, EXACT, MICROS_PER_CENT, cents_to_decimal, is_whole, micros_to_decimal, scaled
from baccarat.plugin.compose import Composed, stop_rule_names, strategy_maker
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.view import SessionInfo, TableView
from baccarat.streams import keyed_strategy_rng
from baccarat.table.dealer import OUTCOMES
from baccarat.table.rules import Rules

CARDS_PER_ROUND = 6
"""A round's cards as the dealer sends them: the player's three, then the banker's three (0: none)."""


@dataclasses.dataclass(frozen=True)
class Opening:
    """What a seat is told before the first round: the strategy, its sessions and their fixed facts.

    ``sessions`` are the session numbers in the order of every step's arrays:
    longest session first, so that the sessions still playing at a step are
    always the first ones.
    """

    label: str
    params: Mapping[str, Any]
    sessions: tuple[int, ...]
    stream_key: int
    bankroll_cents: int
    table_min_cents: int
    table_max_cents: int
    offered: tuple[str, ...]
    has_cards: bool


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of the lock-step: the round just dealt, then what is known of the next round before it is dealt.

    The first ``len(outcome)`` sessions played the round just dealt (none at
    the first step); the first ``len(hand)`` sessions play the next one (none
    at the last step, which only shows the last round).
    """

    outcome: np.ndarray
    """int8: outcome code of the round just dealt (:data:`baccarat.table.dealer.OUTCOMES`)."""
    cards: np.ndarray | None
    """int8, one row of :data:`CARDS_PER_ROUND` card codes per session; None when the shoes have no cards."""
    bankroll: np.ndarray
    """int64: each session's bankroll once the round was settled, micro-units."""
    nets: np.ndarray
    """int64 rows ``(session position, bet index, net micro-units)``: every bet settled in the round."""
    hand: np.ndarray
    """int64: the next round's hand number in its shoe."""
    new_shoe: np.ndarray
    """bool: the next round starts a shoe."""
    shoe: np.ndarray
    """int64: the next round's shoe."""
    turned: np.ndarray
    """int64: the card turned to start that shoe's burn (seen by everyone at the table)."""
    may_bet: np.ndarray
    """bool: the bankroll reaches the table minimum (else the session only watches)."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """A seat's answer to a step: the bets of the next round, the stop rules that ended a session's betting, or an error."""

    bets: np.ndarray
    """int64 rows ``(session position, bet index, cents, priced)`` in the order the strategy gave them; ``priced`` is
    1 when the strategy has read the cards (the dealer records the expected value it saw, ``evs``)."""
    evs: np.ndarray
    """float64: the expected value per unit the view gave for each bet (NaN when not asked)."""
    stops: np.ndarray
    """int64 rows ``(session position, stop rule from 1)``."""
    error: str = ""
    """One sentence naming the strategy and where, when it failed (its code raised, or it returned what is no bet)."""
    detail: str = ""
    """The plugin's own traceback, for ``--debug``."""
    at_start: bool = False
    """The error is the strategy failing to start a session (made for it, it raised): the run names its place in the experiment."""


def no_bets(error: str = "", detail: str = "", at_start: bool = False) -> Answer:
    """An answer with no bet and no stop (and an error, when given)."""
    return Answer(np.zeros((0, 4), np.int64), np.zeros(0, np.float64), np.zeros((0, 2), np.int64), error, detail, at_start)


def amount_to_cents(amount: Any) -> int:
    """Return a bet amount in currency units as whole cents; raise ValueError when it is not one.

    Any real number is an amount (``int``, ``float``, ``Decimal``, ``Fraction``,
    numpy numbers) when it is finite and a whole number of cents; text,
    booleans and anything else are not.
    """
    if type(amount) is int:
        return amount * CENTS_PER_UNIT
    if isinstance(amount, bool | str | bytes) or not isinstance(amount, numbers.Number | Decimal):
        raise ValueError(f"{amount!r} is not an amount")
    if isinstance(amount, numbers.Integral):
        return int(amount) * CENTS_PER_UNIT
    if isinstance(amount, numbers.Rational):
        cents = Fraction(amount) * CENTS_PER_UNIT
        if cents.denominator != 1:
            raise ValueError(f"{amount} is not a whole number of cents")
        return int(cents)
    if isinstance(amount, np.floating | float):
        if not math.isfinite(amount):
            raise ValueError(f"{amount!r} is not an amount")
        amount = Decimal(str(amount) if isinstance(amount, np.floating) else repr(float(amount)))  # shortest form
    if not isinstance(amount, Decimal):
        raise ValueError(f"{amount!r} is not an amount")
    if not amount.is_finite():
        raise ValueError(f"{amount!r} is not an amount")
    try:
        cents = scaled(amount, CENT_PLACES)
    except ArithmeticError:  # beyond any amount a Decimal holds exactly
        raise ValueError(f"{amount!r} is not an amount") from None
    if not is_whole(cents):
        raise ValueError(f"{amount} is not a whole number of cents")
    return int(cents)


LARGEST_CENTS = 2**62
"""Larger stakes are sent as this (the dealer cuts them to the table maximum all the same)."""


class Refused(Exception):
    """What a strategy did wrong, in one sentence naming it and where; ends the seat's play."""

    def __init__(self, message: str, detail: str = "", at_start: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        self.at_start = at_start


class Seat:
    """One strategy over the sessions of a chunk, in lock-step (see the module's docstring)."""

    def __init__(self, cls: type[Strategy], rules: Rules, opening: Opening) -> None:
        self.cls = cls
        self.rules = rules
        self.opening = opening
        self.offered = {bet: k for k, bet in enumerate(opening.offered)}
        self.lowest = max(opening.table_min_cents, 1)
        self.stop_names = stop_rule_names(cls)
        self.strategies: list[Any] = []
        self.views: list[TableView] = []
        self.watch_stop: list[bool] = []
        self.settles = False
        self.steps = 0
        self.kept_cards: list[np.ndarray] = []
        """The cards of every step so far (kept only while a session's shoe may still ask for them)."""
        self.shoe_step: list[int] = []
        """The step at which each session's current shoe started."""
        self.amounts: dict[int, Decimal] = {}
        self.card_readers = False
        """Whether a view has read the cards (the cards dealt are then added to the views that have)."""
        self.asked: list[Any] = []
        """Each session's strategy's ``bets``."""
        self.settled: list[Any] = []
        """Each session's strategy's ``settle``."""

    def __enter__(self) -> Seat:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    # The step ------------------------------------------------------------------------------------------
    def step(self, step: Step) -> Answer:
        """Show the round just dealt (and settle it with the strategy), then return every session's bets for the next."""
        try:
            with decimal.localcontext(EXACT):  # exact Decimal arithmetic on amounts, whatever the process did to it
                return self._step(step)
        except Refused as refused:
            return no_bets(refused.message, refused.detail, refused.at_start)
        finally:
            self.steps += 1

    def _step(self, step: Step) -> Answer:
        if self.steps == 0:
            self._open(step.shoe.tolist())
        if step.cards is not None:
            self.kept_cards.append(step.cards)
        self._show(step)
        return self._ask(step)

    def _open(self, first_shoes: list[int]) -> None:
        """Make the strategy once for each session (a fresh instance per session), with its own random stream."""
        opening = self.opening
        bankroll, table_min, table_max = (
            cents_to_decimal(c) for c in (opening.bankroll_cents, opening.table_min_cents, opening.table_max_cents)
        )
        initial = opening.bankroll_cents * MICROS_PER_CENT
        make, params = strategy_maker(self.cls, opening.params)
        for i, session in enumerate(opening.sessions):
            stream = functools.partial(keyed_strategy_rng, opening.stream_key, session)
            info = SessionInfo(session, self.rules, bankroll, table_min, table_max, stream)
            try:
                strategy = make(info, **params)
            except BaseException as exc:  # its own BaseException subclass, GeneratorExit, sys.exit: the strategy failed
                if is_stop(exc):
                    raise
                where = f"session {session}, shoe {first_shoes[i] if i < len(first_shoes) else '-'}, before round 1"
                raise Refused(
                    f"strategy {opening.label!r} could not start: {self._raised(exc)} ({where})", plugin_traceback(exc), at_start=True
                ) from None
            view = TableView(opening.has_cards, session, initial, opening.table_min_cents, opening.table_max_cents, self.rules)
            self.strategies.append(strategy)
            self.asked.append(strategy.bets)
            self.settled.append(strategy.settle)
            self.views.append(view)
            self.watch_stop.append(bool(self.stop_names) and hasattr(strategy, "stopped_by"))
            self.shoe_step.append(0)
        self.settles = bool(self.strategies) and type(self.strategies[0]).settle is not Strategy.settle

    def _show(self, step: Step) -> None:
        """The round is dealt: each view shows it, and the strategy settles its bets."""
        views = self.views
        cards = step.cards
        for view, outcome, bankroll in zip(views, map(OUTCOMES.__getitem__, step.outcome.tolist()), step.bankroll.tolist(), strict=False):
            view._outcomes.append(outcome)
            view._bankroll_micros = bankroll
        if cards is not None and self.card_readers:  # only the views that have read a card keep the cards
            for i in range(len(step.outcome)):
                dealt = views[i]._dealt
                if dealt is not None:
                    dealt.append(tuple(cards[i].tolist()))
        if not self.settles or not len(step.nets):
            return
        names = self.opening.offered
        pos_list, k_list, micros_list = step.nets.T.tolist()
        if len(pos_list) > 1 and (step.nets[1:, 0] == step.nets[:-1, 0]).any():  # a session with several bets: gathered
            self._settle_gathered(pos_list, k_list, micros_list)
            return
        amounts, settled, views = self.amounts, self.settled, self.views
        pos = -1
        try:
            for pos, k, micros in zip(pos_list, k_list, micros_list, strict=True):  # one bet a session: a mapping of one net
                amount = amounts.get(micros)
                if amount is None:
                    amount = self._amount(micros)
                settled[pos](views[pos], {names[k]: amount})
        except BaseException as exc:
            self._failed(exc, views[pos])

    def _amount(self, micros: int) -> Decimal:
        """The exact amount of ``micros`` micro-units, kept for the next bets that win or lose as much."""
        amounts = self.amounts
        if len(amounts) >= 4096:
            amounts.clear()
        amount = amounts[micros] = micros_to_decimal(micros)
        return amount

    def _settle_gathered(self, pos_list: list[int], k_list: list[int], micros_list: list[int]) -> None:
        """Settle the bets of a round in which a session placed several: each session's nets in one mapping."""
        names = self.opening.offered
        settling, nets = -1, None  # the session whose bets are gathered (the dealer sends them session after session)
        for pos, k, micros in zip(pos_list, k_list, micros_list, strict=True):
            amount = self.amounts.get(micros)
            if amount is None:
                amount = self._amount(micros)
            if pos == settling:
                nets[names[k]] = amount
                continue
            if nets is not None:
                self._settle(settling, nets)
            settling, nets = pos, {names[k]: amount}
        if nets is not None:
            self._settle(settling, nets)

    def _settle(self, pos: int, nets: dict[str, Decimal]) -> None:
        """The strategy of session ``pos`` settles its bets of the round just dealt."""
        try:
            self.settled[pos](self.views[pos], nets)
        except BaseException as exc:
            self._failed(exc, self.views[pos])

    def _ask(self, step: Step) -> Answer:
        """Every session still playing: the view is brought to the next round, and the strategy bets (when it may)."""
        n = len(step.hand)
        if n == 0:
            return no_bets()
        views, strategies, offered = self.views, self.strategies, self.offered
        lowest, table_max = self.lowest, self.opening.table_max_cents
        hands = step.hand.tolist()
        may = step.may_bet.tolist()
        if step.new_shoe.any():
            self._enter_shoes(step)
        out: list[int] = []
        priced: dict[int, float] = {}  # bet number -> the EV the view gave, for a strategy that read the cards
        stops: list[int] = []
        asked, dict_ = self.asked, dict
        lowest_units, highest_units = -(-lowest // CENTS_PER_UNIT), table_max // CENTS_PER_UNIT
        for i, view, hand, may_bet, bets in zip(range(n), views, hands, may, asked, strict=False):
            view._hand = hand
            view.round += 1
            if not may_bet:
                continue
            try:
                wanted = bets(view)
            except BaseException as exc:
                self._failed(exc, view)
            if wanted is None:
                if self.watch_stop[i] and strategies[i].stopped_by is not None:
                    stops += (i, self.stop_names.index(strategies[i].stopped_by) + 1)
                    self.watch_stop[i] = False
                continue
            # The common bet, one whole amount on one offered side: no further check.
            if type(wanted) is dict_ and len(wanted) == 1:
                ((side, amount),) = wanted.items()
                if type(amount) is int and lowest_units <= amount <= highest_units and type(side) is str:
                    index = offered.get(side)
                    if index is not None:
                        if view._card_reads:
                            priced[len(out) // 4] = _seen_ev(view, side)
                            out += (i, index, amount * CENTS_PER_UNIT, 1)
                        else:
                            out += (i, index, amount * CENTS_PER_UNIT, 0)
                        continue
            for index, cents in self._checked(view, wanted):
                if view._card_reads:
                    priced[len(out) // 4] = _seen_ev(view, self.opening.offered[index])
                out += (i, index, cents, 1 if view._card_reads else 0)
        evs = np.full(len(out) // 4, math.nan)
        if priced:
            evs[list(priced)] = list(priced.values())
        return Answer(np.asarray(out, dtype=np.int64).reshape(-1, 4), evs, np.asarray(stops, dtype=np.int64).reshape(-1, 2))

    def _enter_shoes(self, step: Step) -> None:
        """The sessions whose next round starts a shoe: their views enter it."""
        shoes, turned = step.shoe.tolist(), step.turned.tolist()
        for i in np.flatnonzero(step.new_shoe).tolist():
            self.views[i]._enter_shoe(shoes[i], turned[i], functools.partial(self._shoe_cards, i))
            self.shoe_step[i] = self.steps + 1

    def _shoe_cards(self, i: int) -> list[tuple[int, ...]]:
        """The cards of session ``i``'s current shoe so far: what its view shows when the strategy first reads them."""
        self.card_readers = True
        return [tuple(cards[i].tolist()) for cards in self.kept_cards[self.shoe_step[i] : self.steps + 1]]

    # What the strategy did wrong -----------------------------------------------------------------------
    def _checked(self, view: TableView, wanted: Any) -> list[tuple[int, int]]:
        """Check a strategy's bets (amounts in currency units); return ``(bet index, cents)`` of each non-zero one, in order."""
        offered = self.offered
        if type(wanted) is not dict and not isinstance(wanted, Mapping):
            raise self._misbehaved(view, f"returned {type(wanted).__name__}, not a mapping of side to amount")
        if type(wanted) is dict:
            items = list(wanted.items())
        else:
            try:
                items = list(wanted.items())
            except Exception as exc:
                raise self._misbehaved(view, f"returned a mapping that cannot be read: {self._raised(exc)}", exc) from None
        out = []
        table_min = self.opening.table_min_cents
        for side, amount in items:
            if not isinstance(side, str) or side not in offered:
                raise self._misbehaved(view, f"bet on {side!r}, which the table does not offer here ({', '.join(offered)}){self._chose()}")
            try:
                cents = amount_to_cents(amount)
            except ValueError as exc:
                raise self._misbehaved(view, f"bet an invalid amount on {side}: {exc}") from None
            if cents == 0:
                continue
            if cents < 0:
                raise self._misbehaved(view, f"bet a negative amount ({amount}) on {side}")
            if cents < table_min:
                raise self._misbehaved(
                    view, f"bet {cents_to_decimal(cents)} on {side}, below the table minimum {cents_to_decimal(table_min)}"
                )
            out.append((offered[side], min(cents, LARGEST_CENTS)))
        return out

    def _chose(self) -> str:
        """Who chose a composed strategy's bets: ``: its selector 'NAME' (side: PARAM) chose it``; empty for any other strategy."""
        cls = self.cls
        if isinstance(cls, type) and issubclass(cls, Composed):
            param = self.opening.params.get("side")
            try:
                name = cls.selector_for(param).name
            except ValueError:
                name = param
            return f": its selector {name!r} (side: {param}) chose it"
        return ""

    def _failed(self, exc: BaseException, view: TableView) -> None:
        """A strategy's ``bets`` or ``settle`` raised: a stop goes on up as it is; anything else is its failure."""
        if is_stop(exc):
            raise exc
        raise self._misbehaved(view, self._raised(exc), exc) from None

    def _misbehaved(self, view: TableView, what: str, exc: BaseException | None = None) -> Refused:
        where = f"session {view.session}, shoe {view.shoe}, hand {view.hand}, round {view.round}"
        return Refused(f"strategy {self.opening.label!r} {what} ({where})", plugin_traceback(exc) if exc is not None else "")

    def _raised(self, exc: BaseException) -> str:
        return said(exc, self.cls)


def said(exc: BaseException, cls: type | None = None) -> str:
    """Say what a strategy's exception was and where: ``raised ValueError: reason at FILE:LINE``, ``called sys.exit(3)``."""
    if isinstance(exc, SystemExit):
        text = f"called sys.exit({exc.code!r})" if exc.code is not None else "called sys.exit()"
    else:
        first = str(exc).splitlines()[0] if str(exc).strip() else ""
        text = f"raised {type(exc).__name__}: {first}" if first else f"raised {type(exc).__name__}"
    return text + raised_at(exc, code_homes(_pieces(cls)) if cls is not None else ())


def _pieces(cls: Any) -> list[type]:
    """The classes whose code a strategy runs: a composed strategy's pieces, a wrapped strategy's inner one, itself."""
    parts = [cls]
    for name in ("progression", "inner"):
        if isinstance(getattr(cls, name, None), type):
            parts.append(getattr(cls, name))
    parts += list(getattr(cls, "selectors", {}).values()) + list(getattr(cls, "stop_rules", ()))
    return parts


def _seen_ev(view: TableView, bet: str) -> float:
    """The expected value per unit of ``bet`` the view gave the strategy for this round, NaN when it was not asked."""
    seen = view._evs
    return seen[2].get(bet, math.nan) if seen is not None and seen[0] == view.round else math.nan
