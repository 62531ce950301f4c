"""The Pillow drawing of charts: tick values and labels, dashes, clipping to the panel, translucent bands."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from baccarat.results.charts.drawing import dashes, nice_ticks, tick_texts
from baccarat.results.charts.model import Band, Chart, Line, Panel


@pytest.mark.parametrize(
    ("low", "high", "target", "expected"),
    [
        (0, 10, 5, [0, 2, 4, 6, 8, 10]),
        (-3, 97, 5, [0, 20, 40, 60, 80]),
        (0.013, 0.061, 4, [0.02, 0.04, 0.06]),
        (950, 1420, 5, [1000, 1100, 1200, 1300, 1400]),
        (-120, 40, 4, [-100, -50, 0]),
    ],
)
def test_ticks_step_by_one_two_or_five_times_a_power_of_ten(low, high, target, expected) -> None:
    values, step = nice_ticks(low, high, target)
    assert values == pytest.approx(expected)
    mantissa = step / 10 ** np.floor(np.log10(step))
    assert round(mantissa, 9) in (1, 2, 5)


def test_money_ticks_have_thousands_separators_and_no_negative_zero() -> None:
    values, step = nice_ticks(-2500, 2500, 4)
    assert tick_texts(values, step, money=True) == ["-2,000", "0", "2,000"]
    values, step = nice_ticks(-0.4, 0.4, 4)
    assert tick_texts(values, step, money=True) == ["-0.4", "-0.2", "0.0", "0.2", "0.4"]
    assert tick_texts(np.array([10000.0]), 5000, money=False) == ["10000"]


def test_dashes_cover_the_line_in_pieces_of_the_pattern() -> None:
    pieces = dashes(np.array([[0.0, 0.0], [100.0, 0.0]]), 6, 4)
    assert len(pieces) == 10
    assert [p[0, 0] for p in pieces] == pytest.approx(list(range(0, 100, 10)))
    assert all(p[-1, 0] - p[0, 0] == pytest.approx(6) for p in pieces)


def drawn(panel: Panel) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(Chart("", (panel,), width=400, height=300).png())))


def test_a_translucent_band_is_composited_over_white_and_data_stay_inside_the_panel() -> None:
    band = Band([0, 10], [0, 0], [10, 10], (0, 0, 255), alpha=0.5)
    image = drawn(Panel((band,), x_limits=(0, 10), y_limits=(0, 10), grid="none"))
    middle = image[150, 200]
    assert abs(int(middle[0]) - 128) <= 2 and middle[2] == 255  # half blue over white
    # a line running far outside the axes limits is cut at the panel's frame: the image's corners stay white
    line = Line([-100, 100], [-100, 100], (255, 0, 0), width=3)
    image = drawn(Panel((line,), x_limits=(0, 10), y_limits=(0, 10), grid="none"))
    assert (image[:3, :3] == 255).all() and (image[-3:, -3:] == 255).all()
    assert ((image[:, :, 0] == 255) & (image[:, :, 1] == 0)).sum() > 100  # the red line inside


def test_pictures_are_drawn_with_pillow_not_matplotlib() -> None:
    """Plots and the roads scoreboard use Pillow (a run that draws pays no matplotlib import); pyproject lists it."""
    import ast
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    importers = []
    for path in sorted((root / "framework" / "baccarat").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
        named += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        if any(name.split(".")[0] == "matplotlib" for name in named):
            importers.append(path.name)
    assert importers == []
    dependencies = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert not any(d.startswith("matplotlib") for d in dependencies)
    assert "pillow>=10.1" in dependencies
