"""Seeded shoes: shuffle, burn, cut card, reshuffle after every round.

Each shoe has its own random stream derived from the experiment seed and the
shoe id (``numpy.random.SeedSequence(seed, spawn_key=(shoe_id,))``), so a
shoe is the same whatever order, worker or machine deals it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from baccarat.shoes.rounds import RoundTable
from baccarat.streams import shoe_rng
from baccarat.table.cards import BURN_COUNT, full_deck, rank_of
from baccarat.table.dealer import Round, play_round
from baccarat.table.rules import Rules


def shuffled_shoe(rules: Rules, seed: int, shoe_id: int) -> np.ndarray:
    """Return the full shuffled shoe (card codes, int8) of ``shoe_id`` before burn."""
    cards = np.tile(np.asarray(full_deck(), dtype=np.int8), rules.decks)
    shoe_rng(seed, shoe_id).shuffle(cards)
    return cards


def burned_cards(cards: Sequence[int], rules: Rules) -> int:
    """Return how many cards the burn takes from the top of a fresh shoe.

    The first card is turned and that many further cards are burned
    (ace 1, 2-9 pip, 10/J/Q/K ten). No burn for a shoe reshuffled every round.
    """
    if not rules.burn or rules.reshuffle_every_round:
        return 0
    return 1 + BURN_COUNT[rank_of(int(cards[0]))]


def deal_seeded_shoe(cards: Sequence[int], rules: Rules) -> list[Round]:
    """Play the rounds of a fresh shuffled shoe under ``rules`` with the reference dealer.

    After the burn, rounds are dealt while fewer cards than the cut position
    have left the shoe (burned cards count as gone); the round that reaches
    the cut card is the last. A shoe reshuffled every round holds one round.
    """
    if rules.reshuffle_every_round:
        return [play_round(cards, 0)]
    position = burned_cards(cards, rules)
    cut_position = len(cards) - rules.cut_card
    rounds: list[Round] = []
    while position < cut_position:
        rnd = play_round(cards, position)
        rounds.append(rnd)
        position += rnd.cards_used
    return rounds


def seeded_rounds(rules: Rules, seed: int, first_shoe: int, count: int) -> Iterator[tuple[int, list[Round]]]:
    """Yield ``(shoe_id, rounds)`` for shoes ``first_shoe .. first_shoe + count - 1``."""
    for shoe_id in range(first_shoe, first_shoe + count):
        yield shoe_id, deal_seeded_shoe(shuffled_shoe(rules, seed, shoe_id), rules)


def turned_card(cards: Sequence[int], rules: Rules) -> int:
    """Return the card turned to start the burn of a fresh shoe (seen by the players), or 0 when there is no burn."""
    return int(cards[0]) if burned_cards(cards, rules) else 0


def seeded_table(rules: Rules, seed: int, first_shoe: int, count: int) -> RoundTable:
    """Deal shoes ``first_shoe .. first_shoe + count - 1`` into a round table (reference path)."""
    shoes: list[tuple[int, list[Round]]] = []
    turned: list[int] = []
    for shoe_id in range(first_shoe, first_shoe + count):
        cards = shuffled_shoe(rules, seed, shoe_id)
        rounds = deal_seeded_shoe(cards, rules)
        shoes.append((shoe_id, rounds))
        turned.extend([turned_card(cards, rules)] * len(rounds))
    table = RoundTable.from_rounds(shoes)
    table.turned = np.asarray(turned, dtype=np.int8)
    return table
