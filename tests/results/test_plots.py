"""Plots render to valid PNG files of a sensible size, with titles, axis labels and legends."""

from __future__ import annotations

import io

import pytest
from helpers.handmade import flat_ledger
from helpers.png import png_size

from baccarat.errors import InputError
from baccarat.results import plots
from baccarat.results.report import analyse


def ledger():
    return flat_ledger({
        "flat banker": ["WLLTWLWWLW", "LLLWWLWLWW", "WWWWLLLTTW", "LWLWLWLWLW"],
        "martingale": ["WLLLLLLLLL", "LLWWWWLWLW", "WWLLLLLLLL", "TTTTTLLLLL"],
        "sits out": ["----------", "---", "-----", "--"],
    }, initial=60)


@pytest.fixture(scope="module")
def analysis():
    return analyse(ledger(), 60, 10)


def render(fig) -> bytes:
    buffer = io.BytesIO()
    plots.save_png(fig, buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("kind", ["bankroll", "final", "ruin", "comparison"])
def test_every_plot_is_a_png_of_sensible_size(analysis, kind) -> None:
    data = render(analysis.figure(kind))
    width, height = png_size(data)
    assert 800 <= width <= 2400 and 250 <= height <= 2400, (width, height)
    assert len(data) > 10_000  # drawn, not blank


def visible_axes(fig):
    return [ax for ax in fig.axes if ax.get_visible()]


def legend_texts(fig) -> set[str]:
    return {t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()}


def test_bankroll_curves_have_one_titled_panel_per_strategy_with_bands_and_samples(analysis) -> None:
    fig = analysis.figure("bankroll")
    axes = visible_axes(fig)
    assert [ax.get_title() for ax in axes] == ["flat banker", "martingale", "sits out"]
    assert all(ax.get_xlabel() == "round of the session" and ax.get_ylabel() == "bankroll" for ax in axes)
    assert {"median", "25-75% of sessions", "5-95% of sessions", "sample sessions", "initial bankroll"} <= legend_texts(fig)
    assert fig.get_suptitle()
    # The median line of the first panel starts at the initial bankroll and follows the bands' p50.
    median = [line for line in axes[0].get_lines() if line.get_label() == "median"][0]
    assert median.get_ydata()[0] == 60
    assert list(median.get_ydata()) == analysis.bands.filter(analysis.bands["strategy"] == "flat banker")["p50"].to_list()


def test_final_bankroll_histograms_name_each_strategy(analysis) -> None:
    fig = analysis.figure("final")
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["flat banker", "martingale", "sits out"]
    assert {"sessions", "initial bankroll", "median"} <= legend_texts(fig)
    assert fig.axes[-1].get_xlabel() == "final bankroll of the session"
    assert all(ax.get_ylabel() == "sessions" for ax in fig.axes)
    counts = [sum(sum(p.get_data().values) for p in ax.patches) for ax in fig.axes]  # the histogram's steps
    assert counts == [4, 4, 4]  # every session in its strategy's histogram


def test_ruin_plot_has_one_line_per_strategy_in_percent(analysis) -> None:
    fig = analysis.figure("ruin")
    ax = fig.axes[0]
    assert ax.get_title() == "Probability of ruin by round"
    assert "%" in ax.get_ylabel() and ax.get_xlabel() == "round of the session"
    assert legend_texts(fig) == {"flat banker", "martingale", "sits out"}
    # Martingale sessions 1 and 3 fall below 10 at rounds 8 and 10; sessions 2 and 4 never do: 50% at the end.
    line = [line for line in ax.get_lines() if line.get_label() == "martingale"][0]
    assert line.get_ydata()[-1] == pytest.approx(50)


def test_comparison_plot_marks_each_strategy_against_the_baseline(analysis) -> None:
    fig = analysis.figure("comparison")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["martingale", "sits out"]
    assert "flat banker" in ax.get_title() and "flat banker" in ax.get_xlabel()
    assert "baseline: flat banker" in legend_texts(fig)


def test_a_single_strategy_has_no_comparison_plot() -> None:
    one = analyse(flat_ledger({"solo": ["WLW", "LLW"]}), 100, 10)
    assert set(one.figures()) == {"bankroll", "final", "ruin"}
    for fig in one.figures().values():
        png_size(render(fig))


def test_many_strategies_still_render() -> None:
    many = analyse(flat_ledger({f"strategy {i}": ["WL" * i, "LW" * i] for i in range(1, 13)}), 100, 10)
    for fig in many.figures().values():
        width, height = png_size(render(fig))
        assert width <= 2400 and height <= 2400


def test_unknown_plot_kind_is_named() -> None:
    with pytest.raises(InputError, match="did you mean 'ruin'"):
        analyse(flat_ledger({"solo": ["W"]}), 100, 10).figure("ruins")


def test_save_figures_writes_the_run_folder_names(tmp_path, analysis) -> None:
    paths = plots.save_figures(analysis.figures(), tmp_path)
    assert sorted(p.name for p in paths) == sorted(plots.PLOT_FILES.values())
    for path in paths:
        png_size(path.read_bytes())
