"""Plots are charts that say what they draw (titles, labels, legends, data), drawn as PNG images of a sensible size."""

from __future__ import annotations

import io

import numpy as np
import pytest
from helpers.handmade import flat_ledger
from helpers.png import png_size
from PIL import Image

from baccarat.errors import InputError
from baccarat.results.charts import plots
from baccarat.results.charts.model import Band, Chart, Line, RefLine, Stairs
from baccarat.results.report.analysis import analyse

STRATEGIES = ["flat banker", "martingale", "sits out"]


def ledger():
    return flat_ledger(
        {
            "flat banker": ["WLLTWLWWLW", "LLLWWLWLWW", "WWWWLLLTTW", "LWLWLWLWLW"],
            "martingale": ["WLLLLLLLLL", "LLWWWWLWLW", "WWLLLLLLLL", "TTTTTLLLLL"],
            "sits out": ["----------", "---", "-----", "--"],
        },
        initial=60,
    )


@pytest.fixture(scope="module")
def analysis():
    return analyse(ledger(), 60, 10)


def pixels(chart: Chart) -> np.ndarray:
    """The chart drawn and decoded again: an (height, width, 3) array of RGB values."""
    image = Image.open(io.BytesIO(chart.png()))
    assert image.mode == "RGB"
    return np.asarray(image)


def has_colour(image: np.ndarray, colour: tuple[int, int, int]) -> bool:
    return bool((image == np.array(colour, dtype=np.uint8)).all(axis=2).any())


@pytest.mark.parametrize("kind", ["bankroll", "final", "ruin", "comparison"])
def test_every_plot_is_a_png_of_sensible_size(analysis, kind) -> None:
    chart = analysis.figure(kind)
    data = chart.png()
    width, height = png_size(data)
    assert (width, height) == (chart.width, chart.height)
    assert 800 <= width <= 2400 and 250 <= height <= 2400, (width, height)
    image = pixels(chart)
    drawn = (image != 255).any(axis=2).mean()
    assert 0.02 < drawn < 0.9, drawn  # drawn, neither blank nor a solid block
    assert chart._repr_png_() == data  # what a notebook shows


def test_bankroll_curves_have_one_titled_panel_per_strategy_with_bands_and_samples(analysis) -> None:
    chart = analysis.figure("bankroll")
    assert [panel.title for panel in chart.panels] == STRATEGIES
    assert all(p.xlabel == "round of the session" and p.ylabel == "bankroll" for p in chart.panels)
    assert {"median", "25-75% of sessions", "5-95% of sessions", "sample sessions", "initial bankroll", "ruin (table minimum)"} <= set(
        chart.legend_labels()
    )
    assert chart.title
    first = chart.panels[0]
    # The median line of the first panel starts at the initial bankroll and follows the bands' p50.
    median = first.labelled("median")
    assert isinstance(median, Line) and median.y[0] == 60
    band = analysis.bands.filter(analysis.bands["strategy"] == "flat banker")
    assert list(median.y) == band["p50"].to_list()
    outer = first.labelled("5-95% of sessions")
    assert isinstance(outer, Band) and list(outer.low) == band["p5"].to_list() and list(outer.high) == band["p95"].to_list()
    assert len([s for s in first.series if isinstance(s, Line) and s is not median]) == 4  # the four sessions
    initial, ruin = first.labelled("initial bankroll"), first.labelled("ruin (table minimum)")
    assert isinstance(initial, RefLine) and (initial.axis, initial.value) == ("y", 60)
    assert isinstance(ruin, RefLine) and (ruin.axis, ruin.value) == ("y", 10)


def test_every_strategy_has_its_palette_colour_in_the_bankroll_and_ruin_images(analysis) -> None:
    colours = plots.strategy_colors(STRATEGIES)
    assert list(colours.values()) == list(plots.PALETTE[:3])
    for kind in ("bankroll", "ruin"):
        image = pixels(analysis.figure(kind))
        for name, colour in colours.items():
            assert has_colour(image, colour), (kind, name)
    # the same colour per strategy in every plot
    bankroll, ruin = analysis.figure("bankroll"), analysis.figure("ruin")
    assert [p.labelled("median").color for p in bankroll.panels] == [ruin.panels[0].labelled(n).color for n in STRATEGIES]


def test_final_bankroll_histograms_name_each_strategy(analysis) -> None:
    chart = analysis.figure("final")
    assert [p.title for p in chart.panels] == STRATEGIES and all(p.title_align == "left" for p in chart.panels)
    assert {"sessions", "initial bankroll", "median"} <= set(chart.legend_labels())
    assert chart.panels[-1].xlabel == "final bankroll of the session"
    assert all(p.ylabel == "sessions" for p in chart.panels)
    histograms = [p.labelled("sessions") for p in chart.panels]
    assert all(isinstance(h, Stairs) for h in histograms)
    assert [h.counts.sum() for h in histograms] == [4, 4, 4]  # every session in its strategy's histogram
    sessions = analysis.sessions.filter(analysis.sessions["strategy"] == "martingale")
    assert chart.panels[1].labelled("median").value == pytest.approx(float(sessions["final_bankroll"].cast(float).median()))
    # Martingale sessions end at 80, 10, 0 and -20: each in its own bin.
    assert np.count_nonzero(histograms[1].counts) == 4


def test_ruin_plot_has_one_line_per_strategy_in_percent(analysis) -> None:
    chart = analysis.figure("ruin")
    (panel,) = chart.panels
    assert panel.title == "Probability of ruin by round"
    assert "%" in panel.ylabel and panel.xlabel == "round of the session"
    assert set(chart.legend_labels()) == set(STRATEGIES)
    # Martingale sessions 1 and 3 fall below 10 at rounds 8 and 10; sessions 2 and 4 never do: 50% at the end.
    line = panel.labelled("martingale")
    assert isinstance(line, Line) and line.step and line.y[-1] == pytest.approx(50)
    assert panel.labelled("flat banker").y.max() == 0 and panel.note == ""


def test_comparison_plot_marks_each_strategy_against_the_baseline(analysis) -> None:
    chart = analysis.figure("comparison")
    (panel,) = chart.panels
    assert [name for _, name in panel.y_ticks] == ["martingale", "sits out"]
    assert "flat banker" in panel.title and "flat banker" in panel.xlabel
    assert "baseline: flat banker" in chart.legend_labels()
    means = dict(zip(analysis.comparison["strategy"], analysis.comparison["net_diff_mean"], strict=True))
    points = {name: s for (at, name) in panel.y_ticks for s in panel.series if getattr(s, "y", None) == at}
    assert {name: p.x for name, p in points.items()} == pytest.approx(means)
    image = pixels(chart)
    assert all(has_colour(image, plots.strategy_colors(STRATEGIES)[name]) for name in ("martingale", "sits out"))


def test_a_single_strategy_has_no_comparison_plot() -> None:
    one = analyse(flat_ledger({"solo": ["WLW", "LLW"]}), 100, 10)
    assert set(one.figures()) == {"bankroll", "final", "ruin"}
    for chart in one.figures().values():
        assert png_size(chart.png()) == (chart.width, chart.height)


def test_no_ruin_says_so() -> None:
    chart = analyse(flat_ledger({"solo": ["WLW", "LLW"]}), 100, 10).figure("ruin")
    assert chart.panels[0].note == "no session was ruined"


def test_many_strategies_still_render() -> None:
    many = analyse(flat_ledger({f"strategy {i}": ["WL" * i, "LW" * i] for i in range(1, 13)}), 100, 10)
    for chart in many.figures().values():
        width, height = png_size(chart.png())
        assert width <= 2400 and height <= 2400
    colours = [p.labelled("median").color for p in many.figure("bankroll").panels]
    assert len(set(colours)) == 12  # twelve distinct colours: tab10's, then tab20's light ones
    image = pixels(many.figure("ruin"))
    assert all(has_colour(image, colour) for colour in colours)


def test_unknown_plot_kind_is_named() -> None:
    with pytest.raises(InputError, match="did you mean 'ruin'"):
        analyse(flat_ledger({"solo": ["W"]}), 100, 10).figure("ruins")


def test_save_figures_writes_the_run_folder_names(tmp_path, analysis) -> None:
    paths = plots.save_figures(analysis.figures(), tmp_path)
    assert sorted(p.name for p in paths) == sorted(plots.PLOT_FILES.values())
    for path in paths:
        assert path.read_bytes() == analysis.figure(next(k for k, v in plots.PLOT_FILES.items() if v == path.name)).png()


def test_chart_data_are_read_only(analysis) -> None:
    median = analysis.figure("bankroll").panels[0].labelled("median")
    with pytest.raises(ValueError):
        median.y[0] = 0


def test_names_with_line_breaks_and_odd_characters_still_draw() -> None:
    odd = analyse(flat_ledger({"two\nlines \u202e": ["WL"], "\t<y>\x00": ["LW"], "": ["W"]}), 100, 10)
    for chart in odd.figures().values():
        assert png_size(chart.png()) == (chart.width, chart.height)
    assert odd.figure("comparison").panels[0].y_ticks[0][1] == "\t<y>\x00"  # the chart keeps the name as it is
