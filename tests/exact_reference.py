"""An independent exact calculator for the tests: brute force over point values.

Written from SPEC section 2 alone and kept apart from the package, so that the
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
    """Exact P(banker), P(player), P(tie) for cards drawn without replacement from ``counts``."""
    counts = list(counts)
    total = sum(counts)
    result = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}

    def draw(n_left: int):
        for v in range(10):
            if counts[v]:
                weight = Fraction(counts[v], n_left)
                counts[v] -= 1
                yield v, weight
                counts[v] += 1

    def finish(p: int, b: int, weight: Fraction) -> None:
        key = "banker" if b > p else "player" if p > b else "tie"
        result[key] += weight

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
                                    finish(pp, (b + b3) % 10, w * w5 * w6)
                            else:
                                finish(pp, b, w * w5)
                    elif _banker_takes(b, None):
                        for b3, w6 in draw(total - 4):
                            finish(p, (b + b3) % 10, w * w6)
                    else:
                        finish(p, b, w)
    return result
