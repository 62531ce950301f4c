"""The compiled path: a composed strategy whose pieces all have compiled twins, every session of a chunk in one pass.

Plugins give compiled twins of their pieces through the ``register_twins``
hook (:mod:`baccarat.plugin.twins`; the built-in plugin registers its own the same
way). A composed strategy (:mod:`baccarat.plugin.compose`) whose progression,
selector and active stop rules all have one (:mod:`baccarat.engine.strategy_twin`) is
played by the compiled session loop (:mod:`baccarat.engine.session_loop`,
driven by :mod:`baccarat.engine.twin_play`), which calls the twins and does
the rest exactly as the reference does: the engine's ruin check, table
minimum, table-maximum and bankroll caps; the composed strategy's stop order,
sitting out and table-maximum restart. Its ledger columns are those of
:func:`baccarat.engine.reference.run_strategy`, bit for bit.

A strategy is played compiled only after its parity check has passed
(:mod:`baccarat.engine.parity`): once per process, its twin and the reference
play seeded shoes of the run's rules, session settings, parameters and seed,
and their ledgers must be identical. Anything else -- a piece without a twin,
a free-form strategy, a twin that fails to compile or to match, a bet the
reference reports as an error, amounts too large for 64-bit integers --
returns ``None`` and the caller plays the reference. Set
``BACCARAT_NO_COMPILED_PATH=1`` to play everything there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from baccarat.compiling import DISABLE_ENV, compiled_path_disabled
from baccarat.engine.differences import first_difference
from baccarat.engine.parity import parity_failure
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.engine.strategy_twin import TwinError, twin_of
from baccarat.engine.twin_play import play_twin
from baccarat.errors import StrategyError
from baccarat.shoes.rounds import RoundTable
from baccarat.table.rules import Rules


def twin_warnings(runs: Sequence[StrategyRun], rules: Rules, config: SessionConfig, seed: int, bets: Sequence[str]) -> list[str]:
    """Check every strategy's compiled twin before a run; return a warning for each that failed and plays the reference."""
    if compiled_path_disabled():
        return []
    out = []
    for run in runs:
        reason = parity_failure(run, rules, config, seed, bets)
        if reason:
            out.append(f"strategy {run.label!r} runs on the reference engine: {reason}")
    return out


def play_compiled(
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]],
    shared: dict[str, Any] | None = None,
) -> dict[str, np.ndarray] | None:
    """Return the ledger columns of ``run`` over ``sessions`` from its compiled twin, or None when the reference must play.

    The columns are those of :func:`baccarat.engine.reference.run_strategy`, bit for bit.
    ``shared`` (a dict kept for one table and one set of sessions) lets several
    strategies reuse what depends on the table only.
    """
    if compiled_path_disabled() or not sessions:
        return None
    if parity_failure(run, rules, config, seed, tuple(multipliers)) is not None:
        return None
    try:
        twin = twin_of(run, rules, config, seed)
        if twin is None:
            return None
        played = play_twin(twin, run, table, multipliers, config, seed, sessions, shared)
    except TwinError:
        return None  # the reference, the definition, plays it
    if played is None:
        return None
    spot_check(run, table, multipliers, rules, config, seed, sessions, played[0])
    return played[0]


SPOT_CHECK_SHARE = 1000
"""The spot check of a chunk plays at most one row in this many of the chunk on the reference (one shoe at least)."""


def spot_check(
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: Sequence[tuple[int, int, int]],
    columns: Mapping[str, np.ndarray],
) -> None:
    """Play the start of one session of the chunk on the reference too; refuse the run when the twin played it otherwise.

    The parity check before the run plays the first shoes only; this one
    plays a session drawn in every chunk, so that the sample is spread over
    the whole run, and a twin that differs only later (after shoe 16, in
    session 5,000) is caught. It costs about one row in
    :data:`SPOT_CHECK_SHARE` of the chunk on the reference.
    """
    pick = random.Random(f"{seed}:{sessions[0][0]}:{run.label}").randrange(len(sessions))
    number, start, stop = sessions[pick]
    lengths = [b - a for _, a, b in sessions]
    offset = sum(lengths[:pick])
    rows = min(stop - start, max(_ONE_SHOE, sum(lengths) // SPOT_CHECK_SHARE))
    part = {bet: column[start : start + rows] for bet, column in multipliers.items()}
    # A session's start plays as it does in the whole session; on its own rows only, which the reference prepares.
    reference = run_strategy(run, table.slice(start, start + rows), part, rules, config, seed, [(number, 0, rows)])
    fast = {name: np.asarray(column)[offset : offset + rows] for name, column in columns.items()}
    row = first_difference(fast, reference)
    if row is not None:
        raise StrategyError(
            f"strategy {run.label!r}: its compiled twin differs from the reference at session {reference['session'][row]}, "
            f"shoe {reference['shoe'][row]}, hand {reference['hand'][row]}, round {reference['round'][row]} (a spot check "
            f"during the run); fix the twin or run with {DISABLE_ENV}=1; "
            "the run was abandoned and nothing was written"
        )


_ONE_SHOE = 80
"""About the rounds of one 8-deck shoe: the least a spot check plays."""
