"""Charts exported as PNG and SVG without a browser, and the report's JavaScript bundle kept beside the module."""

from __future__ import annotations

import struct
from pathlib import Path

import altair as alt
import pytest
import vl_convert

from baccarat.results.charts import export

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def bars() -> alt.Chart:
    """A small chart of known size: three bars, 120 by 80 CSS pixels."""
    data = alt.Data(values=[{"side": "banker", "wins": 3}, {"side": "player", "wins": 2}, {"side": "tie", "wins": 1}])
    return alt.Chart(data).mark_bar().encode(x="side:N", y="wins:Q").properties(width=120, height=80)


def test_png_is_drawn_at_twice_the_css_size_and_svg_as_text() -> None:
    png = export.chart_bytes(bars(), "png")
    assert png.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", png[16:24])
    svg_width = float(export.chart_bytes(bars(), "svg").decode().split('width="', 1)[1].split('"', 1)[0])
    assert width == round(svg_width * export.PNG_SCALE) and width > 2 * 120 and height > 2 * 80
    svg = export.chart_bytes(bars(), "svg").decode()
    assert svg.startswith("<svg") and svg.count("<path") >= 3  # the bars are drawn


def test_an_unknown_format_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="charts are exported as png or svg, not 'pdf'"):
        export.chart_bytes(bars(), "pdf")


def test_chart_files_name_every_chart_in_every_format() -> None:
    files = export.chart_files({"bars": bars(), "more": bars()}, ("svg", "png"))
    assert sorted(files) == ["bars.png", "bars.svg", "more.png", "more.svg"]
    assert files["bars.png"].startswith(PNG_SIGNATURE) and files["more.svg"].startswith(b"<svg")


def test_spec_json_fits_its_place_and_cannot_close_the_script_element() -> None:
    chart = bars().properties(title="a </script> title")
    text = export.spec_json(chart, fit=True)
    assert "</" not in text and '"width":"container"' in text and "<\\/script>" in text
    assert '"width":120' in export.spec_json(chart)


@pytest.fixture
def bundle_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The bundle cached in a temporary folder, and built by a stand-in for vl-convert that counts its calls."""
    built: list[int] = []

    def build() -> str:
        built.append(1)
        return "var vega = 1; function vegaEmbed() {}"

    monkeypatch.setattr(export, "_cache_folder", lambda: tmp_path / "cache")
    monkeypatch.setattr(vl_convert, "javascript_bundle", build)
    export.javascript_bundle.cache_clear()
    yield tmp_path / "cache" / f"vega-embed-{vl_convert.__version__}.js", built
    export.javascript_bundle.cache_clear()


def test_the_bundle_is_built_once_then_read_from_its_cache(bundle_cache: tuple[Path, list[int]]) -> None:
    path, built = bundle_cache
    first = export.javascript_bundle()
    assert built == [1] and path.read_text(encoding="utf-8") == first
    export.javascript_bundle.cache_clear()
    assert export.javascript_bundle() == first and built == [1]  # read from the file, not built again
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_a_cut_short_cache_is_built_again_and_an_unwritable_one_skipped(bundle_cache: tuple[Path, list[int]]) -> None:
    path, built = bundle_cache
    path.parent.mkdir()
    path.write_text("var vega = 1; function vegaEm", encoding="utf-8")  # a write that was cut short
    assert export.javascript_bundle().endswith("vegaEmbed() {}") and built == [1]
    assert path.read_text(encoding="utf-8").endswith("vegaEmbed() {}")
    path.unlink()
    path.parent.rmdir()
    path.parent.parent.joinpath("cache").write_text("a file where the folder should be")
    export.javascript_bundle.cache_clear()
    assert export.javascript_bundle().endswith("vegaEmbed() {}") and built == [1, 1]
