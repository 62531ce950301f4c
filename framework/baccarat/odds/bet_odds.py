"""Exact odds of every bet, for any rules and any composition of remaining cards.

A *composition* is the count of cards of each rank left in the shoe: 13
integers, ace first and king last (:func:`shoe_counts`, :func:`remove_cards`).

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

Every bet's chances of winning, pushing and losing, its expected value and
its house edge derive from the weights and the bet's one definition
(:mod:`baccarat.table.bet_registry`, applied by :mod:`baccarat.table.payouts`). The *house edge* is minus the expected value per
unit staked, per hand, pushes counted as hands (ties for Banker and Player; a
Banker win with a three-card 7 under EZ rules): 0.010579 for Banker at 8 decks.

Speed: :func:`bet_evs` takes well under 5 ms for a full 8-deck composition
(``tests/benchmarks/bench_odds.py`` prints the figures), so a strategy may
call it every round with the cards still in the shoe.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np

from baccarat.errors import InputError
from baccarat.table.bet_registry import BetDefinition, RoundFacts, allowed_facts, multipliers
from baccarat.table.cards import RANKS, SUIT_SHIFT, SUITS
from baccarat.table.dealer import banker_draws, player_draws
from baccarat.table.payouts import PAIR_BETS, bet_multipliers, pay_table_bp, reads_first_cards
from baccarat.table.rules import BASIS_POINTS, Rules

MAX_CARDS = 416
"""Largest composition handled (eight decks): all weights stay exact below 2**53."""

MIN_CARDS = 6
"""Smallest composition handled: a round may take six cards."""

STANDARD_PAIR_PAYS = Fraction(11)
"""Payout used to price pair bets for rules that do not offer them (11:1)."""

_CELLS = 400  # player total x banker total x player drew x banker drew
_DISCARD = _CELLS  # bincount slot for terms that end no round


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
        raise InputError("a composition is 13 whole counts of cards, one per rank from ace to king "
                         "(or 52, one per rank and suit)")
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
        p1=p1, b1=b1, p2=p2, b2=b2,
        b1_repeat=(b1 == p1).astype(np.float64),
        p2_repeat=((p2 == p1).astype(np.int64) + (p2 == b1)).astype(np.float64),
        b2_repeat=((b2 == p1).astype(np.int64) + (b2 == b1) + (b2 == p2)).astype(np.float64),
        used=used, draw_groups=draw_groups, open_groups=open_groups,
        target=np.concatenate([target_s0, target_s1.ravel(), target_s2.ravel()]),
    )


def _value_counts(c: np.ndarray) -> np.ndarray:
    v = np.empty(10, dtype=np.float64)
    v[0] = c[9:].sum()  # 10, J, Q, K
    v[1:] = c[:9]
    return v


def _end_weights(c: np.ndarray) -> np.ndarray:
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
    return np.bincount(plan.target, weights=terms, minlength=_CELLS + 1)[:_CELLS]


_GRID = tuple(a.ravel() for a in np.meshgrid(np.arange(10), np.arange(10), [False, True], [False, True], indexing="ij"))
"""Player total, banker total, player drew, banker drew: one entry per cell of the end weights."""


def _end_facts() -> dict[str, np.ndarray]:
    """The facts of each of the 400 ways a round ends (:data:`baccarat.table.bet_registry.FACTS`)."""
    pt, bt, p3, b3 = _GRID
    return {
        "banker_wins": bt > pt, "player_wins": pt > bt, "tie": pt == bt, "player_total": pt, "banker_total": bt,
        "player_cards": 2 + p3.astype(np.int64), "banker_cards": 2 + b3.astype(np.int64),
        "natural": ~p3 & ~b3 & ((pt >= 8) | (bt >= 8)),
    }


_CARD_GRID = tuple(a.ravel() for a in np.meshgrid([False, True], [False, True], [False, True], [False, True], indexing="ij"))
"""Player pair, Player suited, Banker pair, Banker suited: one entry per pattern of the first two cards of each hand."""


def _card_facts() -> dict[str, np.ndarray]:
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
    banker = {(True, True): same_kind, (True, False): same_rank - same_kind, (False, True): same_suit - same_kind,
              (False, False): (n - 2) * (n - 3) - same_rank - same_suit + same_kind}
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
    facts = _card_facts() if needs & frozenset({"ranks", "suits"}) else _end_facts()
    size = len(next(iter(facts.values())))
    table = {line: int(Fraction(pays) * BASIS_POINTS) for line, pays in bet.pays.items()}
    multipliers(bet, RoundFacts(rules, facts, allowed_facts(needs)), table, size)


def bet_grid(rules: Rules, bet: str) -> tuple[bool, np.ndarray]:
    """Return whether ``bet`` is priced over the first two cards (else over the ends of a round), and its multipliers there."""
    first_cards = reads_first_cards(rules, bet)
    facts = _card_facts() if first_cards else _end_facts()
    return first_cards, bet_multipliers(rules, bet, facts, 16 if first_cards else _CELLS)


# --- exact results ----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class BetOdds:
    """One bet's exact chances (win, push, lose) and expected value per unit staked."""

    win: Fraction
    push: Fraction
    lose: Fraction
    expected_value: Fraction
    lines: tuple[tuple[str, Fraction], ...] = ()
    """The chance of each pay line (in the order of the pay table)."""

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected value per unit staked, per hand (pushes counted as hands)."""
        return -self.expected_value


@dataclasses.dataclass(frozen=True)
class RoundOdds:
    """Exact distribution of how a round ends, from one composition of cards."""

    counts: tuple[int, ...]
    weights: tuple[int, ...]
    """Integer weight of each of the 400 ways a round ends (see :func:`_end_weights`)."""
    total: int
    """Sum of the weights: ``N (N-1) ... (N-5)``."""
    pair: int
    """Ordered two-card draws of equal rank: ``sum c_r (c_r - 1)``."""
    pair_total: int
    """Ordered two-card draws: ``N (N-1)``."""
    suited: tuple[int, ...] | None = None
    """The suited composition (52 counts) when the suits are known."""
    decks: int | None = None
    """The full shoe the suits of a composition by rank are drawn from (see :func:`card_weights`)."""

    @property
    def cards(self) -> int:
        """Number of cards in the composition."""
        return sum(self.counts)

    @functools.cached_property
    def card_weights(self) -> tuple[Fraction, ...]:
        """Exact weights of the 16 patterns of the first two cards of each hand (see :func:`card_weights`)."""
        counts = np.asarray(self.suited if self.suited is not None else self.counts, dtype=np.int64)
        return tuple(card_weights(counts, self.decks))

    def probability(self, mask: np.ndarray) -> Fraction:
        """Return the exact probability of the round ends selected by a boolean ``mask`` over the 400 cells."""
        return Fraction(sum(w for w, m in zip(self.weights, mask.tolist(), strict=True) if m), self.total)

    def events(self) -> dict[str, Fraction]:
        """Return the exact probability of each event a bet can be decided by."""
        pt, bt, p3, b3 = _GRID
        pair = Fraction(self.pair, self.pair_total)
        return {
            "banker": self.probability(bt > pt),
            "player": self.probability(pt > bt),
            "tie": self.probability(pt == bt),
            "player_pair": pair,
            "banker_pair": pair,
            "natural": self.probability(~p3 & ~b3 & ((pt >= 8) | (bt >= 8))),
            "dragon7": self.probability((bt > pt) & (bt == 7) & b3),
            "panda8": self.probability((pt > bt) & (pt == 8) & p3),
            "banker_six": self.probability((bt > pt) & (bt == 6)),
        }

    def bet(self, rules: Rules, bet: str) -> BetOdds:
        """Return the exact odds of ``bet`` (one ``rules`` offer, or price) on a round dealt from this composition."""
        first_cards, grid = bet_grid(rules, bet)
        if bet in PAIR_BETS:
            hand = grid.reshape(2, 2, 2, 2)
            won = hand[1, 0, 0, 0] if bet == "player_pair" else hand[0, 0, 1, 0]
            multipliers = [int(won), int(hand[0, 0, 0, 0])]
            weights: list = [self.pair, self.pair_total - self.pair]
            total: int = self.pair_total
        elif first_cards:
            multipliers = grid.tolist()
            weights = list(self.card_weights)
            total = falling(self.cards, 4)
        else:
            multipliers = grid.tolist()
            weights = list(self.weights)
            total = self.total
        win = sum(w for w, m in zip(weights, multipliers, strict=True) if m > 0)
        push = sum(w for w, m in zip(weights, multipliers, strict=True) if m == 0)
        value = sum(w * m for w, m in zip(weights, multipliers, strict=True))
        lines = self._lines(rules, bet, first_cards)
        return BetOdds(Fraction(win, total), Fraction(push, total), Fraction(total - win - push, total),
                       Fraction(value, total * BASIS_POINTS), lines)

    def _lines(self, rules: Rules, bet: str, first_cards: bool) -> tuple[tuple[str, Fraction], ...]:
        """The chance of each of ``bet``'s pay lines: the rounds where that line pays."""
        table = pay_table_bp(rules, bet)
        if len(table) == 1:
            return ()
        out = []
        for line in table:
            # Price the bet with only this line paying (1 basis point): the rounds it pays are this line's.
            marked = {name: (1 if name == line else 2) for name in table}
            grid = _line_grid(rules, bet, first_cards, marked)
            weights = self.card_weights if first_cards else self.weights
            total = falling(self.cards, 4) if first_cards else self.total
            out.append((line, Fraction(sum(w for w, m in zip(weights, grid, strict=True) if m == 1), total)))
        return tuple(out)


def _line_grid(rules: Rules, bet: str, first_cards: bool, table: dict[str, int]) -> list[int]:
    from baccarat.table.bet_registry import definition

    bet_definition = definition(bet)
    facts = _card_facts() if first_cards else _end_facts()
    needs = bet_definition.needs_under(rules)
    return multipliers(bet_definition, RoundFacts(rules, facts, allowed_facts(needs)), table,
                       16 if first_cards else _CELLS).tolist()


def round_odds(counts: Sequence[int] | np.ndarray, decks: int | None = None) -> RoundOdds:
    """Return the exact distribution of a round's end from the composition ``counts`` (13 counts ace first, or 52 suited).

    ``decks``: the full shoe of a composition by rank, for bets that read suits (see :func:`card_weights`).
    """
    full = check_counts(counts)
    c = rank_counts(full)
    n = int(c.sum())
    weights = [int(w) for w in np.rint(_end_weights(c)).tolist()]
    total = falling(n, 6)
    if sum(weights) != total:  # cannot happen below MAX_CARDS; guards the exactness claim
        raise ArithmeticError("the end weights lost precision")
    suited = tuple(full.tolist()) if len(full) == SUITED else None
    return RoundOdds(tuple(c.tolist()), tuple(weights), total, int((c * (c - 1)).sum()), falling(n, 2), suited, decks)


def bet_odds(rules: Rules, counts: Sequence[int] | np.ndarray | None = None) -> dict[str, BetOdds]:
    """Return the exact odds of every bet ``rules`` offer, off the top (``counts`` None) or from ``counts``."""
    odds = round_odds(suited_counts(rules.decks) if counts is None else counts, rules.decks)
    return {bet: odds.bet(rules, bet) for bet in rules.bets}


def bet_distribution(rules: Rules, bet: str, counts: Sequence[int] | np.ndarray | None = None) -> dict[int, Fraction]:
    """Return the exact chance of each result of ``bet`` on one round: multiplier (basis points of the stake) -> probability.

    Off the top of a full shoe when ``counts`` is None, else from the
    composition ``counts``. Multipliers are those that settle the ledger
    (+9500 for a Banker win at 5% commission, 0 for a push, -10000 for a
    loss); results of zero probability are left out.
    """
    odds = round_odds(shoe_counts(rules.decks) if counts is None else counts, rules.decks)
    first_cards, grid = bet_grid(rules, bet)
    if bet in PAIR_BETS:
        hand = grid.reshape(2, 2, 2, 2)
        won = hand[1, 0, 0, 0] if bet == "player_pair" else hand[0, 0, 1, 0]
        multipliers = [int(won), int(hand[0, 0, 0, 0])]
        weights, total = [odds.pair, odds.pair_total - odds.pair], odds.pair_total
    elif first_cards:
        multipliers = grid.tolist()
        weights, total = list(odds.card_weights), falling(odds.cards, 4)
    else:
        multipliers = grid.tolist()
        weights, total = list(odds.weights), odds.total
    out: dict[int, int | Fraction] = {}
    for weight, multiplier in zip(weights, multipliers, strict=True):
        if weight:
            out[multiplier] = out.get(multiplier, 0) + weight
    return {multiplier: Fraction(weight, total) for multiplier, weight in sorted(out.items(), reverse=True)}


# --- fast expected values ---------------------------------------------------------------

def _payout_key(rules: Rules) -> tuple:
    sides = tuple(sorted((bet, tuple(p.items()) if isinstance(p, Mapping) else p) for bet, p in rules.side_bets.items()))
    return (rules.commission, rules.tie_pays, rules.banker_three_card_seven_pushes, rules.banker_six_pays, sides,
            rules.bets)


@lru_cache(maxsize=64)
def _payout_matrix(key: tuple) -> tuple[tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray,
                                        tuple[str, ...], np.ndarray]:
    """Return each kind of bet and its multipliers as a float matrix.

    End bets over the 400 ends (k, 400); single-hand pair bets over (pair, no
    pair) (k, 2); other bets of the first two cards over their 16 patterns (k, 16).
    """
    rules = _rules_from_key(key)
    end_bets, end_rows, pair_bets, pair_rows, card_bets, card_rows = [], [], [], [], [], []
    for bet in rules.bets:
        first_cards, grid = bet_grid(rules, bet)
        if bet in PAIR_BETS:
            hand = grid.reshape(2, 2, 2, 2)
            pair_bets.append(bet)
            pair_rows.append([hand[1, 0, 0, 0], hand[0, 0, 0, 0]] if bet == "player_pair" else [hand[0, 0, 1, 0], hand[0, 0, 0, 0]])
        elif first_cards:
            card_bets.append(bet)
            card_rows.append(grid)
        else:
            end_bets.append(bet)
            end_rows.append(grid)
    end_matrix = np.array(end_rows, dtype=np.float64).reshape(-1, _CELLS) / BASIS_POINTS
    pair_matrix = np.array(pair_rows, dtype=np.float64).reshape(-1, 2) / BASIS_POINTS
    card_matrix = np.array(card_rows, dtype=np.float64).reshape(-1, 16) / BASIS_POINTS
    return tuple(end_bets), end_matrix, tuple(pair_bets), pair_matrix, tuple(card_bets), card_matrix


def bet_evs(rules: Rules, counts: Sequence[int] | np.ndarray) -> dict[str, float]:
    """Return the exact expected value per unit staked of every bet ``rules`` offer, from composition ``counts``.

    Fast enough to call every round with the cards left in the shoe (see
    :func:`remove_cards`). Values are floats of the exact fractions (to about
    1e-16). ``counts`` is by rank (13) or suited (52); bets that read suits
    take the suits of a composition by rank from ``rules.decks`` full decks.
    """
    full = check_counts(counts)
    c = rank_counts(full)
    n = int(c.sum())
    end_bets, end_matrix, pair_bets, pair_matrix, card_bets, card_matrix = _payout_matrix(_payout_key(rules))
    values = end_matrix @ _end_weights(c) / falling(n, 6)
    pair = float((c * (c - 1)).sum()) / falling(n, 2)
    pair_values = pair_matrix @ np.array([pair, 1.0 - pair])
    out = dict(zip(end_bets, values.tolist(), strict=True))
    out.update(zip(pair_bets, pair_values.tolist(), strict=True))
    if card_bets:
        weights = card_weights(full, rules.decks)
        total = falling(n, 4)
        cards = np.array([float(w / total) for w in weights])
        out.update(zip(card_bets, (card_matrix @ cards).tolist(), strict=True))
    return {bet: out[bet] for bet in rules.bets}


def expected_values(rules: Rules) -> dict[str, float]:
    """Return the exact expected value per unit staked of every bet ``rules`` offer, off the top of a full shoe."""
    return dict(_off_the_top(rules.decks, _payout_key(rules)))


@lru_cache(maxsize=64)
def _off_the_top(decks: int, key: tuple) -> tuple[tuple[str, float], ...]:
    return tuple(bet_evs(dataclasses.replace(_rules_from_key(key), decks=decks), shoe_counts(decks)).items())


def _rules_from_key(key: tuple) -> Rules:
    commission, tie_pays, seven_pushes, six_pays, side_bets, _ = key
    return Rules(name="payouts", commission=commission, tie_pays=tie_pays, banker_three_card_seven_pushes=seven_pushes,
                 banker_six_pays=six_pays, side_bets={bet: dict(p) if isinstance(p, tuple) else p for bet, p in side_bets})


def priced_rules(rules: Rules) -> Rules:
    """Return ``rules`` with the pair bets added at 11:1 where they are not offered, to price them for reference."""
    side_bets: Mapping[str, Fraction] = {bet: STANDARD_PAIR_PAYS for bet in PAIR_BETS if bet not in rules.side_bets}
    return dataclasses.replace(rules, side_bets={**side_bets, **rules.side_bets})
