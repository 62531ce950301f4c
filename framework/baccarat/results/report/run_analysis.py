"""A run's statistics as one object: :class:`Analysis`, the frames of the summary, the comparison, the curves
and the charts drawn from them (its own module, so that the report's page and the functions that make an
analysis both import it, and neither imports the other)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from baccarat.results.statistics.ledger_stats import SESSION_COLUMNS

if TYPE_CHECKING:
    import altair as alt

SESSIONS_FILE = "sessions.parquet"

Pending = Any
"""A frame, or a future of it still being computed in the background (see :func:`analyse`)."""


def _ready(value: Pending) -> pl.DataFrame:
    return value.result() if isinstance(value, Future) else value


@dataclasses.dataclass
class Analysis:
    """Every statistic of a run, as polars frames (see :mod:`baccarat.results.statistics.ledger_stats`).

    Frames still computed in the background are waited for when first used.
    """

    _sessions: pl.DataFrame | pl.LazyFrame = dataclasses.field(repr=False)
    _summary: Pending = dataclasses.field(repr=False)
    _comparison: Pending = dataclasses.field(repr=False)
    _bands: Pending = dataclasses.field(repr=False)
    ruin: pl.DataFrame
    _paths: Pending = dataclasses.field(repr=False)
    initial_bankroll: Decimal
    table_min: Decimal
    _finals: Pending = dataclasses.field(default=None, repr=False)
    patterns: dict[str, Any] | None = None
    """The run's shoes tested against fair shoes, as its report shows them
    (:func:`baccarat.results.patterns.against_fair.run_against_fair`); None when the report was not written or
    the run is too large for the test."""

    @property
    def sessions(self) -> pl.DataFrame:
        """One row per strategy and session (:func:`baccarat.results.statistics.folded.fold_sessions`).

        A large run's table stays in its ``sessions.parquet`` and is read from there each time it is asked for.
        """
        return self._sessions.collect() if isinstance(self._sessions, pl.LazyFrame) else self._sessions

    def scan_sessions(self) -> pl.LazyFrame:
        """The session table as a lazy frame (a scan of ``sessions.parquet`` when the run wrote it there)."""
        return self._sessions.lazy()

    def moved_to(self, folder: Path) -> None:
        """Read the session table from ``folder``'s ``sessions.parquet`` from now on, when it is read from a file.

        For a run folder written under a temporary name and then renamed.
        """
        if isinstance(self._sessions, pl.LazyFrame):
            self._sessions = pl.scan_parquet(Path(folder) / SESSIONS_FILE).select(SESSION_COLUMNS)

    @property
    def summary(self) -> pl.DataFrame:
        """One row per strategy (:func:`baccarat.results.statistics.ledger_stats.summary_table`)."""
        self._summary = _ready(self._summary)
        return self._summary

    @property
    def comparison(self) -> pl.DataFrame:
        """Each strategy against the baseline, paired by session (:func:`baccarat.results.comparisons.strategies.paired_comparison`)."""
        self._comparison = _ready(self._comparison)
        return self._comparison

    @property
    def bands(self) -> pl.DataFrame:
        """The bankroll percentile bands (:meth:`baccarat.results.statistics.folded.RunStatsCollector.bands`)."""
        self._bands = _ready(self._bands)
        return self._bands

    @property
    def finals(self) -> pl.DataFrame:
        """The final bankrolls' percentiles per strategy (:func:`baccarat.results.statistics.curves.final_quantiles`)."""
        self._finals = _ready(self._finals)
        return self._finals

    @property
    def paths(self) -> pl.DataFrame:
        """The bankroll paths of a few sample sessions (:meth:`baccarat.results.statistics.folded.RunStatsCollector.sample_paths`)."""
        self._paths = _ready(self._paths)
        return self._paths

    def chart(self, kind: str) -> alt.TopLevelMixin:
        """Return one chart of the run (a Vega-Altair chart) by kind: see :data:`CHART_KINDS`."""
        from baccarat.results.charts import plots

        initial, minimum = float(self.initial_bankroll), float(self.table_min)
        if kind == "bankroll":
            return plots.bankroll_chart(self.bands, initial, minimum)
        if kind == "strategies":
            return plots.small_multiples(self.bands, self.paths, initial, minimum)
        if kind == "ruin":
            return plots.ruin_chart(self.ruin)
        if kind == "final":
            return plots.final_chart(self.finals, initial, minimum)
        if kind == "comparison" and self.comparison.height:
            return plots.comparison_chart(self.comparison, plots.order(self.summary))
        if kind == "drawdown":
            return plots.drawdown_chart(self.paths)
        if kind == "grid" and (grid := plots.grid_chart(self.summary)) is not None:
            return grid
        from baccarat.errors import InputError, did_you_mean

        if kind in CHART_KINDS:
            raise InputError(
                f"this run has no {kind} chart: {'a single strategy' if kind == 'comparison' else 'no grid of two parameters'}"
            )
        raise InputError(f"unknown chart {kind!r}{did_you_mean(kind, list(CHART_KINDS))}; charts are {', '.join(CHART_KINDS)}")

    def charts(self) -> dict[str, alt.TopLevelMixin]:
        """Return every chart the run has, by kind (no comparison for a single strategy, no grid outside grid experiments)."""
        from baccarat.results.charts.plots import grid_params

        kinds = [k for k in CHART_KINDS if k != "comparison" or self.comparison.height]
        if grid_params(self.summary.get_column("strategy").to_list()) is None:
            kinds.remove("grid")
        return {kind: self.chart(kind) for kind in kinds}


CHART_KINDS = ("bankroll", "strategies", "ruin", "final", "comparison", "drawdown", "grid")
"""The charts of a run, in the report's order: medians overlaid, one panel per strategy, survival, final bankrolls,
paired difference against the baseline, drawdown, and for grid experiments a heatmap over two swept parameters."""
