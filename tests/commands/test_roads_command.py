"""``baccarat roads``: from a run folder or a recorded shoe file to a PNG and the roads as JSON."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from helpers.dealt import dealt_cards
from PIL import Image, ImageColor

from baccarat.cli import main
from baccarat.commands.roads import render_text
from baccarat.execution.runner import run_to_folder
from baccarat.results.charts.scoreboard import SIDE_COLOUR
from baccarat.shoes.seeded import seeded_rounds
from baccarat.table.cards import card_label
from baccarat.table.roads import roads
from baccarat.table.rules import preset

EXPERIMENT = {
    "name": "roads-test",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 11, "count": 3},
    "strategies": [{"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 10}}],
}


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def seeded_outcomes(shoe: int) -> list[str]:
    rounds = dict(seeded_rounds(preset("punto-banco-8"), 11, 1, 3))[shoe]
    return [r.outcome for r in rounds]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    from baccarat.experiment import load_experiment

    out = tmp_path_factory.mktemp("runs") / "run"
    run_to_folder(load_experiment(EXPERIMENT), out)
    return out


@pytest.mark.slow
def test_roads_of_a_run_folder_are_those_of_its_shoe(run_dir, tmp_path, capsys) -> None:
    png = tmp_path / "shoe2.png"
    assert main(["roads", str(run_dir), "--shoe", "2", "--out", str(png), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = roads(seeded_outcomes(2)).to_dict()
    assert printed["big_road"] == expected["big_road"]
    assert printed["big_eye_boy"] == expected["big_eye_boy"]
    assert printed["cockroach_pig"] == expected["cockroach_pig"]
    width, height = png_size(png)
    assert width >= 600 and height >= 600
    # Drawn with the side colours: Banker red and Player blue marks, a green tie when the shoe had one.
    image = np.asarray(Image.open(png).convert("RGB"))
    present = {
        side
        for side in ("banker", "player", "tie")
        if (image == np.array(ImageColor.getrgb(SIDE_COLOUR[side]), dtype=np.uint8)).all(axis=2).sum() > 20
    }
    assert present == {"banker", "player"} | ({"tie"} if "tie" in seeded_outcomes(2) else set())


@pytest.mark.slow
def test_roads_of_a_recorded_cards_file(tmp_path, capsys, monkeypatch) -> None:
    rules = preset("punto-banco-8")
    shoes = dict(seeded_rounds(rules, 11, 1, 3))
    path = tmp_path / "shoes.txt"
    path.write_text("\n".join(" ".join(card_label(c) for c in dealt_cards(shoes[k])) for k in (1, 2, 3)) + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["roads", str(path), "--format", "cards", "--shoe", "3"]) == 0
    out = capsys.readouterr().out
    road = roads(seeded_outcomes(3))
    assert f"shoe 3: {len(road.outcomes)} rounds" in out
    assert render_text(road) in out
    assert png_size(tmp_path / "roads-shoe-3.png")[0] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--shoe", "9"], "holds shoes 1 to 3; there is no shoe 9"),
    ],
)
def test_bad_shoe_is_a_clear_error(run_dir, tmp_path, capsys, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["roads", str(run_dir), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_shoe_file_needs_its_format(tmp_path, capsys) -> None:
    path = tmp_path / "shoes.txt"
    path.write_text("AS 2H 3D 4C\n")
    assert main(["roads", str(path)]) == 2
    assert "name its format with --format" in capsys.readouterr().err


def test_a_folder_without_rounds_is_not_a_run(tmp_path, capsys) -> None:
    assert main(["roads", str(tmp_path)]) == 2
    assert "is not a run folder" in capsys.readouterr().err


@pytest.mark.slow
def test_report_shows_the_roads_of_the_shoes_asked_for(run_dir, capsys) -> None:
    assert main(["report", str(run_dir), "--roads", "1,3", "--quiet"]) == 0
    page = (run_dir / "report.html").read_text()
    assert 'id="plot-roads-shoe-1"' in page and 'id="plot-roads-shoe-3"' in page and 'id="plot-roads-shoe-2"' not in page
    before = {p.name: p.stat().st_mtime_ns for p in run_dir.iterdir()}
    assert main(["report", str(run_dir), "--roads", "2,7", "--quiet"]) == 2
    assert "there is no shoe 7" in capsys.readouterr().err
    assert {p.name: p.stat().st_mtime_ns for p in run_dir.iterdir()} == before
