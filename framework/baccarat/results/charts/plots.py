"""Plots of a run as charts: bankroll curves, final bankrolls, ruin over rounds, paired comparison, the exact analysis.

Every function takes the small aggregate frames of :mod:`baccarat.results.statistics.ledger_stats`
(never the ledger itself) and returns a :class:`~baccarat.results.charts.model.Chart`:
plain objects saying what is drawn, which ``chart.png()`` draws with Pillow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import polars as pl

from baccarat.results.charts.model import DPI, RGB, Band, Chart, ErrorPoint, Line, Panel, RefLine, Series, Stairs
from baccarat.results.statistics.ledger_stats import strategies_of, strategy_rows

PLOT_FILES = {
    "bankroll": "bankroll.png",
    "final": "final_bankroll.png",
    "ruin": "ruin.png",
    "comparison": "comparison.png",
}
"""File name of each plot in a run folder, by kind."""

PALETTE: tuple[RGB, ...] = (
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
    (174, 199, 232),
    (255, 187, 120),
    (152, 223, 138),
    (255, 152, 150),
    (197, 176, 213),
    (196, 156, 148),
    (247, 182, 210),
    (199, 199, 199),
    (219, 219, 141),
    (158, 218, 229),
)
"""Strategy colours in order: the ten of matplotlib's tab10, then the ten light partners of tab20."""

SAMPLE_GREY: RGB = (89, 89, 89)
REFERENCE_GREY: RGB = (51, 51, 51)
UNKNOWN_GREY: RGB = (77, 77, 77)
RUIN_RED: RGB = (214, 39, 40)


def strategy_colors(strategies: Sequence[str]) -> dict[str, RGB]:
    """Return one distinct colour per strategy, stable across all plots of a run."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(strategies)}


def _order(frame: pl.DataFrame) -> list[str]:
    return frame.get_column("strategy").unique(maintain_order=True).to_list() if frame.height else []


def _inches(width: float, height: float) -> dict[str, int]:
    return {"width": round(width * DPI), "height": round(height * DPI)}


def bankroll_figure(bands: pl.DataFrame, paths: pl.DataFrame, initial_bankroll: float, table_min: float) -> Chart:
    """Bankroll over the rounds of a session, one panel per strategy.

    Each panel: the median over sessions, the 25-75% and 5-95% bands, a few
    sample sessions, the initial bankroll and the ruin line (table minimum).
    """
    strategies = _order(bands)
    colors = strategy_colors(strategies)
    n = max(len(strategies), 1)
    cols = 1 if n == 1 else 2 if n in (2, 4) else 3
    rows = math.ceil(n / cols)
    samples = {name: [] for name in strategies}
    for (name, _), path in paths.group_by("strategy", "session", maintain_order=True):
        samples.setdefault(name, []).append(path)
    panels = []
    for k, name in enumerate(strategies):
        band = bands.filter(pl.col("strategy") == name)
        x, color = band.get_column("round").to_numpy(), colors[name]
        series: list[Series] = [
            Band(x, band.get_column("p5").to_numpy(), band.get_column("p95").to_numpy(), color, 0.15, "5-95% of sessions"),
            Band(x, band.get_column("p25").to_numpy(), band.get_column("p75").to_numpy(), color, 0.35, "25-75% of sessions"),
        ]
        series += [
            Line(
                path.get_column("round").to_numpy(),
                path.get_column("bankroll").to_numpy(),
                SAMPLE_GREY,
                0.7,
                alpha=0.7,
                label="sample sessions" if i == 0 else None,
            )
            for i, path in enumerate(samples[name])
        ]
        series += [
            Line(x, band.get_column("p50").to_numpy(), color, 2.2, label="median"),
            RefLine(initial_bankroll, "y", REFERENCE_GREY, 0.9, "dashed", "initial bankroll"),
            RefLine(table_min, "y", RUIN_RED, 1.2, "dotted", "ruin (table minimum)"),
        ]
        panels.append(
            Panel(
                tuple(series), title=name, xlabel="round of the session", ylabel="bankroll", y_money=True, legend="best" if k == 0 else None
            )
        )
    return Chart(
        "Bankroll over the session (median and percentile bands across sessions)",
        tuple(panels),
        columns=cols,
        share_x=True,
        share_y=True,
        **_inches(5.5 * cols if cols > 1 else 9, 3.8 * rows + 0.6),
    )


def final_bankroll_figure(sessions: pl.DataFrame | pl.LazyFrame, initial_bankroll: float) -> Chart:
    """Histogram of final bankrolls, one row per strategy on a shared axis, with initial bankroll and median."""
    strategies = strategies_of(sessions)
    colors = strategy_colors(strategies)
    n = max(len(strategies), 1)
    finals = {
        name: part.get_column("final_bankroll").cast(pl.Float64).to_numpy() for name, part in strategy_rows(sessions, "final_bankroll")
    }  # no column of a Python string per session
    present = [values for values in finals.values() if len(values)]
    low, high = (min(float(v.min()) for v in present), max(float(v.max()) for v in present)) if present else (0.0, 1.0)
    low, high = min(low, initial_bankroll), max(high, initial_bankroll)
    if high <= low:
        high = low + 1.0
    bins = np.linspace(low, high, 51)
    panels = []
    for k, name in enumerate(strategies):
        values = finals[name]
        series: list[Series] = [
            Stairs(bins, np.histogram(values, bins=bins)[0], colors[name], 0.85, "sessions"),
            RefLine(initial_bankroll, "x", REFERENCE_GREY, 1.0, "dashed", "initial bankroll"),
        ]
        if len(values):
            series.append(RefLine(float(np.median(values)), "x", (0, 0, 0), 1.5, label="median"))
        last = k == len(strategies) - 1
        panels.append(
            Panel(
                tuple(series),
                title=name,
                title_align="left",
                title_size=10,
                ylabel="sessions",
                xlabel="final bankroll of the session" if last else "",
                x_tick_labels=last,
                x_money=True,
                legend="best" if k == 0 else None,
            )
        )
    return Chart("Distribution of final bankrolls", tuple(panels), share_x=True, **_inches(10, max(1.3, min(2.4, 16 / n)) * n + 1.0))


def ruin_figure(ruin: pl.DataFrame) -> Chart:
    """Share of sessions ruined (bankroll below the table minimum) by each round, one line per strategy."""
    strategies = _order(ruin)
    colors = strategy_colors(strategies)
    series = []
    for name in strategies:
        curve = ruin.filter(pl.col("strategy") == name)
        series.append(
            Line(
                curve.get_column("round").to_numpy(), 100 * curve.get_column("ruined").to_numpy(), colors[name], 2.0, label=name, step=True
            )
        )
    top = 100 * float(ruin.get_column("ruined").max() or 0) if ruin.height else 0.0
    panel = Panel(
        tuple(series),
        title="Probability of ruin by round",
        title_size=13,
        xlabel="round of the session",
        ylabel="sessions ruined so far (%)",
        x_limits=(0, None),
        y_limits=(-0.02 * max(top, 5), max(top, 5) * 1.06),
        legend="upper left" if strategies else None,
        legend_size=9,
        note="no session was ruined" if ruin.height and top == 0 else "",
    )
    return Chart("", (panel,), **_inches(10, 5.5))


def comparison_figure(comparison: pl.DataFrame) -> Chart:
    """Net per session minus the baseline's, with its paired 95% interval, one row per strategy."""
    names = comparison.get_column("strategy").to_list()
    baseline = comparison.get_column("baseline")[0] if comparison.height else ""
    colors = strategy_colors([baseline, *names])
    y = list(range(len(names)))[::-1]
    series: list[Series] = []
    for yi, row in zip(y, comparison.iter_rows(named=True), strict=True):
        mean, low, high = row["net_diff_mean"], row["net_diff_ci_low"], row["net_diff_ci_high"]
        if mean is not None:
            series.append(
                ErrorPoint(
                    float(mean), yi, None if low is None else float(low), None if high is None else float(high), colors[row["strategy"]]
                )
            )
    series.append(RefLine(0.0, "x", REFERENCE_GREY, 1.0, "dashed", f"baseline: {baseline}"))
    panel = Panel(
        tuple(series),
        title=f"Paired comparison with {baseline}",
        title_size=13,
        xlabel=f"net per session minus {baseline}'s (same rounds; 95% paired interval)",
        x_money=True,
        y_ticks=tuple(zip(y, names, strict=True)),
        y_limits=(-0.8, len(names) - 0.2),
        grid="x",
        legend="lower right",
        legend_size=9,
    )
    return Chart("", (panel,), **_inches(10, 1.2 + 0.55 * max(len(names), 1) + 1.0))


def exact_figure(ruin: pl.DataFrame, bands: pl.DataFrame, exact: Sequence) -> Chart:
    """The exact analysis over the simulation: ruin by round, and the bankroll's median and 5-95% band by round.

    ``exact`` holds :class:`baccarat.exact.analysis.ExactResult` objects made with
    bands. Simulated curves are solid (bands shaded), exact ones dashed.
    """
    names = [r.strategy for r in exact]
    colors = strategy_colors(_order(ruin) if ruin.height else names)
    left: list[Series] = []
    right: list[Series] = []
    for result in exact:
        color = colors.get(result.strategy, UNKNOWN_GREY)
        curve = ruin.filter(pl.col("strategy") == result.strategy)
        if curve.height:
            left.append(
                Line(
                    curve.get_column("round").to_numpy(),
                    100 * curve.get_column("ruined").to_numpy(),
                    color,
                    2.0,
                    alpha=0.6,
                    label=f"{result.strategy} (simulated)",
                    step=True,
                )
            )
        left.append(
            Line(
                np.arange(len(result.ruin_curve)),
                100 * np.asarray(result.ruin_curve),
                color,
                1.5,
                "dashed",
                label=f"{result.strategy} (exact)",
                step=True,
            )
        )
        band = bands.filter(pl.col("strategy") == result.strategy)
        if band.height:
            rounds = band.get_column("round").to_numpy()
            right += [
                Band(rounds, band.get_column("p5").to_numpy(), band.get_column("p95").to_numpy(), color, 0.12),
                Line(rounds, band.get_column("p50").to_numpy(), color, 2.0, alpha=0.6),
            ]
        rows = result.bands
        right += [
            Line(rows[:, 0], rows[:, 3], color, 1.5, "dashed", label=result.strategy),
            Line(rows[:, 0], rows[:, 1], color, 1.0, "dotted"),
            Line(rows[:, 0], rows[:, 5], color, 1.0, "dotted"),
        ]
    panels = (
        Panel(
            tuple(left),
            title="Ruin by round: simulated (solid) and exact (dashed)",
            xlabel="round of the session",
            ylabel="ruined so far (%)",
            x_limits=(0, None),
            legend="upper left" if exact else None,
        ),
        Panel(
            tuple(right),
            title="Bankroll: simulated median and 5-95% band;\nexact median (dashed), 5% and 95% (dotted)",
            title_size=11,
            xlabel="round of the session",
            ylabel="bankroll",
            y_money=True,
            x_limits=(0, None),
        ),
    )
    return Chart("", panels, columns=2, **_inches(13, 5.5))


def save_figures(figures: Mapping[str, Chart], out_dir: str | Path) -> list[Path]:
    """Write each chart as ``out_dir/PLOT_FILES[kind]``; return the paths written."""
    return [chart.save(Path(out_dir) / PLOT_FILES[kind]) for kind, chart in figures.items()]
