"""One chunk played: its rounds dealt (or taken), every strategy played on them, rounds and ledger encoded as Parquet.

A seeded shoe's cards come from its own random stream and a strategy's from
its label and session number, so a chunk gives the same bytes wherever it is
played: in this process, in a worker process or on a Ray node.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
from typing import Any

import numpy as np

from baccarat.engine.class_state import changed_attribute, class_state
from baccarat.engine.exit_guard import exit_refused
from baccarat.engine.reference import SessionConfig, StrategyRun, session_bounds
from baccarat.engine.rules_guard import check_rules_unchanged, private_rules
from baccarat.errors import StrategyError
from baccarat.execution.chunks import Chunk, ChunkOutput, RunPlan
from baccarat.money import MICROS_PER_CENT
from baccarat.shoes.rounds import RoundTable, table_digest
from baccarat.table.rules import Rules

PLUGIN_CODE_LOCK = threading.RLock()
"""Held while plugin code runs in a chunk: one chunk at a time per process (worker threads included).

The guards around a strategy's play (standard output sent to standard
error, ``os._exit`` refused, the working folder put back, the class
attributes compared) act on the whole process, so no two strategies of a
process play at once; the rest of a chunk (dealing, encoding) does not wait.
"""


def declared_sides(run: StrategyRun) -> set[str] | None:
    """Return the bets a strategy declares it may place (its ``sides``), or None when its class does not declare them.

    Composed strategies declare their selector's sides; a plain strategy
    declares only by overriding :meth:`baccarat.plugin.strategy.Strategy.sides`
    (the default, read from a ``side`` parameter, is a guess, not a promise).
    """
    from baccarat.plugin.compose import declares_sides

    return set(run.cls.sides(run.params)) if declares_sides(run.cls) else None


def _check_declared(run: StrategyRun, columns: dict[str, np.ndarray], bets: tuple[str, ...]) -> None:
    """Refuse a strategy that staked on a bet it does not declare (the ledger has no column for it)."""
    from baccarat.table.bet_registry import stake_column

    declared = declared_sides(run)
    if declared is None:
        return
    for bet in bets:
        if bet not in declared and columns[stake_column(bet)].any():
            raise StrategyError(
                f"strategy {run.label!r} staked on {bet}, which its sides() does not name "
                f"({', '.join(sorted(declared)) or 'none'}); declare every bet it may place; the run "
                "was abandoned and nothing was written"
            )


def check_class_unchanged(run: StrategyRun, before: dict[Any, Any]) -> None:
    """Refuse a strategy that changed a class attribute while it played: its sessions would depend on the process."""
    attribute = changed_attribute(run.cls, before)
    if attribute is not None:
        raise StrategyError(
            f"strategy {run.label!r} changed the class attribute {attribute} while it played: a class attribute is shared "
            "by every session a process plays, so results would depend on --workers; keep state on self (set it in "
            "__init__); the run was abandoned and nothing was written"
        )


def play_strategy(
    run: StrategyRun,
    table: RoundTable,
    multipliers: dict[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    sessions: list[tuple[int, int, int]],
    shared: dict[str, Any] | None = None,
    compiled: bool = True,
    reference_rounds: dict[str, Any] | None = None,
) -> dict[str, np.ndarray]:
    """Play one strategy over the sessions of a table: the compiled compiled path when it covers the strategy, else the reference.

    ``shared`` is a dict the caller keeps for one table and set of sessions, for the compiled path to reuse;
    ``reference_rounds`` one it keeps for the table, for the reference engine to reuse.
    Without ``compiled``, the reference plays.
    """
    from baccarat.engine.reference import run_strategy

    columns = None
    if compiled:
        from baccarat.engine.compiled import play_compiled

        columns = play_compiled(run, table, multipliers, rules, config, seed, sessions, shared)
    if columns is None:
        from baccarat.engine.reference import DealtRounds

        dealt = reference_rounds.get("rounds") if reference_rounds is not None else None
        if dealt is None:  # converted once for the table's strategies that play on the reference
            dealt = DealtRounds(table, multipliers)
            if reference_rounds is not None:
                reference_rounds["rounds"] = dealt
        columns = run_strategy(run, table, multipliers, rules, config, seed, sessions, dealt)
    return columns


def deal(plan: RunPlan, chunk: Chunk) -> RoundTable:
    """Deal the chunk's seeded shoes: the compiled dealer when the plan plays compiled, else the reference (the same rounds)."""
    if plan.compiled:
        from baccarat.shoes.compiled_deal import seeded_table_compiled

        return seeded_table_compiled(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)
    from baccarat.shoes.seeded import seeded_table

    return seeded_table(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)


def run_chunk(plan: RunPlan, chunk: Chunk) -> ChunkOutput:
    """Deal (or take) the chunk's rounds, play every strategy on them, and encode rounds and ledger as Parquet parts."""
    import pyarrow as pa

    from baccarat.odds.settlement import settlement_table
    from baccarat.results.ledger import expected_net, ledger_table
    from baccarat.shoes.columnar import encode_parquet

    with PLUGIN_CODE_LOCK:
        runs = plan.runs()  # first: loads the plugins, whose bets settlement needs
    table = chunk.table if chunk.table is not None else deal(plan, chunk)
    with PLUGIN_CODE_LOCK:  # the bets of the rules' registry: the plugins', loaded in this process
        multipliers = settlement_table(table, plan.rules)
    dealt = table_digest(table, multipliers)
    sessions = [(chunk.first_session + k - 1, start, stop) for k, start, stop in session_bounds(table, plan.config.shoes_per_session)]
    ledgers = []
    folded = []
    bankrolls = []
    shared: dict[str, Any] = {}
    reference_rounds: dict[str, Any] = {}
    pristine = private_rules(plan.rules)
    for run in runs:
        with PLUGIN_CODE_LOCK:
            rules = private_rules(pristine)  # the strategy's own: a change it makes reaches no settlement and no other strategy
            before = class_state(run.cls)
            with contextlib.redirect_stdout(sys.stderr), exit_refused():  # its prints never spoil --json; os._exit is one line
                columns = play_strategy(
                    run, table, multipliers, rules, plan.config, chunk.seed, sessions, shared, plan.compiled, reference_rounds
                )
            check_rules_unchanged(rules, pristine, f"strategy {run.label!r}")
            check_class_unchanged(run, before)
            if plan.backed is not None:
                _check_declared(run, columns, plan.bets)
        columns["expected_net"] = expected_net(columns, plan.bets, plan.expected)
        if chunk.shoe_offset or chunk.session_offset:
            columns = {**columns, "shoe": columns["shoe"] + chunk.shoe_offset, "session": columns["session"] + chunk.session_offset}
        if plan.gather_stats:
            from baccarat.plugin.compose import stop_rule_names
            from baccarat.results.statistics.folded import fold_sessions

            folded.append(
                fold_sessions(
                    columns,
                    columns["expected_net"],
                    plan.config.bankroll_cents * MICROS_PER_CENT,
                    plan.config.table_min_cents,
                    stop_rule_names(run.cls),
                    plan.compiled,
                )
            )
            bankrolls.append(columns["bankroll"])
        # Encoded as soon as played: a chunk holds one strategy's ledger columns at a time, not every strategy's.
        ledger = _with_seed(ledger_table(run.label, columns, plan.ledger_bets(), plan.expected), plan, chunk, pa)
        ledgers.append(encode_parquet([ledger], statistics=("session", "shoe"), plain=_PLAIN_LEDGER, required=ledger.schema.names))
    check_rules_unchanged(plan.rules, pristine, "a strategy's code")
    if table_digest(table, multipliers) != dealt:  # compiled plugin code included
        raise StrategyError(
            "the rounds or their settlement changed while the strategies played them (a strategy's code "
            "wrote to them); the run was abandoned and nothing was written"
        )
    warnings: tuple[str, ...] = ()
    if plan.compiled and chunk.index == 0:  # the checks were made (once per process) as the strategies played
        from baccarat.engine.compiled import twin_warnings

        with PLUGIN_CODE_LOCK:
            warnings = tuple(twin_warnings(runs, plan.rules, plan.config, chunk.seed, tuple(multipliers)))
    if chunk.shoe_offset:
        table = dataclasses.replace(table, shoe=table.shoe + chunk.shoe_offset)
    rounds = _with_seed(table.to_arrow(plan.compiled), plan, chunk, pa)
    # Columns that never hold a null in a run are written as required: the same values, encoded faster. Which
    # they are depends on the run only (every chunk of a run has cards or none), so every part has one schema.
    rounds_required = _ROUNDS_ALWAYS + (_ROUNDS_WITH_CARDS if table.has_cards else ())
    return ChunkOutput(
        chunk.index,
        chunk.shoes,
        chunk.sessions,
        len(table),
        len(table) * len(plan.strategies),
        encode_parquet([rounds], statistics=("shoe",), plain=("shoe", "hand"), required=rounds_required),
        tuple(ledgers),
        tuple(folded),
        tuple(bankrolls),
        warnings,
    )


_PLAIN_LEDGER = ("session", "shoe", "hand", "round", "capped", "seed")
"""Ledger columns encoded without a dictionary (cheaper, and no smaller with one)."""


_ROUNDS_ALWAYS = ("shoe", "hand", "outcome", "seed")


_ROUNDS_WITH_CARDS = ("player_total", "banker_total", "natural", "player_pair", "banker_pair")
"""Columns of ``rounds`` never null: always, and when the shoes have cards (the card lists stay nullable)."""


def _with_seed(arrow: Any, plan: RunPlan, chunk: Chunk, pa: Any) -> Any:
    if not plan.seed_column:
        return arrow
    return arrow.append_column("seed", pa.array(np.full(arrow.num_rows, chunk.seed, dtype=np.int64)))
