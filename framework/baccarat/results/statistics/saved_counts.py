"""A run's per-round bankroll counts and sample paths saved in its folder, so a saved run's bands are read, not recounted.

The run's collector counts each round's bankrolls exactly as the chunks
arrive (:class:`~baccarat.results.statistics.round_counts.RoundCounts`) and
keeps the bankrolls of its first sessions (the charts' sample paths). At the
end it writes both as ``round_counts.parquet`` (:func:`write_round_counts`),
which the manifest records like every file; ``baccarat report`` and
``baccarat.load`` read them back (:func:`read_round_counts`) instead of
reading every bankroll of the ledger and counting them again: the very
counts, so the very bands. One row per (strategy, part, round, bankroll):

- part ``round``: ``sessions`` sessions had ``bankroll_micros`` after round ``round`` (from 1);
- part ``ended``: a chunk whose longest session played ``round`` rounds ended ``sessions`` sessions with
  ``bankroll_micros``: they count with it for every round after ``round``;
- part ``path``: session ``session``'s bankroll after round ``round`` (a sample path; ``sessions`` is 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from baccarat.errors import InputError
from baccarat.results.statistics.round_counts import KeyedCounts, RoundCounts

ROUND_COUNTS_FILE = "round_counts.parquet"
"""The file of a run folder holding its per-round bankroll counts and sample paths."""

PARTS = ("round", "ended", "path")
"""The kinds of rows of :data:`ROUND_COUNTS_FILE`."""

SCHEMA = pa.schema(
    [
        ("strategy", pa.string()),
        ("part", pa.string()),
        ("session", pa.int64()),
        ("round", pa.int64()),
        ("bankroll_micros", pa.int64()),
        ("sessions", pa.int64()),
    ]
)
"""The columns of :data:`ROUND_COUNTS_FILE`."""


def _rows(label: str, part: str, session: np.ndarray, rnd: np.ndarray, bankroll: np.ndarray, sessions: np.ndarray) -> pa.Table:
    n = len(rnd)
    return pa.table(
        [
            pa.array([label] * n, pa.string()),
            pa.array([part] * n, pa.string()),
            pa.array(np.asarray(session, dtype=np.int64)),
            pa.array(np.asarray(rnd, dtype=np.int64)),
            pa.array(np.asarray(bankroll, dtype=np.int64)),
            pa.array(np.asarray(sessions, dtype=np.int64)),
        ],
        schema=SCHEMA,
    )


def write_round_counts(path: Path, labels: Sequence[str], counts: Sequence[RoundCounts], samples: Sequence[dict[int, np.ndarray]]) -> None:
    """Write each strategy's per-round counts and kept sample paths as ``path`` (see the module's rows)."""
    tables = []
    for label, mine, kept in zip(labels, counts, samples, strict=True):
        rounds, values, numbers = mine.rounds.merge()
        tables.append(_rows(label, "round", np.zeros(len(rounds), dtype=np.int64), rounds + 1, values, numbers))
        heights, finals, ended = mine.ended.merge()
        tables.append(_rows(label, "ended", np.zeros(len(heights), dtype=np.int64), heights, finals, ended))
        for session, path_values in sorted(kept.items()):
            n = len(path_values)
            ones = np.ones(n, dtype=np.int64)
            tables.append(_rows(label, "path", ones * session, np.arange(1, n + 1, dtype=np.int64), path_values, ones))
    pq.write_table(pa.concat_tables(tables) if tables else SCHEMA.empty_table(), path, compression="zstd")


def _codes(column: pa.ChunkedArray, names: Sequence[str]) -> np.ndarray:
    """Return each row's position in ``names`` of a string column read as a dictionary (-1: not among them)."""
    array = column.combine_chunks()
    if not len(array):
        return np.zeros(0, dtype=np.int64)
    found = array.dictionary.to_pylist()
    where = np.asarray([names.index(name) if name in names else -1 for name in found], dtype=np.int64)
    codes = where[array.indices.fill_null(0).to_numpy()]
    codes[np.asarray(array.is_null())] = -1
    return codes


def read_round_counts(path: Path, labels: Sequence[str]) -> tuple[list[RoundCounts], list[dict[int, np.ndarray]]]:
    """Return each strategy's (by ``labels``) per-round counts and sample paths as :func:`write_round_counts` wrote them.

    A file whose rows are not of the strategies ``labels`` or of the parts
    above is refused (:class:`~baccarat.errors.InputError`).
    """
    table = pq.read_table(path, columns=list(SCHEMA.names), read_dictionary=["strategy", "part"])
    strategy, part = _codes(table.column("strategy"), list(labels)), _codes(table.column("part"), list(PARTS))
    if (strategy < 0).any() or (part < 0).any():
        raise InputError("holds rows of no strategy of the run, or of no part of the counts; the run folder is damaged", path=str(path))
    numbers = {
        name: table.column(name).to_numpy().astype(np.int64, copy=False) for name in ("session", "round", "bankroll_micros", "sessions")
    }
    counts, samples = [], []
    for k in range(len(labels)):
        mine = strategy == k
        found = RoundCounts()
        rnd, value, number, session = (numbers[name][mine] for name in ("round", "bankroll_micros", "sessions", "session"))
        rounds, ended, paths = (part[mine] == code for code in range(len(PARTS)))
        found.rounds = KeyedCounts.of(rnd[rounds] - 1, value[rounds], number[rounds])
        found.ended = KeyedCounts.of(rnd[ended], value[ended], number[ended])
        found.sessions = int(number[ended].sum())
        found.longest = int(rnd[ended].max()) if ended.any() else 0
        kept = {}
        for one in np.unique(session[paths]).tolist():
            chosen = paths & (session == one)
            kept[int(one)] = value[chosen][np.argsort(rnd[chosen], kind="stable")]
        counts.append(found)
        samples.append(kept)
    return counts, samples
