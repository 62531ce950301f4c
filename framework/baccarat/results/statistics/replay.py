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

from collections.abc import Iterator, Sequence
from decimal import Decimal

import numpy as np
import polars as pl

from baccarat.compiling import plays_compiled
from baccarat.money import MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.results.ledger import money_micros
from baccarat.results.statistics.folded import SESSION_VALUES, RunStatsCollector, SessionRows, fold_sessions

BATCH_ROWS = 2_000_000
"""Ledger rows (of every strategy) read and folded at once."""

STOPPED = 11
"""The column of ``stopped_by`` among :class:`~baccarat.results.statistics.folded.SessionRows`' values."""

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


def _in_order(rows: pl.DataFrame) -> pl.DataFrame:
    """Return one strategy's rows sorted by session then round (a run's ledger is already: then nothing is sorted)."""
    session, rnd = rows.get_column("session").to_numpy(), rows.get_column("round").to_numpy()
    steps = np.diff(session)
    if (steps >= 0).all() and (np.diff(rnd)[steps == 0] > 0).all():
        return rows
    return rows.sort("session", "round")


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
    rows: pl.DataFrame, initial_micros: int, table_min_cents: int, stopped: tuple[tuple[str, ...], np.ndarray, np.ndarray] | None
) -> tuple[SessionRows, np.ndarray]:
    """Fold one strategy's ledger rows (whole sessions) into its session rows; return them with its bankroll column."""
    rows = _in_order(rows)
    bankroll = money_micros(rows.get_column("bankroll"), 0)
    columns = {
        "session": rows.get_column("session").to_numpy(),
        "stake": money_micros(rows.get_column("stake"), 0) // MICROS_PER_CENT,
        "net": money_micros(rows.get_column("net"), 0),
        "bankroll": bankroll,
        "capped": rows.get_column("capped").cast(pl.Int64).fill_null(0).to_numpy(),
    }
    expected = rows.get_column("expected_net").cast(pl.Float64).fill_null(0.0).to_numpy() if "expected_net" in rows.columns else None
    names, sessions, codes = stopped if stopped is not None else ((), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    folded = fold_sessions(columns, expected, initial_micros, table_min_cents, names, plays_compiled(rows.height))
    if len(sessions):
        where = np.searchsorted(sessions, folded.session)
        known = where < len(sessions)
        known[known] = sessions[where[known]] == folded.session[known]
        folded.values[known, STOPPED] = codes[where[known]]
    return folded, bankroll


def replay(
    ledger: pl.LazyFrame | pl.DataFrame,
    collector: RunStatsCollector,
    initial_micros: int,
    table_min_cents: int,
    stops: pl.DataFrame | None = None,
    batch_rows: int = BATCH_ROWS,
) -> RunStatsCollector:
    """Add every session of ``ledger`` to ``collector`` (strategies by its labels), a batch of sessions at a time; return it.

    ``stops`` (rows ``strategy``, ``session``, ``stopped_by``) give which stop
    rule ended each session, which the ledger does not hold.
    """
    stopped = stop_codes(stops, collector.labels)
    empty = SessionRows(np.zeros(0, dtype=np.int64), np.zeros((0, SESSION_VALUES), dtype=np.int64), np.zeros(0, dtype=np.float64))
    for batch in ledger_batches(ledger, batch_rows):
        parts = batch.partition_by("strategy", as_dict=True, maintain_order=True)
        sessions, bankrolls = [], []
        for label in collector.labels:
            rows = parts.get((label,))
            if rows is None:
                names = stopped[label][0] if label in stopped else ()
                sessions.append(SessionRows(empty.session, empty.values, empty.expected, names))
                bankrolls.append(np.zeros(0, dtype=np.int64))
                continue
            folded, bankroll = folded_rows(rows, initial_micros, table_min_cents, stopped.get(label))
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
