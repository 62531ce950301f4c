"""The self-contained HTML report of a run: its sections, tables and interactive charts, from the analysis and the run's facts.

The charts are Vega-Lite specifications (:mod:`baccarat.results.charts.plots`) drawn by the browser with the
Vega JavaScript embedded once in the page (:func:`baccarat.results.charts.export.javascript_bundle`): the report
opens offline and makes no network request.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from baccarat.results.comparisons.conclusion import conclusion
from baccarat.results.comparisons.verdict import explanation, same_edge
from baccarat.results.formatting import (
    column_format,
    fmt_count,
    fmt_edge,
    fmt_interval,
    fmt_money,
    fmt_percent,
    missing,
    verdict_class,
)
from baccarat.results.report.chart_html import figure_html, scripts_html
from baccarat.results.report.run_facts import RunFacts

if TYPE_CHECKING:
    from baccarat.results.report.run_analysis import Analysis

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
    (
        "expected_edge",
        "Expected edge of the bets as placed",
        "Exact EV of each bet as it was placed (off the top, or given the cards seen for a card-reading strategy), summed "
        "over the sample, over the amount wagered. The strategy's long-run expected edge exactly for one fixed bet; an "
        "estimate of it where the bets depend on what the strategy saw (a selector whose side varies, a counter).",
    ),
    (
        "expected_edge_ci",
        "Expected edge, 95% CI of the long run",
        "Delta-method interval of the long-run expected edge with sessions as clusters: no width for one fixed bet; "
        "for a counter, how far one sample's figure may be from the long run.",
    ),
    ("expected_net", "Expected net", "Theoretical result of the bets placed: the sum of stake times expected value."),
    ("risk_of_ruin", "Risk of ruin", "Share of sessions whose bankroll fell below the table minimum at any point."),
    ("risk_of_ruin_ci", "Risk of ruin, 95% CI", "Wilson score interval of the share of sessions ruined."),
    ("rounds_to_ruin_mean", "Rounds to ruin, mean", "Mean round of ruin among ruined sessions."),
    ("rounds_to_ruin_median", "Rounds to ruin, median", "Median round of ruin among ruined sessions."),
    (
        "max_drawdown",
        "Max drawdown, worst session",
        "Largest fall of the bankroll from a previous peak (the initial bankroll counts as a peak), worst session.",
    ),
    ("max_drawdown_mean", "Max drawdown, mean", "The same, averaged over sessions."),
    (
        "longest_losing_streak",
        "Longest losing streak",
        "Most lost bets in a row in one session (pushes and rounds without a bet are skipped).",
    ),
    ("max_stake", "Largest stake", "Largest amount staked on one round."),
    ("capped_bets", "Capped bets", "Bets cut to the table maximum or to the bankroll."),
    ("sessions_in_profit", "Sessions in profit", "Share of sessions that ended above the initial bankroll."),
    ("sessions_in_profit_ci", "Sessions in profit, 95% CI", "Wilson score interval of the share of sessions in profit."),
    *(
        (f"bankroll_for_ruin_{p}pct{ci}", f"Bankroll for ruin at most {p}%{', 95% CI' if ci else ''}", note)
        for p in (1, 5)
        for ci, note in (
            (
                "",
                "Smallest starting bankroll, in table minimums, with which at most this share of the sessions would have been "
                "ruined (a bet cut to the bankroll is not ruin). Beyond the session's bankroll it reads '> bankroll': "
                "baccarat exact --ruin-at-most finds it.",
            ),
            (
                "_ci",
                "Exact distribution-free interval (at least 95%) of that quantile of the sessions' bankrolls needed; "
                "'-' where the sessions are too few for a bound (72 for 5%, 368 for 1%) or it is beyond the session's bankroll.",
            ),
        )
    ),
)
"""(key, label, explanation) of each line of the report's summary table."""

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:1320px;padding:0 1rem;color:#1d2430}
h1{margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
.meta{color:#57606a;margin-top:0}
table{border-collapse:separate;border-spacing:0;font-size:.92rem;margin:.6rem 0}
th,td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:right;white-space:nowrap}
th{background:#f6f8fa;white-space:normal;overflow-wrap:normal;word-break:normal;hyphens:none;vertical-align:bottom;min-width:6rem}
td.label,th.label{text-align:left}td.label{font-weight:600;white-space:normal;overflow-wrap:normal;min-width:11rem}
.scroll{overflow-x:auto;max-width:100%}
.scroll th.label,.scroll td.label{position:sticky;left:0;z-index:1;background:#fff}.scroll th.label{background:#f6f8fa}
td .ci{display:block;color:#57606a;font-size:.85em}td.text{white-space:normal;text-align:left;min-width:14rem}
table.facts td{white-space:normal;overflow-wrap:anywhere}table.facts td.label{min-width:0}
tr:nth-child(even) td{background:#fbfcfd}.better{color:#1a7f37;font-weight:600}.worse{color:#cf222e;font-weight:600}
figure{margin:1.2rem 0}figcaption{color:#57606a;font-size:.9rem}
.chart{width:100%;max-width:100%;min-height:120px}.chart.wide{width:auto}
table.fits{width:100%;table-layout:auto;font-size:.85rem}table.fits th{min-width:0}
table.fits td .ci{white-space:normal}table.fits td.verdict{white-space:normal;min-width:6rem;text-align:left}
table.fits td.label{min-width:9rem;max-width:16rem;overflow-wrap:break-word}
pre{background:#f6f8fa;padding:1rem;font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere}
dt{font-weight:600;margin-top:.4rem}dd{margin-left:1.2rem}
ul.glance li{margin:.3rem 0}
"""
"""The report's style: it fits a 1400-pixel window (tests/results/test_report_layout.py measures it in Chromium)."""

CAPTIONS = {
    "bankroll": "Median bankroll of every strategy over the rounds of a session (and its mean, dashed; past 20 strategies, "
    "each strategy's line has its own dash and the mean is shown for the strategies picked). Click a strategy in the legend "
    "to see its bands (the middle 50% and 90% of sessions) and fade the others (shift-click adds one, double-click resets); "
    "the mouse wheel zooms the rounds and dragging pans them. A session that has ended keeps its final bankroll.",
    "strategies": "One panel per strategy, on the same axes: the line is the median session, the dark band holds the middle "
    "50% of sessions and the light band 90%; grey lines are a few individual sessions.",
    "ruin": "Survival: the share of sessions whose bankroll has not yet fallen below the table minimum after each round.",
    "final": "Final bankroll of the sessions, strategies side by side; hover a strategy for its quantiles.",
    "comparison": "Net result per session minus the baseline's on the very same rounds, with its 95% paired interval: "
    "a strategy that bets more (or less) loses more (or less) at the same edge, so this is volume plus luck, "
    "not the verdict (which reads the expected edge; see the comparison table).",
    "drawdown": "How far each strategy's sample sessions stood below their own previous peaks, round by round (0: a new "
    "peak): the line is the deepest of them; click a strategy in the legend for the band from the shallowest to the deepest.",
    "grid": "A summary measure over the two parameters the grid sweeps; choose the measure in the list under the chart.",
}


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _name(value: Any) -> str:
    """A strategy name escaped, with break opportunities after its punctuation: a long name wraps there, never mid-word."""
    return re.sub(r"([,\[\]/])", r"\1<wbr>", _e(value))


def _cell(key: str, row: Mapping[str, Any]) -> str:
    """A figure of the summary or comparison in the format of its column (an interval for a ``..._ci`` line); text as it is."""
    if key.endswith("_ci"):
        return fmt_interval(row[f"{key}_low"], row[f"{key}_high"], column_format(key))
    value = row[key]
    return value if isinstance(value, str) else column_format(key)(value)


def _further_columns(frame: pl.DataFrame, shown: set[str]) -> list[str]:
    """Columns of ``frame`` that no line or column of the report shows yet (new statistics appear by their names)."""
    covered = set(shown) | {f"{key}_{end}" for key in shown for end in ("low", "high")}
    covered |= {f"{key[:-3]}_{end}" for key in shown if key.endswith("_ci") for end in ("low", "high")}
    return [name for name in frame.columns if name not in covered]


def _summary_cell(key: str, row: Mapping[str, Any], bankroll: Any) -> str:
    """A summary figure (:func:`_cell`); a bankroll for ruin beyond the session's bankroll says so."""
    if bankroll is not None and re.fullmatch(r"bankroll_for_ruin_\d+pct", key) and missing(row[key]) and row["sessions"]:
        return f"> {fmt_money(bankroll)}"
    return _cell(key, row)


TEXT = ' class="text"'
"""A cell of words (the notes), which wraps: a figure never does."""


def summary_html(summary: pl.DataFrame, bankroll: Any = None) -> str:
    """Return the summary as one HTML table: one column per strategy, one line per measure.

    Whatever the number of strategies it is one table; wider than the page, it
    scrolls inside itself with its first column (the measures) fixed. Columns
    of the summary that :data:`SUMMARY_ROWS` does not name get a line of their own.
    With the session's ``bankroll``, a bankroll for ruin beyond it reads ``> 1,000.00``.
    """
    rows = list(summary.iter_rows(named=True))
    head = "".join(f"<th>{_name(r['strategy'])}</th>" for r in rows)
    body = []
    lines = [(key, label, note) for key, label, note in SUMMARY_ROWS if key in summary.columns or f"{key}_low" in summary.columns]
    lines += [(key, key.replace("_", " "), key) for key in _further_columns(summary, {"strategy", *(k for k, _, _ in SUMMARY_ROWS)})]
    for key, label, note in lines:
        cells = "".join(f"<td{TEXT if isinstance(r.get(key), str) else ''}>{_e(_summary_cell(key, r, bankroll))}</td>" for r in rows)
        body.append(f'<tr><td class="label" title="{_e(note)}">{_e(label)}</td>{cells}</tr>')
    return (
        f'<div class="scroll"><table id="summary"><thead><tr><th class="label">measure</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _with_ci(value: str, low: Any, high: Any, fmt: Any = fmt_money) -> str:
    """A cell: the value, its 95% interval on a line below."""
    return f'{_e(value)}<span class="ci">{_e(fmt_interval(low, high, fmt))}</span>'


COLUMN_WORDS = {
    "sessions": "pairs of sessions",
    "net_diff": "total net minus baseline",
    "net_diff_mean": "net per session minus baseline",
    "edge_diff": "realised edge difference",
    "risk_of_ruin_diff": "risk of ruin difference",
    "sessions_better": "sessions better",
    "sessions_worse": "sessions worse",
    "wagered_diff_mean": "wagered per session minus baseline",
    "expected_edge_diff": "expected edge difference",
    "expected_net_diff_mean": "of which volume (expected)",
    "luck_diff_mean": "of which luck",
    "edge_diff_p_value": "realised edge difference, p-value",
    "verdict_basis": "the verdict rests on",
    "verdict_p_value": "p-value of the verdict's test",
    "verdict_p_holm": "p-value, Holm-corrected",
    "verdict": "verdict",
}
"""The comparison's columns in words, as the report names them (comparison.csv keeps the names of the columns)."""

COMPARISON_MAIN = (
    "verdict",
    "expected_edge_diff",
    "verdict_p_holm",
    "edge_diff",
    "net_diff_mean",
    "expected_net_diff_mean",
    "luck_diff_mean",
    "risk_of_ruin_diff",
)
"""The comparison table's columns: the verdict and what it rests on (the expected edge difference, its Holm-corrected
p-value, the realised edge difference), and the net per session split into volume and luck, and the risk of ruin."""

COMPARISON_MORE = ("net_diff", "wagered_diff_mean", "sessions_better", "sessions_worse", "sessions", "edge_diff_p_value", "verdict_p_value")
"""The further figures of the comparison, in a second table; any column the comparison gains comes after them."""


def column_words(name: str) -> str:
    """A comparison column's name in words: :data:`COLUMN_WORDS`, else its name with ``_diff`` as ``difference`` and spaces."""
    if name in COLUMN_WORDS:
        return COLUMN_WORDS[name]
    return re.sub(r"_diff(?=_|$)", " difference", name).replace("_", " ")


CI_OF = {"net_diff_mean": "net_diff_ci", "luck_diff_mean": "luck_diff_ci", "net_diff": ""}
"""The interval of a comparison column, where it is not ``NAME_ci`` (the total net difference has none)."""


def _comparison_cell(key: str, row: Mapping[str, Any]) -> str:
    """One figure of a comparison row as HTML: with its 95% interval beneath it where the comparison has one."""
    if key == "verdict":
        return f'<td class="verdict {verdict_class(row["verdict"])}">{_e(row["verdict"])}</td>'
    fmt = column_format(key)
    if key == "expected_edge_diff" and row.get("verdict_basis") == "exact":  # no interval: it holds whatever the sample
        return f'<td>{_e(fmt(0.0 if same_edge(row[key]) else row[key]))}<span class="ci">exact</span></td>'
    value = _cell(key, row)
    ci = CI_OF.get(key, f"{key}_ci")
    low, high = f"{ci}_low", f"{ci}_high"
    if ci and low in row and high in row:
        return f"<td>{_with_ci(value, row[low], row[high], fmt)}</td>"
    return f"<td>{_e(value)}</td>"


def _comparison_table(table_id: str, comparison: pl.DataFrame, columns: list[str]) -> str:
    head = '<tr><th class="label">strategy</th>' + "".join(f"<th>{_e(column_words(key))}</th>" for key in columns) + "</tr>"
    body = [
        f'<tr><td class="label">{_name(r["strategy"])}</td>' + "".join(_comparison_cell(key, r) for key in columns) + "</tr>"
        for r in comparison.iter_rows(named=True)
    ]
    return f'<table id="{table_id}" class="fits"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def _comparison_html(comparison: pl.DataFrame) -> str:
    if not comparison.height:
        return "<p>Only one strategy ran: there is nothing to compare.</p>"
    baseline = comparison.get_column("baseline")[0]
    main = [key for key in COMPARISON_MAIN if key in comparison.columns]
    shown = {"strategy", "baseline", "verdict_basis", *main, *(f"{key}_ci" for key in main)}
    shown |= {CI_OF.get(key, f"{key}_ci") for key in main}
    more = [key for key in COMPARISON_MORE if key in comparison.columns]
    more += _further_columns(comparison, shown | set(more))
    return (
        f"<p>Every strategy played the very same rounds as the baseline, <b>{_e(baseline)}</b>, so each session "
        "gives a pair and the intervals are paired. The verdict reads the expected edge of the bets placed and says "
        "what it rests on. <i>exact</i>: both strategies back one fixed bet, so both edges are that bet's whatever the "
        "sample (<i>same edge</i>, or better/worse when the bets differ). <i>estimated</i>: a strategy whose bets "
        "follow what it saw (a selector whose side varies, a counter) has an expected edge that is itself a figure of "
        "the sample; better or worse only when the difference is beyond chance. <i>realised</i>: where an expected "
        "edge is not known (a strategy that read the cards without asking for exact odds), the realised edges, beyond "
        "chance. The tests are corrected by Holm's method over the rows tested. A strategy with the same edge that "
        "loses less per session does so because it wagers less: its net per session minus the baseline's is the "
        "volume (the amount wagered times the expected edge, exact) plus luck (with its 95% interval).</p>"
        f"{_comparison_table('comparison', comparison, main)}"
        f"<ul>{''.join(f'<li>{_e(explanation(r))}</li>' for r in comparison.iter_rows(named=True))}</ul>"
        "<p>Further figures of the comparison (each row against the baseline; comparison.csv holds them all, "
        "by the names of its columns):</p>"
        f"{_comparison_table('comparison-more', comparison, more)}"
    )


def _glance_html(summary: pl.DataFrame) -> str:
    """Each strategy in a sentence: its expected loss and its risk of ruin first, then the final bankroll's mean and
    median, the realised edge, and the share of sessions in profit last (a lure of progressions, not a measure of them)."""
    items = []
    for r in summary.iter_rows(named=True):
        sessions = r["sessions"] or 1
        parts = [f"<b>{_e(r['strategy'])}</b>: "]
        if not missing(r["expected_net"]) and not missing(r["expected_edge"]):
            parts[0] += (
                f"expected to lose {_e(fmt_money(-r['expected_net'] / sessions))} per session, "
                f"{_e(fmt_edge(r['expected_edge']))} of the {_e(fmt_money(float(r['wagered'] or 0) / sessions))} it wagers"
            )
        else:
            parts[0] += "expected loss not known (it read the cards without asking for exact odds)"
        ruin_ci = fmt_interval(r["risk_of_ruin_ci_low"], r["risk_of_ruin_ci_high"], fmt_percent)
        parts.append(f"risk of ruin {_e(fmt_percent(r['risk_of_ruin']))} (95% CI {_e(ruin_ci)})")
        parts.append(f"final bankroll: mean {_e(fmt_money(r['final_bankroll_mean']))}, median {_e(fmt_money(r['final_bankroll_median']))}")
        if not missing(r["edge"]):
            ci = fmt_interval(r["edge_ci_low"], r["edge_ci_high"], fmt_edge)
            parts.append(
                f"it wagered {_e(fmt_money(r['wagered']))} over {_e(fmt_count(r['rounds']))} rounds with a bet, a realised edge of "
                f"{_e(fmt_edge(r['edge']))} (95% CI {_e(ci)})"
            )
        profit_ci = fmt_interval(r["sessions_in_profit_ci_low"], r["sessions_in_profit_ci_high"], fmt_percent)
        parts.append(f"{_e(fmt_percent(r['sessions_in_profit']))} of sessions ended in profit (95% CI {_e(profit_ci)})")
        items.append("<li>" + "; ".join(parts) + ".</li>")
    return f'<ul class="glance">{"".join(items)}</ul>'


def _setup_html(facts: RunFacts, manifest: Mapping[str, Any] | None) -> str:
    items = [
        ("Rules", f"{facts.rules}: {facts.decks} decks"),
        ("Shoes", facts.shoes),
        (
            "Sessions",
            f"bankroll {fmt_money(facts.bankroll)}, {facts.session_length or f'{facts.shoes_per_session} shoe(s) per session'}, "
            f"table minimum {fmt_money(facts.table_min)}, maximum {fmt_money(facts.table_max)}"
            + (f", {facts.session_rules}" if facts.session_rules else ""),
        ),
    ]
    if facts.engines:
        items.append(("Engines", "; ".join(f"{label}: {engine}" for label, engine in facts.engines.items())))
    if manifest:
        versions, timings, warnings = (manifest.get(key) for key in ("versions", "timings_seconds", "warnings"))
        if versions and isinstance(versions, Mapping):
            items.append(("Versions", ", ".join(f"{k} {v}" for k, v in versions.items())))
        if timings and isinstance(timings, Mapping):
            items.append(("Timings", ", ".join(TIMING_WORDS.get(k, k + " {}").format(_seconds(v)) for k, v in timings.items())))
        for warning in warnings if isinstance(warnings, list) else []:
            items.append(("Warning", str(warning)))
    rows = "".join(f'<tr><td class="label">{_e(k)}</td><td class="label">{_e(v)}</td></tr>' for k, v in items)
    return f'<table class="facts">{rows}</table>'


TIMING_WORDS = {"run": "played in {} (the shoes dealt, the strategies played, the sessions folded; the results written after)"}
"""The manifest's timings in words (``{}``: the seconds): ``run`` is what ``baccarat run`` prints as ``played in``."""


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


def exact_html(analysis: Analysis, exact_analysis: Callable[..., Any]) -> str:
    """Return the report's Exact analysis section: exact figures beside the simulated ones, and their plot.

    ``exact_analysis`` analyses the run's strategies, given the run's mean
    rounds per session (``run_average=``;
    :func:`baccarat.experiment.report_facts.exact_analysis`).

    Session length, as for ``baccarat exact`` without ``--rounds``:
    ``shoes_per_session`` rounds for one-round shoes, else an average session
    (:func:`baccarat.exact.analysis.default_session_rounds`); the section says
    which. An analysis beyond the memory bound is reported in the section,
    not as a failure of the report.
    """
    from baccarat.exact.bounds import ExactLimitError
    from baccarat.results.charts.plots import exact_chart

    run_average = analysis.scan_sessions().select(pl.col("rounds_dealt").mean()).collect().item()
    try:
        exact = exact_analysis(run_average=run_average)
    except ExactLimitError as exc:
        return f"<h2>Exact analysis</h2>\n<p>{_e(exc)}</p>\n"
    kind = (
        "exact: the rounds are independent"
        if exact.exact
        else "the independent-rounds approximation: the rounds of a shoe are not independent"
    )
    summary = {row["strategy"]: row for row in analysis.summary.iter_rows(named=True)}
    rows = []
    for result in exact.results:
        row = summary.get(result.strategy, {})
        low, high = row.get("risk_of_ruin_ci_low"), row.get("risk_of_ruin_ci_high")
        inside = low is not None and high is not None and low - 1e-12 <= result.risk_of_ruin <= high + 1e-12
        mean_net = (
            float(row["final_bankroll_mean"]) - float(analysis.initial_bankroll) if row.get("final_bankroll_mean") is not None else None
        )
        simulated = _with_ci(fmt_percent(row.get("risk_of_ruin"), 2), low, high, fmt_percent)
        rows.append(
            f"<tr><td>{_e(result.strategy)}</td><td>{simulated}</td>"
            f"<td>{_e(fmt_percent(result.risk_of_ruin, 2))}</td><td>{'yes' if inside else 'no'}</td>"
            f"<td>{_e(fmt_percent(row.get('sessions_in_profit'), 2))}</td><td>{_e(fmt_percent(result.p_profit, 2))}</td>"
            f"<td>{_e(fmt_money(mean_net))}</td><td>{_e(fmt_money(result.expected_net))}</td></tr>"
        )
    table = (
        "<table><thead><tr><th>strategy</th><th>risk of ruin, simulated (95%)</th><th>risk of ruin, exact</th>"
        "<th>exact inside the interval</th><th>in profit, simulated</th><th>in profit, exact</th>"
        "<th>mean net, simulated</th><th>expected net, exact</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    table += _session_rules_table(analysis, exact.results)
    skipped = "".join(f"<li>{_e(s.strategy)}: {_e(s.reason)}</li>" for s in exact.skipped)
    figure = ""
    if exact.results:
        figure = figure_html(
            "exact",
            exact_chart(analysis.ruin, analysis.bands, exact.results),
            "Exact ruin curve and median bankroll (dashed) drawn over the simulated ones (solid); see docs/exact.md.",
            wide=True,
        )
    source = exact.rounds_from or "shoes_per_session, one round per shoe"
    return (
        f"<h2>Exact analysis</h2>\n<p>{exact.rounds:,} rounds per session ({_e(source)}), {_e(kind)} (docs/exact.md).</p>\n"
        f"{table}\n{figure}\n"
    ) + (f"<p>Not analysed:</p><ul>{skipped}</ul>\n" if skipped else "")


def _session_rules_table(analysis: Any, results: Sequence[Any]) -> str:
    """The session rules' figures, simulated (the share of sessions each ended) beside the exact chances; empty without them."""
    goal = any(r.p_win_goal is not None for r in results)
    loss = any(r.p_stop_loss is not None for r in results)
    if not (goal or loss):
        return ""
    shares = {
        row["strategy"]: row
        for row in analysis.scan_sessions()
        .group_by("strategy")
        .agg(
            (pl.col("stopped_by") == "session.win_goal").fill_null(False).mean().alias("goal"),
            (pl.col("stopped_by") == "session.stop_loss").fill_null(False).mean().alias("loss"),
        )
        .collect()
        .iter_rows(named=True)
    }
    head = "<th>strategy</th>"
    head += "<th>reached the win goal, simulated</th><th>reached the win goal, exact</th>" if goal else ""
    head += "<th>ended by the stop-loss, simulated</th><th>ended by the stop-loss, exact</th>" if loss else ""
    rows = []
    for result in results:
        row = shares.get(result.strategy, {})
        cells = f"<td>{_e(result.strategy)}</td>"
        if goal:
            cells += f"<td>{_e(fmt_percent(row.get('goal'), 2))}</td><td>{_e(fmt_percent(result.p_win_goal, 2))}</td>"
        if loss:
            cells += f"<td>{_e(fmt_percent(row.get('loss'), 2))}</td><td>{_e(fmt_percent(result.p_stop_loss, 2))}</td>"
        rows.append(f"<tr>{cells}</tr>")
    return f"\n<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _roads_html(roads: Mapping[int, Any] | None) -> str:
    if not roads:
        return ""
    figures = "".join(
        figure_html(f"roads-shoe-{shoe}", chart, f"Scoreboard roads of shoe {shoe}", wide=True) for shoe, chart in roads.items()
    )
    return (
        "<h2>Roads</h2>\n<p>Bead plate, big road, big eye boy, small road and cockroach pig of the shoes asked for "
        "(conventions in docs/roads.md).</p>\n" + figures + "\n"
    )


WIDE_CHARTS = ("strategies", "grid")
"""Charts of fixed-size panels: they keep their own width (the others take the page's)."""


def render_html(
    analysis: Analysis,
    facts: RunFacts,
    charts: Mapping[str, Any],
    experiment_yaml: str,
    manifest: Mapping[str, Any] | None = None,
    roads: Mapping[int, Any] | None = None,
    exact: str = "",
    patterns: str = "",
) -> str:
    """Return the self-contained HTML report: interactive charts drawn by the Vega JavaScript inlined once, no external resource.

    ``charts`` maps kinds to Altair charts (:meth:`Analysis.charts`); ``roads`` maps shoe ids to their roads
    as charts, shown in a Roads section; ``exact`` is the exact-analysis section (:func:`exact_html`), shown after the charts;
    ``patterns`` is the section testing the run's shoes against fair shoes
    (:func:`baccarat.results.report.patterns_html.patterns_html`), shown after it.
    """
    from baccarat import __version__

    figures = [figure_html(kind, chart, CAPTIONS.get(kind, ""), wide=kind in WIDE_CHARTS) for kind, chart in charts.items()]
    definitions = "".join(f"<dt>{_e(label)}</dt><dd>{_e(note)}</dd>" for _, label, note in SUMMARY_ROWS)
    title = f"{facts.name}: baccarat backtest report"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{_e(facts.name)}</h1>
<p class="meta">{_e(_run_date(manifest))}Baccarat backtest report, baccarat {_e(__version__)}</p>
<p class="conclusion"><b>{_e(conclusion(analysis.summary, analysis.comparison))}</b></p>
{_setup_html(facts, manifest)}
<h2>At a glance</h2>
{_glance_html(analysis.summary)}
<h2>Summary</h2>
<p>Hover a measure for its definition; exact figures are in summary.csv.</p>
{summary_html(analysis.summary, facts.bankroll)}
<h2>Paired comparison</h2>
{_comparison_html(analysis.comparison)}
<h2>Charts</h2>
<p>Hover a chart for its values; click a strategy in a legend to isolate it (shift-click adds one, double-click resets);
the mouse wheel zooms the rounds and dragging pans them. The menu of each chart saves it as PNG or SVG.</p>
{"".join(figures)}
{exact}{patterns}{_roads_html(roads)}<h2>Definitions</h2>
<dl>{definitions}</dl>
<h2>Experiment</h2>
<pre>{_e(experiment_yaml)}</pre>
{scripts_html()}</body>
</html>
"""
