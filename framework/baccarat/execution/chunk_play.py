"""One chunk played: its rounds dealt (or taken), every strategy played on them, rounds and ledger encoded as Parquet.

A seeded shoe's cards come from its own random stream and a strategy's from
its label and session number, so a chunk gives the same bytes wherever it is
played: in this process, in a worker process or on a Ray node.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import numpy as np

from baccarat.compiling import DISABLE_ENV, compiled_path_disabled
from baccarat.engine.reference import SeatMaker, SessionConfig, StrategyRun, end_names, run_strategies
from baccarat.engine.sessions import played_rows, sessions_of
from baccarat.errors import StrategyError
from baccarat.execution.chunks import Chunk, ChunkOutput, RunPlan
from baccarat.money import MICROS_PER_CENT
from baccarat.players.code import plays_in_player
from baccarat.players.seat import Opening
from baccarat.shoes.rounds import RoundTable
from baccarat.table.rules import Rules

LOADING = threading.Lock()
"""Held while this process loads the plugins (worker threads of one process share them)."""


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


def player_seats(
    plugins_dirs: tuple[str, ...], rules: Rules, uses: dict[str, tuple[str, dict[str, Any]]], limit: float | None
) -> SeatMaker:
    """Seats in player processes for the strategies named in ``uses`` (label -> registered name and parameters).

    Each (strategy, chunk) plays in a fresh player forked from this process's
    host (:mod:`baccarat.players.process`), started the first time a plugin's
    strategy plays here; a player that takes more than ``limit`` seconds to
    answer a step is stopped (None: no limit).
    """
    from baccarat.players.process import PlayerSeat, host_for

    def seat(run: StrategyRun, opening: Opening) -> Any:
        use, params = uses[run.label]
        return PlayerSeat(host_for(plugins_dirs, rules), use, params, opening, limit)

    return seat


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
    seats: SeatMaker | None = None,
    engines: dict[str, str] | None = None,
) -> dict[str, np.ndarray]:
    """Play one strategy over the sessions of a table: the compiled path when it covers the strategy, else the reference.

    ``shared`` is a dict the caller keeps for one table and set of sessions, for the compiled path to reuse.
    Without ``compiled``, the reference plays. A strategy that runs a plugin's code (:func:`plays_in_player`)
    plays in a player process (``seats``), never here: not on the compiled path, whose twins would run here.
    ``engines`` (when given) is told which engine played the strategy, and why (:func:`engine_played`).
    """
    from baccarat.engine.reference import run_strategy

    in_player = plays_in_player(run.cls)
    columns = None
    if compiled and not in_player:
        from baccarat.engine.compiled import play_compiled

        columns = play_compiled(run, table, multipliers, rules, config, seed, sessions, shared)
    played_compiled = columns is not None
    if columns is None:
        columns = run_strategy(run, table, multipliers, rules, config, seed, sessions, seats if in_player else None)
    if engines is not None:
        engines[run.label] = engine_played(in_player, compiled, played_compiled)
    return columns


def placed(error: StrategyError, where: tuple[str | None, int | None, int | None] | None) -> StrategyError:
    """The error of a strategy that could not start a session, located where its entry was written (``where``); others as they are."""
    if not getattr(error, "at_start", False) or where is None or error.path is not None:
        return error
    source, line, column = where
    found = StrategyError(error.message, path=source, line=line, column=column)
    found.detail = getattr(error, "detail", None)
    return found


def engine_played(in_player: bool, compiled: bool, played_compiled: bool) -> str:
    """Say which engine played a strategy, and why: what ``--json``, the manifest and the report's run facts say of it."""
    if played_compiled:
        return "compiled"
    if in_player:
        return "reference: a plugin's code, played in player processes"
    if compiled_path_disabled():
        return f"reference: {DISABLE_ENV} turns the compiled path off"
    if not compiled:
        return "reference: a run this small is played by the reference (compiling would cost more)"
    return "reference: the compiled path does not cover this strategy, or its amounts could leave 64-bit integers"


def deal(plan: RunPlan, chunk: Chunk) -> RoundTable:
    """Deal the chunk's seeded shoes: the compiled dealer when the plan plays compiled, else the reference (the same rounds)."""
    if plan.compiled:
        from baccarat.shoes.compiled_deal import seeded_table_compiled

        return seeded_table_compiled(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)
    from baccarat.shoes.seeded import seeded_table

    return seeded_table(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)


def run_chunk(plan: RunPlan, chunk: Chunk) -> ChunkOutput:
    """Deal (or take) the chunk's rounds, play the chunk's strategies on them, and encode rounds and ledger as Parquet parts.

    The rounds are encoded by the chunk of the first group of strategies only
    (:meth:`~baccarat.execution.chunks.Chunk.plays_first`); the shoes and
    sessions are counted by the last group's.
    """
    import pyarrow as pa

    from baccarat.odds.settlement import settlement_table
    from baccarat.results.ledger import expected_net, ledger_table
    from baccarat.shoes.columnar import encode_parquet

    with LOADING:
        every = plan.runs()  # first: loads the plugins, whose bets settlement needs
    first, stop = chunk.strategies if chunk.strategies is not None else (0, len(every))
    runs = every[first:stop]
    table = chunk.table if chunk.table is not None else deal(plan, chunk)
    sessions = sessions_of(table, plan.config, chunk.first_session, chunk.row_offset, chunk.sessions if chunk.table is None else None)
    if plan.config.rounds is not None:  # only the sessions' rounds are played and written
        table, sessions = played_rows(table, sessions)
    with LOADING:  # the bets of the rules' registry: the plugins', loaded in this process
        multipliers = settlement_table(table, plan.rules)
    uses = {entry.name: (entry.use, dict(entry.params)) for entry in plan.strategies}
    seats = player_seats(plan.plugins_dirs, plan.rules, uses, plan.answer_seconds)
    ledgers = []
    folded = []
    bankrolls = []
    shared: dict[str, Any] = {}
    engines: dict[str, str] = {}
    written = {entry.name: entry.where for entry in plan.strategies[first:stop]}
    in_players = [k for k, run in enumerate(runs) if plays_in_player(run.cls)]
    played_together = run_strategies(
        [runs[k] for k in in_players], table, multipliers, plan.rules, plan.config, chunk.seed, sessions, seats
    )
    together = dict(zip(in_players, played_together, strict=True))
    for k, run in enumerate(runs):
        try:
            if k in together:  # played in players, all at once: its ledger columns made now
                played = together.pop(k)
                if isinstance(played, StrategyError):
                    raise played
                columns = played()
                engines[run.label] = engine_played(True, plan.compiled, False)
            else:
                columns = play_strategy(
                    run, table, multipliers, plan.rules, plan.config, chunk.seed, sessions, shared, plan.compiled, seats, engines
                )
        except StrategyError as exc:
            raise placed(exc, written.get(run.label)) from None
        if plan.backed is not None:
            _check_declared(run, columns, plan.bets)
        columns["expected_net"] = expected_net(columns, plan.bets, plan.expected)
        if chunk.shoe_offset or chunk.session_offset:
            columns = {**columns, "shoe": columns["shoe"] + chunk.shoe_offset, "session": columns["session"] + chunk.session_offset}
        if plan.gather_stats:
            from baccarat.results.statistics.folded import fold_sessions

            folded.append(
                fold_sessions(
                    columns,
                    columns["expected_net"],
                    plan.config.bankroll_cents * MICROS_PER_CENT,
                    plan.config.table_min_cents,
                    end_names(run.cls),
                    plan.compiled,
                )
            )
            bankrolls.append(columns["bankroll"])
        # Encoded as soon as played: a chunk holds one strategy's ledger columns at a time, not every strategy's.
        ledger = _with_seed(ledger_table(run.label, columns, plan.ledger_bets(), plan.expected), plan, chunk, pa)
        ledgers.append(encode_parquet([ledger], statistics=("session", "shoe"), plain=_PLAIN_LEDGER, required=ledger.schema.names))
    warnings: tuple[str, ...] = ()
    if plan.compiled and chunk.index == 0:  # the checks were made (once per process) as the strategies played
        from baccarat.engine.compiled import twin_warnings

        framework = [run for run in runs if not plays_in_player(run.cls)]  # a plugin's twin never plays here
        warnings = tuple(twin_warnings(framework, plan.rules, plan.config, chunk.seed, tuple(multipliers)))
    last = stop == len(every)  # the last group counts the shoes and sessions
    return ChunkOutput(
        chunk.index,
        chunk.shoes - (1 if chunk.row_offset else 0) if last else 0,  # a first shoe begun by the chunk before is counted there
        chunk.sessions if last else 0,
        len(table),
        len(table) * len(runs),
        _rounds_part(plan, chunk, table, pa) if chunk.plays_first() else None,
        tuple(ledgers),
        tuple(folded),
        tuple(bankrolls),
        warnings,
        tuple(engines.items()),
        first,
    )


def _rounds_part(plan: RunPlan, chunk: Chunk, table: RoundTable, pa: Any) -> bytes:
    """The chunk's rounds encoded as a Parquet part."""
    from baccarat.shoes.columnar import encode_parquet

    if chunk.shoe_offset:
        table = dataclasses.replace(table, shoe=table.shoe + chunk.shoe_offset)
    rounds = _with_seed(table.to_arrow(plan.compiled), plan, chunk, pa)
    # Columns that never hold a null in a run are written as required: the same values, encoded faster. Which
    # they are depends on the run only (every chunk of a run has cards or none), so every part has one schema.
    rounds_required = _ROUNDS_ALWAYS + (_ROUNDS_WITH_CARDS if table.has_cards else ())
    return encode_parquet([rounds], statistics=("shoe",), plain=("shoe", "hand"), required=rounds_required)


_PLAIN_LEDGER = ("session", "shoe", "hand", "round", "capped", "seed")
"""Ledger columns encoded without a dictionary (cheaper, and no smaller with one)."""


_ROUNDS_ALWAYS = ("shoe", "hand", "outcome", "seed")


_ROUNDS_WITH_CARDS = ("player_total", "banker_total", "natural", "player_pair", "banker_pair")
"""Columns of ``rounds`` never null: always, and when the shoes have cards (the card lists stay nullable)."""


def _with_seed(arrow: Any, plan: RunPlan, chunk: Chunk, pa: Any) -> Any:
    if not plan.seed_column:
        return arrow
    return arrow.append_column("seed", pa.array(np.full(arrow.num_rows, chunk.seed, dtype=np.int64)))
