"""Predictors scored on the same rounds: log-loss and Brier score, each paired with the exact predictor's.

Each predictor is asked before every round of every shoe, with what has been
dealt (:class:`baccarat.plugin.predictors.Dealt`). Its log-loss on a round
is ``-ln p`` of the outcome that came (chances below :data:`FLOOR` count as
``FLOOR``), its Brier score the squared distance of its three chances from
the outcome. Differences from the exact predictor are paired round by round;
their 95% intervals take shoes as the independent units (rounds of one shoe
are not independent): the standard error of a ratio of shoe sums, with
Student's t quantile for k - 1 degrees of freedom (k shoes), so that a few
shoes give an interval as wide as they should.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from baccarat.plugin.predictors import Dealt, Predictor, checked_chances
from baccarat.results.statistics import student_t
from baccarat.shoes.rounds import RoundTable
from baccarat.table.cards import rank_of
from baccarat.table.dealer import OUTCOMES
from baccarat.table.roads import Roads, outcome_name
from baccarat.table.rules import Rules

FLOOR = 1e-15
"""The least chance the log-loss reads (a predictor that calls the outcome impossible loses ``-ln FLOOR``, not infinity)."""

REFERENCE = "exact"
"""The predictor every other one is paired with."""


@dataclass(frozen=True)
class Score:
    """One predictor's scores per round, and its differences from the exact predictor's with 95% intervals."""

    name: str
    log_loss: float
    brier: float
    log_loss_vs_exact: float
    log_loss_vs_exact_low: float
    log_loss_vs_exact_high: float
    brier_vs_exact: float
    brier_vs_exact_low: float
    brier_vs_exact_high: float


@dataclass(frozen=True)
class Scores:
    """Every predictor scored on the same rounds, and what that says in words."""

    shoes: int
    rounds: int
    scores: list[Score]
    beat_exact: list[str]
    """Predictors whose log-loss is below the exact predictor's beyond chance (the interval wholly below 0)."""
    verdict: str

    def to_dict(self) -> dict[str, object]:
        """The scores as plain JSON data."""
        return asdict(self)


def rank_counts_of_shoe(decks: int) -> np.ndarray:
    """The cards of a full shoe by rank (13 counts, ace first)."""
    return np.full(13, 4 * decks, dtype=np.int64)


def score_predictors(table: RoundTable, rules: Rules, predictors: dict[str, type[Predictor]]) -> Scores:
    """Ask every predictor before every round of ``table``; return their scores, paired with ``exact``'s.

    ``predictors`` must include ``exact``. A predictor's answer that is not
    three chances summing to 1 is a ValueError naming it.
    """
    names = list(predictors)
    if REFERENCE not in names:
        raise ValueError(f"the {REFERENCE!r} predictor is needed to pair the others with")
    bounds = table.shoe_bounds()
    loss = np.zeros((len(bounds), len(names)))
    brier = np.zeros((len(bounds), len(names)))
    rounds = np.zeros(len(bounds))
    for s, (start, stop) in enumerate(bounds):
        made = [predictors[name]() for name in names]
        remaining = rank_counts_of_shoe(rules.decks)
        turned = int(table.turned[start])
        if turned:
            remaining[rank_of(turned) - 1] -= 1
        road = Roads()
        outcomes: list[str] = []
        for row in range(start, stop):
            seen = remaining.copy()
            seen.flags.writeable = False
            dealt = Dealt(rules, row - start + 1, tuple(outcomes), road, seen if table.has_cards else None)
            came = int(table.outcome[row])
            for j, predictor in enumerate(made):
                chances = checked_chances(predictor.predict(dealt), names[j])
                loss[s, j] -= math.log(max(chances[came], FLOOR))
                brier[s, j] += sum((c - (k == came)) ** 2 for k, c in enumerate(chances))
            rounds[s] += 1
            name = outcome_name(OUTCOMES[came])
            outcomes.append(name)
            road._push(name)
            for card in (*table.player_cards[row], *table.banker_cards[row]):
                if card:
                    remaining[rank_of(int(card)) - 1] -= 1
    ref = names.index(REFERENCE)
    total = rounds.sum()
    scores = []
    for j, name in enumerate(names):
        dl, dl_half = _paired(loss[:, j] - loss[:, ref], rounds)
        db, db_half = _paired(brier[:, j] - brier[:, ref], rounds)
        scores.append(
            Score(
                name,
                float(loss[:, j].sum() / total),
                float(brier[:, j].sum() / total),
                dl,
                dl - dl_half,
                dl + dl_half,
                db,
                db - db_half,
                db + db_half,
            )
        )
    beat = [s.name for s in scores if s.name != REFERENCE and s.log_loss_vs_exact_high < 0]
    return Scores(len(bounds), int(total), scores, beat, _verdict(scores, beat, len(bounds), int(total)))


def _paired(per_shoe: np.ndarray, rounds: np.ndarray) -> tuple[float, float]:
    """The mean difference per round and the half-width of its 95% interval, shoes as clusters."""
    total = rounds.sum()
    mean = float(per_shoe.sum() / total)
    k = len(per_shoe)
    if k < 2:
        return mean, math.inf
    residual = per_shoe - mean * rounds
    se = math.sqrt(float((residual**2).sum()) * k / (k - 1)) / total
    return mean, student_t.quantile(0.975, k - 1) * se


def _verdict(scores: list[Score], beat: list[str], shoes: int, rounds: int) -> str:
    by_name = {s.name: s for s in scores}
    where = f"On {rounds:,} rounds of {shoes:,} shoes"
    if beat:
        first = (
            f"{where}, {', '.join(beat)} scored a lower log-loss than the exact odds of the remaining shoe, "
            "the 95% interval of the difference wholly below 0; the exact odds are the best forecast from the cards seen, "
            "so this is chance (a 95% interval misses in 1 sample of 20, half of them on this side)"
        )
    else:
        first = f"{where}, no predictor beat the exact odds of the remaining shoe (no log-loss below the exact one's beyond chance)"
    top = by_name.get("off-the-top")
    if top is None:
        return first + "."
    return (
        f"{first}; the exact predictor beats off-the-top by {top.log_loss_vs_exact:.2e} nats of log-loss per round "
        f"(95% interval {top.log_loss_vs_exact_low:.2e} to {top.log_loss_vs_exact_high:.2e})."
    )
