"""Recorded shoes read from files.

Cards are recorded in dealing order, burned cards excluded; no burn and no
cut card are applied: every recorded round is played. Trailing cards that
cannot complete a round are reported as a warning, never used.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from baccarat.cards import card_label, parse_card, rank_of, suit_of
from baccarat.dealer import Round, play_round
from baccarat.errors import ShoeError
from baccarat.rounds import RoundTable
from baccarat.rules import Rules

FORMATS: tuple[str, ...] = ("cards",)
"""Recorded shoe formats this module reads."""

_TOKEN = re.compile(r"[^\s,]+")


@dataclass
class RecordedShoes:
    """Shoes read from a file: the round table and any warnings to show the user."""

    table: RoundTable
    shoes: int
    warnings: list[str] = field(default_factory=list)


def _read_lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if b"\0" in raw:
                    raise ShoeError("is not a text file (it holds binary data)", path=str(path), line=number)
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise ShoeError("is not UTF-8 text", path=str(path), line=number) from None
                yield number, text.rstrip("\r\n")
    except OSError as exc:
        raise ShoeError(f"cannot read shoe file: {exc.strerror}", path=str(path)) from None


def parse_cards_line(text: str, path: str, line: int) -> list[int]:
    """Parse one ``cards`` line into card codes; errors name file, line and column."""
    content = text.split("#", 1)[0]
    cards: list[int] = []
    for match in _TOKEN.finditer(content):
        token = match.group()
        try:
            cards.append(parse_card(token))
        except ValueError as exc:
            raise ShoeError(f"invalid card {token!r}: {exc}; expected a rank A 2-9 T 10 J Q K with an optional suit S H D C",
                            path=path, line=line, column=match.start() + 1) from None
    return cards


def check_copies(cards: list[int], rules: Rules, path: str, line: int) -> None:
    """Raise when a shoe holds more copies of a card than ``rules.decks`` decks hold."""
    by_rank = Counter(rank_of(c) for c in cards)
    for rank, count in by_rank.items():
        if count > 4 * rules.decks:
            label = card_label(rank)
            raise ShoeError(f"the shoe holds {count} cards of rank {label}, more than the {4 * rules.decks} "
                            f"that {rules.decks} deck(s) hold", path=path, line=line)
    by_card = Counter(c for c in cards if suit_of(c))
    for card, count in by_card.items():
        if count > rules.decks:
            raise ShoeError(f"the shoe holds {count} copies of {card_label(card)}, more than the {rules.decks} "
                            f"that {rules.decks} deck(s) hold", path=path, line=line)


def play_recorded_shoe(cards: list[int]) -> tuple[list[Round], int]:
    """Play every complete round of a recorded shoe; return rounds and unused trailing cards."""
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


def read_cards(path: str | Path, rules: Rules) -> RecordedShoes:
    """Read a ``cards`` file: one shoe per line, cards separated by spaces or commas."""
    path = Path(path)
    shoes: list[tuple[int, list[Round]]] = []
    warnings: list[str] = []
    for line, text in _read_lines(path):
        cards = parse_cards_line(text, str(path), line)
        if not cards:
            continue
        check_copies(cards, rules, str(path), line)
        rounds, trailing = play_recorded_shoe(cards)
        shoe_id = len(shoes) + 1
        if trailing:
            warnings.append(f"{path}:{line}: shoe {shoe_id} ends with {trailing} card(s) that cannot complete a round; they are not used")
        shoes.append((shoe_id, rounds))
    if not shoes:
        raise ShoeError("holds no shoe", path=str(path))
    return RecordedShoes(RoundTable.from_rounds(shoes), len(shoes), warnings)


READERS: dict[str, Callable[[str | Path, Rules], RecordedShoes]] = {"cards": read_cards}


def read_shoes(path: str | Path, fmt: str, rules: Rules) -> RecordedShoes:
    """Read recorded shoes from ``path`` in the named format (never guessed)."""
    reader = READERS.get(fmt)
    if reader is None:
        from baccarat.errors import did_you_mean

        raise ShoeError(f"unknown shoe format {fmt!r}{did_you_mean(fmt, READERS)}; formats are {', '.join(READERS)}")
    return reader(path, rules)

