"""The compiled session loop: one composed strategy over every session of a chunk, in one numba pass.

It calls the compiled twins of the strategy's progression, selector and
active stop rules (:mod:`baccarat.engine.strategy_twin`) and does the rest exactly as
the reference engine does: the ruin check, table minimum, table-maximum and
bankroll caps, the composed strategy's stop order, sitting out and
table-maximum restart (:mod:`baccarat.plugin.compose`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from baccarat.money import MICROS_PER_CENT
from baccarat.plugin.twins import (
    BANKROLL,
    DECIDED_IN_SHOE,
    HAND,
    LAST_DECIDED,
    PROFIT,
    ROUND,
    SESSION,
    SHOE,
    SIT_OUT,
    STAKE,
    STREAK_LENGTH,
    TABLE_MAX,
    TABLE_MIN,
    VIEW_SIZE,
)
from baccarat.shoes.compiled_deal import pcg_seed, put_int_words, seed_state

MAX_STOPS = 6
"""Most active stop rules the compiled loop takes (more: the reference plays)."""

OK, BELOW_TABLE_MINIMUM, BAD_SIDE = 0, 1, 2

_A = types.int64[::1]
RESTART = types.void(_A, _A)
MOVE = types.void(_A, _A, types.int64)
CHOOSE = types.int64(_A, _A, _A, _A, types.uint64[::1])
STOP = types.boolean(_A, _A, _A)
_LOOP = types.int64(
    _A,
    _A,
    _A,
    types.int64[:, ::1],
    _A,
    _A,
    _A,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.FunctionType(RESTART),
    types.FunctionType(MOVE),
    types.FunctionType(MOVE),
    _A,
    types.int64,
    types.FunctionType(CHOOSE),
    _A,
    types.int64,
    types.boolean,
    _A,
    types.UniTuple(types.FunctionType(STOP), MAX_STOPS),
    types.int64,
    types.int64[:, ::1],
    types.int64,
    _A,
    types.uint64[::1],
    types.int64,
    _A,
    _A,
    _A,
    _A,
    _A,
    types.int64[:, ::1],
    types.int64[:, ::1],
    _A,
    types.int64,
    types.int64,
    types.int64,
)


def _session_loop(  # noqa: C901 - hot compiled loop: one numba kernel, splitting it costs calls per round
    outcome,
    shoe,
    hand,
    mult,
    sess_number,
    sess_start,
    sess_stop,
    initial,
    table_min,
    table_max,
    unit,
    restart,
    won,
    lost,
    prog_params,
    prog_size,
    choose,
    sel_params,
    sel_size,
    uses_rng,
    side_bet,
    stops,
    n_stops,
    stop_params,
    stop_size,
    stop_codes,
    rng_words,
    n_rng_words,
    out_cents,
    out_net,
    out_bankroll,
    out_capped,
    out_stopped_by,
    out_bet_cents,
    out_bet_net,
    out_state,
    win_goal,
    stop_loss,
    goal_code,
):
    """Play one composed strategy over every session; fill the per-row outputs; return a status (``OK`` = 0).

    ``out_stopped_by`` is 0 except in the round where stop rule ``k`` (the
    first that held) ended betting: ``stop_codes[k]`` there. ``out_state`` receives the pieces' states at the end of the last session
    (progression, selector, then each stop rule's). The session rules: once a round is settled, a session
    whose bankroll (not ruined) has reached ``initial + win_goal`` (when ``win_goal >= 0``), or fallen to
    ``initial - stop_loss`` or below (when ``stop_loss >= 0``), bets no more; ``goal_code`` (the goal) or
    ``goal_code + 1`` (the stop-loss) is logged in that round.
    """
    min_micros = table_min * MICROS_PER_CENT
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    view[TABLE_MIN] = table_min
    view[TABLE_MAX] = table_max
    prog = np.zeros(prog_size, dtype=np.int64)
    sel = np.zeros(sel_size, dtype=np.int64)
    stop_state = np.zeros((MAX_STOPS, stop_size), dtype=np.int64)
    seeded = np.empty(4, dtype=np.uint64)
    rng = np.zeros(4, dtype=np.uint64)
    words = rng_words.copy()
    longest = 0
    for s in range(sess_number.shape[0]):
        longest = max(longest, sess_stop[s] - sess_start[s])
    # The selector's history is this loop's own copy of the shoe's dealt outcomes, written as each round is dealt: a
    # twin that writes into it changes no outcome, and past its end lie earlier rounds or zeros, never the next one.
    history = np.zeros(longest + 1, dtype=np.int64)
    out = 0
    for s in range(sess_number.shape[0]):
        if uses_rng:
            seed_state(words, put_int_words(words, n_rng_words, sess_number[s]), seeded)
            pcg_seed(rng, seeded)
        start, stop = sess_start[s], sess_stop[s]
        bankroll = initial
        stopped = False
        prog[:] = 0
        prog[STAKE] = unit  # as Progression.__init__: stake = unit, then restart()
        restart(prog, prog_params)
        sel[:] = 0
        stop_state[:, :] = 0
        view[SESSION] = sess_number[s]
        last = -1  # the shoe's last decided outcome code, -1 before the first
        decided = 0
        streak = 0
        shoe_start = start
        for row in range(start, stop):
            if row == start or shoe[row] != shoe[row - 1]:
                shoe_start = row
                last = -1
                decided = 0
                streak = 0
            bet = -1
            cents = 0
            net = 0
            capped = 0
            stopped_by = 0
            if bankroll >= min_micros and not stopped:
                view[ROUND] = row - start + 1
                view[SHOE] = shoe[row]
                view[HAND] = hand[row]
                view[BANKROLL] = bankroll
                view[PROFIT] = bankroll - initial
                view[LAST_DECIDED] = last
                view[DECIDED_IN_SHOE] = decided
                view[STREAK_LENGTH] = streak
                for k in range(n_stops):
                    if stops[k](view, stop_state[k], stop_params[k]):
                        stopped = True
                        stopped_by = stop_codes[k]
                        break
                if not stopped:
                    code = choose(view, history[: row - shoe_start], sel, sel_params, rng)
                    if code != SIT_OUT:
                        if code < 0 or code >= side_bet.shape[0] or side_bet[code] < 0:
                            return BAD_SIDE  # the reference reports this bet as an error
                        side = side_bet[code]
                        if prog[STAKE] > table_max:  # abandon the series
                            restart(prog, prog_params)
                        cents = prog[STAKE]
                        if cents < table_min:
                            return BELOW_TABLE_MINIMUM  # the reference reports this bet as an error
                        available = bankroll // MICROS_PER_CENT
                        if cents > table_max or cents > available:
                            cents = min(table_max, available)
                            capped = 1
                        if cents > 0 and cents >= table_min:
                            bet = side
                            net = cents * mult[side, row]
                            bankroll += net
                            if net > 0:
                                won(prog, prog_params, net)
                            elif net < 0:
                                lost(prog, prog_params, net)
                            if bankroll >= min_micros:
                                if win_goal >= 0 and bankroll - initial >= win_goal:
                                    stopped = True
                                    stopped_by = goal_code
                                elif stop_loss >= 0 and bankroll - initial <= -stop_loss:
                                    stopped = True
                                    stopped_by = goal_code + 1
                        else:
                            cents = 0
            code = outcome[row]
            history[row - shoe_start] = code
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
            out_stopped_by[out] = stopped_by
            out += 1
        at = 0
        for i in range(prog_size):
            out_state[at] = prog[i]
            at += 1
        for i in range(sel_size):
            out_state[at] = sel[i]
            at += 1
        for k in range(n_stops):
            for i in range(stop_size):
                out_state[at] = stop_state[k, i]
                at += 1
    return OK


_LOOPS: list[Any] = []


def session_loop() -> Any:
    """The compiled session loop (compiled once, then loaded from numba's cache)."""
    if not _LOOPS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            _LOOPS.append(njit(_LOOP, cache=True, nogil=True)(_session_loop))
    return _LOOPS[0]
