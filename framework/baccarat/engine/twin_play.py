"""Playing a compiled twin over sessions: the session loop's inputs made, its outputs read back as ledger columns."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
from numba import types
from numba.np.numpy_support import as_dtype

from baccarat.engine.bet_log import session_rows
from baccarat.engine.reference import SessionConfig, StrategyRun
from baccarat.engine.session_loop import CHOOSE, MAX_STOPS, MOVE, OK, RESTART, STOP, session_loop
from baccarat.engine.strategy_twin import Twin, TwinError, compile_twin_function
from baccarat.interrupts import call_stoppably
from baccarat.money import MICROS_PER_CENT
from baccarat.plugin.compose import stop_rule_names
from baccarat.plugin.twins import SIDES
from baccarat.shoes.rounds import RoundTable
from baccarat.streams import strategy_words
from baccarat.table.bet_registry import net_column, stake_column

_SAFE = 2**62
"""Amounts (micro-units) the loop may reach: beyond, the reference plays (Python ints never overflow)."""


def _never(view, state, params):
    """An unused stop-rule slot."""
    return False


def _size(twin: Any, piece: Any, rounds: int) -> int:
    size = twin.state_size(piece, rounds) if callable(twin.state_size) else twin.state_size
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
        raise TwinError(f"a compiled twin's state_size must be a whole number, not {size!r}")
    if size > MAX_STATE_SIZE:
        raise TwinError(f"a compiled twin's state_size is {int(size):,}, more than the {MAX_STATE_SIZE:,} slots a piece may hold")
    return int(size)


MAX_STATE_SIZE = 1 << 24
"""Most ``int64`` slots of one piece's state (128 MB): a larger ``state_size`` is a twin's mistake, not a memory shortage."""


def play_twin(
    twin: Twin,
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]],
    shared: dict[str, Any] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]] | None:
    """Play ``run`` compiled over ``sessions``: its ledger columns and the pieces' states after the last session.

    None when the reference must play (a bet it reports as an error, amounts
    too large for 64-bit integers). Raise :class:`TwinError` when a twin does
    not compile.
    """
    bets = tuple(multipliers)
    inputs = _table_inputs(table, multipliers, sessions, {} if shared is None else shared)
    mult, rows = inputs["mult"], inputs["rows"]
    # Each session's bankroll is its own: bounded by what its longest session could win, never by all rows of the chunk.
    most_won = inputs["longest"] * twin.largest_cents * 3 * (inputs["largest_mult"] // MICROS_PER_CENT + 1)
    if (config.bankroll_cents + most_won) * MICROS_PER_CENT >= _SAFE:
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
    words, used_words = strategy_words(seed, run.label)
    outputs = {
        "stake": np.empty(rows, dtype=np.int64),
        "net": np.empty(rows, dtype=np.int64),
        "bankroll": np.empty(rows, dtype=np.int64),
        "capped": np.empty(rows, dtype=np.int64),
        "stopped_by": np.empty(rows, dtype=np.int64),
    }
    bet_cents = np.zeros((len(bets), rows), dtype=np.int64)
    bet_net = np.zeros((len(bets), rows), dtype=np.int64)
    state = np.zeros(prog_size + sel_size + len(twin.stops) * stop_size, dtype=np.int64)
    bounds = inputs["bounds"]
    goal, loss = config.session_rules()
    arguments = (
        inputs["outcome"],
        inputs["shoe"],
        inputs["hand"],
        mult,
        bounds[0],
        bounds[1],
        bounds[2],
        config.bankroll_cents * MICROS_PER_CENT,
        config.table_min_cents,
        config.table_max_cents,
        twin.unit,
        restart,
        won,
        lost,
        twin.prog_params,
        prog_size,
        choose,
        twin.sel_params,
        sel_size,
        bool(twin.selector.uses_rng),
        side_bet,
        stops,
        len(twin.stops),
        twin.stop_params,
        stop_size,
        twin.stop_codes,
        words,
        used_words,
        *outputs.values(),
        bet_cents,
        bet_net,
        state,
        -1 if goal is None else goal,
        -1 if loss is None else loss,
        len(stop_rule_names(run.cls)) + 1,
    )
    try:
        loop = _loop_entry()[0]
        _check_arrays(arguments)
        # The compiled play runs apart (the loop is compiled nogil, so the main thread runs meanwhile): a twin that
        # never returns must not keep the main thread from a stop.
        status = call_stoppably(loop, *arguments, what=f"the compiled twin of strategy {run.label!r}")
    except Exception as exc:  # raised in a twin's code (an index outside its state, with bounds checks)
        raise TwinError(f"a compiled twin raised {type(exc).__name__}: {str(exc).strip() or '-'}") from None
    if status != OK:
        return None
    columns = dict(inputs["columns"])
    for k, name in enumerate(bets):
        columns[stake_column(name)] = bet_cents[k]
        columns[net_column(name)] = bet_net[k]
    columns.update(outputs)
    states = {"progression": state[:prog_size], "selector": state[prog_size : prog_size + sel_size]}
    for k in range(len(twin.stops)):
        at = prog_size + sel_size + k * stop_size
        states[f"stop rule {k + 1}"] = state[at : at + stop_size]
    return columns, states


@cache
def _loop_entry() -> tuple[Callable[..., int], tuple[tuple[int, np.dtype, int], ...]]:
    """The session loop's machine code for its one signature, called without numba typing the arguments again.

    Called through its dispatcher, the loop has every argument typed first,
    the twins' first-class functions among them: about half a millisecond a
    call, the play of about ten thousand rounds. The entry point only converts them;
    so that it never reads an array as another type, :func:`_check_arrays`
    checks them against the signature first, as the dispatcher would. Returns the entry point and, for each array
    of the signature, its position, type and dimensions.
    """
    loop = session_loop()
    (signature,) = loop.signatures  # compiled for its declared signature only
    arrays = tuple((k, as_dtype(kind.dtype), kind.ndim) for k, kind in enumerate(signature) if isinstance(kind, types.Array))
    if any(isinstance(kind, types.Array) and not (kind.layout == "C" and kind.mutable and kind.aligned) for kind in signature):
        raise TypeError("the session loop takes an array other than a writeable contiguous one")  # what _check_arrays assumes
    return loop.overloads[signature].entry_point, arrays


def _check_arrays(arguments: Sequence[Any]) -> None:
    """Raise TypeError unless each array of ``arguments`` has the type, dimensions and layout of the loop's signature."""
    for k, dtype, ndim in _loop_entry()[1]:
        value = arguments[k]
        if not isinstance(value, np.ndarray) or value.dtype != dtype or value.ndim != ndim:
            raise TypeError(f"argument {k + 1} of the session loop is not a {ndim}-dimensional {dtype} array")
        flags = value.flags
        if not (flags.writeable and flags.aligned and flags.c_contiguous):
            raise TypeError(f"argument {k + 1} of the session loop is not a writeable, aligned, contiguous array")


def _table_inputs(
    table: RoundTable, multipliers: Mapping[str, np.ndarray], sessions: Sequence[tuple[int, int, int]], shared: dict[str, Any]
) -> dict[str, Any]:
    """The loop's inputs that depend on the table and the sessions only (kept in ``shared`` for the next strategy)."""
    if not shared:
        mult = np.stack([np.asarray(multipliers[bet], dtype=np.int64) for bet in multipliers])
        bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
        columns = session_rows(table, bounds)
        del columns["first"], columns["length"]
        lengths = bounds[:, 2] - bounds[:, 1]
        shared.update(
            mult=mult,
            largest_mult=int(np.abs(mult).max()) if mult.size else 0,
            bounds=tuple(np.ascontiguousarray(bounds[:, i]) for i in range(3)),
            rows=int(lengths.sum()),
            longest=int(lengths.max()) if lengths.size else 0,
            columns=columns,
            outcome=np.ascontiguousarray(table.outcome, dtype=np.int64),
            shoe=np.array(table.shoe, dtype=np.int64),  # a copy: the kernels take writeable arrays
            hand=np.ascontiguousarray(table.hand, dtype=np.int64),
        )
    return shared
