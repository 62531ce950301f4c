"""Results of a run: statistics, charts and a self-contained HTML report, from the statistics its collector made.

:func:`analyse` turns the statistics of a run's collector (:mod:`baccarat.results.collected`) into an
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
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl

from baccarat.results.charts.export import chart_files
from baccarat.results.charts.scoreboard import run_roads_charts
from baccarat.results.ledger import READ_ERRORS
from baccarat.results.patterns.against_fair import run_against_fair
from baccarat.results.report.html import exact_html, render_html
from baccarat.results.report.patterns_html import patterns_html
from baccarat.results.report.run_analysis import CHART_KINDS, SESSIONS_FILE, Analysis
from baccarat.results.report.run_facts import RunFacts
from baccarat.results.statistics import ledger_stats as stats
from baccarat.results.statistics.folded import SESSION_FILE_COLUMNS
from baccarat.table.rules import Rules

SUMMARY_FILE = "summary.csv"
COMPARISON_FILE = "comparison.csv"
REPORT_FILE = "report.html"
PATTERNS_SOURCE = "the run's rounds"
"""The source the report's test of the shoes names (the folder is written under a temporary name)."""


CHART_FILES = frozenset({f"{kind}.{fmt}" for kind in CHART_KINDS for fmt in ("png", "svg")} | {"final_bankroll.png"})
"""Chart files a report writes on request (``--png``, ``--svg``), and the one name of the PNG plots of 0.1 not among them."""


def analyse(statistics: Mapping[str, Any], initial_bankroll: Decimal | int | str, table_min: Decimal | int | str) -> Analysis:
    """Return the :class:`Analysis` of a run from the statistics its collector made (:mod:`baccarat.results.collected`).

    ``statistics`` holds the session table (``sessions``: a frame, or a scan
    of the run's ``sessions.parquet``), ``summary``, ``comparison``, ``ruin``
    and ``finals``, and, when the charts are drawn, the bankroll ``bands`` and
    the sample ``paths`` (without them, those frames are None).
    """
    return Analysis(
        _sessions=statistics["sessions"],
        _summary=statistics["summary"],
        _comparison=statistics["comparison"],
        _bands=statistics.get("bands"),
        ruin=statistics["ruin"],
        _paths=statistics.get("paths"),
        _finals=statistics["finals"],
        initial_bankroll=Decimal(str(initial_bankroll)),
        table_min=Decimal(str(table_min)),
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
    facts: RunFacts,
    statistics: Mapping[str, Any],
    roads: Sequence[int] = (),
    exact: Callable[..., Any] | None = None,
    plots: bool = True,
    manifest: Mapping[str, Any] | None = None,
    formats: Sequence[str] = (),
    rules: Rules | None = None,
) -> Analysis:
    """Write ``sessions.parquet``, ``summary.csv``, ``comparison.csv`` and the interactive ``report.html`` into ``out_dir``.

    ``statistics`` are those the run's collector made (:mod:`baccarat.results.collected`); with
    ``statistics["sessions_written"]``, the collector wrote ``sessions.parquet`` in the folder already.
    Without ``plots``, only the tables are written (``--no-report``). With
    ``formats`` (``png``, ``svg``), every chart is also written as ``KIND.png``
    / ``KIND.svg`` (:data:`CHART_KINDS`), rendered by vl-convert. The
    report embeds ``experiment.yaml`` when the folder holds it, the run's
    ``manifest`` (its versions and timings) when given, and the scoreboard roads of the shoes listed in ``roads``.
    With ``exact`` (the run's exact analysis, called with the run's ``run_average=`` rounds per session: see
    :func:`baccarat.experiment.report_facts.exact_analysis`), the report sets it
    beside the simulation (:func:`baccarat.results.report.html.exact_html`).
    With the run's ``rules``, the report tests the folder's ``rounds.parquet`` against fair shoes of those rules
    (:func:`baccarat.results.patterns.against_fair.run_against_fair`; the figures are also the analysis's ``patterns``).
    Each file is replaced atomically, once everything is ready, so that an error leaves every file as it was.
    """
    out = Path(out_dir)
    road_charts = None
    if roads:  # first, so that a shoe the run does not hold changes no file
        road_charts = run_roads_charts(out, roads)
    analysis = analyse(statistics, facts.bankroll, facts.table_min)
    sessions_parquet = None if statistics.get("sessions_written") else parquet_bytes(session_file_table(analysis.sessions))
    files: dict[str, bytes] = {}
    if plots:
        charts = analysis.charts()
        exact_section = exact_html(analysis, exact) if exact is not None else ""
        patterns_section = ""
        if rules is not None:
            analysis.patterns = run_against_fair(out, rules, described=PATTERNS_SOURCE)
            patterns_section = patterns_html(analysis.patterns)
        files = chart_files(charts, tuple(formats)) if formats else {}
        yaml_path = out / "experiment.yaml"
        experiment_text = yaml_path.read_text(encoding="utf-8") if yaml_path.is_file() else facts.experiment_yaml
        page = render_html(analysis, facts, charts, experiment_text, manifest, road_charts, exact_section, patterns_section)
        files[REPORT_FILE] = page.encode("utf-8")
    if sessions_parquet is not None:
        _write_atomic(out / SESSIONS_FILE, sessions_parquet)
    _write_atomic(out / SUMMARY_FILE, analysis.summary.write_csv().encode("utf-8"))
    _write_atomic(out / COMPARISON_FILE, analysis.comparison.write_csv().encode("utf-8"))
    for name, data in sorted(files.items(), key=lambda item: item[0] == REPORT_FILE):  # report.html last
        _write_atomic(out / name, data)
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
