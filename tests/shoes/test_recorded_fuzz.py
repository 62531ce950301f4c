"""Fuzzing the shoe readers: any text or bytes gives shoes or one positioned ShoeError, never another exception."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.errors import ShoeError
from baccarat.shoes.recorded import FORMATS, read_shoes
from baccarat.shoes.recorded.write import shoe_lines
from baccarat.shoes.seeded import seeded_rounds
from baccarat.table.cards import hand_total
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text made of the characters shoe files are made of, so that the fuzzing reaches deep into the readers.
SHOE_ALPHABET = "AaSsHhDdCcKkQqJjTtBbPp0123456789 ,\t\n\r#\"'xX\u00e9\ufeff-;"
shoe_text = st.text(alphabet=SHOE_ALPHABET, max_size=400)
csv_text = st.builds(
    lambda body, header: header + body,
    shoe_text,
    st.sampled_from(["shoe,player,banker\n", "SHOE , Banker,player,x\n", "shoe,player\n", ""]),
)


def read_or_error(data: bytes, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shoes"
        path.write_bytes(data)
        try:
            recorded = read_shoes(path, fmt, RULES)
        except ShoeError as exc:
            message = str(exc)
            assert message.startswith(str(path)) and "\n" not in message
            return
    table = recorded.table
    assert recorded.shoes >= 1 and len(table) >= 1
    if table.has_cards:
        for row in range(len(table)):
            player = [c for c in table.player_cards[row].tolist() if c]
            banker = [c for c in table.banker_cards[row].tolist() if c]
            assert hand_total(player) == table.player_total[row] and hand_total(banker) == table.banker_total[row]


@FUZZ
@given(data=st.binary(max_size=600), fmt=st.sampled_from(FORMATS))
def test_random_bytes(data: bytes, fmt: str) -> None:
    read_or_error(data, fmt)


@pytest.mark.slow
@FUZZ
@given(text=st.text(max_size=300), fmt=st.sampled_from(FORMATS))
def test_random_unicode_text(text: str, fmt: str) -> None:
    read_or_error(text.encode("utf-8", errors="surrogatepass"), fmt)


@pytest.mark.slow
@FUZZ
@given(text=shoe_text, fmt=st.sampled_from(FORMATS))
def test_random_text_of_shoe_characters(text: str, fmt: str) -> None:
    read_or_error(text.encode("utf-8"), fmt)


@pytest.mark.slow
@FUZZ
@given(text=csv_text)
def test_random_csv_rows(text: str) -> None:
    read_or_error(text.encode("utf-8"), "rounds")


def _valid_file(fmt: str) -> bytes:
    lines = [line for shoe_id, rounds in seeded_rounds(RULES, 11, 1, 2) for line in shoe_lines(fmt, shoe_id, rounds)]
    header = "shoe,player,banker\n" if fmt == "rounds" else ""
    return (header + "\n".join(lines) + "\n").encode()


VALID = {fmt: _valid_file(fmt) for fmt in FORMATS}


@pytest.mark.slow
@FUZZ
@given(
    fmt=st.sampled_from(FORMATS),
    edits=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.binary(max_size=3), st.integers(0, 3)), min_size=1, max_size=4),
)
def test_valid_files_with_random_edits(fmt: str, edits: list[tuple[float, bytes, int]]) -> None:
    data = bytearray(VALID[fmt])
    for where, insert, delete in edits:
        at = int(where * len(data))
        data[at : at + delete] = insert
    read_or_error(bytes(data), fmt)


def test_unedited_valid_files_read() -> None:
    for fmt, data in VALID.items():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "shoes"
            path.write_bytes(data)
            table = read_shoes(path, fmt, RULES).table
            assert np.unique(table.shoe).tolist() == [1, 2]
