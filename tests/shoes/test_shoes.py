"""Seeded shoes: uniform shuffle, burn, cut card, determinism, exact odds in the long run."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from helpers.dealt import dealt_cards
from helpers.exact_reference import outcome_probabilities, value_counts_for_decks

from baccarat.shoes.seeded import burned_cards, deal_seeded_shoe, seeded_table, shuffled_shoe
from baccarat.table.cards import BURN_COUNT, full_deck, rank_of
from baccarat.table.rules import preset


def within_four_standard_errors(table, exact: dict) -> None:
    n = len(table)
    counts = Counter(table.outcome.tolist())
    for code, name in enumerate(("banker", "player", "tie")):
        p = float(exact[name])
        se = math.sqrt(p * (1 - p) / n)
        observed = counts[code] / n
        assert abs(observed - p) < 4 * se, (name, observed, p, se)


def test_a_shoe_holds_every_card_of_its_decks() -> None:
    rules = preset("punto-banco-8")
    shoe = shuffled_shoe(rules, seed=3, shoe_id=1)
    assert sorted(shoe.tolist()) == sorted(full_deck() * 8)


def test_shoes_are_reproducible_and_independent_of_how_many_are_dealt() -> None:
    rules = preset("punto-banco-8")
    a = seeded_table(rules, seed=11, first_shoe=1, count=6)
    b = seeded_table(rules, seed=11, first_shoe=4, count=3)
    rows = a.shoe >= 4
    assert np.array_equal(a.player_cards[rows], b.player_cards)
    assert np.array_equal(a.banker_cards[rows], b.banker_cards)
    c = seeded_table(rules, seed=12, first_shoe=1, count=6)
    assert not np.array_equal(a.outcome[:50], c.outcome[:50])


def test_burn_and_cut_card() -> None:
    rules = preset("punto-banco-8")
    for shoe_id in range(1, 40):
        cards = shuffled_shoe(rules, 5, shoe_id)
        burned = burned_cards(cards, rules)
        assert burned == 1 + BURN_COUNT[rank_of(int(cards[0]))]
        rounds = deal_seeded_shoe(cards, rules)
        used = dealt_cards(rounds)
        # The rounds use the cards right after the burn, in order.
        assert used == cards[burned : burned + len(used)].tolist()
        cut_position = len(cards) - rules.cut_card
        gone_before_last = burned + len(used) - rounds[-1].cards_used
        assert gone_before_last < cut_position <= burned + len(used)


def test_single_deck_is_reshuffled_every_round() -> None:
    rules = preset("single-deck")
    table = seeded_table(rules, seed=1, first_shoe=1, count=50)
    assert len(table) == 50
    assert table.hand.tolist() == [1] * 50
    first = shuffled_shoe(rules, 1, 1)
    assert table.player_cards[0, 0] == first[0] and table.banker_cards[0, 0] == first[1]


@pytest.mark.slow
def test_eight_deck_frequencies_match_exact_odds() -> None:
    rules = preset("punto-banco-8")
    table = seeded_table(rules, seed=2024, first_shoe=1, count=12_600)
    assert len(table) >= 1_000_000
    exact = outcome_probabilities(value_counts_for_decks(8))
    within_four_standard_errors(table, exact)


@pytest.mark.slow
def test_reshuffled_single_deck_frequencies_match_exact_odds() -> None:
    rules = preset("single-deck")
    table = seeded_table(rules, seed=2024, first_shoe=1, count=400_000)
    exact = outcome_probabilities(value_counts_for_decks(1))
    within_four_standard_errors(table, exact)
