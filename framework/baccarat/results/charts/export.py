"""Charts as text for the report and as files on request: the Vega-Lite JSON, the offline JavaScript, PNG and SVG.

The report embeds each chart's specification and, once, the JavaScript that
draws them (Vega, Vega-Lite and vega-embed from ``vl_convert.javascript_bundle``):
the page needs no network. Building that bundle takes a second or two, so it is
kept beside this module in ``__pycache__`` (where numba keeps the compiled
kernels too; nothing goes to the home folder), one file per vl-convert version. PNG and SVG
files are rendered by vl-convert without a browser, only when asked for.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FORMATS = ("png", "svg")
"""The file formats charts are exported in."""

PNG_SCALE = 2.0
"""Pixels per CSS pixel of an exported PNG: sharp on high-density screens and when zoomed."""


def spec(chart: Any) -> dict[str, Any]:
    """The chart's Vega-Lite specification as plain JSON data (not validated again: the tests validate every kind)."""
    return chart.to_dict(validate=False)


def spec_json(chart: Any, fit: bool = False) -> str:
    """The chart's specification as compact JSON, safe inside an HTML ``<script>`` element.

    With ``fit``, a chart of a single view (or of layers) takes the width of its place in the page.
    """
    data = spec(chart)
    if fit and "width" in data:
        data["width"] = "container"
    return json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")


def _cache_folder() -> Path:
    return Path(__file__).resolve().parent / "__pycache__"


@functools.cache
def javascript_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script defining ``vegaEmbed`` (about 0.9 MB), from the cache when there.

    A cache that cannot be read or written is skipped: the bundle is then built each time.
    """
    import vl_convert

    path = _cache_folder() / f"vega-embed-{vl_convert.__version__}.js"
    try:
        text = path.read_text(encoding="utf-8")
        if "vegaEmbed" in text[-400:]:  # a whole bundle ends by defining it
            return text
    except (OSError, UnicodeDecodeError):
        pass
    text = vl_convert.javascript_bundle()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return text


def chart_bytes(chart: Any, fmt: str) -> bytes:
    """The chart rendered as ``png`` or ``svg`` by vl-convert (no browser)."""
    import vl_convert

    data = spec(chart)
    if fmt == "png":
        return vl_convert.vegalite_to_png(data, scale=PNG_SCALE)
    if fmt == "svg":
        return vl_convert.vegalite_to_svg(data).encode("utf-8")
    raise ValueError(f"charts are exported as {' or '.join(FORMATS)}, not {fmt!r}")


def chart_files(charts: Mapping[str, Any], formats: tuple[str, ...]) -> dict[str, bytes]:
    """Every chart in every format, by file name (``KIND.png``, ``KIND.svg``)."""
    return {f"{kind}.{fmt}": chart_bytes(chart, fmt) for kind, chart in charts.items() for fmt in formats}
