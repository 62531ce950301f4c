"""Compositions of a shoe: how many cards of each rank (13 counts, ace first) or of each rank and suit (52) are left."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from baccarat.errors import InputError
from baccarat.table.cards import RANKS, SUIT_SHIFT, SUITS

MAX_CARDS = 416
"""Largest composition handled (eight decks): all weights stay exact below 2**53."""

MIN_CARDS = 6
"""Smallest composition handled: a round may take six cards."""


# --- compositions -----------------------------------------------------------------------


def shoe_counts(decks: int) -> np.ndarray:
    """Return the composition of ``decks`` full decks: 4 * decks cards of each rank (int64, ace first)."""
    return np.full(len(RANKS), 4 * decks, dtype=np.int64)


SUITED = len(RANKS) * len(SUITS)
"""Length of a suited composition: one count per rank and suit, index ``(rank - 1) * 4 + suit - 1``."""


def suited_counts(decks: int, cards: Iterable[int] = ()) -> np.ndarray:
    """Return the suited composition (52 counts) of ``decks`` full decks less ``cards`` (suited card codes)."""
    left = np.full(SUITED, decks, dtype=np.int64)
    for card in cards:
        rank, suit = card % SUIT_SHIFT, card // SUIT_SHIFT
        if not suit:
            raise InputError("a suited composition needs every card's suit")
        left[(rank - 1) * 4 + suit - 1] -= 1
    if (left < 0).any():
        raise InputError("more cards of a rank and suit were dealt than the shoe holds")
    return left


def rank_counts(counts: np.ndarray) -> np.ndarray:
    """Return the 13 rank counts of a composition (by rank already, or suited)."""
    return counts if len(counts) == len(RANKS) else counts.reshape(len(RANKS), len(SUITS)).sum(axis=1)


def remove_cards(counts: Sequence[int] | np.ndarray, cards: Iterable[int]) -> np.ndarray:
    """Return the composition left after ``cards`` (card codes, any suit) are dealt from ``counts``.

    Raises InputError when a card is dealt more often than the composition holds it.
    """
    left = np.array(counts, dtype=np.int64)
    ranks = np.asarray(list(cards) if not isinstance(cards, np.ndarray) else cards, dtype=np.int64) % SUIT_SHIFT
    left -= np.bincount(ranks, minlength=SUIT_SHIFT)[1:14]
    if (left < 0).any():
        raise InputError("more cards of a rank were dealt than the shoe holds")
    return left


def check_counts(counts: Sequence[int] | np.ndarray) -> np.ndarray:
    """Return ``counts`` as a valid composition (13 or 52 non-negative int64, 6 to 416 cards) or raise InputError."""
    c = np.asarray(counts)
    if c.shape not in ((len(RANKS),), (SUITED,)) or not (np.issubdtype(c.dtype, np.integer) or (c == np.round(c)).all()):
        raise InputError("a composition is 13 whole counts of cards, one per rank from ace to king (or 52, one per rank and suit)")
    c = c.astype(np.int64)
    if (c < 0).any():
        raise InputError("a composition cannot hold a negative count of cards")
    n = int(c.sum())
    if not MIN_CARDS <= n <= MAX_CARDS:
        raise InputError(f"a composition must hold between {MIN_CARDS} and {MAX_CARDS} cards, not {n}")
    return c


def falling(n: int, k: int) -> int:
    """Return the falling product ``n (n-1) ... (n-k+1)``."""
    return math.perm(n, k) if n >= k else 0
