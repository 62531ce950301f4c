"""Scoreboard roads on hand-drawn shoes, and derived roads against a literal grid reading of the standard rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.table.roads import DERIVED_ROADS, parse_outcomes, roads, text_grid

BIG = {"banker": "B", "player": "P"}
COLOURS = {"red": "R", "blue": "b"}


def drawn(cells) -> list[tuple[int, int, str]]:
    return [(c.col, c.row, BIG.get(c.mark, COLOURS.get(c.mark, c.mark))) for c in cells]


def grid(cells, symbols=None) -> list[str]:
    return text_grid(cells, symbols or {**BIG, **COLOURS}).splitlines()


# Bead plate -------------------------------------------------------------------


def test_bead_plate_fills_columns_top_to_bottom_with_ties() -> None:
    r = roads(parse_outcomes("BPTBBB PPTBBP BT"))
    assert grid(r.bead_plate, {"banker": "B", "player": "P", "tie": "T"}) == [
        "BPB",
        "PPT",
        "TT.",
        "BB.",
        "BB.",
        "BP.",
    ]
    assert [c.hand for c in r.bead_plate] == list(range(1, 15))


# Big road ---------------------------------------------------------------------


def test_ties_before_the_first_decision_mark_the_first_cell() -> None:
    r = roads(parse_outcomes("TTBPPTB"))
    assert drawn(r.big_road) == [(0, 0, "B"), (1, 0, "P"), (1, 1, "P"), (2, 0, "B")]
    assert [c.ties for c in r.big_road] == [2, 0, 1, 0]
    assert [c.hand for c in r.big_road] == [3, 4, 5, 7]
    assert r.leading_ties == 2
    assert r.columns == (1, 2, 1)


def test_a_shoe_of_ties_only_has_no_big_road_yet() -> None:
    r = roads(parse_outcomes("TTT"))
    assert r.big_road == ()
    assert r.leading_ties == 3
    assert len(r.bead_plate) == 3
    assert r.next_colours("banker") == {name: None for name, _ in DERIVED_ROADS}


def test_consecutive_ties_accumulate_on_the_last_decided_cell() -> None:
    r = roads(parse_outcomes("BTTTPT"))
    assert [(c.mark, c.ties) for c in r.big_road] == [("banker", 3), ("player", 1)]


def test_a_dragon_turns_right_at_the_bottom() -> None:
    r = roads(parse_outcomes("BBBBBBBB PP"))
    assert grid(r.big_road) == [
        "BP.",
        "BP.",
        "B..",
        "B..",
        "B..",
        "BBB",
    ]
    assert r.columns == (8, 2)
    assert [(c.column, c.depth) for c in r.big_road][5:8] == [(0, 5), (0, 6), (0, 7)]


def test_a_streak_blocked_by_a_tail_turns_right_early() -> None:
    r = roads(parse_outcomes("B" * 8 + "P" * 6 + "B" * 5 + "P"))
    assert grid(r.big_road) == [
        "BPBP",
        "BPB.",
        "BPB.",
        "BPBB",
        "BPP.",
        "BBB.",
    ]
    assert r.columns == (8, 6, 5, 1)


def test_tails_stack_into_a_staircase() -> None:
    r = roads(parse_outcomes("B" * 10 + "P" * 7 + "B" * 6 + "PP" + "BBBB"))
    assert grid(r.big_road) == [
        "BPBPB.",
        "BPBPB.",
        "BPB.BB",
        "BPBBB.",
        "BPPP..",
        "BBBBB.",
    ]
    assert r.columns == (10, 7, 6, 2, 4)


def test_a_streak_whose_top_cell_is_taken_starts_in_the_next_free_top_cell() -> None:
    seq = "B" * 9 + "P" * 8 + "B" * 7 + "P" * 6 + "B" * 5 + "P" * 3 + "B" + "PP"
    r = roads(parse_outcomes(seq))
    assert grid(r.big_road) == [
        "BPBPBPPPBP",
        "BPBPBBBB.P",
        "BPBPPPP...",
        "BPBBBB....",
        "BPPPP.....",
        "BBBB......",
    ]
    assert r.columns == (9, 8, 7, 6, 5, 3, 1, 2)
    # no two marks share a cell
    assert len({(c.col, c.row) for c in r.big_road}) == len(r.big_road)


def test_bead_plate_and_big_road_wrap_long_shoes() -> None:
    r = roads(parse_outcomes("BP" * 40))
    assert len(r.bead_plate) == 80
    assert r.bead_plate[-1].col == 13 and r.bead_plate[-1].row == 1
    assert [c.col for c in r.big_road] == list(range(80))
    assert {c.row for c in r.big_road} == {0}


def test_rows_can_be_changed() -> None:
    r = roads(parse_outcomes("BBBBP"), rows=3)
    assert drawn(r.big_road) == [(0, 0, "B"), (0, 1, "B"), (0, 2, "B"), (1, 2, "B"), (1, 0, "P")]


def test_bad_outcome_is_refused() -> None:
    with pytest.raises(ValueError, match="not an outcome"):
        parse_outcomes("BPX")


# Derived roads: a hand-drawn shoe ---------------------------------------------

HAND_DRAWN = "BB PPP B P BBB PP"  # columns of length 2, 3, 1, 1, 3, 2


def test_big_eye_boy_on_a_hand_drawn_shoe() -> None:
    r = roads(parse_outcomes(HAND_DRAWN))
    assert r.columns == (2, 3, 1, 1, 3, 2)
    # col2 row2: col1 has row2 -> red; col2 row3: col1 ends at row2 -> blue; col3: 3 vs 2 -> blue;
    # col4: 1 vs 3 -> blue; col5: 1 vs 1 -> red; col5 row2: col4 ends at row1 -> blue;
    # col5 row3: col4 empty at rows 2 and 3 -> red; col6: 3 vs 1 -> blue; col6 row2: col5 has row2 -> red.
    assert "".join(COLOURS[c.mark] for c in r.big_eye_boy) == "RbbbRbRbR"
    assert drawn(r.big_eye_boy) == [
        (0, 0, "R"),
        (1, 0, "b"),
        (1, 1, "b"),
        (1, 2, "b"),
        (2, 0, "R"),
        (3, 0, "b"),
        (4, 0, "R"),
        (5, 0, "b"),
        (6, 0, "R"),
    ]
    assert [c.hand for c in r.big_eye_boy] == [4, 5, 6, 7, 8, 9, 10, 11, 12]


def test_small_road_on_a_hand_drawn_shoe() -> None:
    r = roads(parse_outcomes(HAND_DRAWN))
    # starts at col4 row1 (col3 has one entry): 1 vs 2 -> blue; col5: 1 vs 3 -> blue; col5 row2: col3 ends at row1
    # -> blue; col5 row3: col3 empty at rows 2, 3 -> red; col6: 3 vs 1 -> blue; col6 row2: col4 ends at row1 -> blue.
    assert "".join(COLOURS[c.mark] for c in r.small_road) == "bbbRbb"


def test_cockroach_pig_on_a_hand_drawn_shoe() -> None:
    r = roads(parse_outcomes(HAND_DRAWN))
    # col5: 1 vs 2 -> blue; col5 rows 2, 3: col2 has them -> red, red; col6: 3 vs 3 -> red; col6 row2: col3 ends -> blue.
    assert "".join(COLOURS[c.mark] for c in r.cockroach_pig) == "bRRRb"


def test_ties_leave_the_derived_roads_unchanged() -> None:
    plain = roads(parse_outcomes(HAND_DRAWN))
    tied = roads(parse_outcomes("TBBTTPPPBTPBBBTPPT"))
    for name, _ in DERIVED_ROADS:
        assert [c.mark for c in tied.derived(name)] == [c.mark for c in plain.derived(name)]


def test_ask_banker_and_ask_player_on_a_hand_drawn_shoe() -> None:
    r = roads(parse_outcomes(HAND_DRAWN))
    # Player continues col6 at row3: col5 has row3 (red); col4 empty at rows 2-3 (red); col3 likewise (red).
    assert r.next_colours("player") == {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "red"}
    # Banker opens col7: 2 vs 3, 2 vs 1, 2 vs 1.
    assert r.next_colours("banker") == {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "blue"}


def test_derived_roads_start_at_column_two_row_two_or_column_three() -> None:
    # column 2 has a second entry: big eye boy starts there
    assert [c.hand for c in roads(parse_outcomes("BPP")).big_eye_boy] == [3]
    # column 2 has one entry: big eye boy starts with the first entry of column 3
    r = roads(parse_outcomes("BPB"))
    assert [c.hand for c in r.big_eye_boy] == [3]
    assert r.small_road == ()
    assert [c.hand for c in roads(parse_outcomes("BPBB")).small_road] == [4]
    assert [c.hand for c in roads(parse_outcomes("BPBP")).small_road] == [4]
    assert roads(parse_outcomes("BPBP")).cockroach_pig == ()
    assert [c.hand for c in roads(parse_outcomes("BPBPP")).cockroach_pig] == [5]
    assert [c.hand for c in roads(parse_outcomes("BPBPB")).cockroach_pig] == [5]


def test_derived_roads_read_logical_columns_through_a_dragon() -> None:
    # an 8-long dragon, then Player 8 times: big eye boy compares depths 1..7 with the dragon's 8 logical entries
    r = roads(parse_outcomes("B" * 8 + "P" * 8 + "B"))
    assert [c.mark for c in r.big_eye_boy] == ["red"] * 7 + ["red"]  # every row matches; then 8 == 8: even
    r = roads(parse_outcomes("B" * 8 + "P" * 9))
    assert [c.mark for c in r.big_eye_boy] == ["red"] * 7 + ["blue"]  # the ninth Player has no match in the dragon


def test_a_derived_road_has_its_own_dragon_tails() -> None:
    r = roads(parse_outcomes("B" + "P" * 9))
    # big eye boy: col2 rows 2..9 against a one-entry col1: blue at row 2, then red straight drops
    assert [COLOURS[c.mark] for c in r.big_eye_boy] == ["b"] + ["R"] * 7
    assert drawn(r.big_eye_boy)[-3:] == [(1, 4, "R"), (1, 5, "R"), (2, 5, "R")]


# Derived roads against a literal reading of the rules on a grid ----------------


def reference_derived(outcomes: str, offset: int) -> list[str]:
    """The scoreboard rules as a player applies them, on a grid of logical big-road columns."""
    columns: list[list[str]] = []
    colours: list[str] = []
    for o in outcomes:
        if o == "T":
            continue
        if columns and columns[-1][0] == o:
            columns[-1].append(o)
        else:
            columns.append([o])
        c, r = len(columns) - 1, len(columns[-1]) - 1

        def cell(col: int, row: int) -> bool:
            return 0 <= col and row < len(columns[col])

        if r == 0:
            left, far = c - 1, c - 1 - offset
            if far < 0:
                continue
            colours.append("red" if len(columns[left]) == len(columns[far]) else "blue")
        else:
            compared = c - offset
            if compared < 0:
                continue
            if cell(compared, r):
                colours.append("red")  # match
            elif cell(compared, r - 1):
                colours.append("blue")  # no match
            else:
                colours.append("red")  # straight drop
    return colours


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="BPT", max_size=90))
def test_derived_roads_agree_with_the_literal_rules(seq: str) -> None:
    r = roads(parse_outcomes(seq))
    for name, offset in DERIVED_ROADS:
        assert [c.mark for c in r.derived(name)] == reference_derived(seq, offset)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="BPT", max_size=90))
def test_asks_are_opposite_and_come_true(seq: str) -> None:
    r = roads(parse_outcomes(seq))
    banker, player = r.next_colours("banker"), r.next_colours("player")
    for name, _ in DERIVED_ROADS:
        if banker[name] is not None:
            assert {banker[name], player[name]} == {"red", "blue"}
        for side, ask in (("banker", banker), ("player", player)):
            after = roads(parse_outcomes(seq + side[0].upper())).derived(name)
            before = r.derived(name)
            assert (after[-1].mark if len(after) > len(before) else None) == ask[name]


def test_random_shoes_never_overlap_cells() -> None:
    rng = random.Random(5)
    for _ in range(200):
        seq = "".join(rng.choices("BBBBBBPPPPPT", k=rng.randint(0, 90)))
        r = roads(parse_outcomes(seq))
        for cells in (r.big_road, *(r.derived(name) for name, _ in DERIVED_ROADS)):
            assert len({(c.col, c.row) for c in cells}) == len(cells)
            assert all(0 <= c.row < 6 for c in cells)


def test_last_mark_of_each_derived_road() -> None:
    r = roads(parse_outcomes(HAND_DRAWN))
    assert (r.last_mark("big_eye_boy"), r.last_mark("small_road"), r.last_mark("cockroach_pig")) == ("red", "blue", "blue")
    assert roads(parse_outcomes("BPB")).last_mark("small_road") is None
    with pytest.raises(ValueError, match="unknown road"):
        r.last_mark("big_road")
