"""The ``rounds`` format's tableau check, cell by cell, against the tableau of docs/game.md written out here."""

from __future__ import annotations

import pytest

from baccarat.shoes.recorded.rounds_format import broken_rule, played_as_recorded, split_csv_line
from baccarat.table.cards import make_card

# Banker total -> Player third-card values on which Banker STANDS (the table of docs/game.md).
BANKER_STANDS_ON = {
    0: set(),
    1: set(),
    2: set(),
    3: {8},
    4: {0, 1, 8, 9},
    5: {0, 1, 2, 3, 8, 9},
    6: {0, 1, 2, 3, 4, 5, 8, 9},
    7: set(range(10)),
}


def card(value: int) -> int:
    """A card of point value 0-9 (a king for 0)."""
    return make_card(13 if value == 0 else value)


def expected_fault(p: int, b: int, p3: int | None, b3: int | None) -> tuple[str, str] | None:
    """The first rule two recorded hands break, from the tableau of docs/game.md alone."""
    if p >= 8 or b >= 8:
        if p3 is not None:
            return "player", "Player drew a third card, but"
        if b3 is not None:
            return "banker", "Banker drew a third card, but"
        return None
    if p <= 5 and p3 is None:
        return "player", f"Player with {p} must draw a third card, but stood"
    if p >= 6 and p3 is not None:
        return "player", f"Player stands on {p}, but drew a third card"
    if p3 is None:
        draws = b <= 5
        when = "when Player stands"
    else:
        draws = p3 not in BANKER_STANDS_ON[b]
        when = f"when Player's third card is {p3}"
    if draws and b3 is None:
        return "banker", f"Banker with {b} must draw {when}, but stood"
    if not draws and b3 is not None:
        return "banker", f"Banker stands on {b} {when}, but drew a third card"
    return None


@pytest.mark.parametrize("p", range(10))
def test_every_recorded_draw_and_stand_is_judged_by_the_tableau(p: int) -> None:
    thirds = [None, *range(10)]
    for b in range(10):
        for p3 in thirds:
            for b3 in thirds:
                player = (card(p), card(0)) + (() if p3 is None else (card(p3),))
                banker = (card(b), card(0)) + (() if b3 is None else (card(b3),))
                want = expected_fault(p, b, p3, b3)
                rnd = played_as_recorded(player, banker)
                if want is None:
                    assert rnd is not None, (p, b, p3, b3)
                    assert rnd.player == player and rnd.banker == banker
                else:
                    assert rnd is None, (p, b, p3, b3)
                    hand, rule = broken_rule(player, banker)
                    assert hand == want[0] and rule.startswith(want[1]), (p, b, p3, b3, rule)


def test_natural_faults_name_the_natural() -> None:
    assert broken_rule((card(9), card(0), card(3)), (card(2), card(0))) == (
        "player",
        "Player drew a third card, but Player has a natural 9 and nobody draws",
    )
    assert broken_rule((card(3), card(0)), (card(8), card(0), card(1))) == (
        "banker",
        "Banker drew a third card, but Banker has a natural 8 and nobody draws",
    )


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("1,AS 2,3 4", [("1", 1), ("AS 2", 3), ("3 4", 8)]),
        ('1,"AS, 2",3 4', [("1", 1), ("AS, 2", 4), ("3 4", 11)]),
        ('"say ""hi""",,', [('say "hi"', 2), ("", 14), ("", 15)]),
        ("", [("", 1)]),
        ("a,", [("a", 1), ("", 3)]),
    ],
)
def test_csv_fields_and_their_columns(text: str, fields: list[tuple[str, int]]) -> None:
    assert split_csv_line(text, "f.csv", 1) == fields
