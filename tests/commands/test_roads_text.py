"""``baccarat roads`` of a short shoe file whose roads are worked out by hand: the text, the JSON, the image, --force."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat.cli import main

# Banker, banker, player, player, banker. Big road: B B | P P | B. Big eye boy: the second P has a mark
# beside it in column 1 (red), the last B opens a column after two of equal depth (red). The small road
# and the cockroach pig start in the third and fourth columns' second rows: no mark yet.
SHOE = "BBPPB\n"
TEXT = """shoe 1: 5 rounds
Big road (B banker, P player):
BPB
BP.
...
...
...
...
Big eye boy (R red, b blue):
R
R
.
.
.
.
Small road (R red, b blue):
(no mark yet)
Cockroach pig (R red, b blue):
(no mark yet)
if banker wins next: big eye boy red, small road red, cockroach pig -
if player wins next: big eye boy blue, small road blue, cockroach pig -
"""


@pytest.fixture
def shoe_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "shoe.txt"
    path.write_text(SHOE)
    return path


def test_the_roads_of_a_shoe_file_as_text_and_svg(shoe_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roads", str(shoe_file), "--format", "outcomes", "--out", "roads.svg"]) == 0
    assert capsys.readouterr().out == TEXT + "roads drawn -> roads.svg\n"
    svg = (shoe_file.parent / "roads.svg").read_text()
    assert svg.startswith("<svg") and "shoe.txt, shoe 1" in svg


def test_the_roads_as_json(shoe_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roads", str(shoe_file), "--format", "outcomes", "--out", "roads.svg", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shoe"] == 1 and data["png"] == "roads.svg"
    assert data["outcomes"] == ["banker", "banker", "player", "player", "banker"]
    assert [(cell["col"], cell["row"], cell["mark"]) for cell in data["big_road"]] == [
        (0, 0, "banker"),
        (0, 1, "banker"),
        (1, 0, "player"),
        (1, 1, "player"),
        (2, 0, "banker"),
    ]


def test_an_image_file_is_replaced_only_with_force(shoe_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = shoe_file.parent / "roads.svg"
    out.write_text("kept")
    assert main(["roads", str(shoe_file), "--format", "outcomes", "--out", "roads.svg"]) == 2
    err = capsys.readouterr().err
    assert "roads.svg" in err and "--force" in err and "Traceback" not in err and err.count("\n") == 1
    assert out.read_text() == "kept"
    assert main(["roads", str(shoe_file), "--format", "outcomes", "--out", "roads.svg", "--force"]) == 0
    assert out.read_text().startswith("<svg")
