"""The compiled path: a composed strategy whose pieces all have compiled twins, every session of a chunk in one pass.

Plugins give compiled twins of their pieces through the ``register_kernels``
hook (:mod:`baccarat.plugin.kernels`; the built-in plugin registers its own the same
way). A composed strategy (:mod:`baccarat.plugin.compose`) whose progression,
selector and active stop rules all have one is played by the compiled
session loop below, which calls the twins and does the rest exactly as the
reference does: the engine's ruin check, table minimum, table-maximum and
bankroll caps; the composed strategy's stop order, sitting out and
table-maximum restart. Its ledger columns are those of
:func:`baccarat.engine.reference.run_strategy`, bit for bit.

A strategy is played compiled only after its parity check has passed: once
per process, its twin and the reference play seeded shoes of the run's rules,
session settings, parameters and seed, and their ledgers must be identical.
Anything else -- a piece without a twin, a free-form strategy, a twin that
fails to compile or to match, a bet the reference reports as an error,
amounts too large for 64-bit integers -- returns ``None`` and the caller plays
the reference. Set ``BACCARAT_NO_FAST_PATH=1`` to play everything there.
"""

from __future__ import annotations

import os
import warnings
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numba
import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_rows, strategy_rng
from baccarat.errors import BaccaratError
from baccarat.money import MICROS_PER_CENT, cents_to_decimal, decimal_to_cents
from baccarat.plugin.kernels import (
    BANKROLL,
    DECIDED_IN_SHOE,
    HAND,
    LAST_DECIDED,
    PROFIT,
    ROUND,
    SESSION,
    SHOE,
    SIDES,
    SIT_OUT,
    STAKE,
    STREAK_LENGTH,
    TABLE_MAX,
    TABLE_MIN,
    VIEW_SIZE,
)
from baccarat.plugin.strategy import SessionInfo
from baccarat.shoes.fastdeal import pcg_seed, put_int_words, seed_state, seed_words
from baccarat.shoes.rounds import RoundTable
from baccarat.table.bet_registry import net_column, stake_column
from baccarat.table.rules import Rules

DISABLE_ENV = "BACCARAT_NO_FAST_PATH"

MAX_STOPS = 6
"""Most active stop rules the compiled loop takes (more: the reference plays)."""

CHECK_SHOES = 16
"""Seeded shoes of the parity check that gates the compiled path (more when a session holds more shoes)."""

_SAFE = 2**62
"""Amounts (micro-units) the loop may reach: beyond, the reference plays (Python ints never overflow)."""

OK, BELOW_TABLE_MINIMUM, BAD_SIDE = 0, 1, 2

_A = types.int64[::1]
RESTART = types.void(_A, _A)
MOVE = types.void(_A, _A, types.int64)
CHOOSE = types.int64(_A, _A, _A, _A, types.uint64[::1])
STOP = types.boolean(_A, _A, _A)
_LOOP = types.int64(
    _A, _A, _A, types.int64[:, ::1], _A, _A, _A, types.int64, types.int64, types.int64, types.int64,
    types.FunctionType(RESTART), types.FunctionType(MOVE), types.FunctionType(MOVE), _A, types.int64,
    types.FunctionType(CHOOSE), _A, types.int64, types.boolean, _A,
    types.UniTuple(types.FunctionType(STOP), MAX_STOPS), types.int64, types.int64[:, ::1], types.int64, _A,
    types.uint64[::1], types.int64, _A, _A, _A, _A, _A, types.int64[:, ::1], types.int64[:, ::1], _A)


def _session_loop(outcome, shoe, hand, mult, sess_number, sess_start, sess_stop, initial, table_min, table_max, unit,
                  restart, won, lost, prog_params, prog_size, choose, sel_params, sel_size, uses_rng, side_bet,
                  stops, n_stops, stop_params, stop_size, stop_codes, rng_words, n_rng_words,
                  out_cents, out_net, out_bankroll, out_capped, out_stopped_by, out_bet_cents, out_bet_net, out_state):
    """Play one composed strategy over every session; fill the per-row outputs; return a status (``OK`` = 0).

    ``out_stopped_by`` is 0 except in the round where stop rule ``k`` (the
    first that held) ended betting: ``stop_codes[k]`` there. ``out_state`` receives the pieces' states at the end of the last session
    (progression, selector, then each stop rule's).
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
                    code = choose(view, outcome[shoe_start:row], sel, sel_params, rng)
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


def _loop() -> Any:
    """The compiled session loop (compiled once, then loaded from numba's cache)."""
    if not _LOOPS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            _LOOPS.append(njit(_LOOP, cache=True, nogil=True)(_session_loop))
    return _LOOPS[0]


class TwinError(BaccaratError):
    """A plugin's compiled twin could not be compiled or used."""


def _never(view, state, params):
    """An unused stop-rule slot."""
    return False


_COMPILED: dict[tuple[int, types.Type], Any] = {}


def compile_twin_function(function: Any, signature: types.Type) -> Any:
    """Return ``function`` (plain or ``@njit``) compiled for ``signature``, its machine code cached on disk.

    Raise :class:`TwinError` naming the function when numba cannot compile it.
    """
    key = (id(function), signature)
    if key not in _COMPILED:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
                if isinstance(function, numba.core.registry.CPUDispatcher):
                    function.compile(signature.args)
                    compiled = function
                else:  # a plain function is compiled with bounds checks: a wrong index is an error, never a stray write
                    compiled = njit(signature, cache=True, boundscheck=True)(function)
        except Exception as exc:
            name = getattr(function, "__qualname__", repr(function))
            text = str(exc).strip().splitlines()
            raise TwinError(f"{name} does not compile: {text[0] if text else type(exc).__name__}") from None
        _COMPILED[key] = (function, compiled)  # the function is kept so that its id is not reused
    return _COMPILED[key][1]


@dataclass
class Twin:
    """The compiled pieces of one composed strategy, and their parameters, for one run."""

    progression: Any
    selector: Any
    stops: list[Any]
    prog_params: np.ndarray
    sel_params: np.ndarray
    stop_params: np.ndarray
    stop_codes: np.ndarray
    """Each active stop rule's position in :func:`baccarat.plugin.compose.stop_rule_names`, from 1."""
    pieces: tuple[Any, Any, list[Any]]
    """The reference pieces the parameters were read from (progression, selector, stop rules)."""
    unit: int
    largest_cents: int


def twin_of(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int) -> Twin | None:
    """Return the compiled pieces of ``run``, or None when one of its pieces has no compiled twin.

    The strategy is made once, as the reference makes it for a session, so
    its parameters are read and checked by the pieces themselves; each twin
    reads its parameters from its reference piece.
    """
    from baccarat.plugin.compose import Composed
    from baccarat.plugin.manager import compiled_twin

    cls = run.cls
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return None
    if (cls.bets is not Composed.bets or cls.settle is not Composed.settle or cls.__init__ is not Composed.__init__
            or cls.__new__ is not Composed.__new__):
        return None
    info = SessionInfo(1, rules, cents_to_decimal(config.bankroll_cents), cents_to_decimal(config.table_min_cents),
                       cents_to_decimal(config.table_max_cents), strategy_rng(seed, run.label, 1))
    try:
        strategy = cls(info, **run.params)
    except Exception:
        return None  # the reference reports it
    progression = compiled_twin(type(strategy.stakes))
    selector = compiled_twin(type(strategy.chooser))
    stops = [compiled_twin(type(rule)) for rule in strategy.stops]
    if progression is None or selector is None or None in stops or len(stops) > MAX_STOPS:
        return None
    try:
        prog_params = _int64(progression.params(strategy.stakes))
        sel_params = _int64(selector.params(strategy.chooser))
        each = [_int64(twin.params(rule)) for twin, rule in zip(stops, strategy.stops, strict=True)]
    except Exception as exc:
        raise TwinError(f"a compiled twin's params() failed: {type(exc).__name__}: {exc}") from None
    stop_params = np.zeros((MAX_STOPS, max([1] + [len(p) for p in each])), dtype=np.int64)
    for k, params in enumerate(each):
        stop_params[k, : len(params)] = params
    unit = decimal_to_cents(strategy.unit)
    largest = max([config.table_max_cents, unit, config.bankroll_cents, *np.abs(prog_params).tolist()])
    codes = np.zeros(MAX_STOPS, dtype=np.int64)
    codes[: len(stops)] = [cls.stop_rules.index(type(rule)) + 1 for rule in strategy.stops]
    return Twin(progression, selector, stops, prog_params, sel_params, stop_params, codes,
                (strategy.stakes, strategy.chooser, list(strategy.stops)), unit, largest)


def _int64(values: Any) -> np.ndarray:
    values = list(values)
    if any(isinstance(value, Decimal) for value in values):
        raise ValueError("params() must give integers: an amount goes in as cents(amount) or micros(amount) "
                         "(from baccarat.plugin.kernels)")
    array = np.asarray(values, dtype=np.int64)
    if array.ndim != 1:
        raise ValueError("params() must give a sequence of integers")
    return np.ascontiguousarray(array)


def _size(twin: Any, piece: Any, rounds: int) -> int:
    size = twin.state_size(piece, rounds) if callable(twin.state_size) else twin.state_size
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
        raise TwinError(f"a compiled twin's state_size must be a whole number, not {size!r}")
    return int(size)


def play_twin(twin: Twin, run: StrategyRun, table: RoundTable, multipliers: Mapping[str, np.ndarray], config: SessionConfig,
              seed: int, sessions: Sequence[tuple[int, int, int]],
              shared: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]] | None:
    """Play ``run`` compiled over ``sessions``: its ledger columns and the pieces' states after the last session.

    None when the reference must play (a bet it reports as an error, amounts
    too large for 64-bit integers). Raise :class:`TwinError` when a twin does
    not compile.
    """
    bets = tuple(multipliers)
    inputs = _table_inputs(table, multipliers, sessions, {} if shared is None else shared)
    mult, rows = inputs["mult"], inputs["rows"]
    if (config.bankroll_cents + rows * twin.largest_cents * 3 * (inputs["largest_mult"] // MICROS_PER_CENT + 1)) \
            * MICROS_PER_CENT >= _SAFE:
        return None
    stakes, chooser, rules = twin.pieces
    longest = inputs["longest"]
    try:
        prog_size = max(1, _size(twin.progression, stakes, longest))
        sel_size = _size(twin.selector, chooser, longest)
        stop_size = max([0] + [_size(t, rule, longest) for t, rule in zip(twin.stops, rules, strict=True)])
    except TwinError:
        raise
    except Exception as exc:
        raise TwinError(f"a compiled twin's state_size() failed: {type(exc).__name__}: {exc}") from None
    restart = compile_twin_function(twin.progression.restart, RESTART)
    won = compile_twin_function(twin.progression.won, MOVE)
    lost = compile_twin_function(twin.progression.lost, MOVE)
    choose = compile_twin_function(twin.selector.choose, CHOOSE)
    never = compile_twin_function(_never, STOP)
    stops = tuple([compile_twin_function(t.stop, STOP) for t in twin.stops] + [never] * (MAX_STOPS - len(twin.stops)))
    index = {bet: k for k, bet in enumerate(bets)}
    side_bet = np.asarray([index.get(side, -1) for side in SIDES], dtype=np.int64)
    words = np.zeros(len(seed_words(seed)) + 6, dtype=np.uint64)
    n_words = len(seed_words(seed))
    words[:n_words] = seed_words(seed)
    words[n_words + 1] = zlib.crc32(run.label.encode("utf-8"))
    outputs = {"stake": np.empty(rows, dtype=np.int64), "net": np.empty(rows, dtype=np.int64),
               "bankroll": np.empty(rows, dtype=np.int64), "capped": np.empty(rows, dtype=np.int64),
               "stopped_by": np.empty(rows, dtype=np.int64)}
    bet_cents = np.zeros((len(bets), rows), dtype=np.int64)
    bet_net = np.zeros((len(bets), rows), dtype=np.int64)
    state = np.zeros(prog_size + sel_size + len(twin.stops) * stop_size, dtype=np.int64)
    bounds = inputs["bounds"]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            status = _loop()(
                inputs["outcome"], inputs["shoe"], inputs["hand"], mult, bounds[0], bounds[1], bounds[2],
                config.bankroll_cents * MICROS_PER_CENT, config.table_min_cents, config.table_max_cents, twin.unit,
                restart, won, lost, twin.prog_params, prog_size, choose, twin.sel_params, sel_size,
                bool(twin.selector.uses_rng), side_bet, stops, len(twin.stops), twin.stop_params, stop_size,
                twin.stop_codes, words, n_words + 2, *outputs.values(), bet_cents, bet_net, state)
    except Exception as exc:  # raised in a twin's code (an index outside its state, with bounds checks)
        raise TwinError(f"a compiled twin raised {type(exc).__name__}: {str(exc).strip() or '-'}") from None
    if status != OK:
        return None
    columns = dict(inputs["columns"])
    for k, name in enumerate(bets):
        columns[stake_column(name)] = bet_cents[k]
        columns[net_column(name)] = bet_net[k]
    columns.update(outputs)
    states = {"progression": state[:prog_size], "selector": state[prog_size: prog_size + sel_size]}
    for k in range(len(twin.stops)):
        at = prog_size + sel_size + k * stop_size
        states[f"stop rule {k + 1}"] = state[at: at + stop_size]
    return columns, states


def first_difference(fast: Mapping[str, np.ndarray], reference: Mapping[str, np.ndarray]) -> int | None:
    """Return the first ledger row where two ledgers' columns differ, or None when they are identical."""
    if set(fast) != set(reference) or any(len(fast[name]) != len(reference[name]) for name in reference):
        return 0
    first = None
    for name, column in reference.items():
        differ = np.flatnonzero(np.asarray(fast[name]) != np.asarray(column))
        if differ.size and (first is None or differ[0] < first):
            first = int(differ[0])
    return first


_PARITY: dict[tuple[Any, ...], str | None] = {}


def parity_failure(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int, bets: Sequence[str]) -> str | None:
    """Check ``run``'s compiled twin against the reference on seeded shoes (once per process); return why it failed.

    None when it passed. A strategy without a twin, or one the reference
    reports an error for on those shoes, is "not covered": the reason is ``""``.
    """
    key = (run.cls, run.label, repr(sorted(run.params.items())), repr(rules), config, seed, tuple(bets))
    if key not in _PARITY:
        _PARITY[key] = _check_parity(run, rules, config, seed, tuple(bets))
    return _PARITY[key]


def _check_parity(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int, bets: tuple[str, ...]) -> str | None:
    from baccarat.engine.reference import session_bounds
    from baccarat.odds.settlement import settlement_table
    from baccarat.shoes.fastdeal import seeded_table_fast

    try:
        twin = twin_of(run, rules, config, seed)
    except TwinError as exc:
        return exc.message
    if twin is None:
        return ""
    table = seeded_table_fast(rules, seed, 1, max(CHECK_SHOES, min(2 * config.shoes_per_session, 4 * CHECK_SHOES)))
    settled = settlement_table(table, rules)
    if not set(bets) <= set(settled):
        return ""
    multipliers = {bet: settled[bet] for bet in bets}
    sessions = session_bounds(table, config.shoes_per_session)
    try:
        played = play_twin(twin, run, table, multipliers, config, seed, sessions)
    except TwinError as exc:
        return exc.message
    if played is None:
        return ""
    try:
        reference = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    except BaccaratError:
        return ""  # the run reports it where it happens
    row = first_difference(played[0], reference)
    if row is None:
        return None
    return (f"its compiled twin differs from the reference at session {reference['session'][row]}, "
            f"shoe {reference['shoe'][row]}, hand {reference['hand'][row]}, round {reference['round'][row]}")


def twin_warnings(runs: Sequence[StrategyRun], rules: Rules, config: SessionConfig, seed: int,
                  bets: Sequence[str]) -> list[str]:
    """Check every strategy's compiled twin before a run; return a warning for each that failed and plays the reference."""
    if os.environ.get(DISABLE_ENV):
        return []
    out = []
    for run in runs:
        reason = parity_failure(run, rules, config, seed, bets)
        if reason:
            out.append(f"strategy {run.label!r} runs on the reference engine: {reason}")
    return out


def play_fast(run: StrategyRun, table: RoundTable, multipliers: Mapping[str, np.ndarray], rules: Rules,
              config: SessionConfig, seed: int, sessions: Sequence[tuple[int, int, int]],
              shared: dict[str, Any] | None = None) -> dict[str, np.ndarray] | None:
    """Return the ledger columns of ``run`` over ``sessions`` from its compiled twin, or None when the reference must play.

    The columns are those of :func:`baccarat.engine.reference.run_strategy`, bit for bit.
    ``shared`` (a dict kept for one table and one set of sessions) lets several
    strategies reuse what depends on the table only.
    """
    if os.environ.get(DISABLE_ENV) or not sessions:
        return None
    if parity_failure(run, rules, config, seed, tuple(multipliers)) is not None:
        return None
    try:
        twin = twin_of(run, rules, config, seed)
        played = None if twin is None else play_twin(twin, run, table, multipliers, config, seed, sessions, shared)
    except TwinError:
        return None  # the reference, the definition, plays it
    return None if played is None else played[0]


def _table_inputs(table: RoundTable, multipliers: Mapping[str, np.ndarray], sessions: Sequence[tuple[int, int, int]],
                  shared: dict[str, Any]) -> dict[str, Any]:
    """The loop's inputs that depend on the table and the sessions only (kept in ``shared`` for the next strategy)."""
    if not shared:
        mult = np.stack([np.asarray(multipliers[bet], dtype=np.int64) for bet in multipliers])
        bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
        columns = session_rows(table, sessions)
        del columns["first"], columns["length"]
        lengths = bounds[:, 2] - bounds[:, 1]
        shared.update(mult=mult, largest_mult=int(np.abs(mult).max()) if mult.size else 0,
                      bounds=tuple(np.ascontiguousarray(bounds[:, i]) for i in range(3)),
                      rows=int(lengths.sum()), longest=int(lengths.max()) if lengths.size else 0, columns=columns,
                      outcome=np.ascontiguousarray(table.outcome, dtype=np.int64),
                      shoe=np.array(table.shoe, dtype=np.int64),  # a copy: the kernels take writeable arrays
                      hand=np.ascontiguousarray(table.hand, dtype=np.int64))
    return shared
