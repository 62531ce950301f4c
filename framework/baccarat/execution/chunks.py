"""A run cut into chunks of whole sessions, and what every chunk needs to be played.

The cut depends on the experiment only (never on the number of workers): a
chunk holds about :data:`LEDGER_ROWS_PER_CHUNK` ledger rows of consecutive
sessions of one seed, seeded shoes to deal or rows of recorded shoes, played
by at most :data:`STRATEGIES_PER_CHUNK` of the strategies: a run of more
strategies plays the same sessions in several chunks, one after the other,
each for a group of them (:func:`strategy_groups`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from baccarat.engine.reference import SessionConfig, StrategyRun
from baccarat.errors import InputError, StrategyError
from baccarat.experiment.model import StrategyEntry
from baccarat.players.process import answer_seconds
from baccarat.shoes.rounds import RoundTable
from baccarat.table.rules import Rules

LEDGER_ROWS_PER_CHUNK = 800_000
"""About how many ledger rows (rounds x strategies) a chunk holds.

Each chunk has costs of its own (its arrays allocated and first touched,
five Parquet files, a spot check per strategy): 800,000 rows take about a
tenth less CPU than 400,000 for the job of tests/benchmarks/bench_floor.py,
for about 90 MB more memory at the peak; 1,600,000 gain little more.
"""

CHUNKS_IN_FLIGHT_PER_WORKER = 2
"""Chunks handed out ahead of the next output in order, per worker: enough to keep workers busy, few enough to bound memory.

Here, below the scheduler (:mod:`baccarat.execution.executor`) and its back ends, so that each back end reads it
without importing the scheduler that picks it."""

STRATEGIES_PER_CHUNK = 4
"""The most strategies a chunk plays; a run of more plays each set of sessions in several chunks, a group of them in each.

A chunk's costs of its own are mostly paid once per strategy (its
compiled call, the spot check of its twin on the reference, its ledger's
Parquet part and file): were a chunk's rows shared by all 64 strategies
of a run, its sessions would be 156 one-shoe sessions, and those costs
would weigh 16 times what they weigh with 4. In groups, every strategy
plays chunks of the sessions 4 strategies' rows make (about 2,500 one-shoe
sessions: tests/benchmarks/bench_strategy_count.py), and no chunk holds
more rows than :data:`LEDGER_ROWS_PER_CHUNK`; the rounds are dealt again
for each group (a few percent of a chunk) and written once.
"""


def resolve_strategies(entries: Sequence[StrategyEntry], plugins_dirs: Sequence[str]) -> tuple[StrategyRun, ...]:
    """Return the strategies resolved against the plugins of this process, once per process for the same strategies.

    A strategy travels as its :class:`~baccarat.experiment.model.StrategyEntry`
    (label, registered name, parameters: plain data); its class is made here,
    in the process that plays it (composed classes are made at run time).
    """
    from baccarat.plugin.manager import registry

    plugins = registry(plugins_dirs)  # built once per process for these folders and disabled plugins
    key = (id(plugins), tuple((e.name, e.use, repr(sorted(e.params.items()))) for e in entries))
    found = _RESOLVED.get(key)
    if found is None:
        labels: set[str] = set()
        runs = []
        for entry in entries:
            if entry.name in labels:
                raise StrategyError(f"two strategies are labelled {entry.name!r}; labels must be unique")
            labels.add(entry.name)
            cls, params = plugins.configure(entry.use, entry.params)
            runs.append(StrategyRun(entry.name, cls, params))
        found = _RESOLVED[key] = tuple(runs)
    return found


_RESOLVED: dict[tuple[Any, ...], tuple[StrategyRun, ...]] = {}
"""The strategies resolved in this process, by plugin registry and strategies."""


@dataclasses.dataclass(frozen=True)
class RunPlan:
    """What every chunk of a run needs: rules, sessions, strategies, the ledger's bets.

    Strategies travel by name and are resolved against the plugins in the
    process that plays the chunk (composed strategy classes are made at run
    time and cannot be pickled); ``plugins_dirs`` must exist there too.
    """

    rules: Rules
    config: SessionConfig
    strategies: tuple[StrategyEntry, ...]
    plugins_dirs: tuple[str, ...]
    bets: tuple[str, ...]
    expected: dict[str, float]
    """Exact expected value per unit staked of every bet (the ledger's ``expected_net``)."""
    seed_column: bool = False
    """Several seeds: rounds and ledger gain a ``seed`` column."""
    gather_stats: bool = False
    """Chunks also return their session-table rows and bankroll columns (:mod:`baccarat.results.statistics.folded`)."""
    announce_compiling: bool = False
    """The first worker process prints a line when it compiles kernels (:mod:`baccarat.execution.compile_notice`)."""
    backed: tuple[str, ...] | None = None
    """The bets the strategies declare they may back (:func:`declared_sides`), or None when one of them does not say."""
    compiled: bool = True
    """Deal with the compiled dealer and play compiled twins (:func:`baccarat.compiling.plays_compiled`), else the reference."""
    answer_seconds: float | None = dataclasses.field(default_factory=answer_seconds)
    """How long a player may take to answer a step (:func:`baccarat.players.process.answer_seconds`, read where the run is
    planned, so that every worker and node keeps the same limit); None: no limit."""

    def ledger_bets(self) -> tuple[str, ...]:
        """Return the bets with ``stake_<bet>`` / ``net_<bet>`` columns in the ledger: those that carry information.

        Every bet the table settles when a strategy does not declare its
        sides; else the bets declared, and none when that is a single bet
        (the columns would repeat ``stake`` and ``net``).
        """
        if self.backed is None:
            return self.bets
        return self.backed if len(self.backed) > 1 else ()

    def runs(self) -> tuple[StrategyRun, ...]:
        """Return the strategies resolved against the plugins of this process (once per process)."""
        return resolve_strategies(self.strategies, self.plugins_dirs)


@dataclasses.dataclass(frozen=True)
class Chunk:
    """Consecutive whole sessions of one seed: seeded shoes to deal, or rows of recorded shoes."""

    index: int
    """The number of the chunk's sessions in the run: the chunks that play them for other strategies share it."""
    seed: int
    first_session: int
    sessions: int
    first_shoe: int = 1
    shoes: int = 0
    table: RoundTable | None = None
    shoe_offset: int = 0
    session_offset: int = 0
    """Added to shoe ids and session numbers in the output (runs of several seeds continue the numbering)."""
    row_offset: int = 0
    """Sessions of ``session.rounds`` rounds: the round of the first shoe (from 0) where the first session starts."""
    strategies: tuple[int, int] | None = None
    """The positions (first, stop) of the strategies the chunk plays (:func:`strategy_groups`); None: every strategy."""

    def plays_first(self) -> bool:
        """Tell whether the chunk plays the first group of its sessions' strategies (it writes their rounds)."""
        return self.strategies is None or self.strategies[0] == 0


@dataclasses.dataclass(frozen=True)
class ChunkOutput:
    """A played chunk: its rounds, and each of its strategies' ledger, as Parquet parts; and their sizes.

    Of the chunks that play the same sessions for groups of strategies, the
    first gives the rounds' part, the last the shoes and sessions (so that a
    run's progress counts the shoes whose every strategy has played).
    """

    index: int
    shoes: int
    sessions: int
    rounds: int
    """The rounds the chunk played (the rows of each ledger part), given by every chunk of the same sessions."""
    ledger_rows: int
    rounds_part: bytes | None
    """None: another chunk of the same sessions (the first group's) gives the rounds."""
    ledger_parts: tuple[bytes, ...]
    session_rows: tuple[Any, ...] = ()
    """Each strategy's :class:`baccarat.results.statistics.folded.SessionRows` (when the plan gathers statistics)."""
    bankrolls: tuple[np.ndarray, ...] = ()
    """Each strategy's bankroll column, micro-units (when the plan gathers statistics)."""
    warnings: tuple[str, ...] = ()
    """Strategies whose compiled twin failed its parity check and played the reference (the first chunk says so)."""
    engines: tuple[tuple[str, str], ...] = ()
    """Which engine played each strategy of the chunk, and why: ``(label, engine)`` (:func:`chunk_play.engine_played`)."""
    first_strategy: int = 0
    """The position of the chunk's first strategy among the run's: its parts, rows and columns are those of the
    strategies from there on."""


def rounds_per_shoe_estimate(rules: Rules) -> float:
    """Return about how many rounds a seeded shoe holds (4.94 cards a round on average)."""
    if rules.reshuffle_every_round:
        return 1.0
    return max(1.0, (52 * rules.decks - rules.cut_card - 6) / 4.94)


def even_parts(total: int, most: int) -> list[tuple[int, int]]:
    """Cut ``total`` items into as few parts of at most ``most`` as can be, of sizes that differ by one at most.

    Returns each part's (first, stop) positions, in order (none for no item):
    the last part is no smaller than the others, so no chunk of a few
    sessions pays a chunk's costs for them alone.
    """
    count = math.ceil(total / max(most, 1))
    if not count:
        return []
    size, extra = divmod(total, count)
    parts, first = [], 0
    for k in range(count):
        stop = first + size + (1 if k < extra else 0)
        parts.append((first, stop))
        first = stop
    return parts


def strategy_groups(strategies: int) -> list[tuple[int, int]]:
    """Return the groups of strategies the chunks of one set of sessions play: (first, stop) positions, in order.

    As few groups as :data:`STRATEGIES_PER_CHUNK` allows, of sizes that differ
    by one at most (5 strategies: 3 and 2).
    """
    return even_parts(strategies, STRATEGIES_PER_CHUNK) or [(0, strategies)]


def group_size(strategies: int) -> int:
    """Return the most strategies one chunk plays (the largest of :func:`strategy_groups`)."""
    return max(stop - first for first, stop in strategy_groups(strategies))


def sessions_per_chunk(rules: Rules, config: SessionConfig, strategies: int) -> int:
    """Return how many sessions of seeded shoes make a chunk (from the experiment only)."""
    rounds = rounds_per_shoe_estimate(rules) * config.shoes_per_session if config.rounds is None else config.rounds
    rows_per_session = rounds * max(group_size(strategies), 1)
    return max(1, int(LEDGER_ROWS_PER_CHUNK // rows_per_session))


def grouped(chunks: list[Chunk], strategies: int) -> list[Chunk]:
    """Return ``chunks`` (each for every strategy) as chunks of each group of strategies: the groups of one set of
    sessions follow each other, and share its index."""
    groups = strategy_groups(strategies)
    return [dataclasses.replace(chunk, strategies=group) for chunk in chunks for group in groups]


def seeded_chunks(plan: RunPlan, seeds: Sequence[int], count: int) -> list[Chunk]:
    """Cut ``count`` seeded shoes of each seed into chunks of whole sessions."""
    if plan.config.rounds is not None:
        return _round_chunks(plan, seeds, count)
    per_session = plan.config.shoes_per_session
    sessions_total = math.ceil(count / per_session)
    step = sessions_per_chunk(plan.rules, plan.config, len(plan.strategies))
    chunks: list[Chunk] = []
    for k, seed in enumerate(seeds):
        for start, stop in even_parts(sessions_total, step):
            first_session, sessions = start + 1, stop - start
            first_shoe = (first_session - 1) * per_session + 1
            shoes = min(sessions * per_session, count - first_shoe + 1)
            chunks.append(
                Chunk(
                    len(chunks), seed, first_session, sessions, first_shoe, shoes, shoe_offset=k * count, session_offset=k * sessions_total
                )
            )
    return grouped(chunks, len(plan.strategies))


LENGTHS_BLOCK = 20_000
"""Seeded shoes dealt at a time to count their rounds (:func:`seeded_shoe_lengths`)."""


def seeded_shoe_lengths(plan: RunPlan, seed: int, count: int) -> np.ndarray:
    """Return the rounds of each of the first ``count`` seeded shoes of ``seed``, dealt (a block at a time) to count them."""
    if plan.compiled:
        from baccarat.shoes.compiled_deal import seeded_table_compiled as dealt
    else:
        from baccarat.shoes.seeded import seeded_table as dealt
    from baccarat.engine.sessions import shoe_lengths

    parts = [
        shoe_lengths(dealt(plan.rules, seed, first, min(LENGTHS_BLOCK, count - first + 1))) for first in range(1, count + 1, LENGTHS_BLOCK)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _round_chunks(plan: RunPlan, seeds: Sequence[int], count: int) -> list[Chunk]:
    """Cut the sessions of ``session.rounds`` rounds that ``count`` seeded shoes of each seed hold into chunks.

    The shoes are dealt once here to count their rounds, so that every chunk
    knows the shoes its sessions take and where in the first one they start.
    """
    from baccarat.engine.sessions import round_windows

    config = plan.config
    assert config.rounds is not None
    step = sessions_per_chunk(plan.rules, config, len(plan.strategies))
    chunks: list[Chunk] = []
    sessions_before = 0
    for k, seed in enumerate(seeds):
        lengths = seeded_shoe_lengths(plan, seed, count)
        windows = round_windows(lengths, config.rounds, config.new_shoe)
        edges = np.concatenate([[0], np.cumsum(lengths)])
        for first, end in even_parts(len(windows), step):
            last = end - 1
            start, stop = int(windows[first, 0]), int(windows[last, 1])
            first_shoe = int(np.searchsorted(edges, start, side="right")) - 1
            last_shoe = int(np.searchsorted(edges, stop, side="left")) - 1
            chunks.append(
                Chunk(
                    len(chunks),
                    seed,
                    first + 1,
                    last - first + 1,
                    first_shoe + 1,
                    last_shoe - first_shoe + 1,
                    shoe_offset=k * count,
                    session_offset=sessions_before,
                    row_offset=start - int(edges[first_shoe]),
                )
            )
        sessions_before += len(windows)
        if not len(windows):
            raise no_whole_session(config.rounds, f"{count:,} seeded shoes of seed {seed}", int(lengths.sum()))
    return grouped(chunks, len(plan.strategies))


def no_whole_session(rounds: int, shoes: str, held: int, more: str = "deal more shoes (shoes.count)") -> InputError:
    """The error of shoes that hold no whole session of ``rounds`` rounds."""
    return InputError(
        f"session.rounds is {rounds:,}, but the {shoes} hold {held:,} rounds: no whole session to play; "
        f"{more} or give session.rounds fewer rounds"
    )


def table_chunks(plan: RunPlan, seeds: Sequence[int], table: RoundTable) -> list[Chunk]:
    """Cut a table of recorded shoes into chunks of whole sessions of about the same size, for each seed."""
    from baccarat.engine.sessions import played_rows, sessions_of

    shoes_total = int(table.shoe[-1]) if len(table) else 0
    bounds = sessions_of(table, plan.config)
    if plan.config.rounds is not None:  # the rounds of the sessions only: none after the last whole session's end
        if not bounds:
            raise no_whole_session(plan.config.rounds, "recorded shoes", len(table), "replay more shoes")
        table, bounds = played_rows(table, bounds)
    rows_per_chunk = max(1, LEDGER_ROWS_PER_CHUNK // max(group_size(len(plan.strategies)), 1))
    groups: list[list[tuple[int, int, int]]] = [[]]
    for bound in bounds:
        if groups[-1] and bound[2] - groups[-1][0][1] > rows_per_chunk:
            groups.append([])
        groups[-1].append(bound)
    chunks: list[Chunk] = []
    for k, seed in enumerate(seeds):
        for group in groups:
            if not group:
                continue
            start, stop = group[0][1], group[-1][2]
            shoes = len(np.unique(table.shoe[start:stop]))
            if start and table.shoe[start] == table.shoe[start - 1]:  # a shoe the chunk before counted (sessions in rounds)
                shoes -= 1
            chunks.append(
                Chunk(
                    len(chunks),
                    seed,
                    group[0][0],
                    len(group),
                    shoes=shoes,
                    table=table.slice(start, stop),
                    shoe_offset=k * shoes_total,
                    session_offset=k * len(bounds),
                )
            )
    return grouped(chunks, len(plan.strategies))
