"""Results of a run: statistics, plots and a self-contained HTML report, from the ledger.

:func:`analyse` turns a ledger (a lazy scan or a frame) into an
:class:`Analysis` (per-session table, summary, paired comparison and the
aggregates the plots draw); :func:`write_results` writes ``sessions.parquet``, ``summary.csv``,
``comparison.csv``, the PNG plots and ``report.html`` into a run folder;
:func:`format_summary` gives the one-screen table printed after a run.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from baccarat.money import cents_to_decimal
from baccarat.results import stats
from baccarat.results.manifest import read_manifest

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from baccarat.experiment.model import Experiment

SUMMARY_FILE = "summary.csv"
COMPARISON_FILE = "comparison.csv"
SESSIONS_FILE = "sessions.parquet"
REPORT_FILE = "report.html"


Pending = Any
"""A frame, or a future of it still being computed in the background (see :func:`analyse`)."""


def _ready(value: Pending) -> pl.DataFrame:
    return value.result() if isinstance(value, Future) else value


@dataclasses.dataclass
class Analysis:
    """Every statistic of a run, as polars frames (see :mod:`baccarat.results.stats`).

    Frames computed in the background are waited for when first used.
    """

    sessions: pl.DataFrame
    _summary: Pending = dataclasses.field(repr=False)
    _comparison: Pending = dataclasses.field(repr=False)
    _bands: Pending = dataclasses.field(repr=False)
    ruin: pl.DataFrame
    _paths: Pending = dataclasses.field(repr=False)
    initial_bankroll: Decimal
    table_min: Decimal

    @property
    def summary(self) -> pl.DataFrame:
        """One row per strategy (:func:`baccarat.results.stats.summary_table`)."""
        self._summary = _ready(self._summary)
        return self._summary

    @property
    def comparison(self) -> pl.DataFrame:
        """Each strategy against the baseline, paired by session (:func:`baccarat.results.stats.paired_comparison`)."""
        self._comparison = _ready(self._comparison)
        return self._comparison

    @property
    def bands(self) -> pl.DataFrame:
        """The bankroll percentile bands (:func:`baccarat.results.stats.bankroll_bands`)."""
        self._bands = _ready(self._bands)
        return self._bands

    @property
    def paths(self) -> pl.DataFrame:
        """The bankroll paths of a few sample sessions (:func:`baccarat.results.stats.sample_paths`)."""
        self._paths = _ready(self._paths)
        return self._paths

    def figure(self, kind: str) -> Figure:
        """Return one plot: ``bankroll``, ``final``, ``ruin`` or ``comparison``."""
        from baccarat.results import plots

        if kind == "bankroll":
            return plots.bankroll_figure(self.bands, self.paths, float(self.initial_bankroll), float(self.table_min))
        if kind == "final":
            return plots.final_bankroll_figure(self.sessions, float(self.initial_bankroll))
        if kind == "ruin":
            return plots.ruin_figure(self.ruin)
        if kind == "comparison":
            return plots.comparison_figure(self.comparison)
        from baccarat.errors import InputError, did_you_mean

        raise InputError(f"unknown plot {kind!r}{did_you_mean(kind, list(plots.PLOT_FILES))}; "
                         f"plots are {', '.join(plots.PLOT_FILES)}")

    def figures(self) -> dict[str, Figure]:
        """Return every plot of the run by kind (no comparison plot when there is a single strategy)."""
        from baccarat.results.plots import PLOT_FILES

        return {kind: self.figure(kind) for kind in PLOT_FILES if kind != "comparison" or self.comparison.height}


def analyse(ledger: stats.Ledger, initial_bankroll: Decimal | int | str, table_min: Decimal | int | str,
            baseline: str | None = None, samples: int = 5, sessions: pl.DataFrame | None = None,
            bands: pl.DataFrame | Callable[[], pl.DataFrame] | None = None,
            background: Executor | None = None, plots: bool = True, stops: pl.DataFrame | None = None) -> Analysis:
    """Compute every statistic of a run from its ledger (a lazy scan works for ledgers larger than memory).

    ``sessions`` and ``bands``, when given, are :func:`stats.session_table` and
    :func:`stats.bankroll_bands` of that ledger already computed, or for the
    bands a function computing them (``baccarat run`` gathers them while it
    plays, see :mod:`baccarat.results.runstats`). With ``background``, the bands, the
    summary, the comparison and the sample paths are computed there, each
    waited for when first used. Without ``plots``, what only the plots draw
    (the bands and the sample paths) is not computed: those frames are None.
    ``stops`` (:func:`stats.stopped_sessions`) gives the session table's
    ``stopped_by`` when it is folded from the ledger here.
    """
    initial, minimum = Decimal(str(initial_bankroll)), Decimal(str(table_min))
    if sessions is None:
        sessions = stats.session_table(ledger, initial, minimum, stops=stops)

    def later(fn: Any, *args: Any) -> Pending:
        return fn(*args) if background is None else background.submit(fn, *args)

    if not plots:
        pending_bands = None
    elif bands is None:
        pending_bands = later(stats.bankroll_bands, ledger, sessions, initial)
    else:  # first: the bands take longest
        pending_bands = bands if isinstance(bands, pl.DataFrame) else later(bands)
    return Analysis(
        sessions=sessions,
        _summary=later(stats.summary_table, sessions),
        _comparison=later(stats.paired_comparison, sessions, baseline),
        _bands=pending_bands,
        ruin=stats.ruin_curve(sessions),
        _paths=later(stats.sample_paths, ledger, sessions, initial, samples) if plots else None,
        initial_bankroll=initial,
        table_min=minimum,
    )


def analyse_experiment(ledger: stats.Ledger, experiment: Experiment, baseline: str | None = None,
                       **precomputed: Any) -> Analysis:
    """:func:`analyse` with the initial bankroll and table minimum of ``experiment``."""
    session = experiment.session
    return analyse(ledger, cents_to_decimal(session.bankroll_cents), cents_to_decimal(session.table_min_cents), baseline,
                   **precomputed)


def png_bytes(fig: Figure) -> bytes:
    """Return ``fig`` rendered as PNG bytes."""
    from baccarat.results.plots import save_png

    buffer = io.BytesIO()
    save_png(fig, buffer)
    return buffer.getvalue()


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_results(out_dir: str | Path, ledger: stats.Ledger, experiment: Experiment, baseline: str | None = None,
                  roads: Sequence[int] = (), exact: bool | None = None, plots: bool = True,
                  **precomputed: Any) -> Analysis:
    """Write ``sessions.parquet``, ``summary.csv``, ``comparison.csv``, the PNG plots and ``report.html`` into ``out_dir``.

    Without ``plots``, only the tables are written (``--no-report``).

    ``ledger`` is best a lazy scan of the folder's ``ledger.parquet``. The
    report embeds ``experiment.yaml`` and ``manifest.json`` when the folder
    holds them, and the scoreboard roads of the shoes listed in ``roads``.
    ``precomputed`` statistics (``sessions``, ``bands``) are passed to :func:`analyse`.
    With ``exact`` (default: the experiment's ``exact:``), the report sets
    the exact analysis beside the simulation (:func:`exact_html`).
    Each file is replaced atomically.
    """
    out = Path(out_dir)
    road_images = None
    if roads:  # first, so that a shoe the run does not hold changes no file
        from baccarat.results.roads_plot import run_roads_images

        road_images = run_roads_images(out, roads)
    # The bands (numpy sorts) and the statistics in polars, both without the GIL, are computed in two threads while
    # the plots are drawn; the files are written once everything is ready, so that an error leaves every file as it
    # was. Leaving the pool waits for what runs there (the bands read the folder).
    if not plots:
        analysis = analyse_experiment(ledger, experiment, baseline, plots=False, **precomputed)
        _write_atomic(out / SESSIONS_FILE, parquet_bytes(session_file_table(analysis.sessions)))
        _write_atomic(out / SUMMARY_FILE, analysis.summary.write_csv().encode("utf-8"))
        _write_atomic(out / COMPARISON_FILE, analysis.comparison.write_csv().encode("utf-8"))
        return analysis
    from baccarat.results.plots import PLOT_FILES  # matplotlib only when plots are drawn

    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="statistics") as background:
        analysis = analyse_experiment(ledger, experiment, baseline, background=background, **precomputed)
        images = {kind: png_bytes(analysis.figure(kind)) for kind in ("final", "ruin")}
        if analysis.comparison.height:
            images["comparison"] = png_bytes(analysis.figure("comparison"))
        images["bankroll"] = png_bytes(analysis.figure("bankroll"))  # last: its bands and paths take longest
        summary_csv = analysis.summary.write_csv().encode("utf-8")
        sessions_parquet = parquet_bytes(session_file_table(analysis.sessions))
        exact_section = exact_html(analysis, experiment) if (experiment.exact if exact is None else exact) else ""
    images = {kind: images[kind] for kind in PLOT_FILES if kind in images}
    _write_atomic(out / SESSIONS_FILE, sessions_parquet)
    _write_atomic(out / SUMMARY_FILE, summary_csv)
    _write_atomic(out / COMPARISON_FILE, analysis.comparison.write_csv().encode("utf-8"))
    for kind, image in images.items():
        _write_atomic(out / PLOT_FILES[kind], image)
    stale = out / PLOT_FILES["comparison"]
    if "comparison" not in images and stale.exists():
        stale.unlink()
    yaml_path, manifest_path = out / "experiment.yaml", out / "manifest.json"
    experiment_text = yaml_path.read_text(encoding="utf-8") if yaml_path.is_file() else experiment_yaml_text(experiment)
    manifest = read_manifest(manifest_path)
    page = render_html(analysis, experiment, images, experiment_text, manifest, road_images, exact_section)
    _write_atomic(out / REPORT_FILE, page.encode("utf-8"))
    return analysis


SESSION_FILE_COLUMNS = ("strategy", "session", "final_bankroll", "net", "wagered", "rounds", "rounds_dealt", "peak",
                        "max_drawdown", "ruined", "rounds_to_ruin", "stopped_by", "expected_net", "longest_losing_streak", "max_stake",
                        "capped_bets")
"""Columns of ``sessions.parquet``, in order (docs/results.md defines them)."""


def session_file_table(sessions: pl.DataFrame) -> pl.DataFrame:
    """Return the session table (:func:`baccarat.results.stats.session_table`) as ``sessions.parquet`` holds it."""
    return sessions.select(SESSION_FILE_COLUMNS)


def saved_stops(folder: Path) -> pl.DataFrame | None:
    """Return the stopped sessions (:func:`stats.stopped_sessions`) of a run folder's ``sessions.parquet``.

    Which stop rule ended a session is not in the ledger, so a report rebuilt
    from the ledger keeps it from there. None when the file is missing, was
    changed since it was written (by its manifest), or cannot be read.
    """
    from baccarat.results.ledger import READ_ERRORS
    from baccarat.results.manifest import unchanged

    path = folder / SESSIONS_FILE
    if not path.is_file() or not unchanged(path):
        return None
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


def frame_records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """Return a frame's rows as JSON-ready dicts: exact decimals as numbers, NaN and missing values as null."""
    floats = frame.with_columns(pl.col(pl.Decimal).cast(pl.Float64)).fill_nan(None)
    return list(floats.iter_rows(named=True))


def experiment_yaml_text(experiment: Experiment) -> str:
    """Return the experiment as YAML, its rules resolved (used when the run folder has no experiment.yaml)."""
    import yaml

    return yaml.safe_dump(experiment.to_mapping(), sort_keys=False, allow_unicode=True)


# Formatting -------------------------------------------------------------------------------------------

def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def fmt_money(value: Any) -> str:
    """Format an amount with thousands separators and two decimals (``-`` when missing)."""
    return "-" if _missing(value) else f"{float(value):,.2f}"


def fmt_percent(value: Any, digits: int = 1) -> str:
    """Format a fraction as a percentage (``-`` when missing)."""
    return "-" if _missing(value) else f"{100 * float(value):.{digits}f}%"


def fmt_count(value: Any) -> str:
    """Format a count or a number of rounds (``-`` when missing)."""
    if _missing(value):
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{float(value):,.1f}"


def fmt_interval(low: Any, high: Any, fmt: Any = fmt_money) -> str:
    """Format a confidence interval as ``[low, high]`` (``-`` when missing)."""
    return "-" if _missing(low) or _missing(high) else f"[{fmt(low)}, {fmt(high)}]"


def _edge(value: Any) -> str:
    return fmt_percent(value, 3)


def _edge_pm(row: Mapping[str, Any]) -> str:
    if _missing(row["edge"]):
        return "-"
    if _missing(row["edge_ci_low"]) or _missing(row["edge_ci_high"]):
        return _edge(row["edge"])
    return f"{_edge(row['edge'])} ± {100 * (row['edge_ci_high'] - row['edge']):.3f}%"


def format_summary(summary: pl.DataFrame, width: int = 40, limit: int = 20) -> str:
    """Return the summary as a plain-text table that fits one screen (printed after ``baccarat run``).

    Labels print whole: the first column is as wide as the longest label, up
    to ``width`` characters; a longer label has a line of its own, its
    figures on the next line. The edge is shown with the half-width of its
    95% interval; past ``limit`` strategies, a last line says how many more
    are in summary.csv.
    """
    headers = ("strategy", "sessions", "bets", "wagered", "net", "edge ± 95% CI", "expected", "ruin", "in profit")
    rows = []
    for r in summary.head(limit).iter_rows(named=True):
        rows.append((r["strategy"], fmt_count(r["sessions"]), fmt_count(r["rounds"]), fmt_money(r["wagered"]), fmt_money(r["net"]),
                     _edge_pm(r), _edge(r["expected_edge"]), fmt_percent(r["risk_of_ruin"]), fmt_percent(r["sessions_in_profit"])))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(headers)]
    widths[0] = max(len(headers[0]), min(widths[0], width))

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    lines = [line(headers)]
    for row in rows:
        if len(row[0]) > widths[0]:
            lines.append(row[0])
            row = ("", *row[1:])
        lines.append(line(row))
    if summary.height > limit:
        lines.append(f"... and {summary.height - limit} more strategies (see summary.csv and report.html)")
    lines.append("edge: share of the amount wagered that was lost; expected: house edge of the bets placed;")
    lines.append("ruin: sessions whose bankroll fell below the table minimum; in profit: sessions that ended up.")
    return "\n".join(line.rstrip() for line in lines)


# HTML -------------------------------------------------------------------------------------------------

SUMMARY_ROWS: tuple[tuple[str, str, str], ...] = (
    ("sessions", "Sessions", "Independent sessions played (each starts with the full bankroll)."),
    ("rounds", "Rounds with a bet", "Rounds on which the strategy staked something."),
    ("wagered", "Total wagered", "Sum of all stakes."),
    ("net", "Net result", "Sum of all round results (wins minus losses), exact."),
    ("final_bankroll_mean", "Final bankroll, mean", "Mean over sessions of the bankroll at the end of the session."),
    ("final_bankroll_median", "Final bankroll, median", "Median over sessions of the final bankroll."),
    ("edge", "Realised edge", "Share of the amount wagered that was lost: -net / wagered."),
    ("edge_ci", "Realised edge, 95% CI", "Delta-method interval of -net/wagered with sessions as clusters."),
    ("expected_edge", "Expected edge", "Theoretical edge of the bets placed (exact odds off the top)."),
    ("expected_net", "Expected net", "Theoretical result of the bets placed: the sum of stake times expected value."),
    ("risk_of_ruin", "Risk of ruin", "Share of sessions whose bankroll fell below the table minimum at any point."),
    ("risk_of_ruin_ci", "Risk of ruin, 95% CI", "Wilson score interval of the share of sessions ruined."),
    ("rounds_to_ruin_mean", "Rounds to ruin, mean", "Mean round of ruin among ruined sessions."),
    ("rounds_to_ruin_median", "Rounds to ruin, median", "Median round of ruin among ruined sessions."),
    ("max_drawdown", "Max drawdown, worst session", "Largest fall of the bankroll from a previous peak (the initial "
     "bankroll counts as a peak), worst session."),
    ("max_drawdown_mean", "Max drawdown, mean", "The same, averaged over sessions."),
    ("longest_losing_streak", "Longest losing streak", "Most lost bets in a row in one session (pushes and rounds "
     "without a bet are skipped)."),
    ("max_stake", "Largest stake", "Largest amount staked on one round."),
    ("capped_bets", "Capped bets", "Bets cut to the table maximum or to the bankroll."),
    ("sessions_in_profit", "Sessions in profit", "Share of sessions that ended above the initial bankroll."),
    ("sessions_in_profit_ci", "Sessions in profit, 95% CI", "Wilson score interval of the share of sessions in profit."),
)
"""(key, label, explanation) of each line of the report's summary table."""

_FORMATS = {
    "sessions": fmt_count, "rounds": fmt_count, "capped_bets": fmt_count, "longest_losing_streak": fmt_count,
    "rounds_to_ruin_mean": fmt_count, "rounds_to_ruin_median": fmt_count,
    "edge": _edge, "expected_edge": _edge, "risk_of_ruin": fmt_percent, "sessions_in_profit": fmt_percent,
}

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:1320px;padding:0 1rem;color:#1d2430}
h1{margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
.meta{color:#57606a;margin-top:0}
table{border-collapse:collapse;font-size:.92rem;margin:.6rem 0;max-width:100%}
th,td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:right;white-space:nowrap}
th{background:#f6f8fa;white-space:normal;overflow-wrap:anywhere;vertical-align:bottom}
td.label,th.label{text-align:left}td.label{font-weight:600;white-space:normal;overflow-wrap:anywhere;min-width:8rem}
td .ci{display:block;color:#57606a;font-size:.85em}
table.facts td{white-space:normal;overflow-wrap:anywhere}table.facts td.label{min-width:0}
tr:nth-child(even) td{background:#fbfcfd}.better{color:#1a7f37;font-weight:600}.worse{color:#cf222e;font-weight:600}
figure{margin:1.2rem 0}figure img{max-width:100%;border:1px solid #d0d7de}figcaption{color:#57606a;font-size:.9rem}
pre{background:#f6f8fa;padding:1rem;font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere}
dt{font-weight:600;margin-top:.4rem}dd{margin-left:1.2rem}
ul.glance li{margin:.3rem 0}
"""
"""The report's style: it fits a 1400-pixel window (tests/results/test_report_layout.py measures it in Chromium)."""

SUMMARY_STRATEGIES_PER_TABLE = 6
"""Most strategy columns in one summary table; more strategies make several tables, evenly filled."""

CAPTIONS = {
    "bankroll": "Bankroll over the rounds of a session: the line is the median session, the dark band holds the middle "
                "50% of sessions and the light band 90%; grey lines are a few individual sessions. A session that has "
                "ended keeps its final bankroll.",
    "final": "Final bankroll of every session, per strategy; the dashed line is the initial bankroll, the solid line the median.",
    "ruin": "Share of sessions already ruined (bankroll below the table minimum) after each round.",
    "comparison": "Net result per session minus the baseline's on the very same rounds, with its 95% paired interval: "
                  "an interval that does not cross zero is a real difference.",
}


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _cell(key: str, row: Mapping[str, Any]) -> str:
    if key.endswith("_ci"):
        return fmt_interval(row[f"{key}_low"], row[f"{key}_high"], _edge if key == "edge_ci" else fmt_percent)
    return _FORMATS.get(key, fmt_money)(row[key])


def summary_html(summary: pl.DataFrame) -> str:
    """Return the summary as HTML tables: one column per strategy, one line per measure.

    Past :data:`SUMMARY_STRATEGIES_PER_TABLE` strategies, the columns are
    shared evenly among several tables (ids ``summary``, ``summary-2``, ...),
    so that the page never scrolls sideways.
    """
    rows = list(summary.iter_rows(named=True))
    tables = max(1, -(-len(rows) // SUMMARY_STRATEGIES_PER_TABLE))
    per_table = max(1, -(-len(rows) // tables))
    parts = []
    for k in range(tables):
        group = rows[k * per_table:(k + 1) * per_table]
        head = "".join(f"<th>{_e(r['strategy'])}</th>" for r in group)
        body = []
        for key, label, note in SUMMARY_ROWS:
            cells = "".join(f"<td>{_e(_cell(key, r))}</td>" for r in group)
            body.append(f'<tr><td class="label" title="{_e(note)}">{_e(label)}</td>{cells}</tr>')
        table_id = "summary" if k == 0 else f"summary-{k + 1}"
        parts.append(f'<table id="{table_id}"><thead><tr><th class="label">measure</th>{head}</tr></thead>'
                     f"<tbody>{''.join(body)}</tbody></table>")
    return "".join(parts)


def _verdict(low: Any, high: Any, higher_is_better: bool = True) -> tuple[str, str]:
    if _missing(low) or _missing(high):
        return "", "not enough sessions to tell"
    if low > 0 or high < 0:
        good = (low > 0) == higher_is_better
        return ("better", "better") if good else ("worse", "worse")
    return "", "no clear difference"


def _with_ci(value: str, low: Any, high: Any, fmt: Any = fmt_money) -> str:
    """A cell: the value, its 95% interval on a line below."""
    return f'{_e(value)}<span class="ci">{_e(fmt_interval(low, high, fmt))}</span>'


def _comparison_html(comparison: pl.DataFrame) -> str:
    if not comparison.height:
        return "<p>Only one strategy ran: there is nothing to compare.</p>"
    baseline = comparison.get_column("baseline")[0]
    head = ("<tr><th class=\"label\">strategy</th><th>verdict</th><th>net per session minus baseline (95% CI)</th>"
            "<th>total net minus baseline</th><th>edge minus baseline (95% CI)</th>"
            "<th>risk of ruin minus baseline (95% CI)</th><th>sessions better</th><th>sessions worse</th><th>pairs</th></tr>")
    body = []
    for r in comparison.iter_rows(named=True):
        css, verdict = _verdict(r["net_diff_ci_low"], r["net_diff_ci_high"])
        ruin = _with_ci(fmt_percent(r["risk_of_ruin_diff"]), r["risk_of_ruin_diff_ci_low"], r["risk_of_ruin_diff_ci_high"],
                        fmt_percent)
        body.append(
            f'<tr><td class="label">{_e(r["strategy"])}</td><td class="{css}">{_e(verdict)}</td>'
            f"<td>{_with_ci(fmt_money(r['net_diff_mean']), r['net_diff_ci_low'], r['net_diff_ci_high'])}</td>"
            f"<td>{_e(fmt_money(r['net_diff']))}</td>"
            f"<td>{_with_ci(_edge(r['edge_diff']), r['edge_diff_ci_low'], r['edge_diff_ci_high'], _edge)}</td>"
            f"<td>{ruin}</td>"
            f"<td>{_e(fmt_percent(r['sessions_better']))}</td><td>{_e(fmt_percent(r['sessions_worse']))}</td>"
            f"<td>{_e(fmt_count(r['sessions']))}</td></tr>")
    return (f"<p>Every strategy played the very same rounds as the baseline, <b>{_e(baseline)}</b>, so each session "
            "gives a pair and the intervals are paired. The verdict reads the net result per session: better or worse "
            "when its 95% interval excludes zero.</p>"
            f'<table id="comparison"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>')


def _glance_html(summary: pl.DataFrame) -> str:
    items = []
    for r in summary.iter_rows(named=True):
        parts = [f"<b>{_e(r['strategy'])}</b>: wagered {_e(fmt_money(r['wagered']))} over {_e(fmt_count(r['rounds']))} bets "
                 f"and {'won' if (r['net'] or 0) > 0 else 'lost'} {_e(fmt_money(abs(r['net'] or 0)))}"]
        if not _missing(r["edge"]):
            ci = fmt_interval(r["edge_ci_low"], r["edge_ci_high"], _edge)
            parts.append(f"a realised edge of {_e(_edge(r['edge']))} (95% CI {_e(ci)})")
        if not _missing(r["expected_edge"]):
            parts.append(f"against {_e(_edge(r['expected_edge']))} expected")
        ruin_ci = fmt_interval(r["risk_of_ruin_ci_low"], r["risk_of_ruin_ci_high"], fmt_percent)
        profit_ci = fmt_interval(r["sessions_in_profit_ci_low"], r["sessions_in_profit_ci_high"], fmt_percent)
        parts.append(f"{_e(fmt_percent(r['risk_of_ruin']))} of sessions were ruined (95% CI {_e(ruin_ci)}) and "
                     f"{_e(fmt_percent(r['sessions_in_profit']))} ended in profit (95% CI {_e(profit_ci)})")
        items.append("<li>" + "; ".join(parts) + ".</li>")
    return f'<ul class="glance">{"".join(items)}</ul>'


def _setup_html(experiment: Experiment, manifest: Mapping[str, Any] | None) -> str:
    s = experiment.session
    shoes = experiment.shoes
    if shoes.get("source") == "recorded":
        shoe_text = f"recorded shoes from {shoes.get('path')} ({shoes.get('format')} format)"
    else:
        seeds = getattr(experiment, "seeds", None) or (shoes.get("seed"),)
        which = f"seed {seeds[0]}" if len(seeds) == 1 else f"for each of the seeds {', '.join(map(str, seeds))}"
        shoe_text = f"{fmt_count(int(shoes.get('count', 0)))} seeded shoes, {which}"
    facts = [
        ("Rules", f"{experiment.rules.name}: {experiment.rules.decks} decks"),
        ("Shoes", shoe_text),
        ("Sessions", f"bankroll {fmt_money(cents_to_decimal(s.bankroll_cents))}, {s.shoes_per_session} shoe(s) per session, "
                     f"table minimum {fmt_money(cents_to_decimal(s.table_min_cents))}, "
                     f"maximum {fmt_money(cents_to_decimal(s.table_max_cents))}"),
    ]
    if manifest:
        versions, timings, warnings = (manifest.get(key) for key in ("versions", "timings_seconds", "warnings"))
        if versions and isinstance(versions, Mapping):
            facts.append(("Versions", ", ".join(f"{k} {v}" for k, v in versions.items())))
        if timings and isinstance(timings, Mapping):
            facts.append(("Timings", ", ".join(f"{k} {_seconds(v)}" for k, v in timings.items())))
        for warning in warnings if isinstance(warnings, list) else []:
            facts.append(("Warning", str(warning)))
    rows = "".join(f'<tr><td class="label">{_e(k)}</td><td class="label">{_e(v)}</td></tr>' for k, v in facts)
    return f'<table class="facts">{rows}</table>'


def _run_date(manifest: Mapping[str, Any] | None) -> str:
    """``Run on 2026-01-01 12:00 UTC. `` from the manifest's ``run_at``; empty for runs that did not record it."""
    from datetime import UTC, datetime

    value = manifest.get("run_at") if isinstance(manifest, Mapping) else None
    try:
        when = datetime.fromisoformat(str(value)).astimezone(UTC)
    except ValueError:
        return ""
    return f"Run on {when:%Y-%m-%d %H:%M} UTC. "


def _seconds(value: Any) -> str:
    return f"{float(value):.2f} s" if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def exact_html(analysis: Analysis, experiment: Experiment) -> str:
    """Return the report's Exact analysis section: exact figures beside the simulated ones, and their plot.

    Session length: ``shoes_per_session`` rounds for one-round shoes, else
    the longest session of the run. An analysis beyond the memory bound is
    reported in the section, not as a failure of the report.
    """
    from baccarat.exact.analysis import ExactLimitError, analyse_experiment
    from baccarat.results.plots import exact_figure

    rules = experiment.rules
    rounds = None if rules.reshuffle_every_round else max(1, int(analysis.sessions.get_column("rounds_dealt").max() or 1))
    try:
        exact = analyse_experiment(experiment, rounds=rounds, bands=True)
    except ExactLimitError as exc:
        return f"<h2>Exact analysis</h2>\n<p>{_e(exc)}</p>\n"
    kind = ("exact: the rounds are independent" if exact.exact
            else "the independent-rounds approximation: the rounds of a shoe are not independent")
    summary = {row["strategy"]: row for row in analysis.summary.iter_rows(named=True)}
    rows = []
    for result in exact.results:
        row = summary.get(result.strategy, {})
        low, high = row.get("risk_of_ruin_ci_low"), row.get("risk_of_ruin_ci_high")
        inside = low is not None and high is not None and low - 1e-12 <= result.risk_of_ruin <= high + 1e-12
        mean_net = (float(row["final_bankroll_mean"]) - float(analysis.initial_bankroll)
                    if row.get("final_bankroll_mean") is not None else None)
        simulated = _with_ci(fmt_percent(row.get("risk_of_ruin"), 2), low, high, fmt_percent)
        rows.append(f"<tr><td>{_e(result.strategy)}</td><td>{simulated}</td>"
                    f"<td>{_e(fmt_percent(result.risk_of_ruin, 2))}</td><td>{'yes' if inside else 'no'}</td>"
                    f"<td>{_e(fmt_percent(row.get('sessions_in_profit'), 2))}</td><td>{_e(fmt_percent(result.p_profit, 2))}</td>"
                    f"<td>{_e(fmt_money(mean_net))}</td><td>{_e(fmt_money(result.expected_net))}</td></tr>")
    table = ("<table><thead><tr><th>strategy</th><th>risk of ruin, simulated (95%)</th><th>risk of ruin, exact</th>"
             "<th>exact inside the interval</th><th>in profit, simulated</th><th>in profit, exact</th>"
             "<th>mean net, simulated</th><th>expected net, exact</th></tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    skipped = "".join(f"<li>{_e(s.strategy)}: {_e(s.reason)}</li>" for s in exact.skipped)
    figure = ""
    if exact.results:
        uri = "data:image/png;base64," + base64.b64encode(
            png_bytes(exact_figure(analysis.ruin, analysis.bands, exact.results))).decode("ascii")
        figure = (f'<figure id="plot-exact"><img src="{uri}" alt="Exact analysis over the simulation">'
                  "<figcaption>Exact ruin curve and bankroll quantiles (dashed, dotted) drawn over the simulated ones "
                  "(solid, shaded); see docs/exact.md.</figcaption></figure>")
    return (f"<h2>Exact analysis</h2>\n<p>{exact.rounds:,} rounds per session, {_e(kind)} (docs/exact.md).</p>\n"
            f"{table}\n{figure}\n" + (f"<p>Not analysed:</p><ul>{skipped}</ul>\n" if skipped else ""))


def _roads_html(roads: Mapping[int, bytes] | None) -> str:
    if not roads:
        return ""
    figures = "".join(f'<figure id="roads-shoe-{shoe}"><img src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}" '
                      f'alt="Roads of shoe {shoe}"><figcaption>Scoreboard roads of shoe {shoe}</figcaption></figure>'
                      for shoe, data in roads.items())
    return ("<h2>Roads</h2>\n<p>Bead plate, big road, big eye boy, small road and cockroach pig of the shoes asked for "
            "(conventions in docs/roads.md).</p>\n" + figures + "\n")


def render_html(analysis: Analysis, experiment: Experiment, images: Mapping[str, bytes], experiment_yaml: str,
                manifest: Mapping[str, Any] | None = None, roads: Mapping[int, bytes] | None = None,
                exact: str = "") -> str:
    """Return the self-contained HTML report: PNG images embedded as data URIs, no external resource.

    ``roads`` maps shoe ids to their roads drawn as PNG, shown in a Roads section; ``exact`` is the
    exact-analysis section (:func:`exact_html`), shown after the plots.
    """
    from baccarat import __version__

    figures = []
    for kind, data in images.items():
        uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        figures.append(f'<figure id="plot-{_e(kind)}"><img src="{uri}" alt="{_e(CAPTIONS.get(kind, kind))}">'
                       f"<figcaption>{_e(CAPTIONS.get(kind, ''))}</figcaption></figure>")
    definitions = "".join(f"<dt>{_e(label)}</dt><dd>{_e(note)}</dd>" for _, label, note in SUMMARY_ROWS)
    title = f"{experiment.name}: baccarat backtest report"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{_e(experiment.name)}</h1>
<p class="meta">{_e(_run_date(manifest))}Baccarat backtest report, baccarat {_e(__version__)}</p>
{_setup_html(experiment, manifest)}
<h2>At a glance</h2>
{_glance_html(analysis.summary)}
<h2>Summary</h2>
<p>Hover a measure for its definition; exact figures are in summary.csv.</p>
{summary_html(analysis.summary)}
<h2>Paired comparison</h2>
{_comparison_html(analysis.comparison)}
<h2>Plots</h2>
{"".join(figures)}
{exact}{_roads_html(roads)}<h2>Definitions</h2>
<dl>{definitions}</dl>
<h2>Experiment</h2>
<pre>{_e(experiment_yaml)}</pre>
</body>
</html>
"""

