"""An independent exact calculator of the side bets, for the tests.

Written from the pay tables of docs/side-bets.md and the tableau of docs/game.md
alone, apart from the package: a plain recursion over the point values of
up to six cards (integer weights, no moments, no grouping), and closed forms
over ranks and suited kinds for the bets of the first two cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

STANDS = {3: {8}, 4: {0, 1, 8, 9}, 5: {0, 1, 2, 3, 8, 9}, 6: {0, 1, 2, 3, 4, 5, 8, 9}}

End = tuple[int, int, int, int, bool]
"""How a round ended: player total, banker total, player's cards, banker's cards, natural."""


def _banker_takes(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 7:
        return False
    return third not in STANDS[banker]


def value_counts(rank_counts: Sequence[int]) -> list[int]:
    """Cards of each point value 0-9 from 13 rank counts (ace first)."""
    return [sum(rank_counts[9:])] + list(rank_counts[:9])


def end_distribution(values: Sequence[int]) -> dict[End, Fraction]:
    """Exact probability of every way a round ends, dealt without replacement from ``values`` (cards per point value)."""
    counts = list(values)
    n = sum(counts)
    weights: dict[End, int] = {}

    def add(end: End, weight: int) -> None:
        weights[end] = weights.get(end, 0) + weight

    def draw():
        for v in range(10):
            if counts[v]:
                c = counts[v]
                counts[v] -= 1
                yield v, c
                counts[v] += 1

    for p1, w1 in draw():
        for b1, w2 in draw():
            for p2, w3 in draw():
                for b2, w4 in draw():
                    w = w1 * w2 * w3 * w4
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        add((p, b, 2, 2, True), w * (n - 4) * (n - 5))
                    elif p <= 5:
                        for p3, w5 in draw():
                            if _banker_takes(b, p3):
                                for b3, w6 in draw():
                                    add(((p + p3) % 10, (b + b3) % 10, 3, 3, False), w * w5 * w6)
                            else:
                                add(((p + p3) % 10, b, 3, 2, False), w * w5 * (n - 5))
                    elif _banker_takes(b, None):
                        for b3, w6 in draw():
                            add((p, (b + b3) % 10, 2, 3, False), w * w6 * (n - 5))
                    else:
                        add((p, b, 2, 2, False), w * (n - 4) * (n - 5))
    total = math.perm(n, 6)
    assert sum(weights.values()) == total
    return {end: Fraction(w, total) for end, w in weights.items()}


def dragon_bonus(side: str) -> Callable[[End], Fraction | None]:
    """Dragon Bonus on ``side``: its result per unit staked on a round's end (None: loses)."""

    def result(end: End) -> Fraction:
        pt, bt, _, _, natural = end
        margin = pt - bt if side == "player" else bt - pt
        if natural:
            return Fraction(1) if margin > 0 else Fraction(0) if margin == 0 else Fraction(-1)
        return Fraction({9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}.get(margin, -1))

    return result


def _banker_six(end: End) -> bool:
    pt, bt, _, _, _ = end
    return bt > pt and bt == 6


END_BETS: dict[str, Callable[[End], Fraction]] = {
    "dragon_bonus_player": dragon_bonus("player"),
    "dragon_bonus_banker": dragon_bonus("banker"),
    "big": lambda e: Fraction(54, 100) if e[2] + e[3] >= 5 else Fraction(-1),
    "small": lambda e: Fraction(3, 2) if e[2] + e[3] == 4 else Fraction(-1),
    "lucky_6": lambda e: Fraction(12 if e[3] == 2 else 20) if _banker_six(e) else Fraction(-1),
    "super_six": lambda e: Fraction(12) if _banker_six(e) else Fraction(-1),
}
"""Each bet that reads how the round ended: its result per unit staked, from the pay tables of issue 19."""


def end_bet_ev(bet: str, distribution: dict[End, Fraction]) -> Fraction:
    """Exact expected value per unit staked of ``bet`` over a round's end distribution."""
    return sum((p * END_BETS[bet](end) for end, p in distribution.items()), Fraction(0))


def _both_pairs(counts: Sequence[int]) -> int:
    """Ordered draws of four cards where the first two and the last two are each two of one kind."""
    f2 = [c * (c - 1) for c in counts]
    same = sum(c * (c - 1) * (c - 2) * (c - 3) for c in counts)
    return sum(f2) ** 2 - sum(x * x for x in f2) + same


def either_pair_probability(rank_counts: Sequence[int]) -> Fraction:
    """P(Player's or Banker's first two cards are of equal rank), by inclusion and exclusion."""
    n = sum(rank_counts)
    one = Fraction(sum(c * (c - 1) for c in rank_counts), n * (n - 1))
    both = Fraction(_both_pairs(rank_counts), math.perm(n, 4))
    return 2 * one - both


def perfect_pair_probability(suited_counts: Sequence[int]) -> Fraction:
    """P(either hand's first two cards are of equal rank and suit), from one count per rank and suit."""
    return either_pair_probability(suited_counts)
