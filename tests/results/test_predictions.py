"""Predictors scored against the exact odds of the cards left: the exact chances, the scoring, and who wins."""

from __future__ import annotations

import math

import numpy as np
import pytest

from baccarat.odds.chances import outcome_chances
from baccarat.odds.exact_odds import round_odds
from baccarat.plugin.manager import registry
from baccarat.plugin.predictors import Dealt, Predictor, checked_chances
from baccarat.results.patterns.predictions import score_predictors
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")
PLAYERS = ("shoe-frequencies", "follow-streak", "follow-chop", "big-eye-boy-red")


@pytest.mark.parametrize(
    "counts", [[32] * 13, [30, 25, 31, 28, 20, 32, 29, 22, 31, 30, 26, 32, 18], [1, 0, 2, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]]
)
def test_outcome_chances_are_the_exact_odds(counts: list[int]) -> None:
    odds = round_odds(counts)
    exact = [odds.bet(RULES, "banker").win, odds.bet(RULES, "player").win, odds.bet(RULES, "banker").push]
    assert outcome_chances(counts).tolist() == pytest.approx([float(x) for x in exact], abs=1e-15)


def test_an_answer_that_is_not_three_chances_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="predictor 'x' returned"):
        checked_chances((0.5, 0.5), "x")
    with pytest.raises(ValueError, match="sum to 1"):
        checked_chances((0.5, 0.5, 0.5), "x")
    assert checked_chances([0.5, 0.25, 0.25], "x") == (0.5, 0.25, 0.25)


class Always(Predictor):
    name = "always"

    def predict(self, dealt: Dealt) -> tuple[float, float, float]:
        return (0.5, 0.25, 0.25)


class Seen(Predictor):
    """Records what it is shown, to check that it is only what has been dealt."""

    name = "seen"
    shown: list[tuple[int, tuple[str, ...], int]] = []

    def predict(self, dealt: Dealt) -> tuple[float, float, float]:
        Seen.shown.append((dealt.hand, dealt.outcomes, int(dealt.remaining.sum())))
        assert dealt.roads.outcomes == dealt.outcomes
        return (0.5, 0.25, 0.25)


def test_scores_are_the_log_loss_and_brier_of_each_round_and_the_view_holds_only_what_was_dealt() -> None:
    table = seeded_table_compiled(RULES, 3, 1, 2)
    found = registry()
    Seen.shown = []
    scores = score_predictors(table, RULES, {"exact": found.predictors()["exact"], "always": Always, "seen": Seen})
    chances = np.array([0.5, 0.25, 0.25])
    outcomes = table.outcome.astype(int)
    always = next(s for s in scores.scores if s.name == "always")
    assert always.log_loss == pytest.approx(float(-np.log(chances[outcomes]).mean()))
    brier = ((chances[None, :] - np.eye(3)[outcomes]) ** 2).sum(axis=1).mean()
    assert always.brier == pytest.approx(float(brier))
    first, second = table.shoe_bounds()
    names = ["banker", "player", "tie"]
    assert [hand for hand, _, _ in Seen.shown] == [*range(1, first[1] + 1), *range(1, second[1] - second[0] + 1)]
    row = 5  # the sixth round of the first shoe: the five before it, and the cards they and the turned card took
    hand, seen, left = Seen.shown[row]
    assert seen == tuple(names[o] for o in outcomes[:row])
    used = int((table.player_cards[:row] > 0).sum() + (table.banker_cards[:row] > 0).sum()) + 1
    assert left == 8 * 52 - used


@pytest.mark.slow
def test_the_exact_odds_beat_every_players_predictor() -> None:
    table = seeded_table_compiled(RULES, 9, 1, 25)
    scores = score_predictors(table, RULES, registry().predictors())
    by_name = {s.name: s for s in scores.scores}
    assert scores.rounds == len(table)
    for name in PLAYERS:  # each leans 60% on a pattern of a fair shoe: worse than the exact odds beyond chance
        assert by_name[name].log_loss_vs_exact_low > 0, by_name[name]
        assert by_name[name].brier_vs_exact_low > 0, by_name[name]
    assert not set(scores.beat_exact) & set(PLAYERS)
    assert "the exact predictor beats off-the-top by" in scores.verdict


@pytest.mark.slow
def test_on_many_shoes_the_exact_predictor_has_the_lowest_log_loss() -> None:
    table = seeded_table_compiled(RULES, 101, 1, 2000)  # the 2,000 shoes of docs/myths.md
    scores = score_predictors(table, RULES, registry().predictors())
    exact = next(s for s in scores.scores if s.name == "exact")
    assert exact.log_loss == min(s.log_loss for s in scores.scores)
    assert scores.beat_exact == []
    for s in scores.scores:
        if s.name != "exact":
            assert s.log_loss_vs_exact > 0 and math.isfinite(s.log_loss_vs_exact_low)
    by_name = {s.name: s for s in scores.scores}
    for name in PLAYERS:  # the roads' and streaks' predictors: worse than the exact odds beyond chance, with their intervals
        assert by_name[name].log_loss_vs_exact_low > 0 and by_name[name].brier_vs_exact_low > 0, by_name[name]
