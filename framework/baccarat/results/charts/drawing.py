"""Draw a :class:`~baccarat.results.charts.model.Chart` as a PNG with Pillow.

Everything is drawn at :data:`SCALE` times the chart's size and reduced once
with a box filter, which smooths lines, edges and text. Each panel's data are
drawn on an image of its own, which clips them to the panel; translucent
series are composited (bands and histograms as one polygon each, lines
through a mask so that their joints do not darken). Margins are measured from
the tick labels; tick values step by 1, 2 or 5 times a power of ten.
"""

from __future__ import annotations

import functools
import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from baccarat.results.charts.model import DPI, RGB, Band, Chart, ErrorPoint, Line, Panel, RefLine, Series, Stairs

SCALE = 2
"""The chart is drawn at this multiple of its size, then reduced: antialiasing."""

PNG_COMPRESSION = 1
"""zlib level of the PNG files: the same pixels as the default level 6, in a fraction of the time, files a little larger."""

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GRID: RGB = (231, 231, 231)
"""Grid lines: light grey (#b0b0b0 at 30% over white)."""
NOTE: RGB = (102, 102, 102)
LEGEND_EDGE: RGB = (204, 204, 204)
TEXT_SIZE = 10.0
"""Points of tick labels and axis labels."""
TICK = 3.5
"""Points: length of a tick mark, and the gap between it and its label."""
DASHES = {"dashed": (3.7, 1.6), "dotted": (1.0, 1.65)}
"""Dash patterns, on and off, in multiples of the line width."""


def px(points: float) -> float:
    """Pixels of the drawing (at :data:`SCALE`) for ``points``."""
    return points * DPI / 72 * SCALE


@functools.lru_cache(maxsize=32)
def font(points: float) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``points``."""
    return ImageFont.load_default(round(px(points)))


def one_line(text: str) -> str:
    """``text`` with its line breaks as spaces (Pillow places and measures single lines only)."""
    return text.replace("\n", " ")


def line_height(points: float) -> float:
    """Pixels from the top of the tallest letter to the bottom of the lowest, at ``points``."""
    ascent, descent = font(points).getmetrics()
    return ascent + descent


def nice_ticks(low: float, high: float, target: int) -> tuple[np.ndarray, float]:
    """Tick values within ``[low, high]``, about ``target`` steps of 1, 2 or 5 times a power of ten, and the step."""
    span = high - low
    if not (span > 0 and math.isfinite(span)):
        return np.array([low]), 1.0
    raw = span / max(target, 1)
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return np.arange(first, last + 1) * step, step


def tick_texts(values: np.ndarray, step: float, money: bool) -> list[str]:
    """Tick labels: money with thousands separators (``{:,.0f}``), decimals only where the step needs them."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    pattern = ("{:,.%df}" if money else "{:.%df}") % decimals
    return [pattern.format(0.0 if abs(value) < step / 2 else value) for value in values]  # never "-0"


def _values(series: Series, axis: str) -> list[np.ndarray]:
    if isinstance(series, Line):
        return [series.x if axis == "x" else series.y]
    if isinstance(series, Band):
        return [series.x] if axis == "x" else [series.low, series.high]
    if isinstance(series, Stairs):
        return [series.edges] if axis == "x" else [series.counts, np.zeros(1)]
    if isinstance(series, RefLine):
        return [np.array([series.value])] if series.axis == axis else []
    if axis == "x":
        return [np.array([v for v in (series.x, series.low, series.high) if v is not None], dtype=float)]
    return [np.array([series.y], dtype=float)]


def data_range(panels: list[Panel], axis: str) -> tuple[float, float] | None:
    """The least and greatest finite value the series of ``panels`` draw on ``axis``, or None."""
    arrays = [a[np.isfinite(a)] for panel in panels for s in panel.series for a in _values(s, axis) if len(a)]
    arrays = [a for a in arrays if len(a)]
    if not arrays:
        return None
    return min(float(a.min()) for a in arrays), max(float(a.max()) for a in arrays)


def axis_limits(panel: Panel, axis: str, found: tuple[float, float] | None) -> tuple[float, float]:
    """The range of ``axis``: the data's with a 5% margin (from zero for a histogram's counts), or the panel's fixed ends."""
    low, high = found if found is not None else (0.0, 1.0)
    span = high - low
    margin = 0.05 * span if span > 0 else max(abs(low) * 0.05, 0.5)
    start, end = low - margin, high + margin
    if axis == "y" and low >= 0 and any(isinstance(s, Stairs) for s in panel.series):
        start = 0.0
    fixed = panel.x_limits if axis == "x" else panel.y_limits
    start = fixed[0] if fixed[0] is not None else start
    end = fixed[1] if fixed[1] is not None else end
    return (start, end) if end > start else (start, start + 1.0)


class Axes:
    """A panel's data-to-pixel mapping, in the coordinates of its own image."""

    def __init__(self, xlim: tuple[float, float], ylim: tuple[float, float], width: int, height: int) -> None:
        self.xlim, self.ylim, self.width, self.height = xlim, ylim, width, height

    def x(self, values: np.ndarray | float) -> np.ndarray:
        """Pixel columns of x ``values``."""
        return (np.asarray(values, dtype=float) - self.xlim[0]) / (self.xlim[1] - self.xlim[0]) * self.width

    def y(self, values: np.ndarray | float) -> np.ndarray:
        """Pixel rows of y ``values`` (upward on the image)."""
        return self.height - (np.asarray(values, dtype=float) - self.ylim[0]) / (self.ylim[1] - self.ylim[0]) * self.height

    def points(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``(n, 2)`` pixel coordinates of the finite points of ``(x, y)``."""
        pts = np.column_stack((self.x(x), self.y(y)))
        return pts[np.isfinite(pts).all(axis=1)]


def dashes(pts: np.ndarray, on: float, off: float) -> list[np.ndarray]:
    """The dashes of the polyline ``pts``: pieces ``on`` pixels long, ``off`` apart."""
    if len(pts) < 2:
        return [pts]
    along = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))))
    starts = np.arange(0.0, along[-1], on + off)
    ends = np.minimum(starts + on, along[-1])
    first = np.column_stack((np.interp(starts, along, pts[:, 0]), np.interp(starts, along, pts[:, 1])))
    last = np.column_stack((np.interp(ends, along, pts[:, 0]), np.interp(ends, along, pts[:, 1])))
    inner = np.searchsorted(along, np.column_stack((starts, ends)), side="right")
    return [np.vstack((first[k], pts[inner[k, 0] : inner[k, 1]], last[k])) for k in range(len(starts))]


class Layer:
    """Translucent lines of one colour and opacity on one mask, composited at once: crossings and joints do not darken."""

    def __init__(self, image: Image.Image) -> None:
        self.image, self.key, self.mask = image, None, None

    def draw(self, color: RGB, alpha: float) -> ImageDraw.ImageDraw:
        """A pen on the mask of ``color`` at ``alpha``: what was drawn in another colour is composited first."""
        if self.key != (color, alpha):
            self.flush()
            self.key, self.mask = (color, alpha), Image.new("L", self.image.size, 0)
        return ImageDraw.Draw(self.mask)

    def flush(self) -> None:
        """Composite what the mask holds onto the image."""
        if self.mask is not None and (box := self.mask.getbbox()) is not None:
            self.image.paste(self.key[0], box, self.mask.crop(box))
        self.key, self.mask = None, None


def stroke(
    image: Image.Image, pts: np.ndarray, color: RGB, width: float, style: str = "solid", alpha: float = 1.0, layer: Layer | None = None
) -> None:
    """Draw the polyline ``pts``: solid, dashed or dotted; opaque, or at ``alpha`` on ``layer`` (else composited now)."""
    if len(pts) < 2:
        return
    thick = max(1, round(px(width)))
    pieces = [pts] if style == "solid" else dashes(pts, *(max(1.0, f * thick) for f in DASHES[style]))
    own = alpha < 1 and layer is None
    layer = Layer(image) if own else layer
    draw = ImageDraw.Draw(image) if alpha >= 1 else layer.draw(color, alpha)
    ink = color if alpha >= 1 else round(255 * alpha)
    for piece in pieces:
        draw.line(piece.ravel().tolist(), fill=ink, width=thick)
    if own:
        layer.flush()


def fill(image: Image.Image, pts: np.ndarray, color: RGB, alpha: float) -> None:
    """Fill the polygon ``pts`` on ``image`` with ``color`` composited at ``alpha``."""
    if len(pts) >= 3:
        ImageDraw.Draw(image, "RGBA").polygon(pts.ravel().tolist(), fill=(*color, round(255 * alpha)))


def step_points(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners of a step line through ``(x, y)`` that holds each value until the next point."""
    return np.repeat(x, 2)[1:], np.repeat(y, 2)[:-1]


def draw_series(image: Image.Image, axes: Axes, series: Series, layer: Layer | None = None) -> None:
    """Draw one series on a panel's image (a translucent line on ``layer``, when given)."""
    if isinstance(series, Line):
        x, y = step_points(series.x, series.y) if series.step else (series.x, series.y)
        stroke(image, axes.points(x, y), series.color, series.width, series.style, series.alpha, layer)
    elif isinstance(series, Band):
        fill(image, np.vstack((axes.points(series.x, series.high), axes.points(series.x, series.low)[::-1])), series.color, series.alpha)
    elif isinstance(series, Stairs):
        x, y = step_points(series.edges, np.append(series.counts, series.counts[-1:]))
        fill(
            image,
            axes.points(np.concatenate(([x[0]], x, [x[-1]])), np.concatenate(([0.0], y[:-1], [y[-2], 0.0]))),
            series.color,
            series.alpha,
        )
    elif isinstance(series, RefLine):
        at = float(axes.y(series.value) if series.axis == "y" else axes.x(series.value))
        pts = np.array([[0, at], [axes.width, at]] if series.axis == "y" else [[at, 0], [at, axes.height]], dtype=float)
        stroke(image, pts, series.color, series.width, series.style)
    else:
        draw_error_point(
            ImageDraw.Draw(image),
            float(axes.x(series.x)),
            float(axes.y(series.y)),
            series,
            None if series.low is None else (float(axes.x(series.low)), float(axes.x(series.high))),
        )


def draw_error_point(
    draw: ImageDraw.ImageDraw, x: float, y: float, point: ErrorPoint, bar: tuple[float, float] | None, cap: float = 5.0, marker: float = 7.0
) -> None:
    """A round marker at ``(x, y)`` with a horizontal error bar between the pixel columns ``bar``, capped."""
    thick, half = max(1, round(px(2.0))), px(cap)
    if bar is not None:
        draw.line([bar[0], y, bar[1], y], fill=point.color, width=thick)
        for end in bar:
            draw.line([end, y - half, end, y + half], fill=point.color, width=thick)
    radius = px(marker) / 2
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=point.color)


LEGEND_PLACES = ("upper right", "upper left", "lower left", "lower right", "upper center", "lower center")


def _crowding(panel: Panel, axes: Axes) -> np.ndarray:
    """Points along every series of a panel, in pixels, to keep the legend clear of."""
    found = []
    for s in panel.series:
        if isinstance(s, (Line, Band)) and len(s.x) > 1:
            x = np.linspace(float(s.x.min()), float(s.x.max()), 120)
            for y in [s.y] if isinstance(s, Line) else [s.low, s.high]:
                found.append(axes.points(x, np.interp(x, s.x, y)))
        elif isinstance(s, Stairs) and len(s.counts):
            middle = (s.edges[1:] + s.edges[:-1]) / 2
            found.append(axes.points(np.repeat(middle, 4), np.concatenate([s.counts * f for f in (0.25, 0.5, 0.75, 1)])))
        elif isinstance(s, RefLine):
            line = np.linspace(0, axes.width if s.axis == "y" else axes.height, 60)
            at = np.full(60, float(axes.y(s.value) if s.axis == "y" else axes.x(s.value)))
            found.append(np.column_stack((line, at) if s.axis == "y" else (at, line)))
    return np.vstack(found) if found else np.zeros((0, 2))


def draw_legend(image: Image.Image, panel: Panel, axes: Axes) -> None:
    """The panel's legend box: a sample of each entry's series and its label, where the panel asks."""
    entries = [(one_line(label), series) for label, series in panel.legend_entries()]
    if not entries:
        return
    size = panel.legend_size
    em, row, face = px(size), line_height(size), font(size)
    pad, handle, gap, spacing, edge = 0.4 * em, 2.0 * em, 0.8 * em, 0.5 * em, 0.5 * em
    width = 2 * pad + handle + gap + max(face.getlength(label) for label, _ in entries)
    height = 2 * pad + len(entries) * row + (len(entries) - 1) * spacing
    corners = {
        place: (
            edge if "left" in place else (axes.width - width) / 2 if "center" in place else axes.width - width - edge,
            edge if "upper" in place else axes.height - height - edge,
        )
        for place in LEGEND_PLACES
    }
    place = panel.legend
    if place not in corners:
        points = _crowding(panel, axes)
        place = min(
            LEGEND_PLACES,
            key=lambda p: int(
                (
                    (points[:, 0] >= corners[p][0])
                    & (points[:, 0] <= corners[p][0] + width)
                    & (points[:, 1] >= corners[p][1])
                    & (points[:, 1] <= corners[p][1] + height)
                ).sum()
            ),
        )
    left, top = corners[place]
    ImageDraw.Draw(image, "RGBA").rounded_rectangle(
        [left, top, left + width, top + height],
        radius=0.2 * em,
        fill=(255, 255, 255, 217),
        outline=LEGEND_EDGE,
        width=max(1, round(px(0.8))),
    )
    draw = ImageDraw.Draw(image)
    for k, (label, series) in enumerate(entries):
        middle = top + pad + k * (row + spacing) + row / 2
        start, end = left + pad, left + pad + handle
        if isinstance(series, (Band, Stairs)):
            alpha = series.alpha
            shade = tuple(round(c * alpha + 255 * (1 - alpha)) for c in series.color)
            draw.rectangle([start, middle - 0.35 * em, end, middle + 0.35 * em], fill=shade)
        elif isinstance(series, ErrorPoint):
            draw_error_point(draw, (start + end) / 2, middle, series, (start, end), cap=size / 3, marker=size * 0.8)
        else:
            alpha = getattr(series, "alpha", 1.0)
            stroke(image, np.array([[start, middle], [end, middle]]), series.color, series.width, series.style, alpha)
        draw.text((end + gap, middle), label, font=face, fill=BLACK, anchor="lm")


def vertical_text(image: Image.Image, text: str, points: float, centre: tuple[float, float]) -> None:
    """Write ``text`` turned a quarter left (read bottom to top), centred at ``centre``."""
    face, text = font(points), one_line(text)
    mask = Image.new("L", (max(1, math.ceil(face.getlength(text))), math.ceil(line_height(points))), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=face, fill=255)
    mask = mask.rotate(90, expand=True)
    image.paste(BLACK, (round(centre[0] - mask.width / 2), round(centre[1] - mask.height / 2)), mask)


def _ticks(panel: Panel, axis: str, limits: tuple[float, float], length: float) -> tuple[np.ndarray, list[str]]:
    if axis == "y" and panel.y_ticks:
        return np.array([at for at, _ in panel.y_ticks], dtype=float), [one_line(name) for _, name in panel.y_ticks]
    target = max(3, min(9, round(length / px(70 if axis == "x" else 25))))
    values, step = nice_ticks(*limits, target)
    return values, tick_texts(values, step, panel.x_money if axis == "x" else panel.y_money)


def draw_chart(chart: Chart) -> Image.Image:
    """Return ``chart`` drawn as an RGB image of ``chart.width`` by ``chart.height`` pixels."""
    width, height = chart.width * SCALE, chart.height * SCALE
    image = Image.new("RGB", (width, height), WHITE)
    draw = ImageDraw.Draw(image)
    top = px(6)
    if chart.title:
        draw.text((width / 2, top), one_line(chart.title), font=font(chart.title_size), fill=BLACK, anchor="mt")
        top += line_height(chart.title_size) + px(8)
    panels = list(chart.panels)
    columns = max(1, min(chart.columns, len(panels)))
    rows = max(1, math.ceil(len(panels) / columns))
    cell_width, cell_height = width / columns, (height - top) / rows
    shared = {axis: data_range(panels, axis) for axis, on in (("x", chart.share_x), ("y", chart.share_y)) if on}
    limits = [
        (
            axis_limits(p, "x", shared["x"] if "x" in shared else data_range([p], "x")),
            axis_limits(p, "y", shared["y"] if "y" in shared else data_range([p], "y")),
        )
        for p in panels
    ]
    ticks = [
        (_ticks(p, "x", lim[0], cell_width * 0.8), _ticks(p, "y", lim[1], cell_height * 0.7)) for p, lim in zip(panels, limits, strict=True)
    ]
    label_row = line_height(TEXT_SIZE)
    left = (
        px(8)
        + max(
            (label_row + px(4) if p.ylabel else 0) + max((font(TEXT_SIZE).getlength(t) for t in tk[1][1]), default=0)
            for p, tk in zip(panels, ticks, strict=True)
        )
        + px(2 * TICK)
    )
    left, right = min(left, 0.45 * cell_width), px(14)  # a very long tick label is cut at the image's edge
    heads = [(sum(line_height(p.title_size) for _ in p.title.split("\n")) + px(6)) if p.title else px(4) for p in panels]
    feet = [px(4) + (px(2 * TICK) + label_row if p.x_tick_labels else px(2)) + (label_row + px(4) if p.xlabel else 0) for p in panels]
    row_head = [max(heads[r * columns : (r + 1) * columns]) for r in range(rows)]
    row_foot = [max(feet[r * columns : (r + 1) * columns]) for r in range(rows)]
    panel_height = max(px(20), (height - top - sum(row_head) - sum(row_foot)) / rows)
    for k, (panel, (xlim, ylim), (xt, yt)) in enumerate(zip(panels, limits, ticks, strict=True)):
        r, c = divmod(k, columns)
        x0 = round(c * cell_width + left)
        y0 = round(top + sum(row_head[: r + 1]) + sum(row_foot[:r]) + r * panel_height)
        x1, y1 = round((c + 1) * cell_width - right), round(y0 + panel_height)
        draw_panel(image, panel, Axes(xlim, ylim, max(1, x1 - x0), max(1, y1 - y0)), (x0, y0), xt, yt, left)
    return image.reduce(SCALE) if SCALE > 1 else image


def draw_panel(  # noqa: C901 - the panel drawer
    image: Image.Image,
    panel: Panel,
    axes: Axes,
    origin: tuple[int, int],
    xticks: tuple[np.ndarray, list[str]],
    yticks: tuple[np.ndarray, list[str]],
    left: float,
) -> None:
    """Draw one panel with its top left corner at ``origin``: grid, series, legend, frame, ticks and labels."""
    canvas = Image.new("RGB", (axes.width, axes.height), WHITE)
    grid = ImageDraw.Draw(canvas)
    thin = max(1, round(px(0.8)))
    if panel.grid in ("both", "x"):
        for at in axes.x(xticks[0]):
            grid.line([at, 0, at, axes.height], fill=GRID, width=thin)
    if panel.grid == "both":
        for at in axes.y(yticks[0]):
            grid.line([0, at, axes.width, at], fill=GRID, width=thin)
    layer = Layer(canvas)
    for series in panel.series:
        if not (isinstance(series, Line) and series.alpha < 1):
            layer.flush()  # what was drawn before stays below
        draw_series(canvas, axes, series, layer)
    layer.flush()
    if panel.note:
        grid.text((axes.width / 2, axes.height / 2), one_line(panel.note), font=font(12), fill=NOTE, anchor="mm")
    if panel.legend:
        draw_legend(canvas, panel, axes)
    x0, y0 = origin
    x1, y1 = x0 + axes.width, y0 + axes.height
    image.paste(canvas, origin)
    draw = ImageDraw.Draw(image)
    draw.rectangle([x0 - thin, y0 - thin, x1 + thin - 1, y1 + thin - 1], outline=BLACK, width=thin)
    face, tick = font(TEXT_SIZE), px(TICK)
    for at, text in zip(axes.x(xticks[0]), xticks[1], strict=True):
        draw.line([x0 + at, y1, x0 + at, y1 + tick], fill=BLACK, width=thin)
        if panel.x_tick_labels:
            draw.text((x0 + at, y1 + 2 * tick), text, font=face, fill=BLACK, anchor="mt")
    for at, text in zip(axes.y(yticks[0]), yticks[1], strict=True):
        draw.line([x0 - tick, y0 + at, x0, y0 + at], fill=BLACK, width=thin)
        draw.text((x0 - 2 * tick, y0 + at), text, font=face, fill=BLACK, anchor="rm")
    row = line_height(TEXT_SIZE)
    if panel.xlabel:
        below = y1 + (2 * tick + row if panel.x_tick_labels else px(2)) + px(4)
        draw.text(((x0 + x1) / 2, below), one_line(panel.xlabel), font=face, fill=BLACK, anchor="mt")
    if panel.ylabel:
        vertical_text(image, panel.ylabel, TEXT_SIZE, (x0 - left + px(8) + row / 2, (y0 + y1) / 2))
    if panel.title:
        lines = panel.title.split("\n")
        title_row = line_height(panel.title_size)
        at_x, anchor = (x0, "ld") if panel.title_align == "left" else ((x0 + x1) / 2, "md")
        for k, text in enumerate(lines):
            draw.text((at_x, y0 - px(6) - (len(lines) - 1 - k) * title_row), text, font=font(panel.title_size), fill=BLACK, anchor=anchor)


def encode_png(image: Image.Image) -> bytes:
    """Return ``image`` as PNG bytes (zlib level :data:`PNG_COMPRESSION`, no metadata)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESSION)
    return buffer.getvalue()
