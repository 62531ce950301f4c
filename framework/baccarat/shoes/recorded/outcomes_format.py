"""The ``outcomes`` format: one shoe per line of winners, ``B``, ``P`` or ``T``.

Letters are read in any case; spaces, tabs and commas between them are
optional (``BPPBT``, ``b p p b t`` and ``B,P,P,B,T`` are the same shoe).
Blank lines and ``#`` comments are ignored; shoes are numbered from 1 in file
order. A shoe cannot hold more rounds than its decks can deal (13 per deck,
a round taking at least four cards). Only bets settled by the winner can be
backtested on such shoes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from baccarat.errors import ShoeError
from baccarat.shoes.recorded.text import shoe_lines, strip_comment
from baccarat.shoes.rounds import OUTCOME_CODE
from baccarat.table.rules import Rules

OUTCOME_LETTERS: dict[str, int] = {
    letter: OUTCOME_CODE[name] for name, upper in (("banker", "B"), ("player", "P"), ("tie", "T")) for letter in (upper, upper.lower())
}
"""Outcome letter (any case) -> outcome code."""

_SEPARATORS = " \t\v\f\r,"


def parse_outcomes_line(text: str, path: str, line: int) -> list[int]:
    """Return the outcome codes of one line; any other character is an error naming its column."""
    content = strip_comment(text)
    codes: list[int] = []
    for index, char in enumerate(content):
        code = OUTCOME_LETTERS.get(char)
        if code is not None:
            codes.append(code)
        elif char not in _SEPARATORS:
            raise ShoeError(
                f"invalid outcome {char!r}; expected B, P or T (any case), separated by spaces, commas or nothing",
                path=path,
                line=line,
                column=index + 1,
            )
    return codes


def _column_of_round(text: str, number: int) -> int:
    seen = 0
    for index, char in enumerate(text):
        if char in OUTCOME_LETTERS:
            seen += 1
            if seen == number:
                return index + 1
    raise AssertionError("round beyond the line")  # pragma: no cover


def outcomes_shoes(lines: Iterable[tuple[int, str]], path: str, rules: Rules) -> Iterator[tuple[int, list[int]]]:
    """Yield ``(shoe_id, outcome codes)`` for every shoe of an ``outcomes`` file."""
    limit = 13 * rules.decks
    for shoe_id, line, text, codes in shoe_lines(lines, parse_outcomes_line, path):
        if len(codes) > limit:
            decks = "1 deck" if rules.decks == 1 else f"{rules.decks} decks"
            raise ShoeError(
                f"shoe {shoe_id} records {len(codes)} rounds, more than the {limit} that {decks} can deal "
                "(a round takes at least four cards)",
                path=path,
                line=line,
                column=_column_of_round(text, limit + 1),
            )
        yield shoe_id, codes
