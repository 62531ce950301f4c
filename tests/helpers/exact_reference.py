"""An independent exact calculator for the tests: brute force over point values, and over ranks.

Written from the tableau of docs/game.md alone and kept apart from the package, so that the
package's dealer and odds are checked against a second implementation.
"""

from __future__ import annotations

from fractions import Fraction

STANDS = {3: {8}, 4: {0, 1, 8, 9}, 5: {0, 1, 2, 3, 8, 9}, 6: {0, 1, 2, 3, 4, 5, 8, 9}}


def value_counts_for_decks(decks: int) -> list[int]:
    """Cards of each point value 0-9 in ``decks`` full decks."""
    return [16 * decks] + [4 * decks] * 9


def _banker_takes(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 7:
        return False
    return third not in STANDS[banker]


def outcome_probabilities(counts: list[int]) -> dict[str, Fraction]:
    """Exact P(banker), P(player), P(tie) for cards drawn without replacement from ``counts`` (per point value).

    Also the chances that Banker wins with a three-card 7, that Player wins with
    a three-card 8, and that Banker wins with a 6.
    """
    counts = list(counts)
    total = sum(counts)
    events = ("banker", "player", "tie", "banker_three_card_seven", "player_three_card_eight", "banker_six")
    result = {key: Fraction(0) for key in events}

    def draw(n_left: int):
        for v in range(10):
            if counts[v]:
                weight = Fraction(counts[v], n_left)
                counts[v] -= 1
                yield v, weight
                counts[v] += 1

    def finish(p: int, b: int, weight: Fraction, p_cards: int = 2, b_cards: int = 2) -> None:
        key = "banker" if b > p else "player" if p > b else "tie"
        result[key] += weight
        if b > p and b == 7 and b_cards == 3:
            result["banker_three_card_seven"] += weight
        if p > b and p == 8 and p_cards == 3:
            result["player_three_card_eight"] += weight
        if b > p and b == 6:
            result["banker_six"] += weight

    for p1, w1 in draw(total):
        for b1, w2 in draw(total - 1):
            for p2, w3 in draw(total - 2):
                for b2, w4 in draw(total - 3):
                    w = w1 * w2 * w3 * w4
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        finish(p, b, w)
                        continue
                    if p <= 5:
                        for p3, w5 in draw(total - 4):
                            pp = (p + p3) % 10
                            if _banker_takes(b, p3):
                                for b3, w6 in draw(total - 5):
                                    finish(pp, (b + b3) % 10, w * w5 * w6, 3, 3)
                            else:
                                finish(pp, b, w * w5, 3, 2)
                    elif _banker_takes(b, None):
                        for b3, w6 in draw(total - 4):
                            finish(p, (b + b3) % 10, w * w6, 2, 3)
                    else:
                        finish(p, b, w)
    return result


def value_counts_from_ranks(rank_counts: list[int]) -> list[int]:
    """Cards of each point value 0-9 from 13 rank counts (ace first): 10, J, Q, K are worth 0."""
    return [sum(rank_counts[9:])] + list(rank_counts[:9])


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def rank_deals(rank_counts: list[int]):
    """Yield ``(weight, player_ranks, banker_ranks)`` for every sequence of ranks a round can take.

    ``rank_counts`` holds 13 counts, ace (rank 1) first. Weights are integers
    scaled to six cards (each is the number of ordered ways to draw that
    round's cards, times the ways to draw the cards after it up to six), so
    they sum to ``N (N-1) ... (N-5)``. Ranks 10-13 are worth 0.
    """
    counts = list(rank_counts)
    n = sum(counts)

    def value(rank: int) -> int:
        return rank if rank < 10 else 0

    def ranks_left():
        for r in range(1, 14):
            if counts[r - 1]:
                yield r

    def take(r: int) -> int:
        c = counts[r - 1]
        counts[r - 1] -= 1
        return c

    def put(r: int) -> None:
        counts[r - 1] += 1

    for p1 in ranks_left():
        w1 = take(p1)
        for b1 in ranks_left():
            w2 = w1 * take(b1)
            for p2 in ranks_left():
                w3 = w2 * take(p2)
                for b2 in ranks_left():
                    w4 = w3 * take(b2)
                    p = (value(p1) + value(p2)) % 10
                    b = (value(b1) + value(b2)) % 10
                    if p >= 8 or b >= 8 or (p >= 6 and b >= 6):
                        yield w4 * _falling(n - 4, 2), (p1, p2), (b1, b2)
                    elif p >= 6:  # Player stands, Banker (0-5) draws
                        for b3 in ranks_left():
                            yield w4 * counts[b3 - 1] * (n - 5), (p1, p2), (b1, b2, b3)
                    else:
                        for p3 in ranks_left():
                            w5 = w4 * take(p3)
                            if _banker_takes(b, value(p3)):
                                for b3 in ranks_left():
                                    yield w5 * counts[b3 - 1], (p1, p2, p3), (b1, b2, b3)
                            else:
                                yield w5 * (n - 5), (p1, p2, p3), (b1, b2)
                            put(p3)
                    put(b2)
                put(p2)
            put(b1)
        put(p1)


def hand_total(ranks) -> int:
    """Baccarat total of a hand given by ranks."""
    return sum(r if r < 10 else 0 for r in ranks) % 10
