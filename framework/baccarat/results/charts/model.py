"""Charts as plain objects: what a plot draws, readable by tests and users, drawn as PNG with Pillow.

A :class:`Chart` is a title and a grid of :class:`Panel` objects; a panel has
a title, axis labels, tick formats, an optional legend and its series:

- :class:`Line`: a polyline, or a step line (each value held until the next point);
- :class:`Band`: the area between two curves, shaded;
- :class:`Stairs`: a filled histogram, counts between bin edges;
- :class:`RefLine`: a horizontal (``axis="y"``) or vertical (``axis="x"``) line across the panel;
- :class:`ErrorPoint`: a point with a horizontal error bar.

Data are read-only float arrays, colours RGB tuples (0-255), widths and font
sizes in points (1/72 inch at :data:`DPI` pixels per inch). ``chart.png()``
draws the chart (:mod:`baccarat.results.charts.drawing`); a notebook shows a
chart inline through ``_repr_png_``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

RGB = tuple[int, int, int]
"""A colour: red, green, blue from 0 to 255."""

DPI = 100
"""Pixels per inch of the drawn charts: widths and font sizes are in points (1/72 inch)."""


def _frozen_array(values: object) -> np.ndarray:
    array = np.array(values, dtype=float)
    array.setflags(write=False)
    return array


def _freeze(series: object, *fields: str) -> None:
    for name in fields:
        object.__setattr__(series, name, _frozen_array(getattr(series, name)))


@dataclasses.dataclass(frozen=True, eq=False)
class Line:
    """A polyline through ``(x, y)``; with ``step``, each value is held until the next point (a step after it)."""

    x: np.ndarray
    y: np.ndarray
    color: RGB
    width: float = 1.5
    style: str = "solid"
    """``solid``, ``dashed`` or ``dotted``."""
    alpha: float = 1.0
    label: str | None = None
    step: bool = False

    def __post_init__(self) -> None:
        _freeze(self, "x", "y")


@dataclasses.dataclass(frozen=True, eq=False)
class Band:
    """The area between the curves ``low`` and ``high`` over ``x``, shaded with ``color`` at ``alpha``."""

    x: np.ndarray
    low: np.ndarray
    high: np.ndarray
    color: RGB
    alpha: float = 0.3
    label: str | None = None

    def __post_init__(self) -> None:
        _freeze(self, "x", "low", "high")


@dataclasses.dataclass(frozen=True, eq=False)
class Stairs:
    """A filled histogram: ``counts[i]`` between ``edges[i]`` and ``edges[i + 1]``, from zero."""

    edges: np.ndarray
    counts: np.ndarray
    color: RGB
    alpha: float = 1.0
    label: str | None = None

    def __post_init__(self) -> None:
        _freeze(self, "edges", "counts")


@dataclasses.dataclass(frozen=True)
class RefLine:
    """A reference line across the panel: horizontal at y ``value`` (``axis="y"``) or vertical at x ``value``."""

    value: float
    axis: str
    color: RGB
    width: float = 1.0
    style: str = "solid"
    label: str | None = None


@dataclasses.dataclass(frozen=True)
class ErrorPoint:
    """A point at ``(x, y)`` with a horizontal error bar from ``low`` to ``high`` (none when they are None)."""

    x: float
    y: float
    low: float | None
    high: float | None
    color: RGB
    label: str | None = None


Series = Line | Band | Stairs | RefLine | ErrorPoint


@dataclasses.dataclass(frozen=True)
class Panel:
    """One plotting area: its title, axis labels and series, drawn in order (later over earlier).

    ``x_limits``/``y_limits`` fix either end of an axis (None: the data's
    range with a 5% margin); ``y_ticks`` puts named ticks at given positions
    instead of numbers; ``legend`` is where the legend goes (``best``,
    ``upper left``, ``upper right``, ``lower left``, ``lower right``) or None;
    ``note`` is a text in the middle of the panel.
    """

    series: tuple[Series, ...] = ()
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    x_money: bool = False
    y_money: bool = False
    x_limits: tuple[float | None, float | None] = (None, None)
    y_limits: tuple[float | None, float | None] = (None, None)
    y_ticks: tuple[tuple[float, str], ...] = ()
    x_tick_labels: bool = True
    grid: str = "both"
    """Grid lines at the ticks of ``both`` axes, of ``x`` only, or ``none``."""
    legend: str | None = None
    legend_size: float = 8.0
    title_size: float = 12.0
    title_align: str = "center"
    note: str = ""

    def legend_entries(self) -> list[tuple[str, Series]]:
        """The legend's entries: each label with the first series that carries it, in drawing order."""
        entries: dict[str, Series] = {}
        for series in self.series:
            if series.label and series.label not in entries:
                entries[series.label] = series
        return list(entries.items())

    def labelled(self, label: str) -> Series:
        """Return the first series labelled ``label``."""
        for series in self.series:
            if series.label == label:
                return series
        raise KeyError(label)


@dataclasses.dataclass(frozen=True)
class Chart:
    """A titled grid of panels, ``columns`` wide, filled row by row, ``width`` by ``height`` pixels.

    ``share_x``/``share_y``: every panel has the same x (y) range.
    """

    title: str
    panels: tuple[Panel, ...]
    width: int
    height: int
    columns: int = 1
    share_x: bool = False
    share_y: bool = False
    title_size: float = 13.0

    def png(self) -> bytes:
        """Return the chart drawn as PNG bytes."""
        from baccarat.results.charts.drawing import draw_chart, encode_png

        return encode_png(draw_chart(self))

    def save(self, path: str | Path) -> Path:
        """Write the chart as a PNG file at ``path``; return the path."""
        path = Path(path)
        path.write_bytes(self.png())
        return path

    def _repr_png_(self) -> bytes:
        return self.png()

    def legend_labels(self) -> list[str]:
        """Every legend entry of the chart's panels, in order."""
        return [label for panel in self.panels if panel.legend for label, _ in panel.legend_entries()]
