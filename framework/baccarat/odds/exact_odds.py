"""Exact odds of every bet, for any rules and any composition of remaining cards.

Every bet's chances of winning, pushing and losing, its expected value and
its house edge derive from the weights and the bet's one definition
(:mod:`baccarat.table.bet_registry`, applied by :mod:`baccarat.table.payouts`). The *house edge* is minus the expected value per
unit staked, per hand, pushes counted as hands (ties for Banker and Player; a
Banker win with a three-card 7 under EZ rules): 0.010579 for Banker at 8 decks.

The weights come from :mod:`baccarat.odds.enumeration`; fast float expected values for
every round of a shoe from :mod:`baccarat.odds.fast_evs`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from baccarat.money import BASIS_POINTS
from baccarat.odds.compositions import SUITED, check_counts, falling, rank_counts, shoe_counts, suited_counts
from baccarat.odds.enumeration import CELLS, GRID, bet_grid, card_facts, card_weights, end_facts, end_weights
from baccarat.table.bet_definition import RoundFacts, allowed_facts
from baccarat.table.bet_registry import multipliers
from baccarat.table.payouts import PAIR_BETS, bet_definition, pay_table_bp
from baccarat.table.rules import Rules

STANDARD_PAIR_PAYS = Fraction(11)
"""Payout used to price pair bets for rules that do not offer them (11:1)."""


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
    """Integer weight of each of the 400 ways a round ends (see :func:`end_weights`)."""
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
        pt, bt, p3, b3 = GRID
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
        """Return the exact odds of ``bet`` (one ``rules`` offer, or price) on a round dealt from this composition.

        ``bet`` is defined by the rules' registry (:attr:`Rules.bet_registry`).
        """
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
        return BetOdds(
            Fraction(win, total), Fraction(push, total), Fraction(total - win - push, total), Fraction(value, total * BASIS_POINTS), lines
        )

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
    definition = bet_definition(rules, bet)
    facts = card_facts() if first_cards else end_facts()
    needs = definition.needs_under(rules)
    return multipliers(definition, RoundFacts(rules, facts, allowed_facts(needs)), table, 16 if first_cards else CELLS).tolist()


def round_odds(counts: Sequence[int] | np.ndarray, decks: int | None = None) -> RoundOdds:
    """Return the exact distribution of a round's end from the composition ``counts`` (13 counts ace first, or 52 suited).

    ``decks``: the full shoe of a composition by rank, for bets that read suits (see :func:`card_weights`).
    """
    full = check_counts(counts)
    c = rank_counts(full)
    n = int(c.sum())
    weights = [int(w) for w in np.rint(end_weights(c)).tolist()]
    total = falling(n, 6)
    if sum(weights) != total:  # cannot happen below MAX_CARDS; guards the exactness claim
        raise ArithmeticError("the end weights lost precision")
    suited = tuple(full.tolist()) if len(full) == SUITED else None
    return RoundOdds(tuple(c.tolist()), tuple(weights), total, int((c * (c - 1)).sum()), falling(n, 2), suited, decks)


def bet_odds(rules: Rules, counts: Sequence[int] | np.ndarray | None = None) -> dict[str, BetOdds]:
    """Return the exact odds of every bet ``rules`` offer, off the top (``counts`` None) or from ``counts``.

    Each bet is defined by the rules' registry (:attr:`Rules.bet_registry`).
    """
    odds = round_odds(suited_counts(rules.decks) if counts is None else counts, rules.decks)
    return {bet: odds.bet(rules, bet) for bet in rules.bets}


def bet_distribution(rules: Rules, bet: str, counts: Sequence[int] | np.ndarray | None = None) -> dict[int, Fraction]:
    """Return the exact chance of each result of ``bet`` on one round: multiplier (basis points of the stake) -> probability.

    Off the top of a full shoe when ``counts`` is None, else from the
    composition ``counts``. Multipliers are those that settle the ledger
    (+9500 for a Banker win at 5% commission, 0 for a push, -10000 for a
    loss); results of zero probability are left out. ``bet`` is defined by the
    rules' registry (:attr:`Rules.bet_registry`).
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
