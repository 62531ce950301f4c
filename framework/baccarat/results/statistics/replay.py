"""A saved ledger replayed through the statistics collector: the same fold and the same aggregates as the run made.

``baccarat report`` and ``baccarat.load`` (and a run held in memory) make
their statistics by reading the ledger a batch of whole sessions at a time,
folding each strategy's rows into its session rows with the very function
the run's workers use (:func:`~baccarat.results.statistics.folded.fold_sessions`)
and adding them, with the bankroll columns, to a
:class:`~baccarat.results.statistics.folded.RunStatsCollector`: one
definition of every figure, whichever way the sessions arrive. Memory holds
one batch of the ledger at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from baccarat.compiling import plays_compiled
from baccarat.errors import InputError
from baccarat.money import MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.results.ledger import money_micros
from baccarat.results.statistics.folded import SESSION_VALUES, RunStatsCollector, SessionRows, fold_sessions
from baccarat.results.statistics.tallies import DEALT, PEAK, session_values

BATCH_ROWS = 2_000_000
"""Ledger rows (of every strategy) read and folded at once."""

STOPPED = 11
"""The column of ``stopped_by`` among :class:`~baccarat.results.statistics.folded.SessionRows`' values."""

BATCH_SESSIONS = 1 << 16
"""Session numbers whose saved rows (of every strategy) are added to a collector at once."""

READ = ("strategy", "session", "round", "stake", "net", "bankroll", "capped")
"""The ledger columns the fold reads (and ``expected_net`` when the ledger has it)."""


def ledger_batches(ledger: pl.LazyFrame | pl.DataFrame, batch_rows: int = BATCH_ROWS) -> Iterator[pl.DataFrame]:
    """Yield the ledger's rows a range of sessions at a time (about ``batch_rows`` rows, every strategy's), in order."""
    lf = ledger.lazy()
    columns = [*READ, *(["expected_net"] if "expected_net" in lf.collect_schema().names() else [])]
    rows, lo, hi = lf.select(pl.len(), pl.col("session").min().alias("lo"), pl.col("session").max().alias("hi")).collect().row(0)
    if not rows:
        return
    step = max(1, int(batch_rows * (hi - lo + 1) / rows))
    for first in range(lo, hi + 1, step):
        batch = lf.filter(pl.col("session").is_between(first, first + step - 1)).select(columns).collect()
        if batch.height:
            yield batch


def _in_order(columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return one strategy's columns sorted by session then round (a run's ledger is already: then nothing is sorted)."""
    session, rnd = columns["session"], columns["round"]
    steps = np.diff(session)
    if (steps >= 0).all() and (np.diff(rnd)[steps == 0] > 0).all():
        return columns
    order = np.lexsort((rnd, session))
    return {name: values[order] for name, values in columns.items()}


def frame_columns(rows: pl.DataFrame) -> dict[str, np.ndarray]:
    """Return one strategy's ledger rows (a polars frame) as the fold's columns (int64 money in micro-units)."""
    columns = {
        "session": rows.get_column("session").to_numpy(),
        "round": rows.get_column("round").to_numpy(),
        "stake": money_micros(rows.get_column("stake"), 0) // MICROS_PER_CENT,
        "net": money_micros(rows.get_column("net"), 0),
        "bankroll": money_micros(rows.get_column("bankroll"), 0),
        "capped": rows.get_column("capped").cast(pl.Int64).fill_null(0).to_numpy(),
    }
    if "expected_net" in rows.columns:
        columns["expected_net"] = rows.get_column("expected_net").cast(pl.Float64).fill_null(0.0).to_numpy()
    return columns


def by_strategy(batch: pl.DataFrame) -> dict[str, dict[str, np.ndarray]]:
    """Return a batch of ledger rows split by strategy, as the fold's columns."""
    parts = batch.partition_by("strategy", as_dict=True, maintain_order=True)
    return {str(label): frame_columns(rows) for (label,), rows in parts.items()}


def chunk_pieces(parts: Sequence[Path]) -> dict[str, dict[str, np.ndarray]]:
    """Return one chunk's ledger parts by strategy, as the fold's columns."""
    found: dict[str, dict[str, np.ndarray]] = {}
    for path in parts:
        label, columns = part_rows(path)
        pieces = by_strategy(columns) if isinstance(columns, pl.DataFrame) else {label: columns}
        for name, piece in pieces.items():
            if name in found:  # a strategy in two parts of a chunk: its rows together
                piece = {key: np.concatenate([found[name][key], values]) for key, values in piece.items()}
            found[name] = piece
    return found


def stop_codes(stops: pl.DataFrame | None, labels: Sequence[str]) -> dict[str, tuple[tuple[str, ...], np.ndarray, np.ndarray]]:
    """Return, per strategy, the names of its stop rules that ended a session and each such session with its rule's code.

    ``stops`` are rows ``strategy``, ``session``, ``stopped_by`` (which the
    ledger does not hold: a run's ``sessions.parquet`` keeps them); codes
    count from 1 in the order of the names, as the engines give them.
    """
    found: dict[str, tuple[tuple[str, ...], np.ndarray, np.ndarray]] = {}
    if stops is None:
        return found
    for label in labels:
        mine = stops.filter((pl.col("strategy") == label) & pl.col("stopped_by").is_not_null()).sort("session")
        names = tuple(mine.get_column("stopped_by").unique(maintain_order=True).to_list())
        codes = mine.get_column("stopped_by").replace_strict(names, list(range(1, len(names) + 1)), return_dtype=pl.Int64)
        found[label] = (names, mine.get_column("session").to_numpy(), codes.to_numpy())
    return found


def folded_rows(
    columns: dict[str, np.ndarray],
    initial_micros: int,
    table_min_cents: int,
    stopped: tuple[tuple[str, ...], np.ndarray, np.ndarray] | None,
) -> tuple[SessionRows, np.ndarray]:
    """Fold one strategy's ledger columns (whole sessions) into its session rows; return them with its bankroll column."""
    columns = _in_order(columns)
    names, sessions, codes = stopped if stopped is not None else ((), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    n = len(columns["session"])
    folded = fold_sessions(columns, columns.get("expected_net"), initial_micros, table_min_cents, names, plays_compiled(n))
    if len(sessions):
        where = np.searchsorted(sessions, folded.session)
        known = where < len(sessions)
        known[known] = sessions[where[known]] == folded.session[known]
        folded.values[known, STOPPED] = codes[where[known]]
    return folded, columns["bankroll"]


PART = re.compile(r"(\d{5})-(\d{7})\.parquet")
"""A ledger part's name: the strategy's position and the chunk's (``execution.datasets.part_name``)."""


def chunk_parts(folder: Path) -> list[list[Path]] | None:
    """Return a ledger dataset's parts grouped by chunk, in chunk order (each chunk's strategies in order), or None
    when ``folder`` is not a folder of parts named as a run writes them."""
    if not folder.is_dir():
        return None
    chunks: dict[int, list[tuple[int, Path]]] = {}
    for path in folder.iterdir():
        found = PART.fullmatch(path.name)
        if found is None:
            return None
        chunks.setdefault(int(found.group(2)), []).append((int(found.group(1)), path))
    return [[path for _, path in sorted(parts)] for _, parts in sorted(chunks.items())]


def _micros(column: pa.ChunkedArray) -> np.ndarray:
    """Return a money column read by pyarrow as int64 micro-units: a ``decimal64(18, 6)``'s own buffer, else exactly."""
    array = column.combine_chunks()
    if isinstance(array.type, pa.Decimal64Type) and array.type.scale == 6 and array.null_count == 0:
        # Copied: the kernels take writable arrays (a read-only one would be compiled for again).
        return np.frombuffer(array.buffers()[1], dtype=np.int64)[array.offset : array.offset + len(array)].copy()
    return money_micros(pl.Series(pl.from_arrow(array)), 0)


def part_rows(path: Path) -> tuple[str, pl.DataFrame | Mapping[str, np.ndarray]]:
    """Read one ledger part holding one strategy's rows: its label and its columns (int64 money in micro-units)."""
    names = [*READ, "expected_net"] if "expected_net" in pq.read_schema(path).names else list(READ)
    table = pq.read_table(path, columns=names, read_dictionary=["strategy"])  # the labels read once, not a row at a time
    strategy = table.column("strategy").combine_chunks()
    labels = strategy.dictionary.take(pa.array(np.unique(strategy.indices.to_numpy()))).to_pylist() if table.num_rows else []
    if len(labels) != 1:  # not one strategy's part: read as any ledger
        return "", pl.from_arrow(table)
    columns = {
        "session": table.column("session").to_numpy(),
        "round": table.column("round").to_numpy(),
        "stake": _micros(table.column("stake")) // MICROS_PER_CENT,
        "net": _micros(table.column("net")),
        "bankroll": _micros(table.column("bankroll")),
        "capped": table.column("capped").fill_null(0).to_numpy().astype(np.int64),
    }
    if "expected_net" in table.column_names:
        columns["expected_net"] = table.column("expected_net").fill_null(0.0).to_numpy().copy()
    return str(labels[0]), columns


def saved_sessions(path: Path, labels: Sequence[str]) -> dict[str, SessionRows]:
    """Return each strategy's rows of a run's ``sessions.parquet`` as the collector takes them (sorted by session)."""
    frame = pl.read_parquet(path)
    stopped = stop_codes(frame.select("strategy", "session", "stopped_by") if "stopped_by" in frame.columns else None, labels)
    found = {}
    for label in labels:
        rows = frame.filter(pl.col("strategy") == label).sort("session")
        values, expected = session_values(rows)
        names, sessions, codes = stopped.get(label, ((), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)))
        session = rows.get_column("session").to_numpy()
        values[np.searchsorted(session, sessions), STOPPED] = codes
        values[:, PEAK] = money_micros(rows.get_column("peak"), 0)  # not tallied, but a column of the table
        found[label] = SessionRows(session, values, np.zeros(len(session)) if expected is None else expected, names)
    return found


def bankroll_parts(parts: Sequence[Path]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Return one chunk's ledger parts by strategy as (sessions, rounds of each, bankroll column), reading only those."""
    found = {}
    for path in parts:
        table = pq.read_table(path, columns=["strategy", "session", "bankroll"], read_dictionary=["strategy"])
        if not table.num_rows:
            continue
        strategy = table.column("strategy").combine_chunks()
        labels = strategy.dictionary.take(pa.array(np.unique(strategy.indices.to_numpy()))).to_pylist()
        session = table.column("session").to_numpy()
        if len(labels) != 1 or (np.diff(session) < 0).any():
            raise InputError("is not one strategy's sessions in order, as a run writes its ledger", path=str(path))
        starts = np.flatnonzero(np.concatenate(([True], session[1:] != session[:-1])))
        found[str(labels[0])] = (session[starts], np.diff(np.append(starts, len(session))), _micros(table.column("bankroll")))
    return found


def add_saved(saved: Mapping[str, SessionRows], collector: RunStatsCollector, batch_sessions: int = BATCH_SESSIONS) -> RunStatsCollector:
    """Add a run's saved session rows (sorted by session, by label) to ``collector`` without their bankrolls, a range of
    session numbers at a time (a session and the baseline's same session in the same batch, for the pairs)."""
    found = [saved[label].session for label in collector.labels]
    numbers = np.concatenate(found)
    if not len(numbers):
        collector.add([saved[label] for label in collector.labels], None)
        return collector
    lo, hi = int(numbers.min()), int(numbers.max())
    for first in range(lo, hi + 1, batch_sessions):
        rows = []
        for label, session in zip(collector.labels, found, strict=True):
            start, stop = np.searchsorted(session, [first, first + batch_sessions])
            rows.append(saved[label].select(slice(int(start), int(stop))))
        collector.add(rows, None)
    return collector


def replay_saved(
    parts: Sequence[Sequence[Path]], sessions: Path, collector: RunStatsCollector, counts: Path | None = None
) -> RunStatsCollector:
    """Add a run's saved session rows (its ``sessions.parquet``) and its ledger's bankrolls, chunk by chunk, to ``collector``.

    The session rows are the very rows the run's collector was given; only
    the ledger's ``session`` and ``bankroll`` columns are read, for the
    bands and the sample paths. A ledger whose sessions are not those of the
    session table is refused (:class:`~baccarat.errors.InputError`). With ``counts`` (the run's
    ``round_counts.parquet``), the bands and sample paths are read from it, the ledger is not read at all, and
    the collector's session table is ``sessions`` copied.
    """
    saved = saved_sessions(sessions, collector.labels)
    if counts is not None and collector.bankrolls:
        collector.take_saved(sessions, counts)
        return add_saved(saved, collector)
    for chunk in parts:
        read = bankroll_parts(chunk)
        rows, bankrolls = [], []
        for label in collector.labels:
            mine = saved[label]
            if label not in read:
                rows.append(mine.select(slice(0, 0)))
                bankrolls.append(np.zeros(0, dtype=np.int64))
                continue
            ids, lengths, bankroll = read[label]
            where = np.searchsorted(mine.session, ids)
            if (where >= len(mine.session)).any() or not np.array_equal(mine.session[where], ids):
                raise InputError(f"{label}: the ledger holds sessions that sessions.parquet does not", path=str(sessions))
            if not np.array_equal(mine.values[where, DEALT], lengths):
                raise InputError(f"{label}: the ledger's rounds are not those of sessions.parquet", path=str(sessions))
            rows.append(mine.select(where))
            bankrolls.append(bankroll)
        collector.add(rows, bankrolls)
    return collector


def replay(
    ledger: pl.LazyFrame | pl.DataFrame | Path,
    collector: RunStatsCollector,
    initial_micros: int,
    table_min_cents: int,
    stops: pl.DataFrame | None = None,
    batch_rows: int = BATCH_ROWS,
    sessions: Path | None = None,
    counts: Path | None = None,
) -> RunStatsCollector:
    """Add every session of ``ledger`` to ``collector`` (strategies by its labels); return it.

    With ``sessions`` (the run's own ``sessions.parquet``, as its manifest
    records it) and a run's ``ledger.parquet/`` folder, the saved session
    rows are replayed as they are and only the ledger's bankrolls are read
    (:func:`replay_saved`), or none with ``counts``, its saved per-round counts.

    A run's ``ledger.parquet/`` folder (a :class:`~pathlib.Path`) is read a
    chunk at a time, each part straight into integer columns; any other
    ledger (a file, a frame, a scan) a batch of sessions at a time
    (:func:`ledger_batches`). ``stops`` (rows ``strategy``, ``session``,
    ``stopped_by``) give which stop rule ended each session, which the
    ledger does not hold.
    """
    parts = chunk_parts(ledger) if isinstance(ledger, Path) else None
    if parts is not None and sessions is not None:
        return replay_saved(parts, sessions, collector, counts)
    stopped = stop_codes(stops, collector.labels)
    if parts is not None:
        pieces: Iterator[dict[str, dict[str, np.ndarray]]] = (chunk_pieces(chunk) for chunk in parts)
    else:
        source = pl.scan_parquet(ledger) if isinstance(ledger, Path) else ledger
        pieces = (by_strategy(batch) for batch in ledger_batches(source, batch_rows))
    empty = SessionRows(np.zeros(0, dtype=np.int64), np.zeros((0, SESSION_VALUES), dtype=np.int64), np.zeros(0, dtype=np.float64))
    for piece in pieces:
        sessions, bankrolls = [], []
        for label in collector.labels:
            columns = piece.get(label)
            if columns is None:
                names = stopped[label][0] if label in stopped else ()
                sessions.append(SessionRows(empty.session, empty.values, empty.expected, names))
                bankrolls.append(np.zeros(0, dtype=np.int64))
                continue
            folded, bankroll = folded_rows(columns, initial_micros, table_min_cents, stopped.get(label))
            sessions.append(folded)
            bankrolls.append(bankroll)
        collector.add(sessions, bankrolls)
    return collector


def session_table_of(
    ledger: pl.LazyFrame | pl.DataFrame,
    labels: Sequence[str],
    initial_bankroll: Decimal,
    table_min: Decimal,
    stops: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Return the session table of ``ledger`` (the strategies ``labels``), replayed through a collector that writes nothing."""
    has_expected = "expected_net" in ledger.lazy().collect_schema().names()
    collector = RunStatsCollector(None, labels, has_expected=has_expected, bankrolls=False)
    replay(ledger, collector, int(initial_bankroll * MICROS_PER_UNIT), int(table_min * MICROS_PER_UNIT) // MICROS_PER_CENT, stops)
    sessions = collector.write_sessions()
    return sessions.collect() if isinstance(sessions, pl.LazyFrame) else sessions
