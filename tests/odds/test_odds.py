"""Exact odds against published figures and against independent brute force (tests/helpers/exact_reference.py)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from helpers.exact_reference import hand_total, outcome_probabilities, rank_deals, value_counts_for_decks, value_counts_from_ranks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.errors import InputError
from baccarat.odds.compositions import MAX_CARDS, check_counts, remove_cards, shoe_counts
from baccarat.odds.exact_odds import bet_odds, round_odds
from baccarat.odds.fast_evs import bet_evs, expected_values, priced_rules
from baccarat.table.rules import Rules, preset, rules_from_mapping

F = Fraction


@cache
def reference(decks: int) -> dict[str, Fraction]:
    return outcome_probabilities(value_counts_for_decks(decks))


# --- published figures ----------------------------------------------------------------


def test_eight_deck_probabilities_and_edges_match_the_published_figures() -> None:
    events = round_odds(shoe_counts(8)).events()
    assert float(events["banker"]) == pytest.approx(0.458597423, abs=5e-10)
    assert float(events["player"]) == pytest.approx(0.446246609, abs=5e-10)
    assert float(events["tie"]) == pytest.approx(0.095155968, abs=5e-10)
    odds = bet_odds(preset("punto-banco-8"))
    assert float(odds["banker"].house_edge) == pytest.approx(0.010579, abs=5e-7)
    assert float(odds["player"].house_edge) == pytest.approx(0.012351, abs=5e-7)
    assert float(odds["tie"].house_edge) == pytest.approx(0.143596, abs=5e-7)


def test_six_deck_probabilities_match_the_published_figures() -> None:
    events = round_odds(shoe_counts(6)).events()
    assert float(events["banker"]) == pytest.approx(0.458653, abs=5e-7)
    assert float(events["player"]) == pytest.approx(0.446279, abs=5e-7)
    assert float(events["tie"]) == pytest.approx(0.095069, abs=5e-7)


@pytest.mark.parametrize("decks", range(1, 9))
def test_pair_probability_is_four_d_minus_one_over_fifty_two_d_minus_one(decks: int) -> None:
    events = round_odds(shoe_counts(decks)).events()
    assert events["player_pair"] == events["banker_pair"] == F(4 * decks - 1, 52 * decks - 1)


def test_variant_edges_match_the_published_figures() -> None:
    # Published house edges, 8 decks, to the hundredth of a percent.
    ez = bet_odds(preset("ez-baccarat-8"))
    assert float(ez["banker"].house_edge) == pytest.approx(0.0102, abs=5e-5)
    assert float(ez["dragon7"].house_edge) == pytest.approx(0.0761, abs=5e-5)
    assert float(ez["panda8"].house_edge) == pytest.approx(0.1019, abs=5e-5)
    assert float(bet_odds(preset("super-6-8"))["banker"].house_edge) == pytest.approx(0.0146, abs=5e-5)


# --- the point-value reference: full and depleted shoes ---------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "decks",
    [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow), pytest.param(6, marks=pytest.mark.slow), 8],
)
def test_full_shoes_equal_the_reference_exactly(decks: int) -> None:
    events = round_odds(shoe_counts(decks)).events()
    ref = reference(decks)
    assert events["banker"] == ref["banker"]
    assert events["player"] == ref["player"]
    assert events["tie"] == ref["tie"]
    assert events["dragon7"] == ref["banker_three_card_seven"]
    assert events["panda8"] == ref["player_three_card_eight"]
    assert events["banker_six"] == ref["banker_six"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_depleted_shoes_equal_the_reference_exactly(seed: int) -> None:
    rng = np.random.default_rng(seed)
    counts = shoe_counts(int(rng.integers(1, 9)))
    dealt = rng.choice(np.repeat(np.arange(1, 14), counts), size=int(rng.integers(0, counts.sum() - 6)), replace=False)
    counts = remove_cards(counts, dealt)
    events = round_odds(counts).events()
    ref = outcome_probabilities(value_counts_from_ranks(counts.tolist()))
    for name in ("banker", "player", "tie"):
        assert events[name] == ref[name]


def test_a_lopsided_shoe_of_the_largest_size_is_still_exact() -> None:
    counts = [0, 0, 0, 0, 0, 0, 100, 100, 100, 116, 0, 0, 0]  # 7s, 8s, 9s and tens: every weight near its largest
    assert sum(counts) == MAX_CARDS
    events = round_odds(counts).events()
    ref = outcome_probabilities(value_counts_from_ranks(counts))
    assert (events["banker"], events["player"], events["tie"]) == (ref["banker"], ref["player"], ref["tie"])


# --- the rank-level brute force: every bet under every kind of rules --------------------

RULE_SETS = [
    preset("punto-banco-8-pairs"),
    preset("ez-baccarat-8"),
    preset("super-6-8"),
    rules_from_mapping(
        {
            "name": "four-percent-tie-nine-pairs",
            "commission": "4%",
            "tie_pays": "9:1",
            "side_bets": {"player_pair": "11:1", "banker_pair": "11:1"},
        }
    ),
    rules_from_mapping(
        {
            "name": "super-6-ez",
            "commission": 0,
            "banker_six_pays": "1:2",
            "banker_three_card_seven_pushes": True,
            "side_bets": {"dragon7": "40:1", "panda8": "25:1", "player_pair": "11:1"},
        }
    ),
]


def brute_force_evs(rules: Rules, counts: list[int]) -> dict[str, Fraction]:
    """Expected value per unit of every offered bet, settling every rank sequence by the rules as written."""
    commission, tie_pays, six, sevens = rules.commission, rules.tie_pays, rules.banker_six_pays, rules.banker_three_card_seven_pushes
    side = rules.side_bets
    totals = dict.fromkeys(rules.bets, F(0))
    n_total = 0
    for weight, player, banker in rank_deals(counts):
        n_total += weight
        p, b = hand_total(player), hand_total(banker)
        if b > p:
            if sevens and b == 7 and len(banker) == 3:
                banker_result = F(0)
            elif six is not None and b == 6:
                banker_result = six
            else:
                banker_result = 1 - commission
            player_result, tie_result = F(-1), F(-1)
        elif p > b:
            banker_result, player_result, tie_result = F(-1), F(1), F(-1)
        else:
            banker_result, player_result, tie_result = F(0), F(0), tie_pays
        results = {"banker": banker_result, "player": player_result, "tie": tie_result}
        if "player_pair" in side:
            results["player_pair"] = side["player_pair"] if player[0] == player[1] else F(-1)
        if "banker_pair" in side:
            results["banker_pair"] = side["banker_pair"] if banker[0] == banker[1] else F(-1)
        if "dragon7" in side:
            results["dragon7"] = side["dragon7"] if b > p and b == 7 and len(banker) == 3 else F(-1)
        if "panda8" in side:
            results["panda8"] = side["panda8"] if p > b and p == 8 and len(player) == 3 else F(-1)
        for bet in rules.bets:
            totals[bet] += weight * results[bet]
    assert n_total == math.perm(sum(counts), 6)
    return {bet: value / n_total for bet, value in totals.items()}


SMALL_COMPOSITIONS = [
    [2, 1, 0, 3, 0, 1, 2, 0, 1, 2, 0, 0, 1],  # 13 cards, eight ranks
    [0, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 4],  # 4s, 7s and kings: Dragon 7s galore
    [0, 0, 0, 0, 0, 0, 0, 3, 0, 2, 2, 0, 0],  # 8s, tens and jacks: pairs by rank, not value
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5],  # six cards: the round uses them all
]


@pytest.mark.slow
@pytest.mark.parametrize("counts", SMALL_COMPOSITIONS)
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_every_bet_equals_rank_brute_force_exactly(rules: Rules, counts: list[int]) -> None:
    exact = bet_odds(rules, counts)
    expected = brute_force_evs(rules, counts)
    assert {bet: odds.expected_value for bet, odds in exact.items()} == expected
    fast = bet_evs(rules, counts)
    for bet, value in expected.items():
        assert fast[bet] == pytest.approx(float(value), abs=1e-12)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.integers(1, 13), st.integers(1, 4), min_size=2, max_size=5).filter(lambda c: sum(c.values()) >= 6),
    st.sampled_from(RULE_SETS),
)
def test_random_small_compositions_equal_rank_brute_force(by_rank: dict[int, int], rules: Rules) -> None:
    counts = [by_rank.get(rank, 0) for rank in range(1, 14)]
    exact = bet_odds(rules, counts)
    assert {bet: odds.expected_value for bet, odds in exact.items()} == brute_force_evs(rules, counts)


# --- each variant's edge, derived here from the reference's event probabilities -----------


@pytest.mark.slow
def test_each_variant_edge_derives_from_the_event_probabilities() -> None:
    ref = reference(8)
    pb, pp, pt = ref["banker"], ref["player"], ref["tie"]
    d7, p8, b6 = ref["banker_three_card_seven"], ref["player_three_card_eight"], ref["banker_six"]
    pair = F(31, 415)
    cases = [
        ({}, "banker", F(95, 100) * pb - pp),
        ({"commission": "4%"}, "banker", F(96, 100) * pb - pp),
        ({"commission": 0}, "banker", pb - pp),
        ({}, "player", pp - pb),
        ({"tie_pays": "9:1"}, "tie", 9 * pt - (1 - pt)),
        ({"side_bets": {"player_pair": "11:1"}}, "player_pair", 11 * pair - (1 - pair)),
        ({"side_bets": {"banker_pair": "11:1"}}, "banker_pair", 11 * pair - (1 - pair)),
        ({"commission": 0, "banker_three_card_seven_pushes": True}, "banker", (pb - d7) - pp),
        ({"side_bets": {"dragon7": "40:1"}}, "dragon7", 40 * d7 - (1 - d7)),
        ({"side_bets": {"panda8": "25:1"}}, "panda8", 25 * p8 - (1 - p8)),
        ({"commission": 0, "banker_six_pays": "1:2"}, "banker", (pb - b6) + F(1, 2) * b6 - pp),
    ]
    for fields, bet, value in cases:
        rules = rules_from_mapping(fields, preset("punto-banco-8"))
        odds = bet_odds(rules)[bet]
        assert odds.house_edge == -value, (fields, bet)
        assert odds.win + odds.push + odds.lose == 1
        assert expected_values(rules)[bet] == pytest.approx(float(value), abs=1e-15)


def test_ez_banker_pushes_on_ties_and_on_three_card_sevens() -> None:
    ref = reference(8)
    odds = bet_odds(preset("ez-baccarat-8"))["banker"]
    assert odds.push == ref["tie"] + ref["banker_three_card_seven"]
    assert odds.win == ref["banker"] - ref["banker_three_card_seven"]
    assert odds.lose == ref["player"]


# --- the API --------------------------------------------------------------------------


def test_fast_values_equal_the_exact_fractions_on_depleted_eight_deck_shoes() -> None:
    rules = dataclasses.replace(priced_rules(preset("ez-baccarat-8")), tie_pays=F(9))
    rng = np.random.default_rng(5)
    shoe = np.repeat(np.arange(1, 14), 32)
    rng.shuffle(shoe)
    for dealt in (0, 50, 200, 390, 410):
        counts = remove_cards(shoe_counts(8), shoe[:dealt])
        exact = bet_odds(rules, counts)
        fast = bet_evs(rules, counts)
        assert list(fast) == list(rules.bets)
        for bet, odds in exact.items():
            assert fast[bet] == pytest.approx(float(odds.expected_value), abs=1e-14)


def test_expected_values_off_the_top_follow_the_rules_decks() -> None:
    six = expected_values(preset("punto-banco-6"))
    eight = expected_values(preset("punto-banco-8"))
    assert six["banker"] == pytest.approx(-0.010558, abs=5e-7)
    assert eight["banker"] == pytest.approx(-0.010579, abs=5e-7)
    six["banker"] = 0.0  # a caller's copy: the cache is untouched
    assert expected_values(preset("punto-banco-6"))["banker"] != 0.0


def test_remove_cards_counts_ranks_whatever_the_suit() -> None:
    counts = remove_cards(shoe_counts(1), [1, 1 + 16, 13 + 48, 10 + 32])
    assert counts.tolist() == [2] + [4] * 8 + [3, 4, 4, 3]
    with pytest.raises(InputError):
        remove_cards(shoe_counts(1), [5] * 5)


@pytest.mark.parametrize("counts", [[4] * 12, [-1] + [4] * 12, [0] * 12 + [5], [40] * 13, [0.5] * 13])
def test_invalid_compositions_are_refused(counts) -> None:
    with pytest.raises(InputError):
        check_counts(counts)
