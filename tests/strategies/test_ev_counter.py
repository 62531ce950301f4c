"""Exact EV from the cards seen, and the ev-counter strategy: it bets exactly when the exact EV beats its threshold."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.errors import StrategyError
from baccarat.odds.counting import exact_evs, pair_ev
from baccarat.odds.exact_odds import round_odds
from baccarat.odds.fast_evs import bet_evs
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.plugin.manager import registry
from baccarat.plugin.registry import default_session
from baccarat.shoes.rounds import RoundTable
from baccarat.shoes.seeded import seeded_table, shuffled_shoe
from baccarat.table.rules import preset


def seen_counts(table: RoundTable, row: int, decks: int, seed: int | None = None) -> list[int]:
    """Cards not seen before ``row``: the full shoe minus every card of the earlier rounds of the same shoe.

    With ``seed`` (a seeded 8-deck shoe with burn), the first card of the shuffled shoe, turned to start the
    burn, is seen too.
    """
    counts = [4 * decks] * 13
    if seed is not None:
        first_card = int(shuffled_shoe(preset("punto-banco-8"), seed, int(table.shoe[row]))[0])
        counts[first_card % 16 - 1] -= 1
    first = row
    while first > 0 and table.shoe[first - 1] == table.shoe[row]:
        first -= 1
    for r in range(first, row):
        for card in list(table.player_cards[r]) + list(table.banker_cards[r]):
            if card:
                counts[int(card) % 16 - 1] -= 1
    return counts


def exact_pair_ev(counts: list[int], pays: int = 11) -> Fraction:
    """Player Pair / Banker Pair EV written out: the first two cards of a hand are any two of the unseen cards."""
    n = sum(counts)
    p = Fraction(sum(c * (c - 1) for c in counts), n * (n - 1))
    return p * pays - (1 - p)


def run(table: RoundTable, rules, use: str, **params):
    config = SessionConfig(100_000_00, 1_00, 100_000_00, 1)
    cls, full = registry().resolve(use, params, default_session(rules))
    return run_strategy(StrategyRun(use, cls, full), table, settlement_table(table, rules), rules, config, seed=1)


class Asker(Strategy):
    name = "asker"
    params = {}
    asked: list = []

    def bets(self, view):
        Asker.asked.append((view.shoe, view.hand, view.unseen_counts(), view.exact_ev()))
        return None


def test_view_prices_every_bet_from_the_cards_dealt_before_this_round() -> None:
    for preset_name in ("punto-banco-8-pairs", "ez-baccarat-8", "single-deck"):
        rules = preset(preset_name)
        table = seeded_table(rules, 21, 1, 2 if rules.decks > 1 else 30)
        Asker.asked = []
        run_strategy(
            StrategyRun("asker", Asker, {}), table, settlement_table(table, rules), rules, SessionConfig(100_000, 100, 100_000, 1), seed=1
        )
        assert len(Asker.asked) == len(table)
        asked = sorted(Asker.asked, key=lambda seen: (seen[0], seen[1]))  # the sessions play in lock-step: in the table's order
        for row, (shoe, hand, counts, evs) in enumerate(asked):
            assert (shoe, hand) == (table.shoe[row], table.hand[row])
            assert list(counts) == seen_counts(table, row, rules.decks, 21 if rules.burn and not rules.reshuffle_every_round else None)
            if row % 7 == 0:
                reference = bet_evs(rules, np.asarray(counts))
                assert set(evs) == set(rules.bets)
                for bet in rules.bets:
                    assert evs[bet] == pytest.approx(reference[bet], abs=1e-14)


def test_pair_closed_form_equals_the_full_enumeration() -> None:
    rng = np.random.default_rng(4)
    rules = preset("punto-banco-8-pairs")
    for _ in range(20):
        counts = rng.integers(0, 33, size=13)
        counts[rng.integers(0, 13)] += 6
        exact = round_odds(counts)
        for bet in ("player_pair", "banker_pair"):
            assert pair_ev(counts.tolist(), Fraction(11)) == exact.bet(rules, bet).expected_value
        fast = exact_evs(rules, counts.tolist(), ["player_pair", "banker_pair"])
        assert fast["player_pair"] == pytest.approx(float(exact.bet(rules, "player_pair").expected_value), abs=1e-15)


def placed(cols, bet: str) -> list[bool]:
    return [s > 0 for s in cols[f"stake_{bet}"].tolist()]


@pytest.mark.slow
@pytest.mark.parametrize("threshold", [0, Fraction(1, 20), Fraction(-1, 10)])
def test_ev_counter_bets_a_pair_exactly_when_its_ev_beats_the_threshold(threshold) -> None:
    rules = preset("punto-banco-8-pairs")
    table = seeded_table(rules, 5, 1, 120)
    cols = run(table, rules, "ev-counter", threshold=str(threshold), unit=1)
    evs = [exact_pair_ev(seen_counts(table, row, 8, 5)) for row in range(len(table))]
    for bet in ("player_pair", "banker_pair"):
        assert placed(cols, bet) == [ev > threshold for ev in evs]
    assert any(placed(cols, "player_pair")) or threshold > 0
    if threshold == 0:
        assert 0 < sum(placed(cols, "player_pair")) < len(table) // 10  # a counter bets rarely


@pytest.mark.slow
def test_an_ev_equal_to_the_threshold_is_not_bet() -> None:
    rules = preset("punto-banco-8-pairs")
    table = seeded_table(rules, 5, 1, 60)
    evs = [exact_pair_ev(seen_counts(table, row, 8, 5)) for row in range(len(table))]
    target = sorted(set(evs))[-3]  # an EV reached exactly, with two higher ones above it
    cols = run(table, rules, "ev-counter", bets=["banker_pair"], threshold=str(target), unit=1)
    assert placed(cols, "banker_pair") == [ev > target for ev in evs]
    assert evs.count(target) >= 1 and sum(placed(cols, "banker_pair")) >= 1
    assert not any(placed(cols, "player_pair"))


def test_ev_counter_on_ez_side_bets_follows_the_exact_enumeration() -> None:
    rules = preset("ez-baccarat-8")
    table = seeded_table(rules, 9, 1, 4)
    threshold = Fraction(-7, 100)
    cols = run(table, rules, "ev-counter", bets=["dragon7", "panda8"], threshold="-0.07", unit=1)
    for row in range(len(table)):
        exact = round_odds(seen_counts(table, row, 8, 9))
        for bet in ("dragon7", "panda8"):
            assert placed(cols, bet)[row] == (exact.bet(rules, bet).expected_value > threshold)
    assert any(placed(cols, "dragon7")) and not all(placed(cols, "dragon7"))


def test_outcome_only_shoes_have_no_cards_to_count() -> None:
    rules = preset("punto-banco-8")
    table = RoundTable.from_outcomes([(1, [0, 1, 2, 0])])
    with pytest.raises(StrategyError, match="recorded without cards"):
        run(table, rules, "ev-counter", bets=["banker"])


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"threshold": "lots"}, "threshold must be a number"),
        ({"bets": ["player_pari"]}, "did you mean 'player_pair'"),
        ({"bets": []}, "bets must be a list"),
    ],
)
def test_bad_parameters_are_refused(params, message) -> None:
    with pytest.raises(StrategyError, match=message):
        registry().resolve("ev-counter", params, default_session(preset("punto-banco-8-pairs")))


def test_rules_without_the_watched_bets_are_refused() -> None:
    with pytest.raises(StrategyError, match="do not offer 'player_pair'"):
        registry().resolve("ev-counter", {}, default_session(preset("punto-banco-8")))
