"""Recorded shoes in the three formats: exact replay of seeded shoes and positioned errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from helpers.dealt import dealt_cards

from baccarat.errors import ShoeError
from baccarat.shoes.recorded import FORMATS, ShoeScan, read_cards, read_shoes
from baccarat.shoes.recorded.write import write_shoes
from baccarat.shoes.rounds import RoundTable
from baccarat.shoes.seeded import seeded_rounds, seeded_table
from baccarat.table.cards import labels
from baccarat.table.rules import preset, preset_names

CARD_COLUMNS = ("player_cards", "banker_cards", "player_total", "banker_total", "natural", "player_pair", "banker_pair")


def assert_same_rounds(got: RoundTable, want: RoundTable, cards: bool = True) -> None:
    assert len(got) == len(want)
    for name in ("shoe", "hand", "outcome") + (CARD_COLUMNS if cards else ()):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert got.has_cards is cards


def test_replaying_dealt_cards_gives_the_seeded_rounds(tmp_path: Path) -> None:
    rules = preset("punto-banco-8")
    path = tmp_path / "shoes.txt"
    lines = [" ".join(labels(dealt_cards(rounds))) for _, rounds in seeded_rounds(rules, 9, 1, 5)]
    path.write_text("# five seeded shoes\n" + "\n\n".join(lines) + "\n")
    recorded = read_cards(path, rules)
    assert recorded.shoes == 5 and recorded.warnings == []
    assert_same_rounds(recorded.table, seeded_table(rules, 9, 1, 5))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", preset_names())
def test_written_shoes_replay_the_seeded_run_exactly(tmp_path: Path, name: str, fmt: str) -> None:
    rules = preset(name)
    count = 40 if rules.reshuffle_every_round else 6
    path = tmp_path / f"shoes.{fmt}"
    shoes, rounds = write_shoes(path, fmt, seeded_rounds(rules, 2024, 1, count), "a comment")
    seeded = seeded_table(rules, 2024, 1, count)
    assert (shoes, rounds) == (count, len(seeded))
    recorded = read_shoes(path, fmt, rules)
    assert recorded.shoes == count and recorded.warnings == []
    assert_same_rounds(recorded.table, seeded, cards=fmt != "outcomes")
    if rules.reshuffle_every_round:
        assert recorded.table.hand.tolist() == [1] * count


@pytest.mark.parametrize("fmt", FORMATS)
def test_chunks_join_to_the_whole_file(tmp_path: Path, fmt: str) -> None:
    rules = preset("punto-banco-6")
    path = tmp_path / "shoes"
    write_shoes(path, fmt, seeded_rounds(rules, 3, 1, 7))
    scan = ShoeScan(path, fmt, rules, chunk_rounds=50)
    chunks = list(scan.tables())
    assert len(chunks) > 5 and all(len(c) < 50 + 80 for c in chunks)
    assert_same_rounds(RoundTable.concat(chunks), read_shoes(path, fmt, rules).table, cards=fmt != "outcomes")
    assert scan.shoes == 7 and scan.rounds == sum(len(c) for c in chunks)


def test_cards_any_case_commas_and_ranks_only(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("\ufeffAS,10h kd 9 T, 4c   # a comment\n")
    recorded = read_cards(path, preset("punto-banco-8"))
    table = recorded.table
    # P: A, K -> 1; B: 10, 9 -> 9 natural; T and 4c are left over.
    assert table.outcome.tolist() == [0]
    assert table.banker_total.tolist() == [9]
    assert labels(table.player_cards[0][:2].tolist()) == ["AS", "KD"]
    assert labels(table.banker_cards[0][:2].tolist()) == ["10H", "9"]
    assert "2 card(s) that cannot complete a round" in recorded.warnings[0]


def test_outcomes_any_case_with_or_without_separators(tmp_path: Path) -> None:
    path = tmp_path / "o.txt"
    path.write_text("BPT\r\n\n# shoe two:\nb, p ,t\tB # done\n")
    recorded = read_shoes(path, "outcomes", preset("punto-banco-8"))
    assert recorded.shoes == 2
    assert recorded.table.shoe.tolist() == [1, 1, 1, 2, 2, 2, 2]
    assert recorded.table.hand.tolist() == [1, 2, 3, 1, 2, 3, 4]
    assert recorded.table.outcome.tolist() == [0, 1, 2, 0, 1, 2, 0]
    assert not recorded.table.has_cards


def test_rounds_keep_their_shoe_numbers_and_ignore_other_columns(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    header = "Banker, table ,SHOE,Player\n"
    # Banker 9 K is a natural 9: Player 2 3 may not draw.
    path.write_text(header + "9 K,a,17,2 3 K\n")
    with pytest.raises(ShoeError, match=r":2:10: shoe 17, round 1: Player drew a third card, but Banker has a natural 9"):
        read_shoes(path, "rounds", preset("punto-banco-8"))
    # Player 6 K stands; Banker 7h 7s makes 4 and must draw (the quoted field's text starts at column 2).
    path.write_text(header + "9 K,a,17,2 3\n" + '"7h, 7s",b,17,6 K\n')
    with pytest.raises(ShoeError, match=r":3:2: shoe 17, round 2: Banker with 4 must draw when Player stands, but stood"):
        read_shoes(path, "rounds", preset("punto-banco-8"))
    # 9 v 5 (natural); 7 v 6 (both stand); Player 0 draws 5, Banker 3 draws on a 5 and makes 3.
    path.write_text(header + "9 K,a,17,2 3\n" + '"7h, KS",b,17,6 K\n' + "\n# next shoe\n" + "3 K K,c,5,QD KD 5\n,,,\n , ,,\n")
    table = read_shoes(path, "rounds", preset("punto-banco-8")).table
    assert table.shoe.tolist() == [17, 17, 5] and table.hand.tolist() == [1, 2, 1]
    assert table.outcome.tolist() == [0, 0, 1]
    assert table.player_total.tolist() == [5, 6, 5] and table.banker_total.tolist() == [9, 7, 3]
    assert table.natural.tolist() == [True, False, False]
    assert labels(table.banker_cards[1][:2].tolist()) == ["7H", "KS"]
    assert labels(table.player_cards[2].tolist()) == ["QD", "KD", "5"]


def test_lines_may_end_in_lf_crlf_or_cr(tmp_path: Path) -> None:
    path = tmp_path / "o.txt"
    path.write_bytes(b"BPT\rBB\r\nPP\nT\rBX\r")
    with pytest.raises(ShoeError, match=r":5:2: invalid outcome 'X'"):
        read_shoes(path, "outcomes", preset("punto-banco-8"))
    path.write_bytes(b"BPT\rBB\r\nPP\nT\rB\r")
    recorded = read_shoes(path, "outcomes", preset("punto-banco-8"))
    assert recorded.shoes == 5 and recorded.table.shoe.tolist() == [1, 1, 1, 2, 2, 3, 3, 4, 5]


def test_trailing_cards_are_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("4 3 5 4 2 2\n")
    recorded = read_cards(path, preset("punto-banco-8"))
    assert len(recorded.table) == 1
    assert recorded.warnings == [f"{path}:1: shoe 1 ends with 2 card(s) that cannot complete a round; they are not used"]


def test_many_warnings_are_counted_not_listed(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("4 3 5 4 2 2\n" * 25)
    recorded = read_cards(path, preset("punto-banco-8"))
    assert recorded.shoes == 25 and len(recorded.table) == 25
    assert len(recorded.warnings) == 11 and recorded.warnings[-1] == "... and 15 more warning(s) like these"


@pytest.mark.parametrize(
    ("fmt", "text", "expected"),
    [
        ("cards", "4 3 5 4\n9 X 3\n", ":2:3: invalid card 'X'; a card is a rank"),
        ("cards", "4 3 5 4\n9, 4Z 3\n", ":2:4: invalid card '4Z': unknown suit 'Z'"),
        ("cards", "4 3 5 4\n9 11 3\n", ":2:3: invalid card '11'"),
        ("cards", "4 3 5 4\n9 \u017f 3\n", ":2:3: invalid card '\u017f'"),  # long s, upper-cases to S: still no card
        ("cards", "# nothing\n\n  \n", "holds no shoe"),
        ("cards", "", "holds no shoe"),
        ("cards", "4 3 5\n", "holds no complete round"),
        ("cards", "AS 2 3 AS 4\n", ":1:8: shoe 1 holds 2 copies of AS by this card, more than the 1 that 1 deck holds"),
        ("cards", "5 5 5 5 5\n", ":1:9: shoe 1 holds 5 cards of rank 5 by this card, more than the 4 that 1 deck holds"),
        ("cards", "4 3 5 4\nKH JS 10C 10 KS 10D 10H 2 3 10S\n", ":2:29: shoe 2 holds 5 cards of rank 10"),
        ("cards", "AS 2 3 4\x00\n", ":1:9: not a text file"),
        ("cards", "AS 2 3 4\x07\n", ":1:9: not a text file"),
        ("outcomes", "BPT\nBPX\n", ":2:3: invalid outcome 'X'"),
        ("outcomes", "BPT\nB;P\n", ":2:2: invalid outcome ';'"),
        ("outcomes", "\n\n", "holds no shoe"),
        ("outcomes", "B " * 14 + "\n", ":1:27: shoe 1 records 14 rounds, more than the 13 that 1 deck can deal"),
        ("rounds", "", "holds no shoe"),
        ("rounds", "shoe,player,banker\n", "holds no shoe"),
        ("rounds", "shoe,player\n1,2 3\n", ":1: the header has no column 'banker'"),
        ("rounds", "shoe,players,banker\n", ":1:6: the header has no column 'player' (is 'players' meant to be 'player'?)"),
        ("rounds", "shoe,player,banker,Shoe\n", ":1:20: the header names the column 'shoe' twice"),
        ("rounds", "1,2 3,4 5\n", ":1: the header has no column 'shoe'"),
        ("rounds", "shoe,player,banker\n1,2 3\n", ":2:6: this row has 2 field(s) but the header has 3"),
        ("rounds", "shoe,player,banker\nx,2 3,4 5\n", ":2:1: invalid shoe number 'x'"),
        ("rounds", "shoe,player,banker\n0,2 3,4 5\n", ":2:1: invalid shoe number '0'"),
        ("rounds", "shoe,player,banker\n1,2 3,4 5Q\n", ":2:9: invalid card '5Q': unknown suit 'Q'"),
        ("rounds", 'shoe,player,banker\n1,"2 3,4 5\n', ":2:3: this quoted field has no closing quote"),
        ("rounds", 'shoe,player,banker\n1,"2 3"x,4 5\n', ":2:8: unexpected 'x' after a quoted field"),
        ("rounds", "shoe,player,banker\n1,2,4 5\n", ":2:3: Player's hand must hold 2 or 3 cards, not 1"),
        ("rounds", "shoe,player,banker\n1,2 3,4 5 6 7\n", ":2:7: Banker's hand must hold 2 or 3 cards, not 4"),
        (
            "rounds",
            "shoe,player,banker\n1,K 7,K 9\n2,K 7,K 8\n1,K 7,K 9\n",
            ":4:1: shoe 1 appears again after shoe 2; the rows of a shoe must be together",
        ),
        ("rounds", "shoe,player,banker\n1,AS 7,K 9\n1,K 7,AS 9\n", ":3:7: shoe 1 holds 2 copies of AS by this card"),
        ("rounds", "shoe,player,banker\n1,AS 7,K 9\n2,K 7,AS 9\n", "shoe 2, round 1"),  # copies count per shoe: no error
        ("rounds", "shoe,player,banker\n1,2 3,4 K\n", ":2:3: shoe 1, round 1: Player with 5 must draw a third card, but stood"),
        ("rounds", "shoe,player,banker\n1,6 K 2,7 K\n", ":2:3: shoe 1, round 1: Player stands on 6, but drew a third card"),
        ("rounds", "shoe,player,banker\n1,6 K,5 K\n", ":2:7: shoe 1, round 1: Banker with 5 must draw when Player stands, but stood"),
        ("rounds", "shoe,player,banker\n1,7 K,6 K 2\n", ":2:7: shoe 1, round 1: Banker stands on 6 when Player stands, but drew"),
        (
            "rounds",
            "shoe,player,banker\n1,2 K 4,3 K\n",
            ":2:9: shoe 1, round 1: Banker with 3 must draw when Player's third card is 4, but stood",
        ),
        (
            "rounds",
            "shoe,player,banker\n1,2 K 8,3 K 4\n",
            ":2:9: shoe 1, round 1: Banker stands on 3 when Player's third card is 8, but drew a third card",
        ),
        ("rounds", "shoe,player,banker\n1,9 K 8,3 K\n", ":2:3: shoe 1, round 1: Player drew a third card, but Player has a natural 9"),
    ],
)
def test_errors_name_file_line_and_column(tmp_path: Path, fmt: str, text: str, expected: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ShoeError) as info:
        read_shoes(path, fmt, preset("single-deck"))
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message
    assert expected in message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"5 \xff 6\nAS 2 3 4\n", ":1:3: not UTF-8 text: the byte 0xff"),
        ("\u00e9 ".encode() + b"\xc3\n", ":1:3: not UTF-8 text: the byte 0xc3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ":1:1: not UTF-8 text: the byte 0x89"),
        (b"BP\x00\x01\nPDF", ":1:3: not a text file: it holds the control byte 0x00"),
        (b"\n\n\x1b[31m", ":3:1: not a text file: it holds the control byte 0x1b"),
    ],
)
def test_binary_and_non_utf8_files(tmp_path: Path, raw: bytes, expected: str) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(raw)
    for fmt in FORMATS:
        with pytest.raises(ShoeError, match=expected.replace("(", r"\(")):
            read_shoes(path, fmt, preset("punto-banco-8"))


def test_unreadable_path_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ShoeError, match="cannot read the shoe file"):
        read_shoes(tmp_path / "missing.txt", "cards", preset("punto-banco-8"))
    with pytest.raises(ShoeError, match="cannot read the shoe file"):
        read_shoes(tmp_path, "cards", preset("punto-banco-8"))
    with pytest.raises(ShoeError, match="unknown shoe format 'card' \\(did you mean 'cards'\\?\\)"):
        read_shoes(tmp_path / "missing.txt", "card", preset("punto-banco-8"))


def test_an_eight_deck_shoe_allows_eight_copies(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("AS " * 8 + "\n")
    assert len(read_cards(path, preset("punto-banco-8")).table) == 1
    path.write_text("AS " * 9 + "\n")
    with pytest.raises(ShoeError, match=":1:25: shoe 1 holds 9 copies of AS"):
        read_cards(path, preset("punto-banco-8"))
    path.write_text("A " * 32 + "A\n")
    with pytest.raises(ShoeError, match=":1:65: shoe 1 holds 33 cards of rank A by this card, more than the 32 that 8 decks hold"):
        read_cards(path, preset("punto-banco-8"))
    two_decks = dataclasses.replace(preset("punto-banco-8"), decks=2)
    path.write_text("AS AS 2 3 K\n")
    assert len(read_cards(path, two_decks).table) == 1
