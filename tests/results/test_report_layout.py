"""report.html in a real headless browser, offline: every chart drawn, the legend picks, the page fits 1400 pixels.

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it) loads each
report in a 1400 x 1000 window with the network cut off (every host resolves
to nothing, every request goes to a closed proxy) and a probe added to the
page: a first script records console errors and uncaught exceptions, a last
one waits until vega-embed has drawn every chart, then writes into the page
what it found: each chart's Vega view and its drawn marks, the resources the
page requested, what a click on a legend entry changed, and what the layout
engine measured (the page's scroll width against its client width, elements
reaching past the window, header words broken across lines). Chromium prints
the page back (``--dump-dom``) once its virtual clock has run the scripts, and
the test reads the figures. One Chromium per report, none shared.

Without Chromium the tests are skipped, and they fail instead under CI
(``CI=true``), where .ci/run has installed it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import baccarat
from baccarat.results.charts.plots import grid_params

pytestmark = pytest.mark.slow  # a real browser: the slow tier

WINDOW = (1400, 1000)
CHROMIUM = next(filter(None, (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome"))), None)

if CHROMIUM is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("Chromium is needed for the report layout tests; .ci/run installs it (apt-get install chromium)")
    pytestmark = pytest.mark.skip(reason="Chromium is not installed (apt-get install chromium; .ci/run installs it in CI)")

FIRST = """<script>
window.probeErrors = [];
window.addEventListener("error", function (e) { window.probeErrors.push(String(e.message)); });
window.addEventListener("unhandledrejection", function (e) { window.probeErrors.push(String(e.reason)); });
(function () {
  var original = console.error;
  console.error = function () { window.probeErrors.push(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); };
})();
</script>"""

LAST = """<script>
function probeLayout() {
  var root = document.documentElement, over = [], broken = [];
  document.querySelectorAll("body *").forEach(function (el) {
    if (el.closest(".scroll > table") || el.closest("#vg-tooltip-element")) { return; }  // inside a table that scrolls itself
    var style = getComputedStyle(el), box = el.getBoundingClientRect();
    var scrolls = (style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1;
    if ((scrolls && !el.classList.contains("scroll")) || box.right > root.clientWidth + 1) {
      over.push({tag: el.tagName, id: el.id, right: Math.round(box.right), scrolls: scrolls});
    }
  });
  document.querySelectorAll("table th, table td.label").forEach(function (cell) {
    var walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node;
    while ((node = walker.nextNode())) {
      var re = /[^\\s\\-]+/g, m;  // a word: no space, no hyphen (a line may break after a hyphen)
      while ((m = re.exec(node.data))) {
        var range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        var rects = range.getClientRects();
        if (rects.length > 1) {  // broken across lines: a fault unless the word is wider than its cell can ever be
          var style = getComputedStyle(cell), width = 0;
          for (var k = 0; k < rects.length; k++) { width += rects[k].width; }
          var room = parseFloat(style.maxWidth) || cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          if (width <= room + 1) { broken.push(m[0]); }
        }
      }
    }
  });
  var headers = Array.prototype.map.call(document.querySelectorAll("table#summary thead th"), function (th) { return th.textContent; });
  var first = document.querySelector("table#summary tbody td.label");
  var comparison = document.querySelector("table#comparison"), fits = null;
  if (comparison) {
    var holder = comparison.parentElement, box = comparison.getBoundingClientRect();
    fits = {right: Math.round(box.right), width: Math.round(box.width), holder: holder.clientWidth,
            holderScrolls: holder.scrollWidth > holder.clientWidth + 1, tableScrolls: comparison.scrollWidth > comparison.clientWidth + 1,
            headers: Array.prototype.map.call(comparison.querySelectorAll("thead th"), function (th) { return th.textContent; }),
            rows: comparison.querySelectorAll("tbody tr").length};
  }
  return {window: window.innerWidth, page: root.scrollWidth, client: root.clientWidth, over: over, broken: broken,
          headers: headers, tables: document.querySelectorAll("table[id^=summary]").length,
          sticky: first ? getComputedStyle(first).position : "", comparison: fits};
}
function probeStyles() {
  // Every line drawn (opacity above 0) in each chart: the strategy it belongs to, its colour and its dash, from Vega's scene.
  var found = {};
  Object.keys(window.baccaratViews).forEach(function (id) {
    var lines = [];
    (function walk(node) {
      if (!node) { return; }
      if (node.marktype === "line" && node.items && node.items.length) {
        var item = node.items[0];
        if (item.datum && item.datum.strategy !== undefined && (item.opacity === undefined || item.opacity > 0) && item.stroke) {
          lines.push({strategy: item.datum.strategy, stroke: String(item.stroke), dash: String(item.strokeDash || "")});
        }
        return;
      }
      (node.items || []).forEach(walk);
    })(window.baccaratViews[id].scenegraph().root);
    found[id] = lines;
  });
  return found;
}
function probeCharts() {
  var charts = {};
  Object.keys(window.baccaratViews).forEach(function (id) {
    var el = document.getElementById(id);
    charts[id] = {
      view: typeof window.baccaratViews[id].signal === "function",
      marks: el.querySelectorAll(
        "svg .mark-line path, svg .mark-area path, svg .mark-rect path, svg .mark-symbol path, svg .mark-rule line, svg .mark-text text"
      ).length,
      right: Math.round(el.getBoundingClientRect().right)
    };
  });
  return charts;
}
async function probeLegend() {
  var chart = document.getElementById("chart-bankroll"), view = window.baccaratViews["chart-bankroll"];
  var symbols = chart.querySelectorAll(".role-legend-symbol path");
  var before = chart.querySelector("svg").outerHTML, faded = function () {
    var lines = chart.querySelectorAll(".mark-line path");
    return Array.prototype.filter.call(lines, function (p) { return p.getAttribute("opacity") === "0.12"; }).length;
  };
  var target = symbols[symbols.length - 1];
  target.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
  await view.runAsync();
  return {entries: symbols.length, changed: chart.querySelector("svg").outerHTML !== before, picked: view.signal("pick"), faded: faded()};
}
window.baccaratCharts.then(async function () {
  var found = {charts: probeCharts(), layout: probeLayout(), styles: probeStyles()};
  try { found.legend = await probeLegend(); } catch (e) { found.legend = {error: String(e)}; }
  found.errors = window.probeErrors;
  found.requests = performance.getEntriesByType("resource").map(function (r) { return r.name; });
  document.body.setAttribute("data-probe", JSON.stringify(found));
});
</script>"""

UNITS = ("flat", "martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind", "grand-martingale")
COUNTS = (1, 2, 7, 12, 30)


def chromium(page: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    """Load ``page`` in headless Chromium at the window size, the network cut off; return what it printed."""
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--user-data-dir={tmp_path / 'chromium-profile'}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--virtual-time-budget=60000",
            *extra,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def probe(page: Path, tmp_path: Path) -> dict:
    """Load ``page`` with the probe added; return what the probe found."""
    text = page.read_text(encoding="utf-8")
    head, _, tail = text.rpartition("</body>")  # the last one: the page's own scripts may hold the words
    tmp_path.mkdir(parents=True, exist_ok=True)
    probed = tmp_path / f"probed-{page.parent.name}.html"
    probed.write_text((head + LAST + "</body>" + tail).replace("<head>", "<head>" + FIRST, 1), encoding="utf-8")
    done = chromium(probed, tmp_path, "--dump-dom")
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, f"the probe reported nothing (status {done.returncode}): {done.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


def strategies(count: int) -> list[dict]:
    out = []
    for i in range(count):
        use, side = UNITS[i % len(UNITS)], ("banker", "player")[i % 2]
        out.append({"name": f"{use}[unit=10,side={side},n={i}]", "use": use, "params": {"side": side, "unit": 10}})
    if count >= 3:  # labels as long as users write them: with spaces, and one word with none
        out[1]["name"] = "martingale on player after two banker wins, capped at the table maximum"
        out[2]["name"] = "x" * 80
    return out


def report(folder: Path, count: int) -> Path:
    experiment = {
        "name": f"layout-{count}",
        "shoes": {"seed": 3, "count": 12},
        "session": {"bankroll": 300, "table_min": 10, "table_max": 1000},
        "strategies": strategies(count),
    }
    baccarat.run(experiment, out=folder / f"run-{count}")
    return folder / f"run-{count}" / "report.html"


@pytest.fixture(scope="module")
def probed(tmp_path_factory) -> dict[int, tuple[Path, dict]]:
    folder = tmp_path_factory.mktemp("layout")
    out = {}
    for count in COUNTS:
        page = report(folder, count)
        out[count] = page, probe(page, folder / f"browser-{count}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("count", COUNTS)
def test_every_chart_is_drawn_offline_without_an_error(probed, count: int) -> None:
    page, found = probed[count]
    expected = {"bankroll", "strategies", "ruin", "final", "drawdown", "patterns"} | ({"comparison"} if count > 1 else set())
    if grid_params([s["name"] for s in strategies(count)]) is not None:  # names of the form label[key=value,...]
        expected.add("grid")
    assert set(found["charts"]) == {f"chart-{kind}" for kind in expected}
    for name, chart in found["charts"].items():
        assert chart["view"] and chart["marks"] > 0, name
    assert found["errors"] == []
    assert found["requests"] == [], "the report asked the network for something"


@pytest.mark.parametrize("count", COUNTS)
def test_a_click_on_a_legend_entry_isolates_that_strategy(probed, count: int) -> None:
    _, found = probed[count]
    legend = found["legend"]
    assert legend["entries"] == count
    assert legend["changed"] and legend["picked"]["strategy"] == [strategies(count)[-1]["name"]]
    # Every other strategy's median and mean faded; past 20 strategies, only the picked strategies' means are drawn.
    assert legend["faded"] == (count - 1) * (1 if count > 20 else 2)


@pytest.mark.parametrize("count", COUNTS)
def test_the_report_fits_a_1400_pixel_window(probed, count: int) -> None:
    _, layout = probed[count][1], probed[count][1]["layout"]
    assert layout["window"] == WINDOW[0]
    assert layout["page"] <= layout["client"], f"the page is {layout['page']} px wide in a {layout['client']} px window"
    assert layout["over"] == [], f"elements that scroll sideways or reach past the window: {layout['over'][:5]}"
    assert all(chart["right"] <= layout["client"] for chart in probed[count][1]["charts"].values())
    # One summary table whatever the count, every strategy a column of it, its measures fixed when it scrolls.
    assert layout["tables"] == 1 and layout["sticky"] == "sticky"
    assert [h for h in layout["headers"] if h != "measure"] == [s["name"] for s in strategies(count)]
    assert layout["broken"] == [], "words broken across lines in table headers"


@pytest.mark.parametrize("count", COUNTS)
def test_no_two_strategies_share_a_colour_and_dash_on_a_chart_of_lines(probed, count: int) -> None:
    _, found = probed[count]
    names = [s["name"] for s in strategies(count)]
    for chart in ("chart-bankroll", "chart-ruin", "chart-drawdown"):
        lines = found["styles"][chart]
        assert {line["strategy"] for line in lines} == set(names), chart  # every strategy has a line drawn
        owners: dict[tuple[str, str], set[str]] = {}
        for line in lines:
            owners.setdefault((line["stroke"], line["dash"]), set()).add(line["strategy"])
        alike = [sorted(who) for who in owners.values() if len(who) > 1]
        assert alike == [], f"{chart}: strategies drawn alike: {alike[:3]}"
    # The drawdown chart: a line per strategy, not one per sample session (5 each).
    assert len(found["styles"]["chart-drawdown"]) == count


@pytest.mark.parametrize("count", [c for c in COUNTS if c > 1])
def test_the_comparison_table_shows_the_verdict_and_what_it_rests_on_without_scrolling_sideways(probed, count: int) -> None:
    layout = probed[count][1]["layout"]
    table = layout["comparison"]
    assert table["rows"] == count - 1 and not table["holderScrolls"] and not table["tableScrolls"], table
    assert table["right"] <= layout["client"] and table["width"] <= table["holder"]
    assert table["headers"] == [
        "strategy",
        "verdict",
        "expected edge difference",
        "p-value, Holm-corrected",
        "realised edge difference",
        "net per session minus baseline",
        "of which volume (expected)",
        "of which luck",
        "risk of ruin difference",
    ]


def test_the_probe_sees_a_page_too_wide_for_the_window_and_a_broken_word(tmp_path: Path) -> None:
    wide = tmp_path / "wide" / "report.html"
    wide.parent.mkdir()
    wide.write_text(
        '<!DOCTYPE html><html><head></head><body><div style="overflow-x:auto"><table id="summary"><thead><tr>'
        '<th style="white-space:nowrap">'
        + "wide "
        * 400
        + '</th><th style="min-width:6em;width:6em;word-break:break-all">verdict verdict</th>'
        '<th style="max-width:4em;overflow-wrap:break-word">' + "x" * 40 + "</th>"  # too wide for any line of its cell
        '</tr></thead></table></div><p style="width:1600px">x</p>'
        "<script>window.baccaratViews = {}; window.baccaratCharts = Promise.resolve();</script></body></html>",
        encoding="utf-8",
    )
    layout = probe(wide, tmp_path)["layout"]
    assert layout["page"] > layout["client"]
    assert any(item["scrolls"] for item in layout["over"]) and any(item["tag"] == "P" for item in layout["over"])
    assert set(layout["broken"]) == {"verdict"}  # a word that would fit, broken; never the word too wide for its cell


def test_the_report_header_gives_the_date_of_the_run(probed) -> None:
    page = probed[2][0]
    manifest = json.loads((page.parent / "manifest.json").read_text(encoding="utf-8"))
    day, time = manifest["run_at"][:10], manifest["run_at"][11:16]
    meta = re.search(r'<p class="meta">(.*?)</p>', page.read_text(encoding="utf-8")).group(1)
    assert meta.startswith(f"Run on {day} {time} UTC. ")


@pytest.mark.slow
def test_the_exact_analysis_grid_and_roads_charts_are_drawn_offline_too(tmp_path: Path) -> None:
    experiment = {
        "name": "grid-exact-roads",
        "shoes": {"seed": 5, "count": 40},
        "session": {"bankroll": 300, "table_min": 10, "table_max": 1000},
        "exact": True,
        "strategies": [
            {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
            {"name": "martingale", "use": "martingale", "grid": {"unit": [10, 20], "side": ["banker", "player"]}},
        ],
    }
    result = baccarat.run(experiment, out=tmp_path / "run")
    result.save_results(roads=[1, 2])
    found = probe(tmp_path / "run" / "report.html", tmp_path / "browser")
    kinds = {"bankroll", "strategies", "ruin", "final", "comparison", "drawdown", "grid", "exact", "patterns"}
    kinds |= {"roads-shoe-1", "roads-shoe-2"}
    assert set(found["charts"]) == {f"chart-{kind}" for kind in kinds}
    for name, chart in found["charts"].items():
        assert chart["view"] and chart["marks"] > 0, name
    assert found["errors"] == [] and found["requests"] == []
    assert found["layout"]["page"] <= found["layout"]["client"] and found["layout"]["over"] == []
