"""The exact chances of Banker, Player and Tie on the next round, from the cards left in the shoe."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from baccarat.odds.compositions import check_counts, rank_counts
from baccarat.odds.enumeration import end_facts, end_weights


@cache
def _masks() -> np.ndarray:
    facts = end_facts()
    return np.stack([facts["banker_wins"], facts["player_wins"], facts["tie"]]).astype(np.float64)


def outcome_chances(counts: Sequence[int] | np.ndarray) -> np.ndarray:
    """Return the exact chances (Banker, Player, Tie) of a round dealt from composition ``counts`` (13 by rank, or 52).

    Floats of the exact fractions; they sum to 1. The composition must hold
    at least six cards.
    """
    weights = end_weights(rank_counts(check_counts(counts)))
    totals = _masks() @ weights
    return totals / totals.sum()
