"""Chunks of whole sessions, run in this process, in worker processes or on Ray.

A run is cut into chunks of consecutive sessions. The cut depends on the
experiment only (never on the number of workers), each chunk is dealt and
played on its own (a seeded shoe's cards come from its own random stream, a
strategy's from its label and session number), and the main process appends
the chunks' Parquet parts in chunk order. So one worker, N workers or a Ray
cluster write the same bytes; and only a few chunks are in memory at a time,
whatever the number of shoes.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baccarat.engine import SessionConfig, StrategyRun, session_bounds
from baccarat.errors import RunFailure
from baccarat.rounds import RoundTable
from baccarat.rules import Rules

EXECUTORS: tuple[str, ...] = ("processes", "ray")
"""Ways to run the chunks: worker processes on this machine, or tasks on a Ray cluster."""

LEDGER_ROWS_PER_CHUNK = 400_000
"""About how many ledger rows (rounds x strategies) a chunk holds."""

CHUNKS_IN_FLIGHT_PER_WORKER = 2
"""Chunks submitted ahead per worker: enough to keep workers busy, few enough to bound memory."""

LOCAL_CHUNKS_AHEAD = 4
"""Chunks the main process may play ahead of the next output in order (their outputs wait in memory)."""


@dataclasses.dataclass(frozen=True)
class StrategySpec:
    """A strategy of the experiment as written: its label, registered name and parameters."""

    label: str
    use: str
    params: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class RunPlan:
    """What every chunk of a run needs: rules, sessions, strategies, the ledger's bets.

    Strategies travel by name and are resolved against the plugins in the
    process that plays the chunk (composed strategy classes are made at run
    time and cannot be pickled); ``plugins_dirs`` must exist there too.
    """

    rules: Rules
    config: SessionConfig
    strategies: tuple[StrategySpec, ...]
    plugins_dirs: tuple[str, ...]
    bets: tuple[str, ...]
    expected: dict[str, float]
    """Exact expected value per unit staked of every bet (the ledger's ``expected_net``)."""
    seed_column: bool = False
    """Several seeds: rounds and ledger gain a ``seed`` column."""
    gather_stats: bool = False
    """Chunks also return their session-table rows and bankroll columns (:mod:`baccarat.runstats`)."""

    def runs(self) -> list[StrategyRun]:
        """Return the strategies resolved against the plugins of this process."""
        from baccarat.plugins import registry

        found = registry(self.plugins_dirs)
        runs = []
        for spec in self.strategies:
            cls, params = found.configure(spec.use, spec.params)
            runs.append(StrategyRun(spec.label, cls, params))
        return runs


@dataclasses.dataclass(frozen=True)
class Chunk:
    """Consecutive whole sessions of one seed: seeded shoes to deal, or rows of recorded shoes."""

    index: int
    seed: int
    first_session: int
    sessions: int
    first_shoe: int = 1
    shoes: int = 0
    table: RoundTable | None = None
    shoe_offset: int = 0
    session_offset: int = 0
    """Added to shoe ids and session numbers in the output (runs of several seeds continue the numbering)."""


@dataclasses.dataclass(frozen=True)
class ChunkOutput:
    """A played chunk: its rounds, and each strategy's ledger, as Parquet parts; and their sizes."""

    index: int
    shoes: int
    sessions: int
    rounds: int
    ledger_rows: int
    rounds_part: bytes
    ledger_parts: tuple[bytes, ...]
    session_rows: tuple[Any, ...] = ()
    """Each strategy's :class:`baccarat.runstats.SessionRows` (when the plan gathers statistics)."""
    bankrolls: tuple[np.ndarray, ...] = ()
    """Each strategy's bankroll column, micro-units (when the plan gathers statistics)."""


def default_workers() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def rounds_per_shoe_estimate(rules: Rules) -> float:
    """Return about how many rounds a seeded shoe holds (4.94 cards a round on average)."""
    if rules.reshuffle_every_round:
        return 1.0
    return max(1.0, (52 * rules.decks - rules.cut_card - 6) / 4.94)


def sessions_per_chunk(rules: Rules, config: SessionConfig, strategies: int) -> int:
    """Return how many sessions of seeded shoes make a chunk (from the experiment only)."""
    rows_per_session = rounds_per_shoe_estimate(rules) * config.shoes_per_session * max(strategies, 1)
    return max(1, int(LEDGER_ROWS_PER_CHUNK // rows_per_session))


def seeded_chunks(plan: RunPlan, seeds: Sequence[int], count: int) -> list[Chunk]:
    """Cut ``count`` seeded shoes of each seed into chunks of whole sessions."""
    per_session = plan.config.shoes_per_session
    sessions_total = math.ceil(count / per_session)
    step = sessions_per_chunk(plan.rules, plan.config, len(plan.strategies))
    chunks: list[Chunk] = []
    for k, seed in enumerate(seeds):
        for first_session in range(1, sessions_total + 1, step):
            sessions = min(step, sessions_total - first_session + 1)
            first_shoe = (first_session - 1) * per_session + 1
            shoes = min(sessions * per_session, count - first_shoe + 1)
            chunks.append(Chunk(len(chunks), seed, first_session, sessions, first_shoe, shoes,
                                shoe_offset=k * count, session_offset=k * sessions_total))
    return chunks


def table_chunks(plan: RunPlan, seeds: Sequence[int], table: RoundTable) -> list[Chunk]:
    """Cut a table of recorded shoes into chunks of whole sessions of about the same size, for each seed."""
    bounds = session_bounds(table, plan.config.shoes_per_session)
    shoes_total = int(table.shoe[-1]) if len(table) else 0
    rows_per_chunk = max(1, LEDGER_ROWS_PER_CHUNK // max(len(plan.strategies), 1))
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
            chunks.append(Chunk(len(chunks), seed, group[0][0], len(group), shoes=shoes, table=table.slice(start, stop),
                                shoe_offset=k * shoes_total, session_offset=k * len(bounds)))
    return chunks


def play_strategy(run: StrategyRun, table: RoundTable, multipliers: dict[str, np.ndarray], rules: Rules,
                  config: SessionConfig, seed: int, sessions: list[tuple[int, int, int]],
                  shared: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
    """Play one strategy over the sessions of a table: the compiled fast path when it covers the strategy, else the reference.

    ``shared`` is a dict the caller keeps for one table and set of sessions, for the fast path to reuse.
    """
    from baccarat.engine import run_strategy
    from baccarat.fastpath import play_fast

    columns = play_fast(run, table, multipliers, rules, config, seed, sessions, shared)
    if columns is None:
        columns = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    return columns


def _glibc_malloc(mmap_threshold: int, trim_threshold: int, trim_now: bool = False) -> None:
    """Set glibc's allocator thresholds (bytes), and give freed memory back at once with ``trim_now``; else nothing."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, mmap_threshold)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, trim_threshold)  # M_TRIM_THRESHOLD
        if trim_now:
            libc.malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


@functools.cache
def keep_freed_memory() -> None:
    """Let this process's allocator keep freed memory for reuse (glibc; once per process).

    Every chunk allocates and frees the same large arrays; returning them to
    the system and faulting them in again costs more system time than the
    chunk's own work. Peak memory is unchanged.
    """
    _glibc_malloc(1 << 30, 1 << 30)


def release_freed_memory() -> None:
    """Give back to the system what this process freed and kept (glibc), and stop keeping it: the chunks are done.

    The main process plays chunks too; once they are done, the memory its
    allocator kept would only add to the results' own (polars allocates
    from another allocator). The next run in this process keeps freed
    memory again.
    """
    keep_freed_memory.cache_clear()
    _glibc_malloc(128 * 1024, 128 * 1024, trim_now=True)  # glibc's default thresholds


def run_chunk(plan: RunPlan, chunk: Chunk) -> ChunkOutput:
    """Deal (or take) the chunk's rounds, play every strategy on them, and encode rounds and ledger as Parquet parts."""
    import pyarrow as pa

    keep_freed_memory()
    from baccarat.bets import settlement_table
    from baccarat.columnar import encode_parquet
    from baccarat.fastdeal import seeded_table_fast
    from baccarat.ledger import expected_net, ledger_table

    table = chunk.table if chunk.table is not None else seeded_table_fast(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)
    multipliers = settlement_table(table, plan.rules)
    sessions = [(chunk.first_session + k - 1, start, stop)
                for k, start, stop in session_bounds(table, plan.config.shoes_per_session)]
    ledgers = []
    folded = []
    bankrolls = []
    shared: dict[str, Any] = {}
    for run in plan.runs():
        columns = play_strategy(run, table, multipliers, plan.rules, plan.config, chunk.seed, sessions, shared)
        columns["expected_net"] = expected_net(columns, plan.bets, plan.expected)
        if chunk.shoe_offset or chunk.session_offset:
            columns = {**columns, "shoe": columns["shoe"] + chunk.shoe_offset, "session": columns["session"] + chunk.session_offset}
        if plan.gather_stats:
            from baccarat.runstats import fold_sessions

            folded.append(fold_sessions(columns, columns["expected_net"], plan.config.bankroll_cents * 10_000,
                                        plan.config.table_min_cents))
            bankrolls.append(columns["bankroll"])
        ledgers.append(_with_seed(ledger_table(run.label, columns, plan.bets, plan.expected), plan, chunk, pa))
    if chunk.shoe_offset:
        table = dataclasses.replace(table, shoe=table.shoe + chunk.shoe_offset)
    rounds = _with_seed(table.to_arrow(), plan, chunk, pa)
    # Columns that never hold a null in a run are written as required: the same values, encoded faster. Which
    # they are depends on the run only (every chunk of a run has cards or none), so every part has one schema.
    rounds_required = _ROUNDS_ALWAYS + (_ROUNDS_WITH_CARDS if table.has_cards else ())
    return ChunkOutput(chunk.index, chunk.shoes, chunk.sessions, len(table), len(table) * len(plan.strategies),
                       encode_parquet([rounds], statistics=("shoe",), plain=("shoe", "hand"), required=rounds_required),
                       tuple(encode_parquet([ledger], statistics=("session", "shoe"), plain=_PLAIN_LEDGER,
                                            required=ledger.schema.names) for ledger in ledgers),
                       tuple(folded), tuple(bankrolls))


_PLAIN_LEDGER = ("session", "shoe", "hand", "round", "capped", "seed")
"""Ledger columns encoded without a dictionary (cheaper, and no smaller with one)."""

_ROUNDS_ALWAYS = ("shoe", "hand", "outcome", "seed")
_ROUNDS_WITH_CARDS = ("player_total", "banker_total", "natural", "player_pair", "banker_pair")
"""Columns of ``rounds`` never null: always, and when the shoes have cards (the card lists stay nullable)."""


def _with_seed(arrow: Any, plan: RunPlan, chunk: Chunk, pa: Any) -> Any:
    if not plan.seed_column:
        return arrow
    return arrow.append_column("seed", pa.array(np.full(arrow.num_rows, chunk.seed, dtype=np.int64)))


def execute(plan: RunPlan, chunks: Sequence[Chunk], workers: int = 1, executor: str = "processes") -> Iterator[ChunkOutput]:
    """Yield every chunk's output, in chunk order, computed by ``workers`` processes or on Ray."""
    if executor == "ray":
        yield from _ray_outputs(plan, chunks, workers)
    elif workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield run_chunk(plan, chunk)
    else:
        yield from _process_outputs(plan, chunks, workers)


_NOT_YET = object()
"""The output of a chunk still being played."""


@dataclasses.dataclass(frozen=True)
class _Failed:
    """A chunk played ahead of its turn that raised ``error``."""

    error: Exception


def _in_order(submit: Callable[[Chunk], Any], result: Callable[[Any], ChunkOutput], chunks: Iterable[Chunk],
              window: int, cancel: Callable[[Any], Any] | None = None, local: Callable[[Chunk], ChunkOutput] | None = None,
              ready: Callable[[Any], bool] | None = None, depth: int | None = None) -> Iterator[ChunkOutput]:
    """Yield every chunk's output in chunk order, keeping ``depth`` chunks submitted ahead (``window`` in hand at most).

    With ``local``, this process plays chunks too: whenever the next output
    in order is not ``ready`` yet, it plays the earliest chunk not started
    instead of waiting, so the work shares itself out by the speed of each
    side. When the consumer stops early (an error, Ctrl-C), the chunks still
    pending are cancelled with ``cancel``.
    """
    depth = window if depth is None else depth
    entries: deque[list[Any]] = deque()  # [chunk, handle (None: not submitted), output] in chunk order
    queue = iter(chunks)
    submitted = 0

    def top_up() -> None:
        nonlocal submitted
        while len(entries) < window:
            chunk = next(queue, None)
            if chunk is None:
                break
            entries.append([chunk, None, _NOT_YET])
        for entry in entries:
            if submitted >= depth:
                break
            if entry[1] is None and entry[2] is _NOT_YET:
                entry[1] = submit(entry[0])
                submitted += 1

    try:
        while True:
            top_up()
            if not entries:
                return
            head = entries[0]
            if local is not None and head[2] is _NOT_YET and ready is not None and not ready(head[1]):
                later = next((entry for entry in entries if entry[1] is None and entry[2] is _NOT_YET), None)
                if later is not None:
                    try:
                        later[2] = local(later[0])
                    except Exception as exc:  # raised in its turn, so that the first failing chunk is the one reported
                        later[2] = _Failed(exc)
                    continue
            entries.popleft()
            if head[2] is _NOT_YET:
                head[2] = result(head[1])
                submitted -= 1
            if isinstance(head[2], _Failed):
                raise head[2].error
            yield head[2]
    except BaseException:
        if cancel is not None:
            for _, handle, output in entries:
                if handle is not None and output is _NOT_YET:
                    cancel(handle)
        raise


def _process_outputs(plan: RunPlan, chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkOutput]:
    """Run the chunks in ``workers - 1`` worker processes and this one; on an error or an interrupt, stop the workers at once.

    Workers ignore Ctrl-C (a terminal sends it to every process of the
    group): the main process alone handles it, and terminates them.
    """
    import concurrent.futures
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    from baccarat.interrupts import ignore_interrupts, starting_workers, wait_interruptibly

    # The main process plays chunks too, whenever the next output is not ready: one process fewer to start, the
    # kernels it loads serve the results too, and the work shares itself out between it and the workers.
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(workers - 1, len(chunks)), initializer=ignore_interrupts,
                                                  mp_context=multiprocessing.get_context("spawn"))

    def submit(chunk: Chunk) -> concurrent.futures.Future[ChunkOutput]:
        try:
            with starting_workers():  # the pool starts its workers as chunks are submitted
                return pool.submit(run_chunk, plan, chunk)
        except BrokenProcessPool:
            raise RunFailure(WORKER_DIED) from None

    def all_alive() -> None:
        if any(process.exitcode is not None for process in list((getattr(pool, "_processes", None) or {}).values())):
            raise RunFailure(WORKER_DIED)  # the pool itself may never notice: see _abandon

    def result(future: concurrent.futures.Future[ChunkOutput]) -> ChunkOutput:
        try:
            return wait_interruptibly(future.result, (concurrent.futures.TimeoutError,), all_alive)
        except BrokenProcessPool:
            raise RunFailure(WORKER_DIED) from None

    finished = False
    try:
        # No future is cancelled: the workers are stopped instead, and the pool fails what is pending (a cancelled
        # future that the pool then fails raises InvalidStateError in its thread).
        depth = (workers - 1) * CHUNKS_IN_FLIGHT_PER_WORKER
        yield from _in_order(submit, result, chunks, depth + LOCAL_CHUNKS_AHEAD, local=lambda chunk: run_chunk(plan, chunk),
                             ready=lambda future: future.done(), depth=depth)
        finished = True
    finally:
        if finished:  # the workers end on their own while the results are made (their exit takes a few tenths)
            pool.shutdown(wait=False)
        else:
            _terminate_workers(pool)
            _abandon(pool)


WORKER_DIED = ("a worker process stopped abruptly (killed, or out of memory); the run was abandoned and nothing was "
               "written; try again, with fewer --workers if memory is short")


def _first_line(exc: BaseException) -> str:
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)


def _terminate_workers(pool: Any) -> None:
    """Stop the worker processes of a process pool now, whatever they are doing."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()


def _abandon(pool: Any) -> None:
    """Let go of a pool whose workers were stopped, without waiting for it.

    A worker killed while it sends a result leaves half a message in the
    pipe, and the pool's own thread waits for the rest forever (it would hang
    ``shutdown`` and the exit of the interpreter). Closing this process's
    end of the pipe ends that wait: the pool sees itself broken and its
    thread finishes.
    """
    queue = getattr(pool, "_result_queue", None)
    writer = getattr(queue, "_writer", None)
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass
    pool.shutdown(wait=True)


def _ray_outputs(plan: RunPlan, chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkOutput]:
    """Run the chunks as Ray tasks: on the cluster named by ``RAY_ADDRESS``, or on a local Ray started here.

    On an error or an interrupt, the tasks still pending are cancelled.
    """
    ray = _import_ray()
    from baccarat.interrupts import Interrupted, handlers_kept, starting_workers, wait_interruptibly

    started = not ray.is_initialized()
    try:
        if started:
            local = {} if os.environ.get("RAY_ADDRESS") else {"num_cpus": max(workers, 1)}
            # A local Ray's processes start deaf to Ctrl-C (it would kill them mid-task); Ray's own SIGTERM
            # handlers are replaced by ours again, which clean up.
            with starting_workers(), handlers_kept():
                try:
                    ray.init(include_dashboard=False, logging_level="ERROR", configure_logging=True, **local)
                except SystemExit as exc:  # Ray's own SIGTERM handler, while it starts
                    if exc.code == signal.SIGTERM:
                        raise Interrupted(signal.SIGTERM) from None
                    raise
        task = ray.remote(num_cpus=1, max_retries=1)(run_chunk)
        plan_ref = ray.put(plan)
        window = max(workers, int(ray.cluster_resources().get("CPU", 1))) * CHUNKS_IN_FLIGHT_PER_WORKER

        def result(ref: Any) -> ChunkOutput:
            try:
                return wait_interruptibly(lambda seconds: ray.get(ref, timeout=seconds), (ray.exceptions.GetTimeoutError,))
            except ray.exceptions.RayTaskError as exc:  # the task raised: our own errors arrive as they were raised
                cause = getattr(exc, "cause", None)
                if isinstance(cause, BaseException) and not isinstance(cause, ray.exceptions.RayError):
                    raise cause from None
                raise RunFailure(f"a Ray task failed: {_first_line(exc)}; the run was abandoned and nothing was written") from None
            except ray.exceptions.RayError as exc:  # a worker or node died, an object was lost
                raise RunFailure(f"a Ray worker or node failed ({_first_line(exc)}); "
                                 "the run was abandoned and nothing was written") from None

        yield from _in_order(lambda chunk: task.remote(plan_ref, chunk), result, chunks, window,
                             cancel=lambda ref: ray.cancel(ref, force=True))
    finally:
        if started and ray.is_initialized():
            with handlers_kept():
                ray.shutdown()


def _import_ray() -> Any:
    """Import Ray for this process, without its native failure-signal handler.

    That handler takes SIGTERM over from ours and, when Ray shuts down, leaves
    it at the default (the process would die without cleaning up). The
    setting is read when Ray is imported, and is not passed on to the
    processes of the local cluster.
    """
    if "ray" in sys.modules:
        return sys.modules["ray"]
    given = os.environ.get("RAY_DISABLE_FAILURE_SIGNAL_HANDLER")
    os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    try:
        import ray
    except ImportError:
        from baccarat.errors import InputError

        raise InputError("the Ray executor needs Ray: pip install 'baccarat-backtest[ray]'") from None
    finally:
        if given is None:
            del os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"]
        else:
            os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = given
    return ray


@dataclasses.dataclass
class RunCounts:
    """Sizes of a written run."""

    shoes: int = 0
    sessions: int = 0
    rounds: int = 0
    ledger_rows: int = 0

    def add(self, output: ChunkOutput) -> None:
        """Count one chunk's output."""
        self.shoes += output.shoes
        self.sessions += output.sessions
        self.rounds += output.rounds
        self.ledger_rows += output.ledger_rows


def write_outputs(outputs: Iterable[ChunkOutput], folder: Path, progress: Callable[[int], None] | None = None,
                  collect: Callable[[ChunkOutput], None] | None = None) -> RunCounts:
    """Write the outputs into ``folder``/rounds.parquet and ``folder``/ledger.parquet.

    Rounds are appended in chunk order. The ledger is ordered strategy by
    strategy (each strategy's sessions in order), as the reference engine
    gives it: the first strategy's parts go straight into the file, the
    others' into one spool file each, taken in turn at the end. ``collect``
    sees every output as it passes (statistics gathered during the run).
    """
    from baccarat.parquet_append import ParquetAppender

    counts = RunCounts()
    rounds = ParquetAppender(folder / "rounds.parquet")
    ledgers: list[ParquetAppender] = [ParquetAppender(folder / "ledger.parquet")]
    try:
        for output in outputs:
            rounds.append(output.rounds_part)
            for k, part in enumerate(output.ledger_parts):
                if k == len(ledgers):
                    ledgers.append(ParquetAppender(folder / f".ledger.{k}.spool"))
                ledgers[k].append(part)
            counts.add(output)
            if collect is not None:
                collect(output)
            if progress is not None:
                progress(output.shoes)
        for spool in ledgers[1:]:
            ledgers[0].take(spool)
    except BaseException:
        for appender in (rounds, *ledgers):
            appender.abort()
        raise
    rounds.close()
    ledgers[0].close()
    return counts


def collect_outputs(outputs: Iterable[ChunkOutput], progress: Callable[[int], None] | None = None):  # -> (rounds, ledger)
    """Return the outputs' rounds and ledger as two polars frames, in the order :func:`write_outputs` writes them."""
    import io

    import polars as pl

    rounds: list[pl.DataFrame] = []
    ledgers: list[list[pl.DataFrame]] = []
    for output in outputs:
        rounds.append(pl.read_parquet(io.BytesIO(output.rounds_part)))
        for k, part in enumerate(output.ledger_parts):
            if k == len(ledgers):
                ledgers.append([])
            ledgers[k].append(pl.read_parquet(io.BytesIO(part)))
        if progress is not None:
            progress(output.shoes)
    return pl.concat(rounds), pl.concat([frame for frames in ledgers for frame in frames])
