"""The chart of ``baccarat patterns``: each statistic of the shoes tested beside the range fair shoes give."""

from __future__ import annotations

from typing import Any

import altair as alt
import polars as pl

from baccarat.results.charts.pieces import WIDTH


def patterns_chart(statistics: list[dict[str, Any]], title: str = "") -> alt.FacetChart:
    """One row per statistic: the middle 95% of fair samples (bar), their mean (tick) and the value seen (point).

    ``statistics`` are the rows of ``Patterns.to_dict()["statistics"]``; a
    flagged statistic's point is red. Each row has its own scale.
    """
    rows = [
        {
            "statistic": s["label"],
            "seen": s["observed"],
            "fair_mean": s["fair_mean"],
            "fair_low": s["fair_low"],
            "fair_high": s["fair_high"],
            "p_holm": s["p_holm"],
            "verdict": "unlike fair shoes" if s["flagged"] else "within fair",
        }
        for s in statistics
        if s["observed"] is not None and s["fair_low"] is not None
    ]
    data = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"statistic": pl.String})
    base = alt.Chart(data)
    tips = [
        alt.Tooltip("statistic:N"),
        alt.Tooltip("seen:Q", format=".4g"),
        alt.Tooltip("fair_low:Q", title="fair 2.5%", format=".4g"),
        alt.Tooltip("fair_mean:Q", title="fair mean", format=".4g"),
        alt.Tooltip("fair_high:Q", title="fair 97.5%", format=".4g"),
        alt.Tooltip("p_holm:Q", title="p (Holm)", format=".3g"),
    ]
    band = base.mark_bar(height=10, color="#c7d7ea").encode(
        x=alt.X("fair_low:Q", title=None, scale=alt.Scale(zero=False)), x2="fair_high:Q", tooltip=tips
    )
    mean = base.mark_tick(color="#4c78a8", thickness=2, size=14).encode(x="fair_mean:Q", tooltip=tips)
    seen = base.mark_point(filled=True, size=70).encode(
        x="seen:Q",
        color=alt.Color("verdict:N", scale=alt.Scale(domain=["within fair", "unlike fair shoes"], range=["#222222", "#d62728"])),
        tooltip=tips,
    )
    return (
        alt.layer(band, mean, seen, data=data)
        .properties(width=WIDTH // 2, height=22)
        .facet(
            row=alt.Row("statistic:N", title=None, sort=[r["statistic"] for r in rows], header=alt.Header(labelAngle=0, labelAlign="left"))
        )
        .resolve_scale(x="independent")
        .properties(title=title or "Seen against fair shoes (bar: middle 95% of fair samples; tick: their mean)")
    )
