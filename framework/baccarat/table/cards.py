"""Card codes, ranks, suits and baccarat point values.

A card is a small integer: ``rank + 16 * suit``. Ranks run 1 (ace) to 13
(king); suits are 0 when unknown (a shoe recorded by rank only) or 1-4 for
spades, hearts, diamonds, clubs. Codes fit in ``int8``, so shoes are compact
numpy arrays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS: tuple[int, ...] = tuple(range(1, 14))
"""Ranks 1 (ace) to 13 (king)."""

RANK_LABELS: dict[int, str] = {
    1: "A",
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
}
"""Printed label of each rank (ten is printed ``10``)."""

RANK_BY_TOKEN: dict[str, int] = {label: rank for rank, label in RANK_LABELS.items()}
RANK_BY_TOKEN["T"] = 10

SUITS: str = "SHDC"
"""Suit letters in code order 1-4: spades, hearts, diamonds, clubs."""

NO_SUIT = 0
SUIT_SHIFT = 16

POINT_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Baccarat point value by rank (index 0 unused): ace 1, 2-9 pip, 10/J/Q/K 0."""

BURN_COUNT: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""How many cards a turned burn card orders burned, by rank: 10/J/Q/K count 10."""


def make_card(rank: int, suit: int = NO_SUIT) -> int:
    """Return the code of a card of ``rank`` (1-13) and ``suit`` (0 unknown, 1-4)."""
    return rank + SUIT_SHIFT * suit


def rank_of(card: int) -> int:
    """Return the rank (1-13) of a card code."""
    return card % SUIT_SHIFT


def value_of(card: int) -> int:
    """Return the baccarat point value (0-9) of a card code."""
    return POINT_VALUE[card % SUIT_SHIFT]


def hand_total(cards: Iterable[int]) -> int:
    """Return the baccarat total of a hand: the sum of point values modulo 10."""
    return sum(POINT_VALUE[c % SUIT_SHIFT] for c in cards) % 10


def card_label(card: int) -> str:
    """Return the printed code of a card: ``AS``, ``10H``, or ``K`` when the suit is unknown."""
    suit = card // SUIT_SHIFT
    label = RANK_LABELS[card % SUIT_SHIFT]
    return label + SUITS[suit - 1] if suit else label


def parse_card(token: str) -> int:
    """Return the code of a card token such as ``AS``, ``10h``, ``T``, ``kd`` or ``9``.

    Raises ``ValueError`` with a short reason when the token is not a card.
    """
    text = token.strip().upper()
    if not text:
        raise ValueError("empty card")
    rank = RANK_BY_TOKEN.get(text)
    if rank is not None:
        return rank
    head, tail = text[:-1], text[-1]
    rank = RANK_BY_TOKEN.get(head)
    if rank is None:
        raise ValueError(f"unknown rank in card {token!r}")
    suit = SUITS.find(tail)
    if suit < 0:
        raise ValueError(f"unknown suit {tail!r} in card {token!r} (suits are S H D C)")
    return make_card(rank, suit + 1)


def full_deck() -> list[int]:
    """Return the 52 card codes of one deck, suited, in rank then suit order."""
    return [make_card(rank, suit) for rank in RANKS for suit in range(1, 5)]


def labels(cards: Sequence[int]) -> list[str]:
    """Return the printed codes of a sequence of card codes."""
    return [card_label(c) for c in cards]
