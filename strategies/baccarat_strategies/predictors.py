"""The built-in predictors of the next round: the exact odds of the cards left, off the top, and those players use.

Every one returns the chances of Banker, Player and Tie. ``exact`` is the
best any predictor can do from what has been dealt: it is the chance the
cards not seen yet imply. The players' predictors keep the tie's chance off
the top and lean :data:`LEAN` of the rest towards the side their pattern
names.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from baccarat.plugin import Dealt, Predictor, outcome_chances, shoe_counts

LEAN = 0.6
"""The share of the decided chance a players' predictor gives the side its pattern names."""

PRIOR_ROUNDS = 10
"""How many rounds of off-the-top chances ``shoe-frequencies`` starts from, before the shoe's own counts."""

SIDES = ("banker", "player")


def off_the_top(dealt: Dealt) -> tuple[float, float, float]:
    """The exact chances of one round dealt from a full shoe of the rules' decks."""
    return _full_shoe(dealt.rules.decks)


@cache
def _full_shoe(decks: int) -> tuple[float, float, float]:
    return tuple(float(x) for x in outcome_chances(shoe_counts(decks)))  # type: ignore[return-value]


def leaning(dealt: Dealt, side: str | None, top: tuple[float, float, float] | None = None) -> tuple[float, float, float]:
    """Off-the-top chances with :data:`LEAN` of the decided chance on ``side`` (off the top when ``side`` is None)."""
    top = top or off_the_top(dealt)
    if side is None:
        return top
    decided = 1.0 - top[2]
    favoured, other = decided * LEAN, decided * (1 - LEAN)
    return (favoured, other, top[2]) if side == "banker" else (other, favoured, top[2])


class OffTheTop(Predictor):
    """The same chances every round: those of a round dealt from a full shoe."""

    name = "off-the-top"
    description = "the exact chances of a round dealt from a full shoe, every round"

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Return the off-the-top chances."""
        return off_the_top(dealt)


class Exact(Predictor):
    """The exact chances of the next round from the cards not seen yet."""

    name = "exact"
    description = "the exact chances the cards not seen yet imply (the best any predictor can do)"
    needs_cards = True

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Return the exact chances of the remaining shoe."""
        return tuple(float(x) for x in outcome_chances(dealt.remaining))


class ShoeFrequencies(Predictor):
    """The shares of the shoe so far, starting from off-the-top chances worth :data:`PRIOR_ROUNDS` rounds."""

    name = "shoe-frequencies"
    description = "the shares of Banker, Player and Tie in the shoe so far (the 'hot side')"

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Return the smoothed shares of the shoe's outcomes so far."""
        top = off_the_top(dealt)
        counts = [dealt.outcomes.count(o) for o in ("banker", "player", "tie")]
        n = len(dealt.outcomes)
        return tuple((c + PRIOR_ROUNDS * p) / (n + PRIOR_ROUNDS) for c, p in zip(counts, top, strict=True))


class FollowStreak(Predictor):
    """The last decided winner wins again ("follow the dragon")."""

    name = "follow-streak"
    description = f"leans {LEAN:.0%} of the decided chance to the last winner (ties left out)"

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Lean towards the side of the big road's last streak."""
        return leaning(dealt, dealt.roads.last_side)


class FollowChop(Predictor):
    """The winner changes ("the chop")."""

    name = "follow-chop"
    description = f"leans {LEAN:.0%} of the decided chance to the side that did not win last"

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Lean away from the side of the big road's last streak."""
        last = dealt.roads.last_side
        return leaning(dealt, None if last is None else SIDES[1 - SIDES.index(last)])


class BigEyeBoyRed(Predictor):
    """The side whose win would make the big eye boy's next mark red (the road "stays regular")."""

    name = "big-eye-boy-red"
    description = f"leans {LEAN:.0%} of the decided chance to the side whose win the big eye boy would mark red"

    def predict(self, dealt: Dealt) -> Sequence[float]:
        """Lean towards the side the big eye boy asks red for, when it asks."""
        asks = [side for side in SIDES if dealt.roads.next_colour("big_eye_boy", side) == "red"]
        return leaning(dealt, asks[0] if len(asks) == 1 else None)


BUILT_IN: tuple[type[Predictor], ...] = (Exact, OffTheTop, ShoeFrequencies, FollowStreak, FollowChop, BigEyeBoyRed)
"""The built-in predictors, the exact one first."""
