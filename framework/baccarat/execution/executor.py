"""Chunks of whole sessions, run in this process, in worker processes or on Ray.

A run is cut into chunks of consecutive sessions. The cut depends on the
experiment only (never on the number of workers), each chunk is dealt and
played on its own (a seeded shoe's cards come from its own random stream, a
strategy's from its label and session number), and encoded as Parquet where
it was played; the main process writes each part as a file of the run's
datasets (``rounds.parquet/``, ``ledger.parquet/``). So one worker, N workers
or a Ray cluster write the same bytes; and only a few chunks are in memory at
a time, whatever the number of shoes.
"""

from __future__ import annotations

import dataclasses
import math
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baccarat.engine.reference import SessionConfig, StrategyRun, session_bounds
from baccarat.errors import RunFailure, StrategyError
from baccarat.money import MICROS_PER_CENT
from baccarat.shoes.rounds import RoundTable, table_digest
from baccarat.table.rules import Rules

LEDGER_ROWS_PER_CHUNK = 400_000
"""About how many ledger rows (rounds x strategies) a chunk holds."""

CHUNKS_IN_FLIGHT_PER_WORKER = 2
"""Chunks handed out ahead of the next output in order, per worker: enough to keep workers busy, few enough to bound memory."""

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
    """Chunks also return their session-table rows and bankroll columns (:mod:`baccarat.results.runstats`)."""
    announce_compiling: bool = False
    """The first worker process prints a line when it compiles kernels (:mod:`baccarat.execution.compile_notice`)."""
    backed: tuple[str, ...] | None = None
    """The bets the strategies declare they may back (:func:`declared_sides`), or None when one of them does not say."""

    def ledger_bets(self) -> tuple[str, ...]:
        """Return the bets with ``stake_<bet>`` / ``net_<bet>`` columns in the ledger: those that carry information.

        Every bet the table settles when a strategy does not declare its
        sides; else the bets declared, and none when that is a single bet
        (the columns would repeat ``stake`` and ``net``).
        """
        if self.backed is None:
            return self.bets
        return self.backed if len(self.backed) > 1 else ()

    def runs(self) -> list[StrategyRun]:
        """Return the strategies resolved against the plugins of this process."""
        from baccarat.plugin.manager import registry

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
    """Each strategy's :class:`baccarat.results.runstats.SessionRows` (when the plan gathers statistics)."""
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


def declared_sides(run: StrategyRun) -> set[str] | None:
    """Return the bets a strategy declares it may place (its ``sides``), or None when its class does not declare them.

    Composed strategies declare their selector's sides; a plain strategy
    declares only by overriding :meth:`baccarat.plugin.strategy.Strategy.sides`
    (the default, read from a ``side`` parameter, is a guess, not a promise).
    """
    from baccarat.plugin.compose import StopRuled
    from baccarat.plugin.strategy import Strategy

    cls = run.cls
    while issubclass(cls, StopRuled):  # stop rules around a free-form strategy: its sides are the strategy's
        cls = cls.inner
    if getattr(cls.sides, "__func__", None) is Strategy.sides.__func__:
        return None
    return set(run.cls.sides(run.params))


def _check_declared(run: StrategyRun, columns: dict[str, np.ndarray], bets: tuple[str, ...]) -> None:
    """Refuse a strategy that staked on a bet it does not declare (the ledger has no column for it)."""
    from baccarat.table.bet_registry import stake_column

    declared = declared_sides(run)
    if declared is None:
        return
    for bet in bets:
        if bet not in declared and columns[stake_column(bet)].any():
            raise StrategyError(f"strategy {run.label!r} staked on {bet}, which its sides() does not name "
                                f"({', '.join(sorted(declared)) or 'none'}); declare every bet it may place; the run "
                                "was abandoned and nothing was written")


def play_strategy(run: StrategyRun, table: RoundTable, multipliers: dict[str, np.ndarray], rules: Rules,
                  config: SessionConfig, seed: int, sessions: list[tuple[int, int, int]],
                  shared: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
    """Play one strategy over the sessions of a table: the compiled fast path when it covers the strategy, else the reference.

    ``shared`` is a dict the caller keeps for one table and set of sessions, for the fast path to reuse.
    """
    from baccarat.engine.compiled import play_fast
    from baccarat.engine.reference import run_strategy

    columns = play_fast(run, table, multipliers, rules, config, seed, sessions, shared)
    if columns is None:
        columns = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    return columns


def run_chunk(plan: RunPlan, chunk: Chunk) -> ChunkOutput:
    """Deal (or take) the chunk's rounds, play every strategy on them, and encode rounds and ledger as Parquet parts."""
    import pyarrow as pa

    from baccarat.odds.settlement import settlement_table
    from baccarat.results.ledger import expected_net, ledger_table
    from baccarat.shoes.columnar import encode_parquet
    from baccarat.shoes.fastdeal import seeded_table_fast

    runs = plan.runs()  # first: loads the plugins, whose bets settlement needs
    table = chunk.table if chunk.table is not None else seeded_table_fast(plan.rules, chunk.seed, chunk.first_shoe, chunk.shoes)
    multipliers = settlement_table(table, plan.rules)
    dealt = table_digest(table, multipliers)
    sessions = [(chunk.first_session + k - 1, start, stop)
                for k, start, stop in session_bounds(table, plan.config.shoes_per_session)]
    ledgers = []
    folded = []
    bankrolls = []
    shared: dict[str, Any] = {}
    for run in runs:
        columns = play_strategy(run, table, multipliers, plan.rules, plan.config, chunk.seed, sessions, shared)
        columns["expected_net"] = expected_net(columns, plan.bets, plan.expected)
        if chunk.shoe_offset or chunk.session_offset:
            columns = {**columns, "shoe": columns["shoe"] + chunk.shoe_offset, "session": columns["session"] + chunk.session_offset}
        if plan.gather_stats:
            from baccarat.plugin.compose import stop_rule_names
            from baccarat.results.runstats import fold_sessions

            folded.append(fold_sessions(columns, columns["expected_net"], plan.config.bankroll_cents * MICROS_PER_CENT,
                                        plan.config.table_min_cents, stop_rule_names(run.cls)))
            bankrolls.append(columns["bankroll"])
        if plan.backed is not None:
            _check_declared(run, columns, plan.bets)
        ledgers.append(_with_seed(ledger_table(run.label, columns, plan.ledger_bets(), plan.expected), plan, chunk, pa))
    if table_digest(table, multipliers) != dealt:  # compiled plugin code included
        raise StrategyError("the rounds or their settlement changed while the strategies played them (a strategy's code "
                            "wrote to them); the run was abandoned and nothing was written")
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
    """Yield every chunk's output, in chunk order: played here (one worker), by ``workers`` processes, or on Ray."""
    if executor == "ray":
        yield from _ray_outputs(plan, chunks, workers)
    elif workers <= 1 or len(chunks) <= 1:
        from baccarat.execution import glibc

        glibc.keep_freed_memory()
        for chunk in chunks:
            yield run_chunk(plan, chunk)
    else:
        yield from _process_outputs(plan, chunks, workers)


def _in_order(submit: Callable[[Chunk], Any], result: Callable[[Any], ChunkOutput], chunks: Iterable[Chunk],
              window: int, cancel: Callable[[Any], Any]) -> Iterator[ChunkOutput]:
    """Yield every chunk's output in chunk order, keeping ``window`` chunks submitted ahead.

    When the consumer stops early (an error, Ctrl-C), the chunks still
    pending are cancelled with ``cancel``.
    """
    pending: deque[Any] = deque()
    queue = iter(chunks)
    try:
        while True:
            while len(pending) < window and (chunk := next(queue, None)) is not None:
                pending.append(submit(chunk))
            if not pending:
                return
            yield result(pending[0])
            pending.popleft()
    except BaseException:
        for handle in pending:
            cancel(handle)
        raise


def _serve(connection: Any, plan: RunPlan, parent: int, announce: bool = False) -> None:
    """A worker process: play each chunk received on ``connection`` and send back its output, until it closes.

    It ends at once when ``parent`` (the main process) dies, even killed
    with ``kill -9`` in the middle of a chunk (:func:`end_with_parent`).
    With ``announce``, it prints a line when it compiles kernels.
    """
    from baccarat.execution import glibc
    from baccarat.interrupts import ignore_interrupts

    end_with_parent(parent)
    ignore_interrupts()
    glibc.keep_freed_memory()
    if announce:
        from baccarat.execution.compile_notice import announce_compiling

        announce_compiling()
    while True:
        try:
            chunk = connection.recv()
        except EOFError:  # the main process is done with this worker
            return
        try:
            reply: tuple[bool, Any] = (True, run_chunk(plan, chunk))
        except Exception as exc:  # the main process raises it in its turn
            reply = (False, exc)
        try:
            connection.send(reply)
        except (BrokenPipeError, EOFError):
            return
        except Exception as exc:  # an exception that cannot be pickled
            connection.send((False, RunFailure(f"a worker process failed: {_first_line(exc)}")))


def _process_outputs(plan: RunPlan, chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkOutput]:
    """Play the chunks in ``workers`` worker processes and yield their outputs in chunk order.

    This process only hands out chunks and collects outputs: each worker
    has one chunk at a time, and outputs that arrive ahead of their turn
    wait here (at most :data:`CHUNKS_IN_FLIGHT_PER_WORKER` per worker). A
    worker that dies (killed, out of memory) ends the run with
    :class:`RunFailure`; on any error or interrupt every worker is killed.
    Workers ignore Ctrl-C (a terminal sends it to every process of the
    group): the main process alone acts on it.
    """
    import multiprocessing

    from baccarat.interrupts import starting_workers, wait_interruptibly

    context = multiprocessing.get_context("spawn")
    finished = False
    processes = []
    connections = []
    try:
        with starting_workers():
            for k in range(min(workers, len(chunks))):
                ours, theirs = context.Pipe()
                announce = plan.announce_compiling and k == 0  # the workers compile the same kernels at once: one says so
                process = context.Process(target=_serve, args=(theirs, plan, os.getpid(), announce), name="baccarat worker",
                                          daemon=True)
                processes.append(process)
                connections.append(ours)
                process.start()
                theirs.close()  # its end lives in the worker only: a worker that dies closes it
        busy: dict[Any, int] = {}  # connection -> position of the chunk it plays
        done: dict[int, ChunkOutput] = {}
        window = len(processes) * CHUNKS_IN_FLIGHT_PER_WORKER
        handed = 0
        for position in range(len(chunks)):
            while position not in done:
                for connection in connections:
                    if connection not in busy and handed < len(chunks) and handed < position + window:
                        connection.send(chunks[handed])
                        busy[connection] = handed
                        handed += 1
                for connection in wait_interruptibly(lambda seconds: _ready(busy, processes, seconds), (TimeoutError,)):
                    try:
                        ok, value = connection.recv()
                    except (EOFError, OSError):
                        raise RunFailure(WORKER_DIED) from None
                    if not ok:
                        raise value
                    done[busy.pop(connection)] = value
            yield done.pop(position)
        finished = True
    except BrokenPipeError:  # a chunk sent to a worker that had died
        raise RunFailure(WORKER_DIED) from None
    finally:
        for connection in connections:
            connection.close()  # a worker waiting for a chunk ends on its own
        if not finished:
            for process in processes:
                process.kill()
            for process in processes:
                process.join(WORKER_EXIT_SECONDS)


def end_with_parent(parent: int) -> None:
    """Make this process end as soon as its parent ``parent`` dies, however it dies (``kill -9`` included).

    On Linux the kernel sends SIGKILL when the parent is gone (a parent-death
    signal); elsewhere a watchdog thread checks the parent twice a second.
    Should the parent be gone already, the process ends now. The
    multiprocessing resource tracker ends by itself once every process that
    holds its pipe has ended.
    """
    import ctypes
    import threading

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="parent watchdog", daemon=True).start()


PR_SET_PDEATHSIG = 1
"""``prctl`` option of Linux: the signal this process gets when its parent dies."""

WORKER_EXIT_SECONDS = 5.0
"""Longest wait for a killed worker process to be gone."""


def _ready(busy: dict[Any, int], processes: Sequence[Any], seconds: float) -> list[Any]:
    """Return the connections of ``busy`` with an output to read, within ``seconds``; raise when a worker has died."""
    from multiprocessing.connection import wait

    sentinels = {process.sentinel: process for process in processes}
    ready = wait([*busy, *sentinels], seconds)
    if any(handle in sentinels for handle in ready):
        raise RunFailure(WORKER_DIED)
    if not ready:
        raise TimeoutError
    return ready


WORKER_DIED = ("a worker process stopped abruptly (killed, or out of memory); the run was abandoned and nothing was "
               "written; try again, with fewer --workers if memory is short")


def _first_line(exc: BaseException) -> str:
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)


def _ray_outputs(plan: RunPlan, chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkOutput]:
    """Run the chunks as Ray tasks: on the cluster named by ``RAY_ADDRESS``, or on a local Ray started here.

    On an error or an interrupt, the tasks still pending are cancelled.
    """
    ray = _import_ray()
    from baccarat.interrupts import Interrupted, handlers_kept, starting_workers, wait_interruptibly

    started = not ray.is_initialized()
    try:
        if started and os.environ.get("RAY_ADDRESS", "").strip():
            check_ray_address(os.environ["RAY_ADDRESS"])
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


RAY_CONNECT_SECONDS = 5.0
"""Longest wait for the head node named by ``RAY_ADDRESS`` to answer."""


def check_ray_address(address: str) -> None:
    """Refuse a malformed ``RAY_ADDRESS`` (:class:`InputError`) and one no cluster answers at (:class:`RunFailure`).

    Ray itself retries an unreachable address for minutes, printing its own
    logs, and raises a traceback for a malformed one; a ``HOST:PORT`` (or
    ``ray://HOST:PORT``) is tried here with a plain connection first, for at
    most :data:`RAY_CONNECT_SECONDS`. ``auto`` and ``local`` are left to Ray.
    """
    import socket
    from urllib.parse import urlsplit

    from baccarat.errors import InputError

    text = address.strip()
    if text in ("auto", "local"):
        return
    rest = text.split("://", 1)[1] if "://" in text else text
    scheme = text.split("://", 1)[0] if "://" in text else "ray"
    try:
        parts = urlsplit("//" + rest)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if scheme not in ("ray", "http", "https") or not host or port is None or parts.path not in ("", "/"):
        raise InputError(f"RAY_ADDRESS={address!r} is not the address of a Ray cluster: give HOST:PORT of its head node "
                         "(for example 10.0.0.5:6379, or ray://10.0.0.5:10001 for Ray Client), or unset it to run Ray "
                         "on this machine")
    try:
        socket.create_connection((host, port), timeout=RAY_CONNECT_SECONDS).close()
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise RunFailure(f"the Ray cluster at RAY_ADDRESS={address!r} cannot be reached ({reason} within "
                         f"{RAY_CONNECT_SECONDS:g} s); start it, fix RAY_ADDRESS, or unset it to run Ray on this machine"
                         ) from None


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


ROUNDS_DATASET = "rounds.parquet"
LEDGER_DATASET = "ledger.parquet"
"""The run folder's Parquet datasets: folders of Parquet files that polars reads as one table, in file-name order.

Why folders and not one file written by pyarrow's ``ParquetWriter``: the
parts are encoded in the worker processes (encoding is most of a run's
work), and only a dataset takes them as they are. One library-written file
would be encoded in the main process alone, and, the ledger being ordered
strategy by strategy, every strategy but the first would have to be held
back and encoded after the last chunk (tests/benchmarks/bench_ledger_encoding.py
prints the main process's time for both).
"""


def part_name(chunk: int, strategy: int | None = None) -> str:
    """Return the file name of a chunk's part in a dataset: ``C.parquet`` for rounds, ``S-C.parquet`` for the ledger.

    Names sort as the rows must be read: the ledger strategy by strategy
    (each strategy's sessions in order), as the reference engine gives it;
    the rounds in chunk order.
    """
    return f"{chunk:07d}.parquet" if strategy is None else f"{strategy:05d}-{chunk:07d}.parquet"


def write_outputs(outputs: Iterable[ChunkOutput], folder: Path, progress: Callable[[int], None] | None = None,
                  collect: Callable[[ChunkOutput], None] | None = None) -> RunCounts:
    """Write every output's Parquet parts, as they arrive, into ``folder``/rounds.parquet/ and ``folder``/ledger.parquet/.

    Each part is a whole Parquet file, encoded where its chunk was played
    (:func:`part_name` gives its order). ``collect`` sees every output as
    it passes (statistics gathered during the run).
    """
    counts = RunCounts()
    rounds, ledger = folder / ROUNDS_DATASET, folder / LEDGER_DATASET
    rounds.mkdir()
    ledger.mkdir()
    for output in outputs:
        (rounds / part_name(output.index)).write_bytes(output.rounds_part)
        for k, part in enumerate(output.ledger_parts):
            (ledger / part_name(output.index, k)).write_bytes(part)
        counts.add(output)
        if collect is not None:
            collect(output)
        if progress is not None:
            progress(output.shoes)
    return counts


def write_frame(frame: Any, path: Path) -> None:
    """Write a polars frame as a dataset of one part (the layout of :func:`write_outputs`)."""
    path.mkdir()
    frame.write_parquet(path / part_name(0, 0 if path.name == LEDGER_DATASET else None))


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
