"""The exact enumeration of a round's ends from a composition: integer weights of every way a round can end.

A *composition* is the count of cards of each rank left in the shoe: 13
integers, ace first and king last (:mod:`baccarat.odds.compositions`).

How it is computed. The cards of a round are drawn without replacement, so
the chance of a sequence of cards is a falling product of the counts
(``c_a/N * (c_b - [b=a])/(N-1) * ...``). Only point values matter to the
tableau, so the first four cards are enumerated over the ten values
(10 000 sequences, grouped by the two-card totals they make); the third cards
enter through the first and second moments of the remaining counts in each
group, so that no sequence of five or six cards is listed one by one. Every
weight is an integer scaled to six cards (``N (N-1) ... (N-5)`` in all) and
stays below 2**53 for shoes of up to eight decks, so the float arithmetic is
exact and :class:`RoundOdds` holds exact integer weights: probabilities are
exact fractions. Pairs are decided by rank: by exchangeability, a hand's first
two cards make a pair with probability ``sum c_r (c_r - 1) / (N (N - 1))``.

Bets that read the first two cards of each hand (pairs, suited pairs:
:mod:`baccarat.table.bet_registry`) are priced over those four cards instead: the
16 joint patterns of (Player pair, Player suited, Banker pair, Banker
suited), exact. A *suited* composition (52 counts, one per rank and suit,
:func:`suited_counts`) gives them directly. A composition by rank only says
nothing of the suits: given it, the suits of the cards dealt of each rank are
a uniform draw without replacement from that rank's cards in the full shoe
(``decks`` of each suit), which is exact for cards removed at random.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache

import numpy as np

from baccarat.errors import InputError
from baccarat.money import BASIS_POINTS
from baccarat.odds.compositions import SUITED, check_counts
from baccarat.table.bet_definition import BetDefinition, RoundFacts, allowed_facts
from baccarat.table.bet_registry import multipliers
from baccarat.table.cards import RANKS, SUITS
from baccarat.table.dealer import banker_draws, player_draws
from baccarat.table.payouts import bet_multipliers, reads_first_cards
from baccarat.table.rules import Rules

CELLS = 400  # player total x banker total x player drew x banker drew
_DISCARD = CELLS  # bincount slot for terms that end no round


# --- the enumeration --------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Plan:
    """Composition-independent index arrays of the enumeration (built once).

    The 10 000 sequences of four first cards are in 100 groups of 100, one group
    per pair of two-card totals (p, b): Player's cards ``(i, (p - i) % 10)``,
    Banker's ``(j, (b - j) % 10)``. Groups where Player draws come first, then
    those where Player stands without a natural, then the naturals, so that the
    terms of the fifth and sixth cards are computed only where they are needed.
    """

    p1: np.ndarray  # values of the four first cards, in deal order P, B, P, B
    b1: np.ndarray
    p2: np.ndarray
    b2: np.ndarray
    b1_repeat: np.ndarray  # how many earlier cards of the four share this card's value
    p2_repeat: np.ndarray
    b2_repeat: np.ndarray
    used: np.ndarray  # (100 * open groups, 10): cards of each value among the four
    draw_groups: int  # groups where Player draws
    open_groups: int  # groups without a natural
    target: np.ndarray  # bincount slot of each term: S0 per group, S1 per open group and card, S2 per draw group and two cards


def _cell(player_total: int, banker_total: int, player_drew: bool, banker_drew: bool) -> int:
    return ((player_total * 10 + banker_total) * 2 + player_drew) * 2 + banker_drew


@cache
def _plan() -> _Plan:
    """Lay out the enumeration of the tableau (see :class:`_Plan`)."""
    totals = [(pt, bt) for pt in range(10) for bt in range(10)]
    natural = [pt >= 8 or bt >= 8 for pt, bt in totals]
    draws = [not nat and player_draws(pt) for nat, (pt, _) in zip(natural, totals, strict=True)]
    groups = sorted(range(100), key=lambda g: (not draws[g], natural[g]))
    draw_groups, open_groups = sum(draws), natural.count(False)
    target_s0 = np.full(100, _DISCARD)
    target_s1 = np.full((open_groups, 10), _DISCARD)
    target_s2 = np.full((draw_groups, 10, 10), _DISCARD)
    for k, g in enumerate(groups):
        pt, bt = totals[g]
        if natural[g]:  # nobody draws
            target_s0[k] = _cell(pt, bt, False, False)
        elif not draws[g]:
            if banker_draws(bt, None):
                for f in range(10):
                    target_s1[k, f] = _cell(pt, (bt + f) % 10, False, True)
            else:
                target_s0[k] = _cell(pt, bt, False, False)
        else:
            for e in range(10):
                if banker_draws(bt, e):
                    for f in range(10):
                        target_s2[k, e, f] = _cell((pt + e) % 10, (bt + f) % 10, True, True)
                else:
                    target_s1[k, e] = _cell((pt + e) % 10, bt, True, False)
    p = np.repeat([totals[g][0] for g in groups], 100)
    b = np.repeat([totals[g][1] for g in groups], 100)
    i, j = np.tile(np.repeat(np.arange(10), 10), 100), np.tile(np.arange(10), 1000)
    p1, b1, p2, b2 = i, j, (p - i) % 10, (b - j) % 10
    rows = 100 * open_groups
    used = np.zeros((rows, 10), dtype=np.float64)
    for card in (p1, b1, p2, b2):
        used[np.arange(rows), card[:rows]] += 1
    return _Plan(
        p1=p1,
        b1=b1,
        p2=p2,
        b2=b2,
        b1_repeat=(b1 == p1).astype(np.float64),
        p2_repeat=((p2 == p1).astype(np.int64) + (p2 == b1)).astype(np.float64),
        b2_repeat=((b2 == p1).astype(np.int64) + (b2 == b1) + (b2 == p2)).astype(np.float64),
        used=used,
        draw_groups=draw_groups,
        open_groups=open_groups,
        target=np.concatenate([target_s0, target_s1.ravel(), target_s2.ravel()]),
    )


def _value_counts(c: np.ndarray) -> np.ndarray:
    v = np.empty(10, dtype=np.float64)
    v[0] = c[9:].sum()  # 10, J, Q, K
    v[1:] = c[:9]
    return v


def end_weights(c: np.ndarray) -> np.ndarray:
    """Return the integer weights (as exact floats) of the 400 ways a round ends, scaled to six cards.

    Cell ``((player_total * 10 + banker_total) * 2 + player_drew) * 2 + banker_drew``.
    """
    plan = _plan()
    n = float(c.sum())
    v = _value_counts(c)
    w = v[plan.p1] * (v[plan.b1] - plan.b1_repeat) * (v[plan.p2] - plan.p2_repeat) * (v[plan.b2] - plan.b2_repeat)
    d, o = plan.draw_groups, plan.open_groups
    s0 = w.reshape(100, 100).sum(axis=1)  # weight of each group of four first cards
    left = (v - plan.used).reshape(o, 100, 10)  # cards of each value left after the four, per sequence
    s1 = (w[: 100 * o].reshape(o, 1, 100) @ left)[:, 0, :]  # ... times the count left of the fifth card's value
    draw_left = left[:d]
    s2 = (draw_left * w[: 100 * d].reshape(d, 100, 1)).transpose(0, 2, 1) @ draw_left  # ... and of the sixth's
    s2.reshape(d, 100)[:, ::11] -= s1[:d]  # the sixth card cannot be the fifth one: c_e (c_e - 1)
    terms = np.concatenate([s0 * ((n - 4) * (n - 5)), s1.ravel() * (n - 5), s2.ravel()])
    return np.bincount(plan.target, weights=terms, minlength=CELLS + 1)[:CELLS]


GRID = tuple(a.ravel() for a in np.meshgrid(np.arange(10), np.arange(10), [False, True], [False, True], indexing="ij"))
"""Player total, banker total, player drew, banker drew: one entry per cell of the end weights."""


def end_facts() -> dict[str, np.ndarray]:
    """The facts of each of the 400 ways a round ends (:data:`baccarat.table.bet_definition.FACTS`)."""
    pt, bt, p3, b3 = GRID
    return {
        "banker_wins": bt > pt,
        "player_wins": pt > bt,
        "tie": pt == bt,
        "player_total": pt,
        "banker_total": bt,
        "player_cards": 2 + p3.astype(np.int64),
        "banker_cards": 2 + b3.astype(np.int64),
        "natural": ~p3 & ~b3 & ((pt >= 8) | (bt >= 8)),
    }


_CARD_GRID = tuple(a.ravel() for a in np.meshgrid([False, True], [False, True], [False, True], [False, True], indexing="ij"))
"""Player pair, Player suited, Banker pair, Banker suited: one entry per pattern of the first two cards of each hand."""


def card_facts() -> dict[str, np.ndarray]:
    """The facts of each of the 16 patterns of the first two cards of each hand."""
    pp, ps, bp, bs = _CARD_GRID
    return {"player_pair": pp, "player_suited": ps, "banker_pair": bp, "banker_suited": bs}


def _two_from(counts: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``sum x (x - 1)`` over ``counts`` once one card of bucket ``first`` and one of ``second`` are taken (int64)."""
    base = int((counts * (counts - 1)).sum())
    a, b = counts[first], counts[second]
    same = first == second
    return np.where(same, base - 4 * a + 6, base - 2 * (a - 1) - 2 * (b - 1))


def _suited_card_weights(c: np.ndarray) -> list[int]:
    """Exact integer weights of the 16 patterns from a suited composition, scaled to four cards (``N (N-1) (N-2) (N-3)``).

    Player's first two cards are listed (52 x 52 ordered kinds); Banker's two,
    from the cards left, in closed form: ordered draws of one kind, one rank,
    one suit.
    """
    n = int(c.sum())
    k1, k2 = (a.ravel() for a in np.meshgrid(np.arange(SUITED), np.arange(SUITED), indexing="ij"))
    w = c[k1] * (c[k2] - (k1 == k2))
    ranks = c.reshape(len(RANKS), len(SUITS)).sum(axis=1)
    suits = c.reshape(len(RANKS), len(SUITS)).sum(axis=0)
    same_kind = _two_from(c, k1, k2)
    same_rank = _two_from(ranks, k1 // 4, k2 // 4)
    same_suit = _two_from(suits, k1 % 4, k2 % 4)
    banker = {
        (True, True): same_kind,
        (True, False): same_rank - same_kind,
        (False, True): same_suit - same_kind,
        (False, False): (n - 2) * (n - 3) - same_rank - same_suit + same_kind,
    }
    pair, suited = k1 // 4 == k2 // 4, k1 % 4 == k2 % 4
    out = []
    for pp, ps, bp, bs in zip(*(g.tolist() for g in _CARD_GRID), strict=True):
        mine = (pair == pp) & (suited == ps)
        out.append(int((w[mine] * banker[(bp, bs)][mine]).sum()))
    return out


_POSITIONS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
"""Pairs of the four first cards (Player 1, Player 2, Banker 1, Banker 2) whose ranks may be equal."""


@cache
def _suit_patterns(decks: int) -> dict[int, tuple[Fraction, Fraction, Fraction, Fraction]]:
    """For each pattern of equal ranks among the four first cards: the exact chances of (P suited, B suited).

    Cards of one rank take their suits without replacement from that rank's
    ``4 * decks`` cards of a full shoe, ``decks`` of each suit; cards of
    different ranks independently. Keys are :func:`_rank_pattern` codes.
    """
    out: dict[int, tuple[Fraction, Fraction, Fraction, Fraction]] = {}
    for code in range(64):
        equal = {pair for bit, pair in enumerate(_POSITIONS) if code >> bit & 1}
        block = list(range(4))  # the first position of each card's rank block
        for a, b in sorted(equal):
            block[b] = block[a]
        if any((pair in equal) != (block[pair[0]] == block[pair[1]]) for pair in _POSITIONS):
            continue  # not a consistent pattern of equalities
        chances = [Fraction(0)] * 4
        for suits in np.ndindex(4, 4, 4, 4):
            weight = Fraction(1)
            taken: dict[tuple[int, int], int] = {}
            dealt: dict[int, int] = {}
            for position, suit in enumerate(suits):
                key = (block[position], suit)
                weight *= Fraction(decks - taken.get(key, 0), 4 * decks - dealt.get(block[position], 0))
                taken[key] = taken.get(key, 0) + 1
                dealt[block[position]] = dealt.get(block[position], 0) + 1
            chances[2 * (suits[0] == suits[1]) + (suits[2] == suits[3])] += weight
        out[code] = (chances[0], chances[1], chances[2], chances[3])
    return out


def _rank_pattern(a: np.ndarray, b: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Code of which of the four first cards' ranks are equal (bit per pair of :data:`_POSITIONS`)."""
    cards = (a, b, x, y)
    return sum((cards[i] == cards[j]).astype(np.int64) << bit for bit, (i, j) in enumerate(_POSITIONS))


def _rank_card_weights(c: np.ndarray, decks: int) -> list[Fraction]:
    """Exact weights of the 16 patterns from a composition by rank, scaled to four cards (suits as in :func:`_suit_patterns`)."""
    a, b, x, y = (g.ravel() for g in np.meshgrid(*[np.arange(len(RANKS))] * 4, indexing="ij"))
    w = c[a] * (c[b] - (b == a)) * (c[x] - (x == a) - (x == b)) * (c[y] - (y == a) - (y == b) - (y == x))
    code = _rank_pattern(a, b, x, y)
    by_pattern = np.bincount(code, weights=w, minlength=64)  # each sum is below 2**53: exact
    patterns = _suit_patterns(decks)
    out = [Fraction(0)] * 16
    for pattern, weight in enumerate(np.rint(by_pattern).astype(np.int64).tolist()):
        if not weight:
            continue
        player_pair, banker_pair = bool(pattern & 1), bool(pattern >> 5 & 1)
        for suited, chance in enumerate(patterns[pattern]):
            ps, bs = bool(suited >> 1), bool(suited & 1)
            out[((player_pair * 2 + ps) * 2 + banker_pair) * 2 + bs] += weight * chance
    return out


def card_weights(counts: np.ndarray, decks: int | None = None) -> list[Fraction]:
    """Return the exact weights of the 16 patterns of the first two cards of each hand, scaled to four cards.

    Pattern ``((player_pair * 2 + player_suited) * 2 + banker_pair) * 2 + banker_suited``;
    they sum to ``N (N-1) (N-2) (N-3)``. ``counts`` is suited (52 counts) or by
    rank (13); by rank, ``decks`` is the full shoe the suits are drawn from
    (default: the fewest decks holding the counts).
    """
    c = check_counts(counts)
    if len(c) == SUITED:
        return [Fraction(w) for w in _suited_card_weights(c)]
    if decks is None:
        decks = max(1, -(-int(c.max()) // 4))
    if int(c.max()) > 4 * decks:
        raise InputError(f"a shoe of {decks} deck(s) holds at most {4 * decks} cards of a rank")
    return _rank_card_weights(c, decks)


def try_definition(bet: BetDefinition, rules: Rules | None = None) -> None:
    """Apply ``bet``'s functions to every way a round ends (or every pattern of the first two cards).

    Raises what the definition raises, e.g. AttributeError for a fact it reads
    without declaring it: a plugin's bet is checked when it is registered.
    """
    rules = rules or Rules(name="registry")
    needs = bet.needs_under(rules)
    facts = card_facts() if needs & frozenset({"ranks", "suits"}) else end_facts()
    size = len(next(iter(facts.values())))
    table = {line: int(Fraction(pays) * BASIS_POINTS) for line, pays in bet.pays.items()}
    multipliers(bet, RoundFacts(rules, facts, allowed_facts(needs)), table, size)


def bet_grid(rules: Rules, bet: str) -> tuple[bool, np.ndarray]:
    """Return whether ``bet`` is priced over the first two cards (else over the ends of a round), and its multipliers there.

    ``bet`` is defined by the rules' registry (:attr:`Rules.bet_registry`).
    """
    first_cards = reads_first_cards(rules, bet)
    facts = card_facts() if first_cards else end_facts()
    return first_cards, bet_multipliers(rules, bet, facts, 16 if first_cards else CELLS)
