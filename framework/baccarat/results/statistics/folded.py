"""The statistics of a run, folded from its sessions as the chunks arrive: the one definition of every figure.

Each chunk's integer ledger columns are folded, in the worker that played it,
into the rows of the session table (:func:`fold_sessions`), and
:class:`RunStatsCollector` adds those rows, a few chunks at a time, to exact
aggregates (:mod:`baccarat.results.statistics.tallies`), from which the
summary, the comparison, the ruin curve and the final bankrolls' percentiles
are made at the end, and counts each round's bankrolls exactly for the bands
(:mod:`baccarat.results.statistics.round_counts`). The main process's memory
does not grow with the run: the session rows go to a spool file of the run
folder and become ``sessions.parquet`` at the end, written slice by slice.
A saved run read back replays its ledger through the same fold and
collector (:mod:`baccarat.results.statistics.replay`). The tests hold every
figure to independent references computed from the ledger
(tests/helpers/ledger_reference.py).
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from baccarat.compiling import compiled
from baccarat.money import MICROS_PER_CENT
from baccarat.results.statistics.round_counts import BAND_PERCENTILES, CURVE_POINTS, RoundCounts, curve_rounds
from baccarat.results.statistics.ruin_threshold import ruin_thresholds
from baccarat.results.statistics.saved_counts import ROUND_COUNTS_FILE, read_round_counts, write_round_counts
from baccarat.results.statistics.tallies import SESSION_COLUMNS, PairTally, Pricing, SessionTally, pair_rows
from baccarat.shoes.columnar import decimal_micros, repeated_string

SESSION_FILE_COLUMNS = (
    "strategy",
    "session",
    "final_bankroll",
    "net",
    "wagered",
    "rounds",
    "rounds_dealt",
    "peak",
    "max_drawdown",
    "ruined",
    "rounds_to_ruin",
    "stopped_by",
    "expected_net",
    "longest_losing_streak",
    "max_stake",
    "capped_bets",
    "bankroll_needed",
)
"""Columns of ``sessions.parquet``, in order (docs/results.md defines them)."""

SESSION_VALUES = 13
"""Integer values per session in :class:`SessionRows` (see its ``values``)."""

_INT_FIELDS = ("session", "rounds_dealt", "rounds", "rounds_to_ruin", "longest_losing_streak", "capped_bets")
_MONEY_FIELDS = ("wagered", "net", "final_bankroll", "peak", "max_drawdown", "max_stake")


def _fold(first, length, stake_cents, net, bankroll, capped, stopped_by, expected, initial, min_micros, out, out_expected):
    """Fold each session's rows (``first[k]`` .. ``first[k] + length[k]``, in round order) into ``out`` rows.

    A leaf kernel (:func:`baccarat.compiling.compiled`).
    """
    for k in range(first.shape[0]):
        start = first[k]
        rounds = 0
        wagered = 0
        total = 0
        expected_total = 0.0
        carry = 0.0
        ruin = -1 if initial >= min_micros else 0
        peak = initial
        drawdown = 0
        streak = 0
        longest = 0
        max_stake = 0
        capped_total = 0
        stop = 0
        for i in range(start, start + length[k]):
            stake = stake_cents[i]
            if stake > 0:
                rounds += 1
                if net[i] != 0:
                    streak = streak + 1 if net[i] < 0 else 0
                    longest = max(longest, streak)
            wagered += stake
            total += net[i]
            # Kahan summation, as polars sums a group's floats, so that the numbers are the same.
            term = expected[i] - carry
            running = expected_total + term
            carry = (running - expected_total) - term
            expected_total = running
            value = bankroll[i]
            peak = max(peak, value)
            drawdown = max(drawdown, peak - value)
            if ruin < 0 and value < min_micros:
                ruin = i - start + 1
            max_stake = max(max_stake, stake)
            capped_total += capped[i]
            if stopped_by[i] != 0:
                stop = stopped_by[i]
        out[k, 0] = length[k]
        out[k, 1] = rounds
        out[k, 2] = wagered * MICROS_PER_CENT
        out[k, 3] = total
        out[k, 4] = bankroll[start + length[k] - 1]
        out[k, 5] = ruin
        out[k, 6] = drawdown
        out[k, 7] = longest
        out[k, 8] = max_stake * MICROS_PER_CENT
        out[k, 9] = capped_total
        out[k, 10] = peak
        out[k, 11] = stop
        out[k, 12] = -1  # bankroll_needed: ruin_threshold.ruin_thresholds, after the fold
        out_expected[k] = expected_total


@dataclasses.dataclass
class SessionRows:
    """One strategy's session-table rows of a chunk, as integers (money in micro-units)."""

    session: np.ndarray
    values: np.ndarray
    """Columns: rounds_dealt, rounds, wagered, net, final_bankroll, rounds_to_ruin (-1: never), max_drawdown,
    longest_losing_streak, max_stake, capped_bets, peak, stopped_by (0: none, else from 1 in ``stop_names``),
    bankroll_needed (-1: not known)."""
    expected: np.ndarray
    stop_names: tuple[str, ...] = ()
    """The strategy's stop rules (:func:`baccarat.plugin.compose.stop_rule_names`)."""

    def select(self, rows: np.ndarray | slice) -> SessionRows:
        """Return the rows at positions ``rows`` (an index array or a slice)."""
        return SessionRows(self.session[rows], self.values[rows], self.expected[rows], self.stop_names)


def joined_rows(parts: Sequence[SessionRows]) -> SessionRows:
    """Return one strategy's rows of several chunks (at least one) as one :class:`SessionRows`, in order."""
    if len(parts) == 1:
        return parts[0]
    return SessionRows(
        np.concatenate([part.session for part in parts]),
        np.concatenate([part.values for part in parts]),
        np.concatenate([part.expected for part in parts]),
        parts[0].stop_names,
    )


def fold_sessions(
    columns: Mapping[str, np.ndarray],
    expected_net: np.ndarray | None,
    initial_micros: int,
    table_min_cents: int,
    stop_names: tuple[str, ...] = (),
    kernel: bool = True,
) -> SessionRows:
    """Fold one strategy's ledger columns (sessions contiguous, rounds in order) into its session-table rows.

    The engines' ``stopped_by`` column (when present) names the stop rule by
    its position in ``stop_names``, from 1. Without ``kernel``, the fold runs
    as plain Python (a small run: the same numbers, nothing compiled).
    """
    session = columns["session"]
    n = len(session)
    starts = np.flatnonzero(np.concatenate(([True], session[1:] != session[:-1]))) if n else np.zeros(0, dtype=np.int64)
    lengths = np.diff(np.append(starts, n))
    out = np.zeros((len(starts), SESSION_VALUES), dtype=np.int64)
    out_expected = np.zeros(len(starts), dtype=np.float64)
    expected = expected_net if expected_net is not None else np.zeros(n, dtype=np.float64)
    stopped_by = columns.get("stopped_by")
    fold = compiled(_fold) if kernel else _fold
    fold(
        starts.astype(np.int64),
        lengths.astype(np.int64),
        columns["stake"],
        columns["net"],
        columns["bankroll"],
        columns["capped"],
        np.zeros(n, dtype=np.int64) if stopped_by is None else stopped_by,
        expected,
        initial_micros,
        table_min_cents * MICROS_PER_CENT,
        out,
        out_expected,
    )
    out[:, 12] = ruin_thresholds(
        starts,
        lengths,
        columns["stake"] * MICROS_PER_CENT,
        columns["net"],
        columns["bankroll"],
        initial_micros,
        table_min_cents * MICROS_PER_CENT,
        kernel,
    )
    return SessionRows(session[starts].astype(np.int64), out, out_expected, tuple(stop_names))


def stop_rule_labels(codes: np.ndarray, names: Sequence[str]):  # -> pyarrow.Array
    """Return ``stopped_by`` from codes (0: none, k: ``names[k - 1]``): the stop rule's name, or null (``large_string``)."""
    if not names or not codes.any():
        return pa.nulls(len(codes), pa.large_string())
    return pa.array(np.asarray([None, *names], dtype=object)[codes], type=pa.large_string())


def _money(micros: np.ndarray, known: np.ndarray | None = None):  # -> pyarrow.Array
    """Return micro-units as exact ``Decimal(38, 6)`` amounts, null where not ``known``."""
    amounts = decimal_micros(micros)
    if known is None or known.all():
        return amounts
    validity = pa.py_buffer(np.packbits(known, bitorder="little"))
    return pa.Array.from_buffers(amounts.type, len(amounts), [validity, amounts.buffers()[1]])


def session_arrow(label: str, rows: SessionRows, has_expected: bool):  # -> pyarrow.Table
    """Return one strategy's session table rows as an Arrow table with the columns of ``sessions.parquet``.

    The same columns and types as polars gives for :func:`session_frame`
    (``select(SESSION_FILE_COLUMNS).to_arrow()``), without a polars frame in between.
    """
    values, n = rows.values, len(rows.session)
    ruin, needed = values[:, 5], values[:, 12]
    data = {
        "strategy": repeated_string(label, n),
        "session": pa.array(rows.session, type=pa.int64()),
        "final_bankroll": _money(values[:, 4]),
        "net": _money(values[:, 3]),
        "wagered": _money(values[:, 2]),
        "rounds": pa.array(values[:, 1], type=pa.int64()),
        "rounds_dealt": pa.array(values[:, 0], type=pa.int64()),
        "peak": _money(values[:, 10]),
        "max_drawdown": _money(values[:, 6]),
        "ruined": pa.array(ruin >= 0, type=pa.bool_()),
        "rounds_to_ruin": pa.array(ruin, type=pa.int64(), mask=ruin < 0),
        "stopped_by": stop_rule_labels(values[:, 11], rows.stop_names),
        "expected_net": pa.array(rows.expected, type=pa.float64()) if has_expected else pa.nulls(n, pa.float64()),
        "longest_losing_streak": pa.array(values[:, 7], type=pa.int64()),
        "max_stake": _money(values[:, 8]),
        "capped_bets": pa.array(values[:, 9], type=pa.int64()),
        "bankroll_needed": _money(needed, needed >= 0),
    }
    return pa.table([data[name] for name in SESSION_FILE_COLUMNS], names=list(SESSION_FILE_COLUMNS))


def session_frame(labels: Sequence[str], rows: Sequence[Sequence[SessionRows]], has_expected: bool) -> pl.DataFrame:
    """Return the session table from every strategy's rows, chunk by chunk.

    Its columns are :data:`~baccarat.results.statistics.tallies.SESSION_COLUMNS`.
    """
    parts = []
    for label, chunks in zip(labels, rows, strict=True):
        joined = (
            joined_rows(chunks)
            if chunks
            else SessionRows(np.zeros(0, dtype=np.int64), np.zeros((0, SESSION_VALUES), dtype=np.int64), np.zeros(0, dtype=np.float64))
        )
        parts.append(pl.from_arrow(session_arrow(label, joined, has_expected)))
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts, rechunk=False).select(SESSION_COLUMNS)  # no copy of the whole table


SESSION_RECORD = SESSION_VALUES + 2
"""Integers per session in a session spool: the session, the values of :class:`SessionRows`, and ``expected``'s bits."""


READ_SESSIONS = 1 << 16
"""Sessions read from a session spool at once (a slice of ``sessions.parquet``: one row group)."""


class SessionSpool:
    """Each strategy's session rows, appended chunk by chunk to a raw file of the run folder (:data:`SESSION_RECORD`
    integers a session), or held in memory when there is no folder (a saved run read back, which writes nothing)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.paths: list[Path] = []
        self.held: list[list[SessionRows]] = []

    def append(self, k: int, rows: SessionRows) -> None:
        """Append one chunk's session rows of strategy ``k``."""
        if self.folder is None:
            while len(self.held) <= k:
                self.held.append([])
            self.held[k].append(rows)
            return
        while len(self.paths) <= k:
            path = self.folder / f".sessions.{len(self.paths)}.spool"
            path.write_bytes(b"")
            self.paths.append(path)
        record = np.empty((len(rows.session), SESSION_RECORD), dtype=np.int64)
        record[:, 0] = rows.session
        record[:, 1:-1] = rows.values
        record[:, -1] = np.ascontiguousarray(rows.expected, dtype=np.float64).view(np.int64)  # the float's bits, exactly
        with self.paths[k].open("ab") as handle:  # a file write, not tofile: a refused write keeps its errno (EFBIG, ENOSPC)
            handle.write(record.data)

    def read(self, k: int, stop_names: tuple[str, ...]) -> Iterator[SessionRows]:
        """Yield strategy ``k``'s rows, :data:`READ_SESSIONS` at a time from a file, in the order they were appended."""
        if self.folder is None:
            for rows in self.held[k] if k < len(self.held) else ():
                yield SessionRows(rows.session, rows.values, rows.expected, stop_names)
            return
        if k >= len(self.paths):
            return
        total = self.paths[k].stat().st_size // (8 * SESSION_RECORD)
        for start in range(0, total, READ_SESSIONS):
            count = min(READ_SESSIONS, total - start)
            record = np.fromfile(self.paths[k], dtype=np.int64, count=count * SESSION_RECORD, offset=start * SESSION_RECORD * 8)
            record = record.reshape(count, SESSION_RECORD)
            yield SessionRows(record[:, 0], record[:, 1:-1], record[:, -1].view(np.float64), stop_names)  # views of the slice read

    def remove(self) -> None:
        """Delete the spool files (or forget the rows held)."""
        for path in self.paths:
            path.unlink(missing_ok=True)
        self.held = []


TALLY_ROWS = 1 << 16
"""Session rows (of every strategy) a :class:`RunStatsCollector` holds before it adds them to its tallies at once."""


class RunStatsCollector:
    """Makes every statistic of a run from its sessions, folded as the chunks arrive: the one definition.

    ``baccarat run`` adds each chunk's session rows and bankroll columns as
    the chunk arrives; a saved run read back (``baccarat report``,
    ``baccarat.load``) replays its ledger through the same collector
    (:mod:`baccarat.results.statistics.replay`). The sessions are added to
    exact aggregates a few chunks at a time (:data:`TALLY_ROWS` rows: a tally
    of many rows at once costs about what one of a few rows does)
    (:mod:`baccarat.results.statistics.tallies`: one tally per strategy, one
    per strategy paired with the ``baseline``), from which the summary, the
    comparison, the ruin curve and the final bankrolls' percentiles are made
    at the end without reading any session back; each round's bankrolls are
    counted exactly as they arrive, for the bands
    (:class:`~baccarat.results.statistics.round_counts.RoundCounts`). The
    session rows go to a spool file of ``folder`` (held in memory without a
    folder), so that the memory of the main process does not grow with the
    run; at the end they become the folder's ``sessions.parquet``
    (``sessions_file``), written slice by slice.
    """

    def __init__(
        self,
        folder: Path | None,
        labels: Sequence[str],
        has_expected: bool = True,
        bankrolls: bool = True,
        sessions_file: str = "sessions.parquet",
        baseline: str | None = None,
        samples: int = 5,
        fixed: Mapping[str, str | None] | None = None,
        pricing: Pricing | None = None,
    ) -> None:
        self.labels = list(labels)
        self.pricing = pricing
        """The rebates and the table's pace, for the summary (:class:`~baccarat.results.statistics.tallies.Pricing`)."""
        self.fixed = dict(fixed or {})
        """The strategies that back one fixed bet (:data:`baccarat.results.comparisons.verdict.FixedBets`): their rows are exact."""
        self.has_expected = has_expected
        self.bankrolls = bankrolls
        """Whether the bankroll columns are counted, for the bands and sample paths of the charts."""
        self.session_spool = SessionSpool(folder)
        self.sessions_path = None if folder is None else folder / sessions_file
        self.counts_path = None if folder is None else folder / ROUND_COUNTS_FILE
        self.saved_files: tuple[Path, Path] | None = None
        """A saved run's ``sessions.parquet`` and ``round_counts.parquet``, when taken as they are (:meth:`take_saved`)."""
        self.stop_names: list[tuple[str, ...]] = [() for _ in self.labels]
        self.round_counts = [RoundCounts() for _ in self.labels]
        """Each strategy's bankroll after each round, counted exactly (with ``bankrolls``)."""
        self.tallies = [SessionTally() for _ in self.labels]
        self.baseline = baseline
        base = self.labels.index(baseline) if baseline in self.labels else 0 if baseline is None and self.labels else None
        self.base = base
        """The position of the baseline among the strategies (None: it names none, refused at the end)."""
        self.pairs = {k: PairTally() for k in range(len(self.labels)) if base is not None and k != base}
        self.samples = samples
        self.first_sessions = np.zeros(0, dtype=np.int64)
        """The ``samples`` smallest session numbers (the sample paths of the plots)."""
        self.waiting: list[tuple[SessionRows, ...]] = []
        """Chunks' rows not yet added to the tallies (fewer than :data:`TALLY_ROWS` rows in all)."""
        self.arriving: list[SessionRows | None] = [None for _ in self.labels]
        """The rows of the sessions being added, of the strategies added so far (a chunk may hold some strategies only)."""
        self.waiting_rows = 0
        self.sample_bankrolls: list[dict[int, np.ndarray]] = [{} for _ in self.labels]
        """Each strategy's bankroll column, round by round, of its ``samples`` smallest sessions (with ``bankrolls``)."""

    def add(self, sessions: Sequence[SessionRows], bankrolls: Sequence[np.ndarray] | None, first: int = 0) -> None:
        """Take one chunk's rows and bankroll columns, strategy by strategy, of the strategies from the ``first``-th on
        (bankrolls None: the bankrolls are counted already, :meth:`take_saved`).

        A chunk may hold some of the strategies only: the chunks of the same
        sessions come one after the other, and their rows go to the tallies
        once every strategy's have come (each is paired with the baseline's).
        """
        if first + len(sessions) > len(self.labels):
            raise ValueError(f"rows of strategies {first} to {first + len(sessions) - 1}, of {len(self.labels)} strategies")
        for j, rows in enumerate(sessions):
            k = first + j
            if self.arriving[k] is not None:
                raise ValueError(f"the rows of strategy {self.labels[k]!r} came twice for the same sessions")
            self.arriving[k] = rows
            if self.saved_files is None:
                self.session_spool.append(k, rows)
            self.stop_names[k] = rows.stop_names
            if self.bankrolls and bankrolls is not None:
                bankroll = bankrolls[j]
                self.round_counts[k].add(bankroll, rows.values[:, 0])
                self._keep_samples(k, rows, bankroll)
        if any(rows is None for rows in self.arriving):
            return
        arrived = tuple(rows for rows in self.arriving if rows is not None)
        self.arriving = [None for _ in self.labels]
        self.waiting.append(arrived)
        self.waiting_rows += sum(len(rows.session) for rows in arrived)
        if self.waiting_rows >= TALLY_ROWS:
            self._tally_waiting()

    def take_saved(self, sessions: Path, counts: Path) -> None:
        """Take a saved run's own files, as its collector wrote them: its session rows are those of ``sessions`` (its
        ``sessions.parquet``: copied, not spooled and written again) and its per-round counts and sample paths those of
        ``counts`` (its ``round_counts.parquet``): the sessions are then added without their bankrolls."""
        self.round_counts, self.sample_bankrolls = read_round_counts(counts, self.labels)
        self.saved_files = (sessions, counts)

    def write_counts(self) -> Path | None:
        """Write the per-round counts and sample paths as the folder's ``round_counts.parquet``; return its path (None
        without a folder or without bankrolls)."""
        if self.counts_path is None or not self.bankrolls:
            return None
        if self.saved_files is not None:
            shutil.copyfile(self.saved_files[1], self.counts_path)
            return self.counts_path
        write_round_counts(self.counts_path, self.labels, self.round_counts, self.sample_bankrolls)
        return self.counts_path

    def _keep_samples(self, k: int, rows: SessionRows, bankroll: np.ndarray) -> None:
        """Keep strategy ``k``'s bankroll columns of the chunk's sessions that are among its ``samples`` smallest so far."""
        kept = self.sample_bankrolls[k]
        if not len(rows.session) or (len(kept) >= self.samples and int(rows.session.min()) > max(kept)):
            return
        ends = np.cumsum(rows.values[:, 0])
        for i in np.argsort(rows.session, kind="stable")[: self.samples].tolist():
            kept[int(rows.session[i])] = bankroll[ends[i] - rows.values[i, 0] : ends[i]].copy()
        for session in sorted(kept)[self.samples :]:
            del kept[session]

    def sample_paths(self, initial_bankroll: Decimal) -> pl.DataFrame:
        """Return the bankroll paths (round 0 the start) of the sessions of ``first_sessions``, from the
        bankroll columns kept as the chunks arrived (with ``bankrolls``): the same frame, without reading the ledger."""
        self._tally_waiting()
        chosen = self.first_sessions.tolist()
        held = [
            (label, session, kept[session])
            for label, kept in zip(self.labels, self.sample_bankrolls, strict=True)
            for session in chosen
            if session in kept
        ]
        lengths = [len(path) for _, _, path in held]
        # Round 0 (the initial bankroll) of every session, then its rounds (from 1), strategy by strategy, as the
        # definition reads them from the session table and the ledger.
        frame = pl.DataFrame(
            {
                "strategy": [label for label, _, _ in held]
                + [label for (label, _, _), n in zip(held, lengths, strict=True) for _ in range(n)],
                "session": np.repeat(np.asarray([session for _, session, _ in held] * 2, dtype=np.int64), [1] * len(held) + lengths),
                "round": np.concatenate([np.zeros(len(held), dtype=np.int64), *[np.arange(1, n + 1, dtype=np.int64) for n in lengths]]),
                "bankroll": np.concatenate(
                    [np.full(len(held), float(Decimal(str(initial_bankroll)))), *[path / 1e6 for _, _, path in held]]
                ),
            },
            schema={"strategy": pl.String, "session": pl.Int64, "round": pl.Int64, "bankroll": pl.Float64},
        )
        return frame.sort("session", "round", maintain_order=True)

    def _tally_waiting(self) -> None:
        """Add the chunks waiting to the tallies, all at once: each strategy's, and paired with the baseline's."""
        chunks, self.waiting, self.waiting_rows = self.waiting, [], 0
        if not chunks:
            return
        joined = [joined_rows([chunk[k] for chunk in chunks]) for k in range(len(chunks[0]))]
        for k, rows in enumerate(joined):
            self.tallies[k].add(rows.values, rows.expected if self.has_expected else None)
            if k in self.pairs:
                self._tally_pairs(k, chunks, joined)
        self.first_sessions = np.union1d(self.first_sessions, np.concatenate([rows.session for rows in joined]))[: self.samples]

    def _tally_pairs(self, k: int, chunks: Sequence[Sequence[SessionRows]], joined: Sequence[SessionRows]) -> None:
        """Add strategy ``k``'s sessions paired with the baseline's (the same session of the same chunk) to its pair tally."""
        places = [pair_rows(chunk[k].session, chunk[self.base].session) for chunk in chunks]
        if all(isinstance(mine, slice) and isinstance(theirs, slice) for mine, theirs in places):  # the same sessions, in order
            mine, theirs = joined[k], joined[self.base]
        else:
            mine = joined_rows([chunk[k].select(rows) for chunk, (rows, _) in zip(chunks, places, strict=True)])
            theirs = joined_rows([chunk[self.base].select(rows) for chunk, (_, rows) in zip(chunks, places, strict=True)])
        expected, base_expected = (mine.expected, theirs.expected) if self.has_expected else (None, None)
        self.pairs[k].add(mine.values, expected, theirs.values, base_expected)

    def tallied(self) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
        """Fold what is still waiting; return the tallies of the strategies that played and of their pairs with the
        baseline, by label (what the summary and the comparison are made from, :mod:`baccarat.results.collected`)."""
        self._tally_waiting()
        played = [(label, tally) for label, tally in zip(self.labels, self.tallies, strict=True) if tally.sessions]
        pairs = [(self.labels[k], pair) for k, pair in self.pairs.items() if self.tallies[k].sessions]
        return played, pairs

    def bands(self, initial_bankroll: Decimal, points: int | None = None) -> pl.DataFrame:
        """Return the percentiles of the bankroll over sessions after each round, per strategy, and its mean.

        Columns ``strategy``, ``round`` (0 is the start), ``p5``, ``p25``,
        ``p50``, ``p75``, ``p95``, ``mean`` (shown beside the median: a
        progression's median can rise while its mean falls). A session that
        has ended keeps its final bankroll, so every round counts every
        session. With more than ``points`` rounds, the rounds are sampled
        evenly (:func:`~baccarat.results.statistics.round_counts.curve_rounds`;
        default :data:`~baccarat.results.statistics.round_counts.CURVE_POINTS`).
        A strategy without sessions has no bands.
        """
        points = CURVE_POINTS if points is None else points
        initial = float(Decimal(str(initial_bankroll)))
        names = [f"p{p}" for p in BAND_PERCENTILES]
        frames = []
        for label, counts in zip(self.labels, self.round_counts, strict=True):
            if not counts.sessions:
                continue
            grid = curve_rounds(counts.longest, points)
            table, means = counts.bands(grid)
            frames.append(
                pl.DataFrame(
                    {
                        "strategy": [label] * (len(grid) + 1),
                        "round": np.concatenate([[0], grid]),
                        **{name: np.concatenate([[initial], table[:, i]]) for i, name in enumerate(names)},
                        "mean": np.concatenate([[initial], means]),
                    }
                )
            )
        if not frames:
            return pl.DataFrame(schema={"strategy": pl.String, "round": pl.Int64, **{n: pl.Float64 for n in names}, "mean": pl.Float64})
        return pl.concat(frames)

    def write_sessions(self) -> pl.LazyFrame | pl.DataFrame:
        """Write the spooled session rows as ``sessions.parquet`` (strategy by strategy) and return a scan of it.

        The file holds the columns of ``SESSION_FILE_COLUMNS``; the scan gives
        those of :data:`SESSION_COLUMNS`, the session table. Without a folder,
        the session table is returned as a frame and nothing is written. Rows taken from a saved run's file
        (:meth:`take_saved`) are that file, copied.
        """
        if self.saved_files is not None:
            if self.sessions_path is None:
                return pl.read_parquet(self.saved_files[0]).select(SESSION_COLUMNS)
            shutil.copyfile(self.saved_files[0], self.sessions_path)
            return pl.scan_parquet(self.sessions_path).select(SESSION_COLUMNS)
        if self.sessions_path is None:
            held = [list(self.session_spool.read(k, self.stop_names[k])) for k in range(len(self.labels))]
            self.session_spool.remove()
            return session_frame(self.labels, held, self.has_expected)
        writer = None
        try:
            for k, label in enumerate(self.labels):
                for rows in self.session_spool.read(k, self.stop_names[k]):
                    part = session_arrow(label, rows, self.has_expected)
                    if writer is None:
                        writer = pq.ParquetWriter(self.sessions_path, part.schema, compression="zstd")
                    writer.write_table(part)
            if writer is None:  # no session at all
                session_frame(self.labels, [[] for _ in self.labels], self.has_expected).select(SESSION_FILE_COLUMNS).write_parquet(
                    self.sessions_path
                )
        finally:
            if writer is not None:
                writer.close()
            self.session_spool.remove()
        return pl.scan_parquet(self.sessions_path).select(SESSION_COLUMNS)
