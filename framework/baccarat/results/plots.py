"""Plots of a run with matplotlib: bankroll curves, final bankrolls, ruin over rounds, paired comparison.

Every function takes the small aggregate frames of :mod:`baccarat.results.stats`
(never the ledger itself) and returns a :class:`matplotlib.figure.Figure`
made without pyplot, so nothing global changes (a notebook keeps its own
backend) and PNG files are rendered by the Agg canvas.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from baccarat.results.stats import strategy_rows

PLOT_FILES = {
    "bankroll": "bankroll.png",
    "final": "final_bankroll.png",
    "ruin": "ruin.png",
    "comparison": "comparison.png",
}
"""File name of each plot in a run folder, by kind."""

DPI = 100
"""Pixels per inch of the PNG files."""

PNG_COMPRESSION = 1
"""zlib level of the PNG files: the same pixels as the default level 6, in a fraction of the time, files a little larger."""


def strategy_colors(strategies: Sequence[str]) -> dict[str, tuple[float, float, float, float]]:
    """Return one distinct colour per strategy, stable across all plots of a run."""
    from matplotlib import colormaps

    if len(strategies) <= 10:
        palette = [colormaps["tab10"](i) for i in range(10)]
    else:  # the ten strong colours of tab20 first, then their light partners
        tab20 = colormaps["tab20"]
        palette = [tab20(i) for i in range(0, 20, 2)] + [tab20(i) for i in range(1, 20, 2)]
    return {name: palette[i % len(palette)] for i, name in enumerate(strategies)}


def _order(frame: pl.DataFrame) -> list[str]:
    return frame.get_column("strategy").unique(maintain_order=True).to_list() if frame.height else []


def _new_figure(width: float, height: float, margins: tuple[float, float, float, float] = (0.9, 0.25, 0.55, 0.6),
                gaps: tuple[float, float] = (0.0, 0.0), grid: tuple[int, int] = (1, 1)) -> Figure:
    """Return a figure whose axes grid sits within fixed margins, in inches.

    ``margins`` are (left, right, top, bottom), ``gaps`` the (horizontal,
    vertical) space between panels of a ``grid`` of (rows, columns). Fixed
    margins, not matplotlib's constrained layout, which measures every label
    at each draw and took about a fifth of the drawing time.
    """
    left, right, top, bottom = margins
    rows, cols = grid
    fig = Figure(figsize=(width, height), dpi=DPI)
    panel_width = max(width - left - right - (cols - 1) * gaps[0], 0.1) / cols
    panel_height = max(height - top - bottom - (rows - 1) * gaps[1], 0.1) / rows
    fig.subplots_adjust(left=left / width, right=1 - right / width, top=1 - top / height, bottom=bottom / height,
                        wspace=gaps[0] / panel_width, hspace=gaps[1] / panel_height)
    FigureCanvasAgg(fig)
    return fig


TITLE_PAD = 6.0
"""Points between an axes and its title; the title is placed, not moved clear of tick labels at each draw."""


def _title(ax, text: str, **kwargs: object) -> None:
    ax.set_title(text, y=1.0, pad=TITLE_PAD, **kwargs)


def _money_axis(ax, axis: str = "y") -> None:
    from matplotlib.ticker import StrMethodFormatter

    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(StrMethodFormatter("{x:,.0f}"))


def bankroll_figure(bands: pl.DataFrame, paths: pl.DataFrame, initial_bankroll: float, table_min: float) -> Figure:
    """Bankroll over the rounds of a session, one panel per strategy.

    Each panel: the median over sessions, the 25-75% and 5-95% bands, a few
    sample sessions, the initial bankroll and the ruin line (table minimum).
    """
    strategies = _order(bands)
    colors = strategy_colors(strategies)
    n = max(len(strategies), 1)
    cols = 1 if n == 1 else 2 if n in (2, 4) else 3
    rows = math.ceil(n / cols)
    fig = _new_figure(5.5 * cols if cols > 1 else 9, 3.8 * rows + 0.6, margins=(0.95, 0.25, 0.85, 0.6),
                      gaps=(0.95, 0.85), grid=(rows, cols))
    axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False).ravel()
    for ax in axes[len(strategies):]:
        ax.set_visible(False)
    for ax, name in zip(axes, strategies, strict=False):
        band = bands.filter(pl.col("strategy") == name)
        x = band.get_column("round").to_numpy()
        color = colors[name]
        ax.fill_between(x, band.get_column("p5").to_numpy(), band.get_column("p95").to_numpy(),
                        color=color, alpha=0.15, linewidth=0, label="5-95% of sessions")
        ax.fill_between(x, band.get_column("p25").to_numpy(), band.get_column("p75").to_numpy(),
                        color=color, alpha=0.35, linewidth=0, label="25-75% of sessions")
        first = True
        for (_,), path in paths.filter(pl.col("strategy") == name).group_by("session", maintain_order=True):
            ax.plot(path.get_column("round").to_numpy(), path.get_column("bankroll").to_numpy(), color="0.35",
                    linewidth=0.7, alpha=0.7, label="sample sessions" if first else None)
            first = False
        ax.plot(x, band.get_column("p50").to_numpy(), color=color, linewidth=2.2, label="median")
        ax.axhline(initial_bankroll, color="0.2", linestyle="--", linewidth=0.9, label="initial bankroll")
        ax.axhline(table_min, color="tab:red", linestyle=":", linewidth=1.2, label="ruin (table minimum)")
        _title(ax, name, fontsize=12)
        ax.grid(True, alpha=0.3)
        _money_axis(ax)
    for ax in axes[: len(strategies)]:
        ax.tick_params(labelbottom=True, labelleft=True)
        ax.set_xlabel("round of the session")
        ax.set_ylabel("bankroll")
    if strategies:
        axes[0].legend(loc="best", fontsize=8, framealpha=0.85)
    fig.suptitle("Bankroll over the session (median and percentile bands across sessions)", fontsize=13,
                 y=1 - 0.15 / fig.get_figheight(), va="top")
    return fig


def final_bankroll_figure(sessions: pl.DataFrame, initial_bankroll: float) -> Figure:
    """Histogram of final bankrolls, one row per strategy on a shared axis, with initial bankroll and median."""
    strategies = _order(sessions)
    colors = strategy_colors(strategies)
    n = max(len(strategies), 1)
    fig = _new_figure(10, max(1.3, min(2.4, 16 / n)) * n + 1.0, margins=(0.8, 0.25, 0.6, 0.6), gaps=(0.0, 0.35),
                      grid=(n, 1))
    axes = fig.subplots(n, 1, sharex=True, squeeze=False).ravel()
    finals = {name: part.get_column("final_bankroll").cast(pl.Float64).to_numpy()
              for name, part in strategy_rows(sessions, "final_bankroll")}  # no column of a Python string per session
    present = [values for values in finals.values() if len(values)]
    low, high = (min(float(v.min()) for v in present), max(float(v.max()) for v in present)) if present else (0.0, 1.0)
    low, high = min(low, initial_bankroll), max(high, initial_bankroll)
    if high <= low:
        high = low + 1.0
    bins = np.linspace(low, high, 51)
    for ax, name in zip(axes, strategies, strict=False):
        values = finals[name]
        counts, _ = np.histogram(values, bins=bins)  # one filled outline, not a patch per bin: the same bars, drawn faster
        ax.stairs(counts, bins, fill=True, color=colors[name], alpha=0.85, label="sessions")
        ax.axvline(initial_bankroll, color="0.2", linestyle="--", linewidth=1, label="initial bankroll")
        ax.axvline(float(np.median(values)), color="black", linewidth=1.5, label="median")
        _title(ax, name, loc="left", fontsize=10)
        ax.set_ylabel("sessions")
        ax.grid(True, alpha=0.3)
    if strategies:
        axes[0].legend(loc="best", fontsize=8, framealpha=0.85)
    axes[-1].set_xlabel("final bankroll of the session")
    _money_axis(axes[-1], "x")
    fig.suptitle("Distribution of final bankrolls", fontsize=13, y=1 - 0.12 / fig.get_figheight(), va="top")
    return fig


def ruin_figure(ruin: pl.DataFrame) -> Figure:
    """Share of sessions ruined (bankroll below the table minimum) by each round, one line per strategy."""
    strategies = _order(ruin)
    colors = strategy_colors(strategies)
    fig = _new_figure(10, 5.5, margins=(0.8, 0.25, 0.45, 0.6))
    ax = fig.subplots()
    for name in strategies:
        curve = ruin.filter(pl.col("strategy") == name)
        ax.step(curve.get_column("round").to_numpy(), 100 * curve.get_column("ruined").to_numpy(), where="post",
                color=colors[name], linewidth=2, label=name)
    if ruin.height and float(ruin.get_column("ruined").max() or 0) == 0:
        ax.text(0.5, 0.5, "no session was ruined", transform=ax.transAxes, ha="center", fontsize=12, color="0.4")
    top = 100 * float(ruin.get_column("ruined").max() or 0) if ruin.height else 0.0
    ax.set_ylim(-0.02 * max(top, 5), max(top, 5) * 1.06)
    ax.set_xlim(left=0)
    ax.set_xlabel("round of the session")
    ax.set_ylabel("sessions ruined so far (%)")
    _title(ax, "Probability of ruin by round", fontsize=13)
    ax.grid(True, alpha=0.3)
    if strategies:
        ax.legend(loc="upper left", fontsize=9)
    return fig


def _label_inches(labels: Sequence[str], points: float = 10.0) -> float:
    """Return a left margin wide enough for ``labels`` as tick labels of ``points`` (DejaVu Sans: about 0.62 em a character)."""
    longest = max((len(label) for label in labels), default=0)
    return min(0.35 + longest * 0.62 * points / 72, 4.5)


def comparison_figure(comparison: pl.DataFrame) -> Figure:
    """Net per session minus the baseline's, with its paired 95% interval, one row per strategy."""
    names = comparison.get_column("strategy").to_list()
    baseline = comparison.get_column("baseline")[0] if comparison.height else ""
    colors = strategy_colors([baseline, *names])
    fig = _new_figure(10, 1.2 + 0.55 * max(len(names), 1) + 1.0, margins=(_label_inches(names), 0.25, 0.45, 0.6))
    ax = fig.subplots()
    y = np.arange(len(names))[::-1]
    for yi, row in zip(y, comparison.iter_rows(named=True), strict=True):
        mean, low, high = row["net_diff_mean"], row["net_diff_ci_low"], row["net_diff_ci_high"]
        if mean is None:
            continue
        err = None if low is None else [[mean - low], [high - mean]]
        ax.errorbar([mean], [yi], xerr=err, fmt="o", color=colors[row["strategy"]], capsize=5, markersize=7, linewidth=2)
    ax.axvline(0, color="0.2", linestyle="--", linewidth=1, label=f"baseline: {baseline}")
    ax.set_yticks(y, names)
    ax.set_ylim(-0.8, len(names) - 0.2)
    ax.set_xlabel(f"net per session minus {baseline}'s (same rounds; 95% paired interval)")
    _title(ax, f"Paired comparison with {baseline}", fontsize=13)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=9)
    _money_axis(ax, "x")
    return fig


def save_png(fig: Figure, target: str | Path | BinaryIO) -> str | Path | BinaryIO:
    """Render ``fig`` as PNG with the Agg canvas into a file path or a binary stream; return ``target``."""
    FigureCanvasAgg(fig).print_png(str(target) if isinstance(target, Path) else target, metadata={"Software": None},
                                   pil_kwargs={"compress_level": PNG_COMPRESSION})
    return target


def save_figures(figures: Mapping[str, Figure], out_dir: str | Path) -> list[Path]:
    """Write each figure as ``out_dir/PLOT_FILES[kind]``; return the paths written."""
    paths = [Path(out_dir) / PLOT_FILES[kind] for kind in figures]
    for path, fig in zip(paths, figures.values(), strict=True):
        save_png(fig, path)
    return paths


def exact_figure(ruin: pl.DataFrame, bands: pl.DataFrame, exact: Sequence) -> Figure:
    """The exact analysis over the simulation: ruin by round, and the bankroll's median and 5-95% band by round.

    ``exact`` holds :class:`baccarat.exact.analysis.ExactResult` objects made with
    bands. Simulated curves are solid (bands shaded), exact ones dashed.
    """
    names = [r.strategy for r in exact]
    colors = strategy_colors(_order(ruin) if ruin.height else names)
    fig = _new_figure(13, 5.5, margins=(0.9, 0.25, 0.75, 0.6), gaps=(0.95, 0.0), grid=(1, 2))
    left, right = fig.subplots(1, 2)
    for result in exact:
        color = colors.get(result.strategy, "0.3")
        curve = ruin.filter(pl.col("strategy") == result.strategy)
        if curve.height:
            left.step(curve.get_column("round").to_numpy(), 100 * curve.get_column("ruined").to_numpy(), where="post",
                      color=color, linewidth=2, alpha=0.6, label=f"{result.strategy} (simulated)")
        left.step(np.arange(len(result.ruin_curve)), 100 * result.ruin_curve, where="post", color=color, linewidth=1.5,
                  linestyle="--", label=f"{result.strategy} (exact)")
        band = bands.filter(pl.col("strategy") == result.strategy)
        if band.height:
            rounds = band.get_column("round").to_numpy()
            right.fill_between(rounds, band.get_column("p5").to_numpy(), band.get_column("p95").to_numpy(),
                               color=color, alpha=0.12, linewidth=0)
            right.plot(rounds, band.get_column("p50").to_numpy(), color=color, linewidth=2, alpha=0.6)
        rows = result.bands
        right.plot(rows[:, 0], rows[:, 3], color=color, linewidth=1.5, linestyle="--", label=f"{result.strategy}")
        right.plot(rows[:, 0], rows[:, 1], color=color, linewidth=1, linestyle=":")
        right.plot(rows[:, 0], rows[:, 5], color=color, linewidth=1, linestyle=":")
    left.set_xlabel("round of the session")
    left.set_ylabel("ruined so far (%)")
    _title(left, "Ruin by round: simulated (solid) and exact (dashed)", fontsize=12)
    right.set_xlabel("round of the session")
    right.set_ylabel("bankroll")
    _title(right, "Bankroll: simulated median and 5-95% band;\nexact median (dashed), 5% and 95% (dotted)", fontsize=11)
    _money_axis(right)
    for ax in (left, right):
        ax.grid(True, alpha=0.3)
        ax.set_xlim(left=0)
    if exact:
        left.legend(loc="upper left", fontsize=8)
    return fig


def png_bytes(fig: Figure) -> bytes:
    """Return ``fig`` rendered as PNG bytes."""
    buffer = io.BytesIO()
    save_png(fig, buffer)
    return buffer.getvalue()
