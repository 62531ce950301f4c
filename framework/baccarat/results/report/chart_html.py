"""Charts in the HTML report: each chart's Vega-Lite specification in its figure, and once the script that draws them all.

A figure holds ``<div class="chart">`` and its specification in a
``<script type="application/json">`` beside it; the page ends with the Vega
JavaScript (:func:`baccarat.results.charts.export.javascript_bundle`) and a few
lines that hand every specification to ``vegaEmbed``. A chart that cannot be
drawn says so in its place.
"""

from __future__ import annotations

import html
from typing import Any

from baccarat.results.charts.export import javascript_bundle, spec_json

EMBED = """
(function () {
  var views = window.baccaratViews = {};
  var drawn = [];
  document.querySelectorAll("div.chart[data-spec]").forEach(function (el) {
    var spec = JSON.parse(document.getElementById(el.getAttribute("data-spec")).textContent);
    drawn.push(vegaEmbed(el, spec, {renderer: "svg", actions: {export: true, source: false, compiled: false, editor: false}})
      .then(function (result) { views[el.id] = result.view; })
      .catch(function (error) { el.textContent = "This chart could not be drawn: " + error; console.error(error); }));
  });
  window.baccaratCharts = Promise.all(drawn);
})();
"""
"""Draws every chart of the page; ``window.baccaratCharts`` settles when all are drawn, ``window.baccaratViews`` holds their Vega views."""


def figure_html(name: str, chart: Any, caption: str, wide: bool = False) -> str:
    """A ``<figure id="plot-NAME">`` holding the chart's place, its specification and its caption.

    ``wide`` charts (fixed-size grids of panels) keep their own width instead of the page's.
    """
    key = html.escape(name, quote=True)
    return (
        f'<figure id="plot-{key}"><div class="chart{" wide" if wide else ""}" id="chart-{key}" data-spec="spec-{key}"></div>'
        f'<script type="application/json" id="spec-{key}">{spec_json(chart, fit=not wide)}</script>'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def scripts_html() -> str:
    """The Vega JavaScript (once per page) and the script that draws the page's charts."""
    return f"<script>{javascript_bundle()}</script>\n<script>{EMBED}</script>\n"
