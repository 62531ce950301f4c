"""The chart of ``baccarat search``: each of the best candidates' edge in sample against on fresh shoes."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl


def search_chart(best: list[dict[str, Any]], null_best: list[dict[str, Any]], title: str = "") -> alt.LayerChart:
    """One point per candidate kept (the search's and the null search's): in-sample edge across, fresh-shoe edge up.

    Vertical bars are the fresh-shoe edges' 95% intervals; the dashed line is
    where the fresh edge equals the in-sample one (no regression), the dotted
    one the exact expectation of the first candidate's bets.
    """
    rows = [
        {
            "search": search,
            "strategy": r["strategy"],
            "in_sample": r["in_sample"],
            "fresh": r["out_of_sample"],
            "fresh_low": r["out_of_sample_low"],
            "fresh_high": r["out_of_sample_high"],
        }
        for search, kept in (("candidates", best), ("coins (house edge)", null_best))
        for r in kept
        if r["out_of_sample"] is not None
    ]
    data = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"search": pl.String, "in_sample": pl.Float64, "fresh": pl.Float64})
    tips = [alt.Tooltip("strategy:N"), alt.Tooltip("in_sample:Q", format="+.2%"), alt.Tooltip("fresh:Q", format="+.2%")]
    colour = alt.Color("search:N", title=None)
    points = (
        alt.Chart(data)
        .mark_point(filled=True, size=60)
        .encode(
            x=alt.X("in_sample:Q", title="edge in sample", axis=alt.Axis(format="+%")),
            y=alt.Y("fresh:Q", title="edge on fresh shoes", axis=alt.Axis(format="+%")),
            color=colour,
            tooltip=tips,
        )
    )
    bars = alt.Chart(data).mark_rule(opacity=0.5).encode(x="in_sample:Q", y="fresh_low:Q", y2="fresh_high:Q", color=colour)
    values = [v for r in rows for v in (r["in_sample"], r["fresh_low"], r["fresh_high"])] or [0.0]
    span = pl.DataFrame({"in_sample": [min(values), max(values)], "fresh": [min(values), max(values)]})
    diagonal = alt.Chart(span).mark_line(strokeDash=[4, 4], color="#888888").encode(x="in_sample:Q", y="fresh:Q")
    layers = [diagonal, bars, points]
    expected = next((r["out_of_sample_expected"] for r in best if r.get("out_of_sample_expected") is not None), None)
    if expected is not None:
        layers.append(alt.Chart(pl.DataFrame({"y": [expected]})).mark_rule(strokeDash=[1, 3], color="#d62728").encode(y="y:Q"))
    return alt.layer(*layers).properties(width=520, height=360, title=title or "In sample against fresh shoes")
