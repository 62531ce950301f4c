"""Recorded shoes in the ``cards`` format: replay and positioned errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from baccarat.cards import labels
from baccarat.errors import ShoeError
from baccarat.recorded import read_cards
from baccarat.rules import preset
from baccarat.shoes import dealt_cards, seeded_rounds, seeded_table


def test_replaying_dealt_cards_gives_the_seeded_rounds(tmp_path: Path) -> None:
    rules = preset("punto-banco-8")
    path = tmp_path / "shoes.txt"
    lines = [" ".join(labels(dealt_cards(rounds))) for _, rounds in seeded_rounds(rules, 9, 1, 5)]
    path.write_text("# five seeded shoes\n" + "\n\n".join(lines) + "\n")
    recorded = read_cards(path, rules)
    seeded = seeded_table(rules, 9, 1, 5)
    assert recorded.shoes == 5 and recorded.warnings == []
    for name in ("shoe", "hand", "outcome", "player_cards", "banker_cards", "player_total", "banker_total"):
        assert np.array_equal(getattr(recorded.table, name), getattr(seeded, name)), name


def test_cards_any_case_commas_and_ranks_only(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("AS,10h kd 9 T, 4c\n")
    table = read_cards(path, preset("punto-banco-8")).table
    # P: A, K -> 1; B: 10, 9 -> 9 natural.
    assert table.outcome.tolist() == [0]
    assert table.banker_total.tolist() == [9]


def test_trailing_cards_are_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("4 3 5 4 2 2\n")
    recorded = read_cards(path, preset("punto-banco-8"))
    assert len(recorded.table) == 1
    assert "2 card(s) that cannot complete a round" in recorded.warnings[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4 3 5 4\n9 X 3\n", ":2:3: invalid card 'X'"),
        ("4 3 5 4\n9 4Z 3\n", ":2:3: invalid card '4Z': unknown suit 'Z'"),
        ("# nothing\n\n", "holds no shoe"),
        ("AS AS 3 4\n", ":1: the shoe holds 2 copies of AS"),
    ],
)
def test_errors_name_file_line_and_column(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    rules = preset("single-deck")
    with pytest.raises(ShoeError) as info:
        read_cards(path, rules)
    assert str(path) in str(info.value)
    assert expected in str(info.value)


def test_too_many_of_a_rank_for_the_decks(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("K " * 5 + "\n")
    with pytest.raises(ShoeError, match="5 cards of rank K, more than the 4"):
        read_cards(path, preset("single-deck"))
