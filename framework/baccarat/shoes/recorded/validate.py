"""Checks shared by the shoe formats: card tokens, copies per deck, warnings.

A card token is a rank ``A 2 3 4 5 6 7 8 9 T 10 J Q K`` with an optional
suit ``S H D C``, in any case; only these ASCII letters and digits are
cards. A shoe may not hold more cards of a rank than its decks hold
(``4 * decks``), nor, where suits are recorded, more copies of a card
(``decks``).
"""

from __future__ import annotations

import numpy as np

from baccarat.table.cards import RANK_BY_TOKEN, SUIT_SHIFT, SUITS, card_label, make_card
from baccarat.table.rules import Rules


def _case_variants(text: str) -> set[str]:
    variants = {""}
    for char in text:
        variants = {v + c for v in variants for c in {char.upper(), char.lower()}}
    return variants


RANK_TOKENS: dict[str, int] = {v: rank for label, rank in RANK_BY_TOKEN.items() for v in _case_variants(label)}
"""Rank token (any case) -> rank 1-13."""

CARD_CODES: dict[str, int] = {
    **RANK_TOKENS,
    **{
        rank_token + suit_token: make_card(rank, suit + 1)
        for rank_token, rank in RANK_TOKENS.items()
        for suit, letter in enumerate(SUITS)
        for suit_token in _case_variants(letter)
    },
}
"""Every valid card token (any case) -> card code."""

CARD_EXPECTED = "a card is a rank A 2-9 T 10 J Q K with an optional suit S H D C, in any case"


def card_token_error(token: str) -> str:
    """Explain why ``token`` is not a card."""
    if len(token) >= 2 and token[:-1] in RANK_TOKENS:
        return f"invalid card {token!r}: unknown suit {token[-1]!r}; the suits are S H D C"
    return f"invalid card {token!r}; {CARD_EXPECTED}"


def _decks(n: int) -> str:
    return "1 deck holds" if n == 1 else f"{n} decks hold"


class CopyCounter:
    """Count the cards of one shoe as they come and name the first one too many."""

    def __init__(self, rules: Rules) -> None:
        self.decks = rules.decks
        self.rank_limit = 4 * rules.decks
        self.ranks = [0] * SUIT_SHIFT
        self.cards = [0] * (5 * SUIT_SHIFT)

    def add(self, card: int, shoe: int) -> str | None:
        """Count ``card``; return the error message when it is one too many, else None."""
        rank = card % SUIT_SHIFT
        self.ranks[rank] += 1
        if self.ranks[rank] > self.rank_limit:
            return (
                f"shoe {shoe} holds {self.ranks[rank]} cards of rank {card_label(rank)} by this card, "
                f"more than the {self.rank_limit} that {_decks(self.decks)}"
            )
        if card >= SUIT_SHIFT:
            self.cards[card] += 1
            if self.cards[card] > self.decks:
                return (
                    f"shoe {shoe} holds {self.cards[card]} copies of {card_label(card)} by this card, "
                    f"more than the {self.decks} that {_decks(self.decks)}"
                )
        return None


def first_copy_too_many(cards: np.ndarray, rules: Rules, shoe: int) -> tuple[int, str] | None:
    """Return ``(index, message)`` of the first card of a shoe beyond what its decks hold, or None."""
    ranks = np.bincount(cards % SUIT_SHIFT, minlength=SUIT_SHIFT)
    copies = np.bincount(cards, minlength=5 * SUIT_SHIFT)[SUIT_SHIFT:]
    if ranks.max() <= 4 * rules.decks and copies.max() <= rules.decks:
        return None
    counter = CopyCounter(rules)
    for index, card in enumerate(cards.tolist()):
        message = counter.add(card, shoe)
        if message is not None:
            return index, message
    raise AssertionError("a count over the limit was seen but not found")  # pragma: no cover


class Warnings:
    """Warnings about a file: the first few in full, then only how many more there were."""

    def __init__(self, keep: int = 10) -> None:
        self.keep = keep
        self.kept: list[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        """Record one warning."""
        if len(self.kept) < self.keep:
            self.kept.append(message)
        else:
            self.more += 1

    @property
    def messages(self) -> list[str]:
        """The warnings to show: the first few, and a line counting the rest."""
        if not self.more:
            return list(self.kept)
        return [*self.kept, f"... and {self.more} more warning(s) like these"]
