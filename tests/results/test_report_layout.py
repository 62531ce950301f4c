"""report.html fits a 1400-pixel window for 1 to 12 strategies, measured in a real headless browser.

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it) loads each
report in a 1400 x 1000 window with a probe script added at the end of the
page, and the probe writes into the page what the layout engine measured:
the page's scroll width against its client width, every element that would
scroll sideways (``overflow-x`` auto or scroll with content wider than the
box), and every element whose right edge lies beyond the window. Chromium
prints the page back (``--dump-dom``), and the test reads the figures. The
report itself holds no script; only the copy given to the browser does.

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

WINDOW = (1400, 1000)
CHROMIUM = next(filter(None, (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome"))), None)

if CHROMIUM is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("Chromium is needed for the report layout tests; .ci/run installs it (apt-get install chromium)")
    pytestmark = pytest.mark.skip(reason="Chromium is not installed (apt-get install chromium; .ci/run installs it in CI)")

PROBE = """<script>
(function () {
  var root = document.documentElement, over = [];
  document.querySelectorAll("body *").forEach(function (el) {
    var style = getComputedStyle(el), box = el.getBoundingClientRect();
    var scrolls = (style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1;
    if (scrolls || box.right > root.clientWidth + 1) {
      over.push({tag: el.tagName, id: el.id, right: Math.round(box.right), scrolls: scrolls});
    }
  });
  var headers = Array.prototype.map.call(document.querySelectorAll("table[id^=summary] thead th"), function (th) {
    var box = th.getBoundingClientRect();
    return {text: th.textContent, left: Math.round(box.left), right: Math.round(box.right)};
  });
  document.body.setAttribute("data-layout", JSON.stringify({
    window: window.innerWidth, page: root.scrollWidth, client: root.clientWidth, over: over, headers: headers}));
})();
</script>"""

UNITS = ("flat", "martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind", "grand-martingale")


def layout(page: Path, tmp_path: Path) -> dict:
    """Load ``page`` (with the probe added) in headless Chromium at the window size; return the probe's figures."""
    probed = tmp_path / f"probed-{page.parent.name}.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'chromium-profile'}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--dump-dom",
            probed.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'data-layout="([^"]*)"', done.stdout)
    assert found, f"Chromium printed no measurement (status {done.returncode}): {done.stderr[-2000:]}"
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


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("layout")
    out = {}
    for count in (1, 2, 7, 12):
        experiment = {
            "name": f"layout-{count}",
            "shoes": {"seed": 3, "count": 12},
            "session": {"bankroll": 300, "table_min": 10, "table_max": 1000},
            "strategies": strategies(count),
        }
        baccarat.run(experiment, out=folder / f"run-{count}")
        out[count] = folder / f"run-{count}" / "report.html"
    return out


@pytest.mark.parametrize("count", [1, 2, 7, 12])
def test_the_report_fits_a_1400_pixel_window(reports: dict[int, Path], tmp_path: Path, count: int) -> None:
    measured = layout(reports[count], tmp_path)
    assert measured["window"] == WINDOW[0]
    assert measured["page"] <= measured["client"], f"the page is {measured['page']} px wide in a {measured['client']} px window"
    assert measured["over"] == [], f"elements that scroll sideways or reach past the window: {measured['over'][:5]}"
    # Every strategy has a summary column, and every column is inside the window.
    labels = [h["text"] for h in measured["headers"] if h["text"] != "measure"]
    assert labels == [s["name"] for s in strategies(count)]
    assert all(0 <= h["left"] < h["right"] <= measured["client"] for h in measured["headers"])


def test_the_probe_sees_a_page_too_wide_for_the_window(tmp_path: Path) -> None:
    wide = tmp_path / "wide" / "report.html"
    wide.parent.mkdir()
    wide.write_text(
        '<!DOCTYPE html><html><body><div style="overflow-x:auto"><table id="summary"><thead><tr>'
        '<th style="white-space:nowrap">' + "wide " * 400 + "</th></tr></thead></table></div>"
        '<p style="width:1600px">x</p></body></html>',
        encoding="utf-8",
    )
    measured = layout(wide, tmp_path)
    assert measured["page"] > measured["client"]
    assert any(item["scrolls"] for item in measured["over"]) and any(item["tag"] == "P" for item in measured["over"])


def test_the_report_header_gives_the_date_of_the_run(reports: dict[int, Path]) -> None:
    manifest = json.loads((reports[2].parent / "manifest.json").read_text(encoding="utf-8"))
    day, time = manifest["run_at"][:10], manifest["run_at"][11:16]
    meta = re.search(r'<p class="meta">(.*?)</p>', reports[2].read_text(encoding="utf-8")).group(1)
    assert meta.startswith(f"Run on {day} {time} UTC. ")
