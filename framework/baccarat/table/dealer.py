"""The tableau: one plain reference function that plays a round from cards.

This module is the executable definition of the game. Every faster dealer in
the project is checked against :func:`play_round`.

Deal order: Player, Banker, Player, Banker. A natural (8 or 9 on two cards in
either hand) ends the round. Otherwise Player draws on 0-5 and stands on 6-7;
Banker, when Player stood, draws on 0-5 and stands on 6-7; when Player drew,
Banker acts on its total and the *value* of Player's third card as in
:data:`BANKER_DRAWS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from baccarat.table.cards import POINT_VALUE, SUIT_SHIFT, rank_of

BANKER_DRAWS: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
    7: frozenset(),
}
"""Banker total (0-7) -> values of Player's third card on which Banker draws."""

BANKER = "banker"
PLAYER = "player"
TIE = "tie"
OUTCOMES: tuple[str, ...] = (BANKER, PLAYER, TIE)
"""Outcome names; their index is the outcome code used in arrays."""


class Round(NamedTuple):
    """One played round: the two hands (card codes) and what they make."""

    player: tuple[int, ...]
    banker: tuple[int, ...]
    player_total: int
    banker_total: int
    outcome: str
    natural: bool

    @property
    def cards_used(self) -> int:
        """Number of cards the round took from the shoe."""
        return len(self.player) + len(self.banker)

    @property
    def player_pair(self) -> bool:
        """Player's first two cards are of equal rank."""
        return rank_of(self.player[0]) == rank_of(self.player[1])

    @property
    def banker_pair(self) -> bool:
        """Banker's first two cards are of equal rank."""
        return rank_of(self.banker[0]) == rank_of(self.banker[1])


def _value(card: int) -> int:
    return POINT_VALUE[card % SUIT_SHIFT]


def player_draws(player_total: int) -> bool:
    """Player (no natural on the table) draws a third card on 0-5."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third_value: int | None) -> bool:
    """Banker's decision (no natural on the table).

    ``player_third_value`` is the point value of Player's third card, or
    ``None`` when Player stood.
    """
    if player_third_value is None:
        return banker_total <= 5
    if banker_total >= 8:
        return False
    return player_third_value in BANKER_DRAWS[banker_total]


def play_round(cards: Sequence[int], start: int = 0) -> Round:
    """Play one round from ``cards`` beginning at index ``start``.

    Raises ``IndexError`` when the cards run out before the round is complete.
    """
    p1, b1, p2, b2 = cards[start], cards[start + 1], cards[start + 2], cards[start + 3]
    player = [p1, p2]
    banker = [b1, b2]
    player_total = (_value(p1) + _value(p2)) % 10
    banker_total = (_value(b1) + _value(b2)) % 10
    natural = player_total >= 8 or banker_total >= 8
    if not natural:
        position = start + 4
        player_third_value = None
        if player_draws(player_total):
            third = cards[position]
            position += 1
            player.append(third)
            player_third_value = _value(third)
            player_total = (player_total + player_third_value) % 10
        if banker_draws(banker_total, player_third_value):
            third = cards[position]
            banker.append(third)
            banker_total = (banker_total + _value(third)) % 10
    if banker_total > player_total:
        outcome = BANKER
    elif player_total > banker_total:
        outcome = PLAYER
    else:
        outcome = TIE
    return Round(tuple(player), tuple(banker), player_total, banker_total, outcome, natural)
