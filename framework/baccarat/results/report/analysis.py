"""Results of a run: statistics, charts and a self-contained HTML report, from the ledger.

:func:`analyse` turns a ledger (a lazy scan or a frame) into an
:class:`Analysis` (per-session table, summary, paired comparison and the
aggregates the charts draw); :func:`write_results` writes ``sessions.parquet``, ``summary.csv``,
``comparison.csv`` and the interactive ``report.html`` (PNG or SVG charts on request) into a run folder;
The report itself is drawn by :mod:`baccarat.results.report.html`; the one-screen
table printed after a run by :func:`baccarat.results.formatting.format_summary`.
What a report states about the run besides its statistics comes as plain
:class:`~baccarat.results.report.run_facts.RunFacts`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.report.run_analysis import CHART_KINDS, SESSIONS_FILE, Analysis, Pending
from baccarat.results.report.run_facts import RunFacts
from baccarat.results.statistics import curves
from baccarat.results.statistics import ledger_stats as stats
from baccarat.results.statistics.folded import SESSION_FILE_COLUMNS

if TYPE_CHECKING:
    pass

from baccarat.results.report.html import exact_html, render_html

SUMMARY_FILE = "summary.csv"
COMPARISON_FILE = "comparison.csv"
REPORT_FILE = "report.html"


CHART_FILES = frozenset({f"{kind}.{fmt}" for kind in CHART_KINDS for fmt in ("png", "svg")} | {"final_bankroll.png"})
"""Chart files a report writes on request (``--png``, ``--svg``), and the one name of the PNG plots of 0.1 not among them."""


def analyse(
    ledger: stats.Ledger,
    initial_bankroll: Decimal | int | str,
    table_min: Decimal | int | str,
    baseline: str | None = None,
    samples: int = 5,
    sessions: pl.DataFrame | pl.LazyFrame | None = None,
    bands: pl.DataFrame | Callable[[], pl.DataFrame] | None = None,
    background: Executor | None = None,
    plots: bool = True,
    stops: pl.DataFrame | None = None,
    summary: pl.DataFrame | None = None,
    comparison: pl.DataFrame | None = None,
    ruin: pl.DataFrame | None = None,
    finals: pl.DataFrame | None = None,
    sample_sessions: list[int] | None = None,
    paths: pl.DataFrame | None = None,
    fixed: Mapping[str, str | None] | None = None,
) -> Analysis:
    """Compute every statistic of a run from its ledger (a lazy scan works for ledgers larger than memory).

    ``sessions`` and ``bands``, when given, are :func:`stats.session_table` (or a lazy scan of it) and
    :func:`curves.bankroll_bands` of that ledger already computed, or for the
    bands a function computing them (``baccarat run`` gathers them while it
    plays, see :mod:`baccarat.results.statistics.folded`). With ``background``, the bands, the
    summary, the comparison and the sample paths are computed there, each
    waited for when first used. Without ``plots``, what only the plots draw
    (the bands and the sample paths) is not computed: those frames are None.
    ``stops`` (:func:`stats.stopped_sessions`) gives the session table's
    ``stopped_by`` when it is folded from the ledger here. ``summary``,
    ``comparison``, ``ruin``, ``finals``, the sample ``paths`` (or their sessions, ``sample_sessions``),
    when given, are already known (a run makes them from the aggregates it folds
    as its chunks arrive, :class:`baccarat.results.statistics.folded.RunStatsCollector`):
    nothing then reads the session table for them. ``fixed`` names the strategies that back one fixed bet, whose
    expected edges are exact (:func:`baccarat.results.comparisons.verdict.with_verdicts`).
    """
    initial, minimum = Decimal(str(initial_bankroll)), Decimal(str(table_min))
    if sessions is None:
        sessions = stats.session_table(ledger, initial, minimum, stops=stops)

    def later(fn: Any, *args: Any) -> Pending:
        return fn(*args) if background is None else background.submit(fn, *args)

    if not plots:
        pending_bands = None
    elif bands is None:
        pending_bands = later(curves.bankroll_bands, ledger, sessions, initial)
    else:  # first: the bands take longest
        pending_bands = bands if isinstance(bands, pl.DataFrame) else later(bands)
    if not plots:
        pending_paths = None
    elif paths is None:
        pending_paths = later(curves.sample_paths, ledger, sessions, initial, samples, sample_sessions)
    else:
        pending_paths = paths
    return Analysis(
        _sessions=sessions,
        _summary=later(stats.summary_table, sessions) if summary is None else summary,
        _comparison=later(comparisons.paired_comparison, sessions, baseline, fixed) if comparison is None else comparison,
        _bands=pending_bands,
        ruin=curves.ruin_curve(sessions) if ruin is None else ruin,
        _paths=pending_paths,
        _finals=finals if finals is not None else later(curves.final_quantiles, sessions) if plots else None,
        initial_bankroll=initial,
        table_min=minimum,
    )


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_results(
    out_dir: str | Path,
    ledger: stats.Ledger,
    facts: RunFacts,
    baseline: str | None = None,
    roads: Sequence[int] = (),
    exact: Callable[..., Any] | None = None,
    plots: bool = True,
    manifest: Mapping[str, Any] | None = None,
    sessions_written: bool = False,
    formats: Sequence[str] = (),
    **precomputed: Any,
) -> Analysis:
    """Write ``sessions.parquet``, ``summary.csv``, ``comparison.csv`` and the interactive ``report.html`` into ``out_dir``.

    Without ``plots``, only the tables are written (``--no-report``). With
    ``formats`` (``png``, ``svg``), every chart is also written as ``KIND.png``
    / ``KIND.svg`` (:data:`CHART_KINDS`), rendered by vl-convert.

    ``ledger`` is best a lazy scan of the folder's ``ledger.parquet``. The
    report embeds ``experiment.yaml`` when the folder holds it, the run's
    ``manifest`` (its versions and timings) when given, and the scoreboard roads of the shoes listed in ``roads``.
    ``precomputed`` statistics (``sessions``, ``bands``) are passed to :func:`analyse`; with
    ``sessions_written``, ``sessions`` is a scan of the folder's ``sessions.parquet``, written already
    (:class:`baccarat.results.statistics.folded.RunStatsCollector` writes it as the chunks arrive).
    With ``exact`` (the run's exact analysis, called with the run's ``run_average=`` rounds per session: see
    :func:`baccarat.experiment.report_facts.exact_analysis`), the report sets it
    beside the simulation (:func:`baccarat.results.report.html.exact_html`).
    Each file is replaced atomically.
    """
    out = Path(out_dir)
    road_charts = None
    if roads:  # first, so that a shoe the run does not hold changes no file
        from baccarat.results.charts.scoreboard import run_roads_charts

        road_charts = run_roads_charts(out, roads)
    if not plots:
        analysis = analyse(ledger, facts.bankroll, facts.table_min, baseline, plots=False, fixed=facts.fixed_bets, **precomputed)
        if not sessions_written:
            _write_atomic(out / SESSIONS_FILE, parquet_bytes(session_file_table(analysis.sessions)))
        _write_atomic(out / SUMMARY_FILE, analysis.summary.write_csv().encode("utf-8"))
        _write_atomic(out / COMPARISON_FILE, analysis.comparison.write_csv().encode("utf-8"))
        return analysis
    from baccarat.results.charts.export import chart_files

    # The bands (numpy sorts) and the statistics in polars, both without the GIL, are computed in two threads while
    # the charts are specified; the files are written once everything is ready, so that an error leaves every file as
    # it was. Leaving the pool waits for what runs there (the bands read the folder).
    # A session table read from the folder (a run's) is read one statistic at a time: each holds a strategy's columns.
    with ThreadPoolExecutor(max_workers=1 if sessions_written else 2, thread_name_prefix="statistics") as background:
        analysis = analyse(ledger, facts.bankroll, facts.table_min, baseline, background=background, fixed=facts.fixed_bets, **precomputed)
        charts = analysis.charts()
        summary_csv = analysis.summary.write_csv().encode("utf-8")
        sessions_parquet = None if sessions_written else parquet_bytes(session_file_table(analysis.sessions))
        exact_section = exact_html(analysis, exact) if exact is not None else ""
    files = chart_files(charts, tuple(formats)) if formats else {}
    yaml_path = out / "experiment.yaml"
    experiment_text = yaml_path.read_text(encoding="utf-8") if yaml_path.is_file() else facts.experiment_yaml
    page = render_html(analysis, facts, charts, experiment_text, manifest, road_charts, exact_section)
    if sessions_parquet is not None:
        _write_atomic(out / SESSIONS_FILE, sessions_parquet)
    _write_atomic(out / SUMMARY_FILE, summary_csv)
    _write_atomic(out / COMPARISON_FILE, analysis.comparison.write_csv().encode("utf-8"))
    for name, data in files.items():
        _write_atomic(out / name, data)
    _write_atomic(out / REPORT_FILE, page.encode("utf-8"))
    return analysis


def session_file_table(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return the session table (:func:`baccarat.results.statistics.ledger_stats.session_table`) as ``sessions.parquet`` holds it."""
    return sessions.select(SESSION_FILE_COLUMNS)


def saved_stops(path: Path) -> pl.DataFrame | None:
    """Return the stopped sessions (:func:`stats.stopped_sessions`) of a run folder's ``sessions.parquet`` at ``path``.

    Which stop rule ended a session is not in the ledger, so a report rebuilt
    from the ledger keeps it from there (the caller checks the file against
    the run's manifest first). None when the file cannot be read.
    """
    from baccarat.results.ledger import READ_ERRORS

    try:
        if "stopped_by" not in pl.read_parquet_schema(path):
            return None
        return stats.stopped_sessions(pl.read_parquet(path, columns=["strategy", "session", "stopped_by"]))
    except READ_ERRORS:
        return None


def parquet_bytes(frame: pl.DataFrame) -> bytes:
    """Return ``frame`` written as Parquet."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()
