"""What every chart of a run shares: the row budget, thinning, the strategy colours and legend pick, the round zoom, money scales.

Charts are built in :mod:`baccarat.results.charts.plots` and :mod:`baccarat.results.charts.scoreboard` from these pieces.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import altair as alt
import polars as pl

ROW_BUDGET = 4000
"""Most data rows of one chart: well under Altair's limit of 5,000, whatever the number of strategies and rounds."""

WIDTH = 900
"""Pixels: the width of a chart (in the report, charts of a single view take the page's width instead)."""

ROUND = "round of the session"
MONEY = ",.2f"
PERCENT = ".2%"


F = TypeVar("F", bound=Callable[..., Any])


def unchecked(function: F) -> F:
    """Build the chart without Altair checking every piece against the Vega-Lite schema as it is made.

    That check costs about 40 ms an encoding; the tests check every kind of chart whole (``chart.to_dict()``) instead.
    """

    @functools.wraps(function)
    def build(*args: Any, **kwargs: Any) -> Any:
        from altair.utils.schemapi import debug_mode

        with debug_mode(False):
            return function(*args, **kwargs)

    return build  # type: ignore[return-value]


def order(frame: pl.DataFrame) -> list[str]:
    """The strategies of ``frame`` in the order of the run."""
    return frame.get_column("strategy").unique(maintain_order=True).to_list() if frame.height else []


def thin(frame: pl.DataFrame, budget: int = ROW_BUDGET, by: Sequence[str] = ("strategy",)) -> pl.DataFrame:
    """Keep about ``budget`` rows of ``frame``, evenly spread along each group of ``by`` (its first and last rows kept)."""
    if frame.height <= budget:
        return frame
    groups = max(1, frame.select(pl.struct(list(by)).n_unique()).item())
    keep = max(1, budget // groups - 1)  # every step-th row, and the last: at most budget // groups rows a group
    index, size = pl.int_range(pl.len()).over(list(by)), pl.len().over(list(by))
    step = ((size + keep - 1) // keep).clip(lower_bound=1)
    return frame.filter((index % step == 0) | (index == size - 1))


def steps(frame: pl.DataFrame, value: str) -> pl.DataFrame:
    """Keep the rows of a step curve where ``value`` changes (and each strategy's first and last): the same steps, fewer rows."""
    changed = pl.col(value) != pl.col(value).shift(1).over("strategy")
    index, size = pl.int_range(pl.len()).over("strategy"), pl.len().over("strategy")
    return frame.filter(changed.fill_null(True) | (index == 0) | (index == size - 1))


def rounded(frame: pl.DataFrame, digits: int = 2) -> pl.DataFrame:
    """Floats and decimals rounded to ``digits`` (cents): a smaller page, the same chart."""
    return frame.with_columns(
        pl.col(name).cast(pl.Float64).round(digits) for name, dtype in frame.schema.items() if dtype.is_float() or dtype.is_decimal()
    )


def legend_pick() -> alt.Parameter:
    """A click on a strategy in the legend (or on its line) isolates it; shift-click adds others; double-click resets."""
    return alt.selection_point(fields=["strategy"], bind="legend", name="pick")


def round_zoom() -> alt.Parameter:
    """The mouse wheel zooms the round axis, dragging pans it; double-click resets."""
    return alt.selection_interval(bind="scales", encodings=["x"], name="zoom")


COLOURS = 20
"""Colours of the palette (tableau20; tableau10 up to ten strategies): past them, strategies differ by their lines' dashes too."""

DASHES: tuple[tuple[int, ...], ...] = ((1, 0), (8, 3), (2, 2), (10, 3, 2, 3), (1, 4))
"""The lines' dashes of the strategies, one per round of the palette: solid for the first 20, then long dashes, dots..."""


def dashed(strategies: Sequence[str]) -> bool:
    """Whether strategies differ by their lines' dashes as well as their colours: more strategies than colours."""
    return len(strategies) > COLOURS


def strategy_dashes(strategies: Sequence[str]) -> list[list[int]]:
    """Each strategy's dash (:data:`DASHES`), in the run's order: with its colour, one style per strategy up to 100."""
    return [list(DASHES[(i // COLOURS) % len(DASHES)]) for i in range(len(strategies))]


def alike(strategies: Sequence[str], styles: int = COLOURS * len(DASHES)) -> list[list[str]]:
    """The groups of strategies drawn alike among ``styles`` styles (colours and dashes; or ``COLOURS``, colours alone)."""
    groups = [list(strategies[i::styles]) for i in range(min(styles, len(strategies)))]
    return [group for group in groups if len(group) > 1]


def _legend(strategies: Sequence[str], lines: bool) -> alt.Legend:
    """The strategies' legend: at the right of the chart, or below it in columns past :data:`LEGEND_BESIDE` strategies.

    With ``lines``, each entry is a short stroke in the strategy's colour and dash.
    """
    many = len(strategies) > LEGEND_BESIDE
    shape = {"symbolType": "stroke", "symbolStrokeWidth": 2.5, "symbolSize": 400} if lines else {}
    return alt.Legend(
        title="strategy",
        labelLimit=280,
        symbolLimit=0,
        symbolOpacity=1,
        orient="bottom" if many else "right",
        columns=3 if many else 1,
        direction="vertical",
        **shape,
    )


def strategy_color(strategies: Sequence[str], legend: bool = True, lines: bool = False) -> alt.Color:
    """One colour per strategy, in the run's order, stable across the charts of a run.

    The legend stands at the right of the chart, or below it in columns past
    :data:`LEGEND_BESIDE` strategies. Past :data:`COLOURS` strategies, colours
    repeat: charts of lines add :func:`strategy_dash` (``lines``: the legend's
    entries are strokes, the colour's and the dash's one legend), charts of rows name each row.
    """
    scheme = "tableau10" if len(strategies) <= 10 else "tableau20"
    return alt.Color(
        "strategy:N",
        sort=list(strategies),
        scale=alt.Scale(domain=list(strategies), scheme=scheme),
        legend=_legend(strategies, lines) if legend else None,
    )


def strategy_dash(strategies: Sequence[str]) -> alt.StrokeDash | None:
    """Past :data:`COLOURS` strategies, each line's dash (:func:`strategy_dashes`), in the colour's legend; else None (solid)."""
    if not dashed(strategies):
        return None
    return alt.StrokeDash(
        "strategy:N",
        sort=list(strategies),
        scale=alt.Scale(domain=list(strategies), range=strategy_dashes(strategies)),
        legend=_legend(strategies, True),
    )


def line_style(strategies: Sequence[str]) -> dict[str, Any]:
    """The encodings that tell the strategies' lines apart: ``color``, and ``strokeDash`` past :data:`COLOURS` strategies."""
    dash = strategy_dash(strategies)
    return {"color": strategy_color(strategies, lines=dash is not None)} | ({"strokeDash": dash} if dash is not None else {})


LEGEND_BESIDE = 12
"""Most strategies whose legend stands beside a chart; more go below it, in three columns."""


SPAN = 20.0
"""Money reaching this many times the initial bankroll is drawn on a symlog scale: the start stays readable."""


def money_scale(high: float, initial_bankroll: float, floor: float) -> alt.Scale:
    """A linear scale, or a symlog one (logarithmic, yet through zero) when the money climbs decades above the initial bankroll."""
    if high >= SPAN * max(initial_bankroll, 1e-9):
        return alt.Scale(type="symlog", constant=max(floor, 1.0))
    return alt.Scale(zero=False)


def fade(pick: alt.Parameter, on: float = 1.0, off: float = 0.12, empty: bool = True) -> alt.OpacityValue:
    """Opacity ``on`` for the picked strategies (all of them when none is picked, unless not ``empty``), ``off`` for the others."""
    return alt.OpacityValue(value=off, condition={"param": pick.name, "value": on, "empty": empty})
