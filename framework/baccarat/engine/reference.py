"""The reference engine: strategies walk a round table session by session.

Per-round Python, simple on purpose: it is the definition of a correct
ledger. A session is ``shoes_per_session`` consecutive shoes; every strategy
gets a fresh instance per session and starts with the full bankroll. Before
each round: a bankroll below the table minimum is ruin (the session stops
betting); otherwise the strategy's bets are checked, cut to the table
maximum and to the bankroll (counted as capped), and settled exactly.

What a strategy may bet (anything else stops the run with a StrategyError
naming the strategy, session, shoe, hand and round):

- ``None`` or an empty mapping sits the round out; otherwise a mapping of
  offered sides to amounts in currency units: finite real numbers (int,
  float, Decimal, Fraction, numpy numbers) that are whole cents, zero (no
  bet on that side) or at least the table minimum. Negative amounts, NaN,
  infinities, text, booleans, fractions of a cent and unknown sides are
  errors; so are an exception (or ``sys.exit``) from the strategy's code.
- A bet above the table maximum is cut to it, and a bet above what is left
  of the bankroll is cut to that (docs/strategies.md: "a stake is never more than the
  bankroll: it is cut to the bankroll"); each cut bet counts in ``capped``.
  Bets are taken in the order the strategy gives them; a further bet that
  the bankroll would cut below the table minimum is not placed (counted as
  capped). So every stake placed lies between the table minimum and maximum,
  and a session's stakes never exceed its bankroll.
"""

from __future__ import annotations

import dataclasses
import decimal
import functools
import itertools
import math
import numbers
import threading
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from baccarat.engine.bet_log import ledger_columns
from baccarat.errors import StrategyError, code_homes, plugin_traceback, raised_at
from baccarat.interrupts import is_stop
from baccarat.money import (
    CENT_PLACES,
    CENTS_PER_UNIT,
    EXACT,
    MICROS_PER_CENT,
    MICROS_PER_UNIT,
    cents_to_decimal,
    is_whole,
    micros_to_decimal,
    scaled,
)
from baccarat.plugin.compose import stop_rule_names
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.view import SessionInfo, TableView
from baccarat.shoes.rounds import RoundTable, table_digest
from baccarat.streams import strategy_rng
from baccarat.table.dealer import OUTCOMES
from baccarat.table.rules import BASIS_POINTS, Rules


@dataclasses.dataclass(frozen=True)
class SessionConfig:
    """Money and length of every session, in exact cents."""

    bankroll_cents: int
    table_min_cents: int
    table_max_cents: int
    shoes_per_session: int = 1

    def sample_session(self, rules: Rules) -> SessionInfo:
        """The first session's information with a fixed generator: what a strategy is made with to check it before a run."""
        return SessionInfo(
            1,
            rules,
            cents_to_decimal(self.bankroll_cents),
            cents_to_decimal(self.table_min_cents),
            cents_to_decimal(self.table_max_cents),
            np.random.default_rng(0),
        )


@dataclasses.dataclass(frozen=True)
class StrategyRun:
    """One strategy of an experiment: its ledger label, class and parameters."""

    label: str
    cls: type[Strategy]
    params: Mapping[str, Any]


LEDGER_INT_COLUMNS = ("session", "shoe", "hand", "round", "outcome", "stake", "net", "bankroll", "capped")


MAX_MICROS = 10**18 - 1
"""Largest amount kept exactly, in micro-units: it fits int64 and the ledger's ``Decimal(18, 6)``."""

MAX_BANKROLL = MAX_MICROS // MICROS_PER_UNIT
"""Largest bankroll kept exactly, in whole currency units."""


def session_money_limit(rules: Rules, config: SessionConfig, shoes_per_session: int) -> int | None:
    """Return None when no session can leave exact money; else the most rounds a session may have.

    A round wins at most every bet the table offers at the table maximum,
    each paid the largest payout; a session holds at most
    ``shoes_per_session`` shoes of at most 13 rounds per deck. The initial
    bankroll plus that many such rounds must stay within :data:`MAX_MICROS`.
    """
    rounds_per_shoe = 1 if rules.reshuffle_every_round else 13 * rules.decks + 1
    rounds = max(shoes_per_session, 1) * rounds_per_shoe
    side = [p for v in rules.side_bets.values() for p in (v.values() if isinstance(v, Mapping) else (v,))]
    pays = max([Fraction(1), rules.tie_pays, rules.banker_six_pays or Fraction(0), *side])
    most_per_round = len(rules.bets) * config.table_max_cents * int(pays * BASIS_POINTS)
    if config.bankroll_cents * MICROS_PER_CENT + rounds * most_per_round > MAX_MICROS:
        return rounds
    return None


def session_bounds(table: RoundTable, shoes_per_session: int) -> list[tuple[int, int, int]]:
    """Return ``(session, start_row, stop_row)`` for each session, sessions numbered from 1.

    Session ``k`` holds shoes ``(k-1)*shoes_per_session+1 .. k*shoes_per_session``
    counted in the table's order; a last session may hold fewer shoes.
    """
    bounds = table.shoe_bounds()
    out = []
    for k in range(0, len(bounds), shoes_per_session):
        group = bounds[k : k + shoes_per_session]
        out.append((k // shoes_per_session + 1, group[0][0], group[-1][1]))
    return out


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


Rounds = tuple[tuple[tuple[int, int | None, int], ...], tuple[tuple[int, int], ...], tuple[int | None, ...], tuple[tuple[Any, ...], ...]]
"""What the loop plays (:meth:`DealtRounds.rounds`): the sessions, the shoes' starts, the hands, what each round shows."""


class DealtRounds:
    """A table's rounds as the reference engine's loop reads them, converted once for every strategy of the table.

    What is known of each round before it is dealt: its shoe, its hand and the card turned to start its shoe's burn.
    What is shown once it is dealt: its outcome by name and what each offered bet pays on it, in basis points; a table
    has few distinct such pairs, so each is one shared tuple. The rounds' cards are converted only for a strategy that
    reads them. All of it is immutable (tuples), so the strategies of a table share it.
    """

    def __init__(self, table: RoundTable, multipliers: Mapping[str, np.ndarray]) -> None:
        self.has_cards = bool(table.has_cards)
        self.offered = {bet: k for k, bet in enumerate(multipliers)}
        self.digest = table_digest(table, dict(multipliers))
        outcomes = [OUTCOMES[code] for code in table.outcome.tolist()]
        pays = zip(*(arr.tolist() for arr in multipliers.values()), strict=True) if multipliers else [()] * len(table)
        shared: dict[tuple[str, tuple[int, ...]], tuple[str, tuple[int, ...]]] = {}
        self._after = [shared.setdefault(dealt, dealt) for dealt in zip(outcomes, pays, strict=True)]
        self._with_cards: list[tuple[str, tuple[int, ...], tuple[int, ...]]] | None = None
        self._table = table
        self._kept: dict[Any, Rounds] = {}

    def rounds(self, sessions: Sequence[tuple[int, int, int]], cards: bool) -> Rounds:
        """What the loop plays for ``sessions``, in order (kept for the table's next strategy).

        Four sequences: the sessions, each as ``(session, first shoe, number of shoes)``; each shoe's start, ``(shoe,
        card turned to start its burn)``; the hands of each shoe's rounds, then ``None`` where the shoe ends; what each
        round shows once dealt, ``(outcome, pays)`` (with ``cards``, when the table has them, ``(outcome, pays, cards)``).
        So the loop holds no count of a shoe's rounds before they are dealt.
        """
        key = (tuple(map(tuple, sessions)), cards and self.has_cards)
        if key not in self._kept:
            if len(self._kept) >= 2:  # one set of sessions at a time, with and without the cards
                self._kept.clear()
            table = self._table
            after = self._with_cards_made() if key[1] else self._after
            bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
            rows = np.concatenate([np.arange(start, stop) for _, start, stop in sessions]) if sessions else np.zeros(0, np.int64)
            if len(rows) and (np.diff(rows) == 1).all():  # sessions one after the other: one slice
                dealt = tuple(after[rows[0] : rows[-1] + 1])
            else:
                dealt = tuple(map(after.__getitem__, rows.tolist()))
            shoe_starts = np.flatnonzero(np.diff(table.shoe)) + 1
            inner = shoe_starts.tolist()
            first = np.searchsorted(shoe_starts, bounds[:, 1], side="right").tolist()  # each session's shoes after its first
            last = np.searchsorted(shoe_starts, bounds[:, 2], side="left").tolist()
            shoe, turned, hand = table.shoe.tolist(), table.turned.tolist(), table.hand.tolist()
            plays, starts, hands = [], [], []
            for (session, start, stop), i, j in zip(sessions, first, last, strict=True):
                cuts = [start, *inner[i:j], stop] if start < stop else []
                for a, b in itertools.pairwise(cuts):
                    starts.append((shoe[a], turned[a]))
                    hands += hand[a:b]
                    hands.append(None)
                plays.append((session, shoe[start] if cuts else None, len(cuts) - 1 if cuts else 0))
            self._kept[key] = (tuple(plays), tuple(starts), tuple(hands), dealt)
        return self._kept[key]

    def _with_cards_made(self) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
        """Each round's ``(outcome, pays)`` with its cards (the player's three, then the banker's: a tuple, as nothing may change them)."""
        if self._with_cards is None:
            cards = map(tuple, np.concatenate([self._table.player_cards, self._table.banker_cards], axis=1).tolist())
            self._with_cards = [(outcome, pays, dealt) for (outcome, pays), dealt in zip(self._after, cards, strict=True)]
        return self._with_cards


def run_strategy(
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]] | None = None,
    dealt: DealtRounds | None = None,
) -> dict[str, np.ndarray]:
    """Play one strategy over every session of ``table``; return its ledger columns.

    One ledger row per round of every session. Money columns are integers:
    ``stake`` and ``stake_<bet>`` in cents, ``net``, ``net_<bet>`` and
    ``bankroll`` in micro-units. The strategy speaks exact Decimal currency
    units: each bet is converted to cents once, each net to a Decimal once
    (only for a strategy that settles), and the view converts the bankroll
    once each time it changes. The loop logs only the bets placed; the dense
    columns are built from the log at the end (:func:`baccarat.engine.bet_log.ledger_columns`).
    ``dealt`` is the table's rounds converted for the loop (:class:`DealtRounds`), shared by the
    strategies of one table; made here when not given.

    The strategy's code runs where nothing it can reach through its arguments or the frames that
    called it holds a round not yet dealt: the loop runs on a thread of its own (whose frames start
    with it), reads each round from iterators once the strategy has bet, and hands the view each round
    once dealt. A strategy that advances those iterators is found out (the rounds run short) and refused.
    The rounds' cards are handed over only to a strategy that reads them: one that asks for a card
    is played again from the start, with the cards.
    """
    if dealt is None:
        dealt = DealtRounds(table, multipliers)
    if sessions is None:
        sessions = session_bounds(table, config.shoes_per_session)
    logs = _play_apart(run, dealt, rules, config, seed, sessions, cards=False)
    if logs is None:  # the strategy read a card: again, with the cards
        logs = _play_apart(run, dealt, rules, config, seed, sessions, cards=True)
    if logs is None:
        raise StrategyError(f"strategy {run.label!r} asked for cards it was given")  # not reached: the view asks once
    if table_digest(table, dict(multipliers)) != dealt.digest:
        raise StrategyError(
            f"the rounds changed while strategy {run.label!r} played them: its code wrote to the table "
            "of rounds or their settlement (a strategy may read only the rounds dealt, through its view); "
            "nothing is written"
        )
    placed_log, capped_log, stop_log, priced_log = logs
    initial = config.bankroll_cents * MICROS_PER_CENT
    return ledger_columns(table, sessions, tuple(dealt.offered), initial, placed_log, capped_log, stop_log, priced_log)


Logs = tuple[list[int], list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int, int, float]]]
"""What the loop logs: the bets placed (four numbers each, one after the other), the bets capped, the rounds a stop rule
ended betting, the bets placed by a strategy that read the cards with the EV it saw (:func:`ledger_columns`)."""


def _play_apart(
    run: StrategyRun,
    dealt: DealtRounds,
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]],
    cards: bool,
) -> Logs | None:
    """Play the sessions on a thread of its own, handing it the rounds as iterators; None when the strategy wants the cards."""
    plays, starts, hands, after = (iter(part) for part in dealt.rounds(sessions, cards))
    handoff = [(plays, starts, hands, after)]
    del plays, starts, hands, after
    box: dict[str, Any] = {}
    halt: list[bool] = []  # set when this thread stops waiting (Ctrl-C): the loop then ends at the next session
    args = (handoff, box, halt, run, rules, config, seed, dealt.offered, dealt.has_cards, cards)
    thread = threading.Thread(target=_on_thread, args=args, name=f"strategy {run.label}", daemon=True)
    thread.start()
    try:
        thread.join()
    except BaseException:
        halt.append(True)
        raise
    if "error" in box:
        raise box["error"]
    played, rows, logs = box["played"]
    if logs == WANTS_CARDS:
        return None
    if logs == TOOK_ROUNDS or played != len(sessions) or rows != sum(stop - start for _, start, stop in sessions):
        # the strategy's code took rounds or sessions from the loop
        raise StrategyError(
            f"strategy {run.label!r} took rounds not dealt yet from the engine's loop (a strategy may read only the "
            "rounds dealt, through its view); nothing is written"
        )
    return logs


WANTS_CARDS = "wants the cards"
"""What the loop returns when the strategy read a card the view was not given: it is played again with them."""

TOOK_ROUNDS = "took rounds"
"""What the loop returns when the rounds ran short or were left over: the strategy's code advanced its iterators."""


def _on_thread(handoff: list[Any], box: dict[str, Any], halt: list[bool], *args: Any) -> None:
    """The thread's body: play in a copy of the exact context, keep the result or the exception in ``box``."""
    # The strategy plays in a copy of the exact context: its Decimal arithmetic on amounts is exact, and what its
    # code does to the context ends with its run.
    try:
        with decimal.localcontext(EXACT):
            box["played"] = _play_sessions(handoff.pop(), halt, *args)
    except BaseException as exc:  # re-raised by the caller, on its own thread
        box["error"] = exc


def _play_sessions(  # noqa: C901 - the reference engine's round loop, one readable piece: the definition the compiled path is held to
    rounds: tuple[Iterator[tuple[int, int | None, int]], Iterator[tuple[int, int]], Iterator[int | None], Iterator[tuple[Any, ...]]],
    halt: list[bool],
    run: StrategyRun,
    rules: Rules,
    config: SessionConfig,
    seed: int,
    offered: Mapping[str, int],
    has_cards: bool,
    cards: bool,
) -> tuple[int, int, Logs | str]:
    """The loop of :func:`run_strategy`: return the sessions and rounds played and the logs (or :data:`WANTS_CARDS`, :data:`TOOK_ROUNDS`).

    ``rounds`` are four iterators over what :meth:`DealtRounds.rounds` gives: the sessions, the shoes' starts, the hands
    (known before a round is dealt; ``None`` ends a shoe) and what each round shows once dealt.
    """
    plays, starts, hands, after = rounds
    table_min, table_max = config.table_min_cents, config.table_max_cents
    min_micros = table_min * MICROS_PER_CENT
    lowest = max(table_min, 1)  # the smallest stake placed: the table minimum, and never nothing
    largest = cents_to_decimal(table_max)  # a Decimal bet up to this converts to cents without overflow
    initial = config.bankroll_cents * MICROS_PER_CENT
    bankroll_amount, min_amount, max_amount = (cents_to_decimal(c) for c in (config.bankroll_cents, table_min, table_max))
    amounts: dict[int, Decimal] = {}  # net micro-units -> the Decimal a strategy settles (a run has few distinct nets)
    placed_log: list[int] = []  # ledger row, bet index, cents, net micro-units of each bet placed, one after the other
    capped_log: list[tuple[int, int]] = []  # (ledger row, bets capped)
    stop_log: list[tuple[int, int]] = []  # (ledger row, stop rule from 1): the round a stop rule ended betting
    # (ledger row, bet index, cents, EV per unit the view gave, NaN when not asked) of each bet placed by a
    # strategy that has read the cards: its expected value is the one it saw, not the one off the top
    priced_log: list[tuple[int, int, int, float]] = []
    names = tuple(offered)
    stop_names = stop_rule_names(run.cls)
    out_row = -1  # the ledger row of the round being played: the sessions' rounds, session after session
    played = 0
    for session, first_shoe, shoe_count in plays:
        if halt:  # the caller stopped waiting: no one reads what follows
            return played, out_row + 1, TOOK_ROUNDS
        played += 1
        info = SessionInfo(
            session, rules, bankroll_amount, min_amount, max_amount, functools.partial(strategy_rng, seed, run.label, session)
        )
        try:
            strategy = run.cls(info, **run.params)
        except BaseException as exc:  # its own BaseException subclass, GeneratorExit, sys.exit: the strategy failed
            if is_stop(exc):
                raise
            where = f"session {session}, shoe {first_shoe if first_shoe is not None else '-'}, before round 1"
            raise _plugin_error(StrategyError(f"strategy {run.label!r} could not start: {_raised(exc, run)} ({where})"), exc) from None
        view = TableView(has_cards, session, initial, table_min, table_max, rules)
        bets = strategy.bets
        settle = None if type(strategy).settle is Strategy.settle else strategy.settle  # the base settle does nothing
        bankroll = initial
        watch_stop = bool(stop_names) and hasattr(strategy, "stopped_by")
        for shoe, turned in itertools.islice(starts, shoe_count):
            view._enter_shoe(shoe, turned, cards)  # the view forgets the last shoe
            shoe_seen, cards_seen = view._outcomes.append, (view._dealt.append if view._dealt is not None else None)
            for hand in iter(hands.__next__, None):  # the shoe's hands, up to the mark that ends it
                out_row += 1
                view._hand = hand
                view.round += 1
                k = -1  # the one bet placed within the limits: its index, side and cents (else k < 0)
                placed = None  # else the bets placed as {side: cents}, once checked and cut
                if bankroll >= min_micros:
                    try:
                        wanted = bets(view)
                    except BaseException as exc:
                        if is_stop(exc):
                            raise
                        if view._cards_wanted:
                            return played, out_row + 1, WANTS_CARDS
                        raise _plugin_error(_misbehaved(run, view, _raised(exc, run)), exc) from None
                    if wanted is None:
                        if watch_stop and strategy.stopped_by is not None:
                            stop_log.append((out_row, stop_names.index(strategy.stopped_by) + 1))
                            watch_stop = False
                    else:
                        # The common bet, one whole amount on one offered side within the limits, needs no cut; any
                        # other is checked, cut or refused by _check_bets.
                        if type(wanted) is dict and len(wanted) == 1:
                            ((side, amount),) = wanted.items()
                            index = offered.get(side) if type(side) is str else None
                            kind = type(amount)
                            if kind is int:
                                cents = amount * CENTS_PER_UNIT
                            elif kind is Decimal and amount.is_finite() and 0 < amount <= largest:
                                numerator, denominator = amount.as_integer_ratio()
                                cents, rest = divmod(numerator * CENTS_PER_UNIT, denominator)
                                if rest:  # a fraction of a cent: _check_bets refuses it
                                    cents = 0
                            else:
                                cents = 0
                            if index is not None and lowest <= cents <= table_max and cents * MICROS_PER_CENT <= bankroll:
                                k = index
                        if k < 0:
                            placed, capped = _check_bets(run, view, wanted, offered, bankroll, table_min, table_max)
                            if capped:
                                capped_log.append((out_row, capped))
                # The round is dealt: the view shows it (also to the strategy settling it).
                try:
                    if cards_seen is None:
                        outcome, pays = next(after)
                    else:
                        outcome, pays, round_cards = next(after)
                        cards_seen(round_cards)
                except StopIteration:  # the strategy's code took rounds from the loop's iterator
                    return played, out_row + 1, TOOK_ROUNDS
                shoe_seen(outcome)
                if k >= 0:
                    won = cents * pays[k]
                    bankroll += won
                    placed_log.extend((out_row, k, cents, won))
                    if view._card_reads:
                        priced_log.append((out_row, k, cents, _seen_ev(view, names[k])))
                    if settle is None:  # no nets to make
                        view._bankroll_micros = bankroll
                        continue
                    nets = {side: amounts[won] if won in amounts else _amount(amounts, won)}
                elif placed:
                    nets = {}
                    for bet, cents in placed.items():
                        k = offered[bet]
                        won = cents * pays[k]
                        nets[bet] = amounts[won] if won in amounts else _amount(amounts, won)
                        bankroll += won
                        placed_log.extend((out_row, k, cents, won))
                        if view._card_reads:
                            priced_log.append((out_row, k, cents, _seen_ev(view, bet)))
                else:
                    continue
                view._bankroll_micros = bankroll
                if settle is not None:
                    try:
                        settle(view, nets)
                    except BaseException as exc:
                        if is_stop(exc):
                            raise
                        if view._cards_wanted:
                            return played, out_row + 1, WANTS_CARDS
                        raise _plugin_error(_misbehaved(run, view, _raised(exc, run)), exc) from None
        if view._cards_wanted:  # it asked for a card, caught what the view raised and went on
            return played, out_row + 1, WANTS_CARDS
    if next(starts, None) is not None or next(hands, None) is not None or next(after, None) is not None:
        # left over: its code took rounds from the loop
        return played, out_row + 1, TOOK_ROUNDS
    return played, out_row + 1, (placed_log, capped_log, stop_log, priced_log)


def _seen_ev(view: TableView, bet: str) -> float:
    """The expected value per unit of ``bet`` the view gave the strategy for this round, NaN when it was not asked."""
    seen = view._evs
    return seen[2].get(bet, math.nan) if seen is not None and seen[0] == view.round else math.nan


def _amount(amounts: dict[int, Decimal], micros: int) -> Decimal:
    """Return ``micros`` as a Decimal amount, remembered in ``amounts`` (kept to a few thousand)."""
    if len(amounts) >= 4096:
        amounts.clear()
    value = amounts[micros] = micros_to_decimal(micros)
    return value


def _misbehaved(run: StrategyRun, view: TableView, what: str) -> StrategyError:
    return StrategyError(f"strategy {run.label!r} {what} (session {view.session}, shoe {view.shoe}, hand {view.hand}, round {view.round})")


def _raised(exc: BaseException, run: StrategyRun | None = None) -> str:
    """Say what a strategy's exception was and where: ``raised ValueError: reason at FILE:LINE``, ``called sys.exit(3)``."""
    if isinstance(exc, SystemExit):
        said = f"called sys.exit({exc.code!r})" if exc.code is not None else "called sys.exit()"
    else:
        text = str(exc).splitlines()[0] if str(exc).strip() else ""
        said = f"raised {type(exc).__name__}: {text}" if text else f"raised {type(exc).__name__}"
    return said + raised_at(exc, code_homes(_classes(run.cls)) if run is not None else ())


def _classes(cls: Any) -> list[type]:
    """The classes whose code a strategy runs: a composed strategy's pieces, a wrapped strategy's inner one, itself."""
    parts = [cls]
    for name in ("progression", "inner"):
        if isinstance(getattr(cls, name, None), type):
            parts.append(getattr(cls, name))
    parts += list(getattr(cls, "selectors", {}).values()) + list(getattr(cls, "stop_rules", ()))
    return parts


def _plugin_error(error: StrategyError, exc: BaseException) -> StrategyError:
    """Keep the plugin's own traceback on ``error``, for ``--debug``."""
    error.detail = plugin_traceback(exc)
    return error


def _check_bets(
    run: StrategyRun,
    view: TableView,
    wanted: Mapping[str, Any],
    offered: Mapping[str, int],
    bankroll_micros: int,
    table_min: int,
    table_max: int,
) -> tuple[dict[str, int], int]:
    """Validate a strategy's bets (amounts in currency units); cut them to the table maximum and the bankroll (cents)."""
    if type(wanted) is not dict and not isinstance(wanted, Mapping):
        raise _misbehaved(run, view, f"returned {type(wanted).__name__}, not a mapping of side to amount")
    placed: dict[str, int] = {}
    capped = 0
    available = bankroll_micros // MICROS_PER_CENT
    if type(wanted) is dict:
        items = wanted.items()
    else:
        try:
            items = list(wanted.items())
        except Exception as exc:
            raise _plugin_error(_misbehaved(run, view, f"returned a mapping that cannot be read: {_raised(exc, run)}"), exc) from None
    for side, amount in items:
        if not isinstance(side, str) or side not in offered:
            raise _misbehaved(run, view, f"bet on {side!r}, which the table does not offer here ({', '.join(offered)})")
        if type(amount) is int:
            cents = amount * CENTS_PER_UNIT
        else:
            try:
                cents = amount_to_cents(amount)
            except ValueError as exc:
                raise _misbehaved(run, view, f"bet an invalid amount on {side}: {exc}") from None
        if cents == 0:
            continue
        if cents < 0:
            raise _misbehaved(run, view, f"bet a negative amount ({amount}) on {side}")
        if cents < table_min:
            raise _misbehaved(run, view, f"bet {cents_to_decimal(cents)} on {side}, below the table minimum {cents_to_decimal(table_min)}")
        if cents > table_max or cents > available:
            cents = min(table_max, available)
            capped += 1
            if cents <= 0 or cents < table_min:  # what the bankroll leaves for a further bet is below the minimum
                continue
        available -= cents
        placed[side] = cents
    return placed, capped
