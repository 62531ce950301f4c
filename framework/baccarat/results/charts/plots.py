"""The charts of a run as Vega-Lite specifications made with Vega-Altair: the browser draws them from report.html.

Every function takes the small aggregate frames of :mod:`baccarat.results.statistics`
(bands, ruin curve, sample paths, the session and summary tables), never the
ledger, reduces them to at most :data:`ROW_BUDGET` rows, and returns an Altair
chart: hover shows the values, a click on the legend isolates a strategy (the
others fade; shift-click picks several), the round axis zooms and pans with the
mouse wheel and drag, and money spanning decades is drawn on a logarithmic
(symlog) scale. ``chart.save("x.png")`` or :mod:`baccarat.results.charts.export`
render them as files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import altair as alt
import polars as pl

from baccarat.results.charts.pieces import (
    COLOURS,
    MONEY,
    PERCENT,
    ROUND,
    ROW_BUDGET,
    WIDTH,
    alike,
    dashed,
    fade,
    legend_pick,
    line_style,
    money_scale,
    order,
    round_zoom,
    rounded,
    steps,
    strategy_color,
    thin,
    unchecked,
)


@unchecked
def bankroll_chart(bands: pl.DataFrame, initial_bankroll: float, table_min: float) -> alt.LayerChart:
    """Every strategy's median bankroll over the rounds of a session, in one chart.

    A click on a strategy in the legend shows its bands (the middle 50% and
    90% of sessions) and fades the others; the initial bankroll is dashed and
    the ruin line (the table minimum) dotted.
    """
    strategies = order(bands)
    many = dashed(strategies)  # the strategies' lines differ by their dashes too: the means are drawn only for those picked
    data = rounded(thin(bands))
    high = float(data.get_column("p95").max() or initial_bankroll) if data.height else initial_bankroll
    pick, zoom = legend_pick(), round_zoom()
    x = alt.X("round:Q", title=ROUND)
    y_scale = money_scale(high, initial_bankroll, table_min)
    base = alt.Chart().encode(x=x, **line_style(strategies))  # the data once, for every layer
    tips = [
        alt.Tooltip("strategy:N"),
        alt.Tooltip("round:Q"),
        alt.Tooltip("p50:Q", title="median", format=MONEY),
        alt.Tooltip("mean:Q", title="mean", format=MONEY),
        alt.Tooltip("p25:Q", title="25%", format=MONEY),
        alt.Tooltip("p75:Q", title="75%", format=MONEY),
        alt.Tooltip("p5:Q", title="5%", format=MONEY),
        alt.Tooltip("p95:Q", title="95%", format=MONEY),
    ]
    # The legend's picks belong to the first layer: Vega-Lite makes the merged legend of a layer chart clickable only then.
    outer = (
        base.mark_area(opacity=0.12)
        .encode(
            y=alt.Y("p5:Q", scale=y_scale, title="bankroll"),
            y2=alt.Y2("p95"),
            opacity=fade(pick, 0.12, 0.0, empty=False),
        )
        .add_params(pick, zoom)
    )
    inner = base.mark_area().encode(
        y=alt.Y("p25:Q", scale=y_scale),
        y2=alt.Y2("p75"),
        opacity=fade(pick, 0.3, 0.0, empty=False),
    )
    median = base.mark_line(strokeWidth=2).encode(y=alt.Y("p50:Q", scale=y_scale, title="bankroll"), opacity=fade(pick), tooltip=tips)
    mean = base.mark_line(strokeWidth=1.5).encode(
        y=alt.Y("mean:Q", scale=y_scale),
        strokeDash=alt.value([5, 3]),
        opacity=fade(pick, 1.0, 0.0, empty=False) if many else fade(pick),
        tooltip=tips,
    )
    points = base.mark_point(size=40, filled=True, opacity=0).encode(y=alt.Y("p50:Q", scale=y_scale), tooltip=tips)
    title = (
        "Median bankroll over the session, one line per strategy (colour and dash in the legend)"
        if many
        else "Median (solid) and mean (dashed) bankroll over the session"
    )
    return alt.layer(outer, inner, median, mean, points, *references(initial_bankroll, table_min), data=data).properties(
        title=title, width=WIDTH, height=380
    )


def references(initial_bankroll: float, table_min: float) -> list[alt.Chart]:
    """The initial bankroll (dashed) and the ruin line at the table minimum (dotted, red), across the chart."""
    lines = pl.DataFrame({"y": [initial_bankroll, table_min], "line": ["initial bankroll", "ruin (table minimum)"]})
    rule = alt.Chart(lines).mark_rule(strokeWidth=1)
    return [
        rule.transform_filter(alt.datum.line == "initial bankroll").encode(
            y=alt.Y("y:Q"),
            strokeDash=alt.value([6, 4]),
            color=alt.value("#333333"),
            tooltip=[alt.Tooltip("line:N"), alt.Tooltip("y:Q", format=MONEY)],
        ),
        rule.transform_filter(alt.datum.line != "initial bankroll").encode(
            y=alt.Y("y:Q"),
            strokeDash=alt.value([2, 3]),
            color=alt.value("#d62728"),
            tooltip=[alt.Tooltip("line:N"), alt.Tooltip("y:Q", format=MONEY)],
        ),
    ]


def vertical_rule(value: float) -> alt.Chart:
    """A dashed vertical line across a chart at ``value`` (the initial bankroll, or zero difference)."""
    return alt.Chart(pl.DataFrame({"x": [value]})).mark_rule(strokeDash=[6, 4], color="#333333").encode(x=alt.X("x:Q"))


@unchecked
def small_multiples(bands: pl.DataFrame, paths: pl.DataFrame, initial_bankroll: float, table_min: float) -> alt.FacetChart:
    """One panel per strategy: the median, the 25-75% and 5-95% bands, and a few sample sessions (grey)."""
    strategies = order(bands)
    n = max(len(strategies), 1)
    columns = 1 if n == 1 else 2 if n in (2, 4) else 3 if n <= 9 else 4
    width = max(200, (WIDTH - 40 * columns) // columns)
    sessions = paths.select("strategy", "session").n_unique() if paths is not None and paths.height else 0
    band_rows = thin(bands, min(ROW_BUDGET * 3 // 4, n * width // 2))  # a point every two pixels of a panel is plenty
    path_rows = thin(paths, min(ROW_BUDGET - band_rows.height, sessions * width // 3), by=("strategy", "session")) if sessions else None
    frames = [band_rows.with_columns(pl.lit("band").alias("layer"))]
    if path_rows is not None and path_rows.height:
        frames.append(path_rows.with_columns(pl.lit("sample").alias("layer")))
    data = rounded(pl.concat(frames, how="diagonal_relaxed"))
    values = [float(v) for v in (data.get_column("p5").min(), data.get_column("p95").max()) if v is not None]
    y_scale = money_scale(max(values + [initial_bankroll]), initial_bankroll, table_min)
    base = alt.Chart().encode(x=alt.X("round:Q", title=ROUND))
    bands_only = alt.datum.layer == "band"
    color = strategy_color(strategies, legend=False)
    layers = [
        base.mark_area(opacity=0.15)
        .encode(y=alt.Y("p5:Q", scale=y_scale, title="bankroll"), y2=alt.Y2("p95"), color=color)
        .transform_filter(bands_only),
        base.mark_area(opacity=0.35).encode(y=alt.Y("p25:Q", scale=y_scale), y2=alt.Y2("p75"), color=color).transform_filter(bands_only),
        base.mark_line(strokeWidth=0.7, opacity=0.6, color="#595959")
        .encode(
            y=alt.Y("bankroll:Q", scale=y_scale),
            detail=alt.Detail("session:N"),
            tooltip=[alt.Tooltip("session:N"), alt.Tooltip("round:Q"), alt.Tooltip("bankroll:Q", format=MONEY)],
        )
        .transform_filter(alt.datum.layer == "sample"),
        base.mark_line(strokeWidth=2)
        .encode(
            y=alt.Y("p50:Q", scale=y_scale),
            color=color,
            tooltip=[
                alt.Tooltip("round:Q"),
                alt.Tooltip("p50:Q", title="median", format=MONEY),
                alt.Tooltip("p5:Q", title="5%", format=MONEY),
            ]
            + [alt.Tooltip("p95:Q", title="95%", format=MONEY), alt.Tooltip("mean:Q", title="mean", format=MONEY)],
        )
        .transform_filter(bands_only),
        base.mark_line(strokeWidth=1.5, strokeDash=[5, 3])
        .encode(y=alt.Y("mean:Q", scale=y_scale), color=color, tooltip=[alt.Tooltip("round:Q"), alt.Tooltip("mean:Q", format=MONEY)])
        .transform_filter(bands_only),
        alt.Chart()
        .transform_aggregate(sessions="count()")
        .mark_rule(strokeDash=[6, 4], color="#333333")
        .encode(y=alt.datum(initial_bankroll)),
        alt.Chart().transform_aggregate(sessions="count()").mark_rule(strokeDash=[2, 3], color="#d62728").encode(y=alt.datum(table_min)),
    ]
    return (
        alt.layer(*layers, data=data)
        .properties(width=width, height=180 if n > 2 else 240)
        .facet(
            facet=alt.Facet("strategy:N", sort=strategies, title=None, header=alt.Header(labelLimit=width, labelFontWeight="bold")),
            columns=columns,
        )
        .properties(title="Each strategy: median (solid), mean (dashed), middle 50% and 90% of sessions, a few sessions (grey)")
        .resolve_scale(x="shared", y="shared")
    )


@unchecked
def ruin_chart(ruin: pl.DataFrame) -> alt.Chart:
    """The share of sessions still standing after each round (survival), one step line per strategy."""
    strategies = order(ruin)
    data = thin(steps(ruin, "ruined")).with_columns((1 - pl.col("ruined")).round(6).alias("surviving"), pl.col("ruined").round(6))
    pick, zoom = legend_pick(), round_zoom()
    return (
        alt.Chart(data)
        .mark_line(interpolate="step-after", strokeWidth=2, point=alt.OverlayMarkDef(size=20, opacity=0))
        .encode(
            x=alt.X("round:Q", title=ROUND),
            y=alt.Y("surviving:Q", title="sessions not ruined yet", axis=alt.Axis(format="%"), scale=alt.Scale(zero=False, nice=True)),
            **line_style(strategies),
            opacity=fade(pick),
            tooltip=[
                alt.Tooltip("strategy:N"),
                alt.Tooltip("round:Q"),
                alt.Tooltip("surviving:Q", format=PERCENT),
                alt.Tooltip("ruined:Q", format=PERCENT),
            ],
        )
        .add_params(pick, zoom)
        .properties(
            title="Survival: the share of sessions not ruined by each round"
            + ("" if (ruin.get_column("ruined").max() or 0) > 0 else " (no session was ruined)"),
            width=WIDTH,
            height=320,
        )
    )


@unchecked
def final_chart(finals: pl.DataFrame, initial_bankroll: float, table_min: float) -> alt.LayerChart:
    """Final bankrolls side by side: per strategy the 5-95% range, the middle 50%, the median and the mean.

    ``finals`` is :func:`baccarat.results.statistics.curves.final_quantiles` of the session table.
    """
    data = rounded(finals)
    strategies = data.get_column("strategy").to_list()
    high = float(data.get_column("p95").max() or initial_bankroll) if data.height else initial_bankroll
    scale = money_scale(high, initial_bankroll, table_min)
    pick = legend_pick()
    y = alt.Y("strategy:N", sort=strategies, title=None, axis=alt.Axis(labelLimit=320))
    tips = [alt.Tooltip("strategy:N"), alt.Tooltip("sessions:Q")] + [
        alt.Tooltip(f"{c}:Q", format=MONEY) for c in ("min", "p5", "p25", "median", "mean", "p75", "p95", "max")
    ]
    base = alt.Chart().encode(y=y, color=strategy_color(strategies), opacity=fade(pick), tooltip=tips)
    band = 22 if len(strategies) <= 12 else 14
    return alt.layer(
        base.mark_rule(strokeWidth=1.5)
        .encode(x=alt.X("p5:Q", scale=scale, title="final bankroll of the session"), x2=alt.X2("p95"))
        .add_params(pick),
        base.mark_bar(size=band * 0.7).encode(x=alt.X("p25:Q", scale=scale), x2=alt.X2("p75")),
        base.mark_tick(color="black", thickness=2, size=band).encode(x=alt.X("median:Q", scale=scale), color=alt.value("black")),
        base.mark_point(shape="diamond", filled=True, color="white", stroke="black", size=40).encode(
            x=alt.X("mean:Q"), color=alt.value("white")
        ),
        vertical_rule(initial_bankroll),
        data=data,
    ).properties(
        title="Final bankroll: 5-95% of sessions (line), middle 50% (bar), median (black), mean (diamond); dashed: initial bankroll",
        width=WIDTH,
        height=alt.Step(band),
    )


@unchecked
def comparison_chart(comparison: pl.DataFrame, strategies: Sequence[str] | None = None) -> alt.LayerChart:
    """Each strategy's net per session minus the baseline's on the same rounds, with its 95% paired interval."""
    names = comparison.get_column("strategy").to_list()
    baseline = comparison.get_column("baseline")[0] if comparison.height else ""
    palette = list(strategies) if strategies else [baseline, *names]
    data = rounded(comparison, 4)
    extra = [c for c in data.columns if c not in ("strategy", "baseline", "net_diff_mean", "net_diff_ci_low", "net_diff_ci_high")]
    tips = [alt.Tooltip("strategy:N"), alt.Tooltip("baseline:N")] + [
        alt.Tooltip(f"{c}:Q", format=MONEY) for c in ("net_diff_mean", "net_diff_ci_low", "net_diff_ci_high")
    ]
    tips += [alt.Tooltip(f"{c}:{'N' if data.schema[c] == pl.String else 'Q'}") for c in extra]
    pick = legend_pick()
    y = alt.Y("strategy:N", sort=names, title=None, axis=alt.Axis(labelLimit=320))
    base = alt.Chart().encode(y=y, color=strategy_color(palette), opacity=fade(pick), tooltip=tips)
    return alt.layer(
        base.mark_rule(strokeWidth=2)
        .encode(
            x=alt.X("net_diff_ci_low:Q", title=f"net per session minus {baseline}'s (same rounds; 95% paired interval)"),
            x2=alt.X2("net_diff_ci_high"),
        )
        .add_params(pick),
        base.mark_point(filled=True, size=70).encode(x=alt.X("net_diff_mean:Q")),
        vertical_rule(0.0),
        data=data,
    ).properties(
        title=f"Net per session minus the baseline's, {baseline}: paired difference and its 95% interval",
        width=WIDTH,
        height=alt.Step(26 if len(names) <= 12 else 16),
    )


@unchecked
def drawdown_chart(paths: pl.DataFrame) -> alt.LayerChart:
    """Underwater curves: per strategy, the deepest of its sample sessions below their own previous peaks, round by round.

    One line per strategy (in its colour, and dash past :data:`COLOURS`
    strategies), whatever the number of sessions sampled; a strategy picked in
    the legend shows the band of its sample sessions, from the shallowest to the deepest.
    """
    strategies = order(paths)
    sessions = paths.group_by("strategy").agg(pl.col("session").n_unique()).get_column("session").max() if paths.height else 0
    under = paths.with_columns((pl.col("bankroll") - pl.col("bankroll").cum_max().over("strategy", "session")).alias("drawdown"))
    data = under.group_by("strategy", "round", maintain_order=True).agg(
        pl.col("drawdown").min().alias("deepest"), pl.col("drawdown").max().alias("shallowest"), pl.len().alias("sessions")
    )
    data = rounded(thin(data.sort(pl.col("strategy").replace_strict(strategies, range(len(strategies))), "round")))
    pick, zoom = legend_pick(), round_zoom()
    base = alt.Chart().encode(x=alt.X("round:Q", title=ROUND), **line_style(strategies))
    tips = [
        alt.Tooltip("strategy:N"),
        alt.Tooltip("round:Q"),
        alt.Tooltip("deepest:Q", format=MONEY),
        alt.Tooltip("shallowest:Q", format=MONEY),
        alt.Tooltip("sessions:Q"),
    ]
    band = (
        base.mark_area(interpolate="step-after")
        .encode(
            y=alt.Y("deepest:Q", title="below the session's peak", axis=alt.Axis(format=",.0f")),
            y2=alt.Y2("shallowest"),
            opacity=fade(pick, 0.25, 0.0, empty=False),
        )
        .add_params(pick, zoom)
    )
    line = base.mark_line(interpolate="step-after", strokeWidth=1.8).encode(y=alt.Y("deepest:Q"), opacity=fade(pick), tooltip=tips)
    return alt.layer(band, line, data=data).properties(
        title=f"Drawdown: the deepest of each strategy's {sessions or 0} sample session{'' if sessions == 1 else 's'} "
        "below its own peak, by round (0: at a new peak)",
        width=WIDTH,
        height=300,
    )


GRID_NAME = re.compile(r"^(?P<label>.*)\[(?P<params>[^\[\]]*)\]$")


def grid_params(strategies: Sequence[str]) -> pl.DataFrame | None:
    """The swept parameters of a grid experiment, read from its strategy names (``label[key=value,...]``).

    One row per strategy: ``strategy``, ``grid`` (the label) and one column per
    parameter; None unless some label sweeps two parameters or more.
    """
    rows = []
    for name in strategies:
        found = GRID_NAME.match(name)
        if not found:
            continue
        pairs = [part.split("=", 1) for part in found.group("params").split(",") if "=" in part]
        rows.append({"strategy": name, "grid": found.group("label"), **{k.strip(): v.strip() for k, v in pairs}})
    if not rows:
        return None
    frame = pl.DataFrame(rows)
    swept = [c for c in frame.columns if c not in ("strategy", "grid") and frame.get_column(c).drop_nulls().n_unique() > 1]
    return frame.select("strategy", "grid", *swept) if len(swept) >= 2 else None


def _values_in_order(values: pl.Series) -> list[str]:
    """A parameter's values as the grid lists them: numbers by size (10 before 25 before 100), words alphabetically."""
    found = values.drop_nulls().unique().to_list()
    try:
        return sorted(found, key=float)
    except ValueError:
        return sorted(found)


@unchecked
def grid_chart(summary: pl.DataFrame) -> alt.Chart | None:
    """For a grid experiment: a heatmap of a summary measure over the first two swept parameters, the measure chosen from a list.

    None when the strategies sweep fewer than two parameters.
    """
    params = grid_params(summary.get_column("strategy").to_list())
    if params is None:
        return None
    x_key, y_key = [c for c in params.columns if c not in ("strategy", "grid")][:2]
    n_x = params.get_column(x_key).drop_nulls().n_unique()
    columns = [c for c, t in summary.schema.items() if c != "strategy" and (t.is_numeric() or t.is_decimal())]
    measures = [c.replace("_", " ") for c in columns]  # named in words, in the list and in the title
    data = rounded(summary.select("strategy", *columns), 6).rename(dict(zip(columns, measures, strict=True))).join(params, on="strategy")
    data = data.unpivot(index=["strategy", "grid", x_key, y_key], on=measures, variable_name="measure", value_name="value")
    start = "risk of ruin" if "risk of ruin" in measures else measures[0]
    choice = alt.param(name="measure", value=start, bind=alt.binding_select(options=measures, name="measure "))
    base = (
        alt.Chart()
        .transform_filter(alt.datum.measure == choice)
        .encode(
            x=alt.X(f"{x_key}:O", title=x_key, sort=_values_in_order(params.get_column(x_key))),
            y=alt.Y(f"{y_key}:O", title=y_key, sort=_values_in_order(params.get_column(y_key))),
        )
    )
    chart = alt.layer(
        base.mark_rect().encode(
            color=alt.Color("value:Q", title=None, scale=alt.Scale(scheme="viridis")),
            tooltip=[alt.Tooltip("strategy:N"), alt.Tooltip("measure:N"), alt.Tooltip("value:Q", format=",.4~g")],
        ),
        base.mark_text(fontSize=10).encode(text=alt.Text("value:Q", format=",.3~g"), color=alt.value("white")),
    ).add_params(choice)
    return (
        chart.properties(width=alt.Step(64), height=alt.Step(36))
        .facet(facet=alt.Facet("grid:N", title=None), columns=max(1, (WIDTH + 100) // (64 * n_x + 120)), data=data)
        .properties(title=alt.Title(alt.ExprRef(expr="measure + " + json.dumps(f" over {x_key} and {y_key}"))))
    )


@unchecked
def exact_chart(ruin: pl.DataFrame, bands: pl.DataFrame | None, exact: Sequence[Any]) -> alt.HConcatChart:
    """The exact analysis over the simulation: ruin by round and the bankroll's median, simulated (solid) and exact (dashed).

    ``exact`` holds :class:`baccarat.exact.results.ExactResult` objects made with bands.
    """
    import numpy as np

    names = [r.strategy for r in exact]
    strategies = order(ruin) or names
    ruined, median = [], []
    for result in exact:
        curve = ruin.filter(pl.col("strategy") == result.strategy).select("round", "ruined")
        ruined.append(curve.with_columns(pl.lit(result.strategy).alias("strategy"), pl.lit("simulated").alias("source")))
        exact_ruin = np.asarray(result.ruin_curve, dtype=float)
        ruined.append(
            pl.DataFrame({"round": np.arange(len(exact_ruin), dtype=np.int64), "ruined": exact_ruin}).with_columns(
                pl.lit(result.strategy).alias("strategy"), pl.lit("exact").alias("source")
            )
        )
        if bands is not None:
            band = bands.filter(pl.col("strategy") == result.strategy).select("round", pl.col("p50").alias("bankroll"))
            median.append(band.with_columns(pl.lit(result.strategy).alias("strategy"), pl.lit("simulated").alias("source")))
        if result.bands is not None:
            rows = np.asarray(result.bands)
            median.append(
                pl.DataFrame({"round": rows[:, 0].astype(np.int64), "bankroll": rows[:, 3].astype(float)}).with_columns(
                    pl.lit(result.strategy).alias("strategy"), pl.lit("exact").alias("source")
                )
            )
    half = ROW_BUDGET // 2
    ruin_data = thin(steps(pl.concat(ruined, how="diagonal_relaxed"), "ruined"), half, by=("strategy", "source"))
    dash = alt.StrokeDash(
        "source:N", sort=["simulated", "exact"], scale=alt.Scale(domain=["simulated", "exact"], range=[[1, 0], [6, 4]]), title=None
    )
    pick, zoom = legend_pick(), round_zoom()
    color = strategy_color(strategies)
    left = (
        alt.Chart(ruin_data)
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=alt.X("round:Q", title=ROUND),
            y=alt.Y("ruined:Q", title="sessions ruined so far", axis=alt.Axis(format="%")),
            color=color,
            strokeDash=dash,
            opacity=fade(pick),
            tooltip=[alt.Tooltip("strategy:N"), alt.Tooltip("source:N"), alt.Tooltip("round:Q"), alt.Tooltip("ruined:Q", format=PERCENT)],
        )
        .add_params(pick, zoom)
        .properties(title="Ruin by round", width=430, height=300)
    )
    charts = [left]
    if median:
        median_data = rounded(thin(pl.concat(median, how="diagonal_relaxed"), half, by=("strategy", "source")))
        charts.append(
            alt.Chart(median_data)
            .mark_line(strokeWidth=2)
            .encode(
                x=alt.X("round:Q", title=ROUND),
                y=alt.Y("bankroll:Q", title="median bankroll", scale=alt.Scale(zero=False)),
                color=color,
                strokeDash=dash,
                opacity=fade(pick),
                tooltip=[
                    alt.Tooltip("strategy:N"),
                    alt.Tooltip("source:N"),
                    alt.Tooltip("round:Q"),
                    alt.Tooltip("bankroll:Q", format=MONEY),
                ],
            )
            .properties(title="Median bankroll", width=430, height=300)
        )
    same = alike([name for name in strategies if name in names], COLOURS)  # the dash tells exact from simulated: colours alone
    subtitle = ["Alike in colour: " + "; ".join(" and ".join(group) for group in same)] if same else []
    return alt.hconcat(*charts).properties(title=alt.Title("Exact analysis (dashed) over the simulation (solid)", subtitle=subtitle))
