"""Exact expected values from the cards already seen in a shoe: card counting with exact odds.

What the player knows. Every dealt card is face up. In a seeded shoe with a
burn, the first card is turned (everyone sees it; the round table keeps it
as ``turned``) and that many cards are burned face down. So the seen cards
are the turned card and the cards dealt so far; the *unseen* ones are those
still in the shoe plus those burned face down. Given what was seen, the
unseen cards lie in uniformly random order, so the next round is dealt from
them exactly as from a shoe holding all of them: the expected value computed
from "full shoe minus seen cards" is the exact expected value given what the
player saw, not an approximation. (Knowing the turned card matters: the burn
length it sets decides when the cut card stops the shoe, so without it the
mere fact that a late round is dealt would say something about the burned
cards.) Recorded shoes exclude the burn: there every burned card is unknown
and the composition is the full shoe minus the cards dealt.

Speed. Pair bets have a closed form (a hand's first two cards make a pair
with probability ``sum c_r (c_r - 1) / (N (N - 1))``), so asking only for
them costs microseconds; any other bet needs the full enumeration of
:func:`baccarat.odds.exact_odds.bet_evs` (a fraction of a millisecond).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from baccarat.odds.exact_odds import round_odds
from baccarat.odds.fast_evs import bet_evs
from baccarat.table.payouts import PAIR_BETS
from baccarat.table.rules import Rules

DECIDE_MARGIN = 1e-9
"""Within this distance of a threshold, a float EV is decided by exact fractions."""


def _pair_draws(counts: Sequence[int]) -> tuple[int, int]:
    """Return (ordered two-card draws of equal rank, all ordered two-card draws) of a composition."""
    n = sum(counts)
    return sum(c * (c - 1) for c in counts), n * (n - 1)


def pair_ev(counts: Sequence[int], pays: Fraction) -> Fraction:
    """Return the exact expected value per unit of a pair bet paying ``pays`` to 1, from composition ``counts``."""
    pairs, draws = _pair_draws(counts)
    return Fraction(pairs, draws) * (pays + 1) - 1


def check_bets(rules: Rules, bets: Iterable[str]) -> tuple[str, ...]:
    """Return ``bets`` as a tuple, or raise ValueError naming one the rules do not offer."""
    wanted = tuple(bets)
    for bet in wanted:
        if not rules.offers(bet):
            raise ValueError(f"the table does not offer {bet!r}; it offers {', '.join(rules.bets)}")
    return wanted


def _by_rank(counts: Sequence[int]) -> list[int]:
    """The 13 rank counts of a composition by rank or suited (52 counts)."""
    values = [int(c) for c in counts]
    return values if len(values) != 52 else [sum(values[4 * r : 4 * r + 4]) for r in range(13)]


def exact_evs(rules: Rules, counts: Sequence[int], bets: Iterable[str] | None = None) -> dict[str, float]:
    """Return the expected value per unit staked of ``bets`` (default: every bet ``rules`` offer) from ``counts``.

    ``counts`` is the composition of the unseen cards: 13 counts, ace first, or
    52 (one per rank and suit) when their suits are known (see
    :mod:`baccarat.odds.exact_odds`). Floats of the exact fractions (to about 1e-16).
    Asking only for pair bets uses their closed form and skips the full enumeration.
    """
    wanted = rules.bets if bets is None else check_bets(rules, bets)
    if all(bet in PAIR_BETS for bet in wanted):
        pairs, draws = _pair_draws(_by_rank(counts))
        p = pairs / draws
        return {bet: p * float(rules.side_bets[bet] + 1) - 1.0 for bet in wanted}
    values = bet_evs(rules, np.asarray(counts, dtype=np.int64))
    return {bet: values[bet] for bet in wanted}


def exact_ev_fraction(rules: Rules, counts: Sequence[int], bet: str) -> Fraction:
    """Return the exact expected value per unit staked of ``bet`` from composition ``counts``, as a fraction."""
    check_bets(rules, (bet,))
    if bet in PAIR_BETS:
        return pair_ev(_by_rank(counts), rules.side_bets[bet])
    return round_odds(np.asarray(counts, dtype=np.int64), rules.decks).bet(rules, bet).expected_value


def ev_exceeds(rules: Rules, counts: Sequence[int], bet: str, value: float, threshold: Fraction) -> bool:
    """Tell exactly whether ``bet``'s EV exceeds ``threshold``, given its float ``value`` from :func:`exact_evs`.

    The float decides when it is clearly away from the threshold; within
    :data:`DECIDE_MARGIN` the exact fraction decides, so an EV equal to the
    threshold never counts as above it.
    """
    gap = value - float(threshold)
    if gap > DECIDE_MARGIN:
        return True
    if gap < -DECIDE_MARGIN:
        return False
    return exact_ev_fraction(rules, counts, bet) > threshold
