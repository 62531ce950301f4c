"""The report's section "The shoes against fair shoes": the run's own rounds tested as ``baccarat patterns RUN_DIR`` tests them.

The section shows the verdict sentence, the table of statistics (seen, the
fair mean and middle 95%, the exact chance where there is one, the p-value
and its Holm-corrected value, flagged or not) and the chart of each statistic
against fair shoes; every figure is also embedded as JSON
(``<script type="application/json" id="patterns-data">``), as
``baccarat patterns RUN_DIR --json`` prints it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any

from baccarat.results.charts.observed_fair import patterns_chart
from baccarat.results.patterns.against_fair import REPORT_MAX_SHOES, fmt_figure
from baccarat.results.report.chart_html import figure_html

TITLE = "The shoes against fair shoes"


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def patterns_html(data: Mapping[str, Any] | None) -> str:
    """Return the section for the test ``data`` (:func:`baccarat.results.patterns.against_fair.run_against_fair`).

    None (a run of more than :data:`REPORT_MAX_SHOES` shoes) gives the section's
    title and a sentence saying how to get the test.
    """
    if data is None:
        return (
            f"<h2>{TITLE}</h2>\n<p>This run holds more than {REPORT_MAX_SHOES:,} shoes: to stay quick, its report leaves out "
            f"the test of its shoes against fair shoes (it deals 20 fair shoes per shoe tested). "
            f"<code>baccarat patterns RUN_DIR</code> tests them (docs/myths.md).</p>\n"
        )
    rows = []
    for s in data["statistics"]:
        fair_range = f"{fmt_figure(s['fair_low'])} to {fmt_figure(s['fair_high'])}" if s["fair_low"] is not None else "-"
        flagged = '<td class="worse">unlike fair</td>' if s["flagged"] else "<td>no</td>"
        rows.append(
            f'<tr data-key="{_e(s["key"])}"><td class="label">{_e(s["label"])}</td>'
            f"<td>{fmt_figure(s['observed'])}</td><td>{fmt_figure(s['fair_mean'])}</td><td>{fair_range}</td>"
            f"<td>{fmt_figure(s['exact'])}</td><td>{_p(s['p_value'])}</td><td>{_p(s['p_holm'])}</td>{flagged}</tr>"
        )
    table = (
        '<table><thead><tr><th class="label">statistic</th><th>seen</th><th>fair</th><th>fair 95% range</th><th>exact</th>'
        f"<th>p</th><th>p {_e(data['correction'])}</th><th>flagged</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    how = (
        f"<p>The run's own {data['shoes']:,} shoes ({data['rounds']:,} rounds, rules {_e(data['rules'])}) against "
        f"{data['draws']:,} samples of as many shoes drawn from {data['fair_shoes']:,} fair shoes dealt under the same rules "
        f"(seed {data['fair_seed']}); exact: one round off the top; p-values corrected by {_e(data['correction'])}'s method, "
        f"family-wise level {data['alpha']:g}. The same figures: <code>baccarat patterns RUN_DIR</code> (docs/myths.md).</p>"
    )
    figure = figure_html(
        "patterns",
        patterns_chart(data["statistics"]),
        "Each statistic of the run's shoes (point, red when flagged) against fair shoes: the middle 95% (bar) and the mean (tick).",
        wide=True,
    )
    embedded = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (
        f'<h2>{TITLE}</h2>\n<p class="verdict"><b>{_e(data["verdict"])}</b></p>\n{how}\n{table}\n{figure}\n'
        f'<script type="application/json" id="patterns-data">{embedded}</script>\n'
    )
