"""Predictors: given what has been dealt in a shoe, the chances of Banker, Player and Tie on its next round.

A plugin registers a :class:`Predictor` subclass through the
``register_predictors`` hook; ``baccarat predict`` makes one per shoe and asks
it before every round, with the :class:`Dealt` view of that shoe so far.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from baccarat.table.roads import Roads
from baccarat.table.rules import Rules


@dataclasses.dataclass(frozen=True)
class Dealt:
    """What a player has seen of the current shoe before its next round (nothing of that round or after)."""

    rules: Rules
    hand: int
    """The number of the round to predict in its shoe, from 1."""
    outcomes: tuple[str, ...]
    """The shoe's outcomes so far, ``'banker'``, ``'player'`` or ``'tie'``, in dealing order."""
    roads: Roads
    """The shoe's scoreboard roads so far (:mod:`baccarat.table.roads`)."""
    remaining: np.ndarray | None
    """By rank (13 counts, ace first), the cards not seen yet: the full shoe less every card dealt or turned;
    burned cards not seen are among them. None for shoes recorded without cards."""


class Predictor:
    """Base of a predictor: a ``name``, a one-line ``description``, and :meth:`predict`.

    One instance is made (with no argument) for each shoe, so a predictor may
    keep what it learns about the shoe on ``self``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    needs_cards: ClassVar[bool] = False
    """Whether it reads ``Dealt.remaining`` (it is then left out on shoes recorded without cards)."""

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Return the chances of Banker, Player and Tie on the next round: three numbers from 0 to 1 that sum to 1."""
        raise NotImplementedError


def checked_chances(chances: Sequence[float], name: str) -> tuple[float, float, float]:
    """Return ``chances`` as three floats, or raise ValueError saying what is wrong with predictor ``name``'s answer."""
    try:
        values = tuple(float(x) for x in chances)
    except (TypeError, ValueError):
        raise ValueError(f"predictor {name!r} returned {chances!r}, not three chances (Banker, Player, Tie)") from None
    if len(values) != 3 or not all(math.isfinite(x) and 0 <= x <= 1 for x in values) or abs(sum(values) - 1) > 1e-9:
        raise ValueError(f"predictor {name!r} returned {chances!r}: three chances from 0 to 1 that sum to 1 are expected")
    return values  # type: ignore[return-value]
