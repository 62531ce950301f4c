"""The reference engine: the dealer of a strategy's sessions, round by round, and the definition of a correct ledger.

Per-round, simple on purpose. A session is ``shoes_per_session`` consecutive
shoes; every strategy gets a fresh instance per session and starts with the
full bankroll. The strategy plays at a seat (:class:`baccarat.players.seat.Seat`:
in a player process for a plugin's strategy, :mod:`baccarat.players.process`)
that is dealt every session of the chunk in lock-step and sees only what has
been dealt. Before each round: a bankroll below the table minimum is ruin
(the session stops betting); otherwise the strategy's bets are checked (by the
seat: what it may bet is said there), cut to the table maximum and to the
bankroll (counted as capped), and settled exactly, here.

- A bet above the table maximum is cut to it, and a bet above what is left
  of the bankroll is cut to that (docs/strategies.md: "a stake is never more than the
  bankroll: it is cut to the bankroll"); each cut bet counts in ``capped``.
  Bets are taken in the order the strategy gives them; a further bet that
  the bankroll would cut below the table minimum is not placed (counted as
  capped). So every stake placed lies between the table minimum and maximum,
  and a session's stakes never exceed its bankroll.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Generator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from baccarat.engine.bet_log import ledger_columns
from baccarat.engine.sessions import SessionConfig, session_bounds, sessions_of
from baccarat.errors import StrategyError
from baccarat.money import BASIS_POINTS, MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.players.seat import CARDS_PER_ROUND, LARGEST_CENTS, Opening, Step, amount_to_cents
from baccarat.players.vector_seat import seat_for
from baccarat.plugin.compose import stop_rule_names
from baccarat.plugin.strategy import Strategy
from baccarat.shoes.rounds import RoundTable
from baccarat.streams import strategy_key
from baccarat.table.rules import Rules

__all__ = [
    "SESSION_RULES",
    "SessionConfig",
    "StrategyRun",
    "amount_to_cents",
    "end_names",
    "run_strategies",
    "run_strategy",
    "session_bounds",
    "session_money_limit",
]

SESSION_RULES: tuple[str, str] = ("session.win_goal", "session.stop_loss")
"""How ``stopped_by`` names the dealer's session rules (after the strategy's own stop rules)."""


def end_names(cls: type[Strategy]) -> tuple[str, ...]:
    """Return the names of what can end a session's betting, by code from 1: the strategy's stop rules, then :data:`SESSION_RULES`.

    The engines log the code of what ended it (0: nothing); the win goal's code
    is ``len(stop_rule_names(cls)) + 1``, the stop-loss's the next one.
    """
    return stop_rule_names(cls) + SESSION_RULES


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
    ``shoes_per_session`` shoes of at most 13 rounds per deck (or
    ``config.rounds`` rounds). The initial bankroll plus that many such rounds
    must stay within :data:`MAX_MICROS`.
    """
    rounds_per_shoe = 1 if rules.reshuffle_every_round else 13 * rules.decks + 1
    rounds = max(shoes_per_session, 1) * rounds_per_shoe if config.rounds is None else config.rounds
    side = [p for v in rules.side_bets.values() for p in (v.values() if isinstance(v, Mapping) else (v,))]
    pays = max([Fraction(1), rules.tie_pays, rules.banker_six_pays or Fraction(0), *side])
    most_per_round = len(rules.bets) * config.table_max_cents * int(pays * BASIS_POINTS)
    if config.bankroll_cents * MICROS_PER_CENT + rounds * most_per_round > MAX_MICROS:
        return rounds
    return None


SeatMaker = Callable[["StrategyRun", Opening], Any]
"""Makes the seat a strategy plays at: ``seats(run, opening)``, a context manager with ``step(Step) -> Answer``."""


def run_strategy(
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]] | None = None,
    seats: SeatMaker | None = None,
) -> dict[str, np.ndarray]:
    """Play one strategy over every session of ``table``; return its ledger columns.

    One ledger row per round of every session. Money columns are integers:
    ``stake`` and ``stake_<bet>`` in cents, ``net``, ``net_<bet>`` and
    ``bankroll`` in micro-units (:func:`baccarat.engine.bet_log.ledger_columns`).

    This is the dealer: it deals every session's rounds in lock-step to a
    seat (:class:`baccarat.players.seat.Seat`) that plays the strategy over
    all of them, round by round, and sees only what was dealt; it cuts the
    bets the seat returns to the table maximum and the bankroll, settles
    them and logs them. ``seats`` makes the seat: a player process for a
    plugin's strategy (:mod:`baccarat.players.process`); by default a seat
    in this process (the framework's own strategies, and tests).
    """
    played = run_strategies((run,), table, multipliers, rules, config, seed, sessions, seats)[0]
    if isinstance(played, StrategyError):
        raise played
    return played()


Played = Callable[[], dict[str, np.ndarray]] | StrategyError
"""A strategy played by :func:`run_strategies`: what makes its ledger columns, or the error that ended its play."""


def run_strategies(
    runs: Sequence[StrategyRun],
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]] | None = None,
    seats: SeatMaker | None = None,
) -> list[Played]:
    """Play several strategies over every session of ``table`` together, round by round; return each one's ledger.

    Each strategy is dealt as :func:`run_strategy` deals it (the same steps,
    the same ledger), but the dealer sends each strategy's seat its next
    step as soon as it has settled its answer, then reads the next
    strategy's: seats in player processes then play their strategies at
    once, on as many cores as there are, while the dealer cuts and settles
    the answers as they come. Each strategy's
    result is a function making its ledger columns (made when asked for, one
    strategy at a time), or the :class:`StrategyError` that ended its play.
    As when the strategies play one after another, a strategy that fails
    ends the play of those after it (their results are that error too): the
    first error in the order of ``runs`` is the one a caller raises.
    """
    if sessions is None:
        sessions = sessions_of(table, config)
    offered = tuple(multipliers)
    bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
    lengths = bounds[:, 2] - bounds[:, 1]
    order = np.argsort(-lengths, kind="stable")  # longest first: the sessions still playing are always the first ones
    starts, lengths_sorted = bounds[order, 1], lengths[order]
    first_row = (np.cumsum(lengths) - lengths)[order]  # each session's first ledger row
    initial = config.bankroll_cents * MICROS_PER_CENT
    numbers = tuple(bounds[order, 0].tolist())
    results: list[Played | None] = [None] * len(runs)
    with contextlib.ExitStack() as held:
        playing: dict[int, tuple[Any, Any]] = {}
        for i, run in enumerate(runs):
            opening = Opening(
                run.label,
                dict(run.params),
                numbers,
                strategy_key(seed, run.label),
                config.bankroll_cents,
                config.table_min_cents,
                config.table_max_cents,
                offered,
                bool(table.has_cards),
            )
            seat = held.enter_context(seats(run, opening) if seats is not None else seat_for(run.cls, rules, opening))
            playing[i] = (seat, _dealing(run, table, multipliers, config, starts, lengths_sorted, first_row))

        def failed(i: int, exc: StrategyError) -> None:  # strategy i and those after it play no more
            for k in [k for k in playing if k >= i]:
                del playing[k]
                results[k] = exc

        steps: dict[int, Step] = {}
        for i in list(playing):
            if i in playing:
                seat, dealing = playing[i]
                steps[i] = next(dealing)
                try:
                    _send(seat, steps[i])
                except StrategyError as exc:
                    failed(i, exc)
        while playing:
            for i in list(playing):
                if i not in playing:  # a strategy before it failed
                    continue
                seat, dealing = playing[i]
                try:
                    steps[i] = dealing.send(_answer(seat, steps[i]))
                    _send(seat, steps[i])  # its next step at once: its player plays it while the others' answers are read
                except StopIteration as done:
                    del playing[i]
                    results[i] = functools.partial(ledger_columns, table, sessions, offered, initial, *done.value)
                except StrategyError as exc:
                    failed(i, exc)
    return [played for played in results if played is not None]


def _send(seat: Any, step: Step) -> None:
    """Hand ``step`` to a seat that plays elsewhere (a seat in this process plays it when its answer is read)."""
    send = getattr(seat, "send", None)
    if send is not None:
        send(step)


def _answer(seat: Any, step: Step) -> Any:
    """The seat's answer to ``step`` (sent by :func:`_send`)."""
    answer = getattr(seat, "answer", None)
    return answer() if answer is not None else seat.step(step)


def _dealing(  # noqa: C901 - the dealer's round loop, one readable piece: the definition the compiled path is held to
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    config: SessionConfig,
    starts: np.ndarray,
    lengths: np.ndarray,
    first_row: np.ndarray,
) -> Generator[Step, Any, tuple[np.ndarray, np.ndarray, np.ndarray, list[Any]]]:
    """The lock-step of :func:`run_strategy`: yield each step, be sent the seat's answer; return the logs of the bets placed, capped,
    stopped and priced."""
    offered = tuple(multipliers)
    pays = np.stack([np.asarray(multipliers[bet], dtype=np.int64) for bet in offered]) if offered else np.zeros((0, len(table)), np.int64)
    table_min, table_max = config.table_min_cents, config.table_max_cents
    lowest = max(table_min, 1)
    min_micros = table_min * MICROS_PER_CENT
    initial_micros = config.bankroll_cents * MICROS_PER_CENT
    bankroll = np.full(len(starts), initial_micros, dtype=np.int64)
    cards = np.concatenate([table.player_cards, table.banker_cards], axis=1).astype(np.int8) if table.has_cards else None
    stop_rules = len(stop_rule_names(run.cls))
    goal, loss = config.session_rules()
    ended = np.zeros(len(starts), bool)  # sessions a session rule ended
    placed_logs, capped_logs, stop_logs, priced_logs = [], [], [], []
    steps = int(lengths[0]) if len(lengths) else 0
    empty_i = np.zeros(0, np.int64)
    shown = (np.zeros(0, np.int8), None if cards is None else np.zeros((0, CARDS_PER_ROUND), np.int8), empty_i, np.zeros((0, 3), np.int64))
    for s in range(steps + 1):
        n = int(np.count_nonzero(lengths > s))
        rows = starts[:n] + s
        if n:
            shoe = table.shoe[rows].astype(np.int64)
            new_shoe = np.ones(n, bool) if s == 0 else shoe != table.shoe[rows - 1]
            step = Step(
                *shown,
                table.hand[rows].astype(np.int64),
                new_shoe,
                shoe,
                table.turned[rows].astype(np.int64),
                (bankroll[:n] >= min_micros) & ~ended[:n],
            )
        else:
            step = Step(*shown, empty_i, np.zeros(0, bool), empty_i, empty_i, np.zeros(0, bool))
        answer = yield step
        if answer.error:
            error = StrategyError(answer.error)
            error.detail, error.at_start = answer.detail, answer.at_start
            raise error
        if not n:
            break
        bets = _sound(run, answer, step, len(offered), stop_rules)
        pos, k, cents, priced = bets.T if len(bets) else (empty_i,) * 4
        cents, capped, placed = _cut(pos, cents, bankroll, lowest, table_min, table_max)
        out_rows = first_row[pos] + s
        won = cents * pays[k, rows[pos]]
        paid = pos[placed]
        if len(paid) < 2 or (paid[1:] != paid[:-1]).all():  # one bet a session (``pos`` in order): a plain add
            bankroll[paid] += won[placed]
        else:
            np.add.at(bankroll, paid, won[placed])
        placed_logs.append(np.stack([out_rows, k, cents, won], axis=1)[placed])
        if capped.any():
            counted = np.bincount(pos, weights=capped, minlength=n).astype(np.int64)
            hit = np.flatnonzero(counted)
            capped_logs.append(np.stack([first_row[hit] + s, counted[hit]], axis=1))
        if len(answer.stops):
            stop_logs.append(np.stack([first_row[answer.stops[:, 0]] + s, answer.stops[:, 1]], axis=1))
        if priced.any():
            keep = placed & (priced == 1)
            priced_logs.append((out_rows[keep], k[keep], cents[keep], answer.evs[keep]))
        if goal is not None or loss is not None:
            _end_sessions(bankroll[:n], ended[:n], first_row, s, initial_micros, min_micros, goal, loss, stop_rules, stop_logs)
        nets = np.stack([pos, k, won], axis=1)[placed]
        shown = (table.outcome[rows].astype(np.int8), None if cards is None else cards[rows], bankroll[:n].copy(), nets)
    placed_log = np.concatenate(placed_logs) if placed_logs else np.zeros((0, 4), np.int64)
    capped_log = np.concatenate(capped_logs) if capped_logs else np.zeros((0, 2), np.int64)
    stop_log = np.concatenate(stop_logs) if stop_logs else np.zeros((0, 2), np.int64)
    priced_log = sorted(row for part in priced_logs for row in zip(*(a.tolist() for a in part), strict=True))
    return placed_log, capped_log, stop_log, priced_log


def _end_sessions(
    bankroll: np.ndarray,
    ended: np.ndarray,
    first_row: np.ndarray,
    s: int,
    initial: int,
    min_micros: int,
    goal: int | None,
    loss: int | None,
    stop_rules: int,
    stop_logs: list[np.ndarray],
) -> None:
    """The session rules, once the round is settled: end (``ended``, logged in this round) each session at its goal or stop-loss.

    Ruin comes first: a bankroll below the table minimum is ruined, not stopped.
    """
    live = ~ended & (bankroll >= min_micros)
    profit = bankroll - initial
    won = live & (profit >= goal) if goal is not None else np.zeros(len(live), bool)
    lost = live & ~won & (profit <= -loss) if loss is not None else np.zeros(len(live), bool)
    for hit, code in ((won, stop_rules + 1), (lost, stop_rules + 2)):
        at = np.flatnonzero(hit)
        if len(at):
            stop_logs.append(np.stack([first_row[at] + s, np.full(len(at), code)], axis=1))
            ended[at] = True


def _sound(run: StrategyRun, answer: Any, step: Step, bets: int, stop_rules: int) -> np.ndarray:
    """Return the answer's bets once the dealer has checked them: only sessions that may bet, offered bets, one bet a side."""
    rows = np.asarray(answer.bets, dtype=np.int64).reshape(-1, 4)
    stops = np.asarray(answer.stops, dtype=np.int64).reshape(-1, 2)
    n = len(step.hand)
    pos, k = rows[:, 0], rows[:, 1]
    sound = (
        len(answer.evs) == len(rows)
        and bool(((pos >= 0) & (pos < n)).all())
        and bool(step.may_bet[pos].all() if len(pos) else True)
        and bool(((k >= 0) & (k < bets)).all())
        and bool((np.diff(pos) >= 0).all())
        and _one_bet_a_side(pos, k, bets)
        and bool(((stops[:, 0] >= 0) & (stops[:, 0] < n) & (stops[:, 1] >= 1) & (stops[:, 1] <= stop_rules)).all())
    )
    if not sound:
        raise StrategyError(f"strategy {run.label!r}: its player sent what is no answer to the round it was dealt; nothing is written")
    return rows


def _one_bet_a_side(pos: np.ndarray, k: np.ndarray, bets: int) -> bool:
    """Tell whether no session has two bets on one side (``pos`` in order: only sessions of several bets are looked at)."""
    several = np.zeros(len(pos), bool)
    if len(pos) > 1:
        repeated = pos[1:] == pos[:-1]
        several[1:] |= repeated
        several[:-1] |= repeated
    if not several.any():
        return True
    keys = pos[several] * max(bets, 1) + k[several]
    return len(np.unique(keys)) == len(keys)


def _cut(
    pos: np.ndarray, cents: np.ndarray, bankroll: np.ndarray, lowest: int, table_min: int, table_max: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cut each bet to the table maximum and to what the bankroll leaves, in the order given; return cents, capped, placed.

    A bet above the table maximum or the bankroll is cut to it (counted as
    capped); a further bet that the bankroll would cut below the table
    minimum is not placed (counted as capped). So every stake placed lies
    between the table minimum and maximum, and a session's stakes never
    exceed its bankroll.
    """
    cents = np.minimum(cents, LARGEST_CENTS)
    if len(cents) and int(cents.min()) < lowest:  # the seat refuses these: only a player's own framework code, changed, sends them
        raise StrategyError("a player sent a bet below the table minimum; nothing is written")
    capped = np.zeros(len(cents), np.int64)
    placed = np.ones(len(cents), bool)
    alone = np.ones(len(pos), bool)
    if len(pos) > 1:
        repeated = pos[1:] == pos[:-1]
        alone[1:] &= ~repeated
        alone[:-1] &= ~repeated
    available = bankroll[pos] // MICROS_PER_CENT
    over = alone & ((cents > table_max) | (cents > available))
    cut = np.minimum(table_max, available)
    cents = np.where(over, cut, cents)
    capped[over] = 1
    placed &= ~(over & ((cut <= 0) | (cut < table_min)))
    for j in np.flatnonzero(~alone).tolist():  # several bets in one round: each takes what the ones before it left
        if j == 0 or pos[j] != pos[j - 1]:
            left = int(available[j])
        c = int(cents[j])
        if c > table_max or c > left:
            c = min(table_max, left)
            capped[j] = 1
            if c <= 0 or c < table_min:
                placed[j] = False
                cents[j] = c
                continue
        cents[j] = c
        left -= c
    cents = np.where(placed, cents, 0)
    return cents, capped, placed
