"""The fast path of the built-in strategies: every session of a chunk in one compiled pass.

A composed strategy (``baccarat.compose``) made only of built-in pieces -- a
progression of ``baccarat_strategies.progressions``, a selector of
``baccarat_strategies.selectors``, the stop rules of
``baccarat_strategies.stop_rules`` -- is played here by a numba kernel that
follows the reference round for round: the engine's ruin check, table
minimum, table-maximum and bankroll caps; the composed strategy's stop rules,
side and table-maximum restart; each progression's moves on a win or a loss.
Its ledger columns are bit-identical to :func:`baccarat.engine.run_strategy`
(the parity tests play every built-in piece over many seeds).

Anything else -- a plugin's piece, a subclass, a free-form strategy, a bet
below the table minimum (which the reference reports as an error), amounts
too large for 64-bit integers -- returns ``None`` and the caller plays the
reference path. Set ``BACCARAT_NO_FAST_PATH=1`` to play everything there.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from baccarat.engine import SessionConfig, StrategyRun, session_rows, strategy_rng
from baccarat.fastdeal import pcg_next64, pcg_seed, put_int_words, seed_state, seed_words
from baccarat.rounds import RoundTable
from baccarat.rules import Rules
from baccarat.strategy import SessionInfo, cents_to_decimal

DISABLE_ENV = "BACCARAT_NO_FAST_PATH"

FLAT, MARTINGALE, GRAND_MARTINGALE, PAROLI, FIBONACCI, DALEMBERT, LABOUCHERE, ONE_THREE_TWO_SIX, OSCARS_GRIND = range(9)
FIXED, FOLLOW_LAST, CHOP, STREAK, PATTERN, RANDOM = range(6)

_MICROS_PER_CENT = 10_000
_FIBONACCI = np.asarray([1, 1] + [0] * 88, dtype=np.int64)
for _i in range(2, len(_FIBONACCI)):
    _FIBONACCI[_i] = _FIBONACCI[_i - 1] + _FIBONACCI[_i - 2]
_ONE_THREE_TWO_SIX = np.asarray([1, 3, 2, 6], dtype=np.int64)
_SAFE = 2**62
"""Amounts (micro-units) the kernel may reach: beyond, the reference plays (Python ints never overflow)."""

OK, BELOW_TABLE_MINIMUM, OUT_OF_RANGE = 0, 1, 2


@njit(cache=True, inline="always")
def _restart(prog, unit, line, labouchere):
    """A progression's first stake and state (stake, wins in a row, term, step, series, line head, line tail)."""
    if prog == LABOUCHERE:
        labouchere[: line.shape[0]] = line
        tail = line.shape[0]
        return labouchere[0] + labouchere[tail - 1] if tail > 1 else labouchere[0], 0, 0, 0, 0, 0, tail
    return unit, 0, 0, 0, 0, 0, 0


@njit(cache=True, nogil=True)
def _play_sessions(outcome, shoe, mult, sess_number, sess_start, sess_stop, initial, table_min, table_max,
                   prog, unit, wins, line, floor, selector, fixed_bet, banker_bet, player_bet, streak_length, pattern,
                   rng_words, n_rng_words, stop_loss, stop_win, max_rounds,
                   out_cents, out_net, out_bankroll, out_capped, out_bet_cents, out_bet_net):
    """Play one composed strategy over every session; fill the per-row outputs; return a status (``OK`` = 0)."""
    min_micros = table_min * 10_000
    longest = 0
    for s in range(sess_number.shape[0]):
        longest = max(longest, sess_stop[s] - sess_start[s])
    labouchere = np.empty(line.shape[0] + longest + 1, dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    rng = np.empty(4, dtype=np.uint64)
    words = rng_words.copy()
    out = 0
    for s in range(sess_number.shape[0]):
        if selector == RANDOM:
            seed_state(words, put_int_words(words, n_rng_words, sess_number[s]), state)
            pcg_seed(rng, state)
        bankroll = initial
        stopped = False
        # The progression's state, as after Progression.__init__ (stake = unit, then restart()).
        stake, won_in_row, term, step, series, head, tail = _restart(prog, unit, line, labouchere)
        last = -1  # the shoe's last decided outcome code (0 banker, 1 player), -1 before the first
        decided = 0
        streak = 0
        previous_shoe = -1
        for row in range(sess_start[s], sess_stop[s]):
            round_number = row - sess_start[s] + 1
            if shoe[row] != previous_shoe:
                previous_shoe = shoe[row]
                last = -1
                decided = 0
                streak = 0
            bet = -1
            cents = 0
            net = 0
            capped = 0
            if bankroll >= min_micros and not stopped:
                profit = bankroll - initial
                if ((stop_loss >= 0 and -profit >= stop_loss) or (stop_win >= 0 and profit >= stop_win)
                        or (max_rounds >= 0 and round_number > max_rounds)):
                    stopped = True
                else:
                    side = -1
                    if selector == FIXED:
                        side = fixed_bet
                    elif selector == FOLLOW_LAST:
                        side = -1 if last < 0 else (banker_bet if last == 0 else player_bet)
                    elif selector == CHOP:
                        side = -1 if last < 0 else (player_bet if last == 0 else banker_bet)
                    elif selector == STREAK:
                        if last >= 0 and streak >= streak_length:
                            side = banker_bet if last == 0 else player_bet
                    elif selector == PATTERN:
                        side = banker_bet if pattern[decided % pattern.shape[0]] == 0 else player_bet
                    else:  # RANDOM: random() < 0.5 is the top bit of the next 64-bit output being 0
                        side = banker_bet if pcg_next64(rng) < np.uint64(1) << np.uint64(63) else player_bet
                    if side >= 0:
                        if stake > table_max:  # abandon the series
                            stake, won_in_row, term, step, series, head, tail = _restart(prog, unit, line, labouchere)
                        cents = stake
                        if cents < table_min:
                            return 1  # the reference reports this bet as an error
                        available = bankroll // 10_000
                        if cents > table_max or cents > available:
                            cents = min(table_max, available)
                            capped = 1
                        if cents > 0 and cents >= table_min:
                            bet = side
                            net = cents * mult[side, row]
                            bankroll += net
                            if net != 0:
                                # The progression moves on a win (net > 0) or a loss (net < 0).
                                if prog == MARTINGALE:
                                    stake = unit if net > 0 else stake * 2
                                elif prog == GRAND_MARTINGALE:
                                    stake = unit if net > 0 else 2 * stake + unit
                                elif prog == PAROLI:
                                    if net > 0:
                                        won_in_row += 1
                                        if won_in_row >= wins:
                                            stake = unit
                                            won_in_row = 0
                                        else:
                                            stake *= 2
                                    else:
                                        stake = unit
                                        won_in_row = 0
                                elif prog == FIBONACCI:
                                    term = max(0, term - 2) if net > 0 else term + 1
                                    if term >= _FIBONACCI.shape[0]:
                                        return 2
                                    stake = _FIBONACCI[term] * unit
                                elif prog == DALEMBERT:
                                    stake = max(unit, stake - unit) if net > 0 else stake + unit
                                elif prog == LABOUCHERE:
                                    if net > 0:
                                        head += 1
                                        if tail > head:
                                            tail -= 1
                                        if tail == head:  # the line is emptied: it starts again
                                            head, tail = _restart(prog, unit, line, labouchere)[5:]
                                    else:
                                        labouchere[tail] = (-net) // 10_000
                                        tail += 1
                                    stake = labouchere[head] + labouchere[tail - 1] if tail - head > 1 else labouchere[head]
                                elif prog == ONE_THREE_TWO_SIX:
                                    if net > 0:
                                        step = (step + 1) % 4
                                        stake = _ONE_THREE_TWO_SIX[step] * unit
                                    else:
                                        step = 0
                                        stake = unit
                                elif prog == OSCARS_GRIND:
                                    series += net
                                    if net > 0:
                                        needed = unit * 10_000 - series
                                        if needed <= 0:
                                            stake = unit
                                            series = 0
                                        else:
                                            stake = min(stake + unit, max((needed + 9_999) // 10_000, floor))
                        else:
                            cents = 0
            code = outcome[row]
            if code != 2:
                decided += 1
                streak = streak + 1 if code == last else 1
                last = code
            if bet >= 0:
                out_bet_cents[bet, out] = cents
                out_bet_net[bet, out] = net
            out_cents[out] = cents
            out_net[out] = net
            out_bankroll[out] = bankroll
            out_capped[out] = capped
            out += 1
    return 0


def _pieces() -> tuple[dict[type, int], dict[type, int], dict[type, str]]:
    from baccarat_strategies import progressions as p
    from baccarat_strategies import selectors as s
    from baccarat_strategies import stop_rules as r

    progressions = {p.Flat: FLAT, p.Martingale: MARTINGALE, p.GrandMartingale: GRAND_MARTINGALE, p.Paroli: PAROLI,
                    p.Fibonacci: FIBONACCI, p.Dalembert: DALEMBERT, p.Labouchere: LABOUCHERE,
                    p.OneThreeTwoSix: ONE_THREE_TWO_SIX, p.OscarsGrind: OSCARS_GRIND}
    selectors = {cls: FIXED for cls in (s.Banker, s.Player, s.Tie, s.PlayerPair, s.BankerPair, s.Dragon7, s.Panda8)}
    selectors.update({s.FollowLast: FOLLOW_LAST, s.Chop: CHOP, s.Streak: STREAK, s.Pattern: PATTERN, s.Random: RANDOM})
    stops = {r.StopLoss: "limit", r.StopWin: "goal", r.MaxRounds: "rounds"}
    return progressions, selectors, stops


def fast_plan(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int,
              bets: Sequence[str]) -> dict[str, Any] | None:
    """Return the kernel's parameters for ``run``, or None when the fast path does not cover it.

    The strategy is made once, as the reference makes it for a session, so
    its parameters are read and checked by the pieces themselves.
    """
    from baccarat.compose import Composed

    cls = run.cls
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return None
    if (cls.bets is not Composed.bets or cls.settle is not Composed.settle or cls.__init__ is not Composed.__init__
            or cls.__new__ is not Composed.__new__):
        return None
    progressions, selectors, stops = _pieces()
    info = SessionInfo(1, rules, cents_to_decimal(config.bankroll_cents), cents_to_decimal(config.table_min_cents),
                       cents_to_decimal(config.table_max_cents), strategy_rng(seed, run.label, 1))
    try:
        strategy = cls(info, **run.params)
    except Exception:
        return None  # the reference reports it
    stakes, chooser = strategy.stakes, strategy.chooser
    prog = progressions.get(type(stakes))
    kind = selectors.get(type(chooser))
    if prog is None or kind is None or any(type(rule) not in stops for rule in strategy.stops):
        return None
    index = {bet: k for k, bet in enumerate(bets)}
    if "banker" not in index or "player" not in index:
        return None
    stop = {name: -1 for name in stops.values()}
    for rule in strategy.stops:
        stop[stops[type(rule)]] = getattr(rule, stops[type(rule)])
    line = np.asarray(getattr(stakes, "start", [strategy.unit]), dtype=np.int64)
    pattern = np.asarray([0 if side == "banker" else 1 for side in getattr(chooser, "pattern", ("banker",))], dtype=np.int64)
    fixed = getattr(chooser, "side", "banker") if kind == FIXED else "banker"
    if fixed not in index:
        return None
    words = np.zeros(len(seed_words(seed)) + 6, dtype=np.uint64)
    n_words = len(seed_words(seed))
    words[:n_words] = seed_words(seed)
    words[n_words] = 0
    words[n_words + 1] = zlib.crc32(run.label.encode("utf-8"))
    largest = max(config.table_max_cents, strategy.unit, int(line.max()), config.bankroll_cents)
    return {
        "prog": prog, "unit": strategy.unit, "wins": getattr(stakes, "wins", 1), "line": line,
        "floor": getattr(stakes, "floor", 0), "selector": kind, "fixed_bet": index[fixed], "banker_bet": index["banker"],
        "player_bet": index["player"], "streak_length": getattr(chooser, "length", 1), "pattern": pattern,
        "rng_words": words, "n_rng_words": n_words + 2, "stop_loss": stop["limit"], "stop_win": stop["goal"],
        "max_rounds": stop["rounds"], "largest_cents": largest,
    }


def play_fast(run: StrategyRun, table: RoundTable, multipliers: Mapping[str, np.ndarray], rules: Rules,
              config: SessionConfig, seed: int, sessions: Sequence[tuple[int, int, int]],
              shared: dict[str, Any] | None = None) -> dict[str, np.ndarray] | None:
    """Return the ledger columns of ``run`` over ``sessions`` from the compiled kernel, or None when it does not cover it.

    The columns are those of :func:`baccarat.engine.run_strategy`, bit for bit.
    ``shared`` (a dict kept for one table and one set of sessions) lets several
    strategies reuse what depends on the table only.
    """
    if os.environ.get(DISABLE_ENV) or not sessions:
        return None
    bets = tuple(multipliers)
    plan = fast_plan(run, rules, config, seed, bets)
    if plan is None:
        return None
    inputs = _table_inputs(table, multipliers, sessions, {} if shared is None else shared)
    mult, rows = inputs["mult"], inputs["rows"]
    if (config.bankroll_cents + rows * plan["largest_cents"] * 3 * (inputs["largest_mult"] // _MICROS_PER_CENT + 1)) \
            * _MICROS_PER_CENT >= _SAFE:
        return None
    bounds = inputs["bounds"]
    outputs = {"stake": np.empty(rows, dtype=np.int64), "net": np.empty(rows, dtype=np.int64),
               "bankroll": np.empty(rows, dtype=np.int64), "capped": np.empty(rows, dtype=np.int64)}
    bet_cents = np.zeros((len(bets), rows), dtype=np.int64)
    bet_net = np.zeros((len(bets), rows), dtype=np.int64)
    status = _play_sessions(
        inputs["outcome"], inputs["shoe"], mult, bounds[0], bounds[1], bounds[2],
        config.bankroll_cents * _MICROS_PER_CENT, config.table_min_cents, config.table_max_cents,
        plan["prog"], plan["unit"], plan["wins"], plan["line"], plan["floor"], plan["selector"], plan["fixed_bet"],
        plan["banker_bet"], plan["player_bet"], plan["streak_length"], plan["pattern"], plan["rng_words"],
        plan["n_rng_words"], plan["stop_loss"], plan["stop_win"], plan["max_rounds"], *outputs.values(), bet_cents, bet_net)
    if status != OK:
        return None
    columns = dict(inputs["columns"])
    for k, name in enumerate(bets):
        columns[f"stake_{name}"] = bet_cents[k]
        columns[f"net_{name}"] = bet_net[k]
    columns.update(outputs)
    return columns


def _table_inputs(table: RoundTable, multipliers: Mapping[str, np.ndarray], sessions: Sequence[tuple[int, int, int]],
                  shared: dict[str, Any]) -> dict[str, Any]:
    """The kernel's inputs that depend on the table and the sessions only (kept in ``shared`` for the next strategy)."""
    if not shared:
        mult = np.stack([np.asarray(multipliers[bet], dtype=np.int64) for bet in multipliers])
        bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
        columns = session_rows(table, sessions)
        del columns["first"], columns["length"]
        shared.update(mult=mult, largest_mult=int(np.abs(mult).max()) if mult.size else 0,
                      bounds=tuple(np.ascontiguousarray(bounds[:, i]) for i in range(3)),
                      rows=int((bounds[:, 2] - bounds[:, 1]).sum()), columns=columns,
                      outcome=np.asarray(table.outcome, dtype=np.int64), shoe=np.asarray(table.shoe, dtype=np.int64))
    return shared
