"""The ``cards`` format: one shoe per line, cards in dealing order.

Cards are separated by spaces or commas (``AS 10h kd 9 T``); blank lines and
``#`` comments are ignored. Shoes are numbered from 1 in file order. Every
complete round is played by the reference dealer; cards left at the end of a
line that cannot complete a round are reported as a warning and not used.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from baccarat.errors import ShoeError
from baccarat.shoes.recorded.text import shoe_lines, split_tokens, strip_comment, token_columns
from baccarat.shoes.recorded.validate import CARD_CODES, Warnings, card_token_error, first_copy_too_many
from baccarat.table.dealer import Round, play_round
from baccarat.table.rules import Rules


def parse_cards_line(text: str, path: str, line: int) -> list[int]:
    """Return the card codes of one line; an invalid token is an error naming its line and column."""
    content = strip_comment(text)
    codes = [CARD_CODES.get(token) for token in split_tokens(content)]
    if None in codes:
        for token, column in token_columns(content):
            if token not in CARD_CODES:
                raise ShoeError(card_token_error(token), path=path, line=line, column=column)
    return codes  # type: ignore[return-value]


def play_recorded_shoe(cards: Sequence[int]) -> tuple[list[Round], int]:
    """Play every complete round of a recorded shoe; return the rounds and the number of unused trailing cards."""
    rounds: list[Round] = []
    position = 0
    while position < len(cards):
        try:
            rnd = play_round(cards, position)
        except IndexError:
            break
        rounds.append(rnd)
        position += rnd.cards_used
    return rounds, len(cards) - position


def _card_column(text: str, index: int) -> int:
    for i, (_, column) in enumerate(token_columns(strip_comment(text))):
        if i == index:
            return column
    raise AssertionError("card index beyond the line")  # pragma: no cover


def cards_shoes(lines: Iterable[tuple[int, str]], path: str, rules: Rules, warnings: Warnings) -> Iterator[tuple[int, list[Round]]]:
    """Yield ``(shoe_id, rounds)`` for every shoe of a ``cards`` file, checking each line as it is read."""
    for shoe_id, line, text, cards in shoe_lines(lines, parse_cards_line, path):
        too_many = first_copy_too_many(np.asarray(cards, dtype=np.int8), rules, shoe_id)
        if too_many is not None:
            index, message = too_many
            raise ShoeError(message, path=path, line=line, column=_card_column(text, index))
        rounds, trailing = play_recorded_shoe(cards)
        if trailing:
            warnings.add(f"{path}:{line}: shoe {shoe_id} ends with {trailing} card(s) that cannot complete a round; they are not used")
        yield shoe_id, rounds
