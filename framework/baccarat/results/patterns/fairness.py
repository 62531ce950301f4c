"""Each statistic players read, for a sample of shoes beside fair shoes: the value, the fair range, a corrected p-value.

The p-values are Monte Carlo p-values against fair samples of the same
number of shoes (:mod:`baccarat.results.patterns.fair_shoes`): two-sided,
``2 * min(#{fair <= observed} + 1, #{fair >= observed} + 1) / (draws + 1)``
(one-sided, upper, for the distance of the streak lengths from the fair
distribution), then corrected for the number of statistics tested by Holm's
step-down method, which holds the chance of flagging any statistic of fair
shoes at most :data:`ALPHA`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from baccarat.odds.compositions import suited_counts
from baccarat.odds.exact_odds import round_odds
from baccarat.results.patterns.fair_shoes import FairSamples
from baccarat.results.patterns.shoe_counts import COLUMN, MAX_STREAK
from baccarat.table.roads import DERIVED_ROADS
from baccarat.table.rules import Rules

ALPHA = 0.05
"""The family-wise level: fair shoes are flagged in at most this share of samples."""

CORRECTION = "Holm"
"""The correction of the p-values for the number of statistics tested."""


@dataclass(frozen=True)
class Statistic:
    """How one statistic is computed from summed counts, and how it is tested."""

    key: str
    label: str
    family: str
    value: Callable[[np.ndarray, np.ndarray], np.ndarray]
    """(sums (..., len(COUNTS)), pool totals) -> the statistic, NaN where it has no data."""
    upper: bool = False
    """Tested one-sided (only large values are unlike fair shoes)."""
    cards: bool = False
    """Needs the cards (pairs): not tested on shoes recorded as outcomes."""


def _ratio(top: str, bottom: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def value(sums: np.ndarray, _: np.ndarray) -> np.ndarray:
        num = sums[..., COLUMN[top]].astype(np.float64)
        den = sums[..., COLUMN[bottom]].astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)

    return value


def _goes_on(k: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def value(sums: np.ndarray, _: np.ndarray) -> np.ndarray:
        on = sums[..., COLUMN[f"goes_on_{k}"]].astype(np.float64)
        ends = sums[..., COLUMN[f"ends_{k}"]].astype(np.float64)
        den = on + ends
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, on / np.where(den > 0, den, 1), np.nan)

    return value


_STREAK_BINS = [COLUMN[f"streaks_{k}"] for k in range(1, MAX_STREAK + 1)]


def streak_distance(sums: np.ndarray, pool_totals: np.ndarray) -> np.ndarray:
    """Pearson's distance of the streak lengths from the fair shares: sum of (seen - expected)^2 / expected over the bins."""
    fair = pool_totals[_STREAK_BINS].astype(np.float64)
    fair = fair / fair.sum()
    seen = sums[..., _STREAK_BINS].astype(np.float64)
    expected = seen.sum(axis=-1, keepdims=True) * fair
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = np.where(expected > 0, (seen - expected) ** 2 / np.where(expected > 0, expected, 1), 0.0)
    total = terms.sum(axis=-1)
    return np.where(seen.sum(axis=-1) > 0, total, np.nan)


STATISTICS: tuple[Statistic, ...] = (
    Statistic("banker_share", "Banker share of rounds", "outcomes", _ratio("banker", "rounds")),
    Statistic("player_share", "Player share of rounds", "outcomes", _ratio("player", "rounds")),
    Statistic("tie_share", "Tie share of rounds", "outcomes", _ratio("tie", "rounds")),
    Statistic("player_pair_share", "Player pair share of rounds", "pairs", _ratio("player_pair", "rounds"), cards=True),
    Statistic("banker_pair_share", "Banker pair share of rounds", "pairs", _ratio("banker_pair", "rounds"), cards=True),
    Statistic("runs_per_shoe", "streaks (runs) per shoe", "streaks", _ratio("runs", "shoes")),
    Statistic("chop_share", "chop share (winner changes)", "streaks", _ratio("chops", "chances_to_chop")),
    Statistic("streak_lengths", "streak lengths (distance from fair)", "streaks", streak_distance, upper=True),
    *(Statistic(f"goes_on_after_{k}", f"streak goes on after {k}", "streaks", _goes_on(k)) for k in range(1, MAX_STREAK + 1)),
    *(
        Statistic(f"{name}_red", f"{name.replace('_', ' ')} red share", "roads", _ratio(f"{name}_red", f"{name}_marks"))
        for name, _ in DERIVED_ROADS
    ),
)
"""Every statistic ``baccarat patterns`` tests, in the order it prints them."""


@dataclass(frozen=True)
class Tested:
    """One statistic of the sample beside fair shoes."""

    key: str
    label: str
    family: str
    observed: float | None
    fair_mean: float | None
    fair_low: float | None
    """2.5% quantile of the fair samples."""
    fair_high: float | None
    """97.5% quantile of the fair samples."""
    exact: float | None
    """The exact chance of one round off the top, where the mathematics gives it (outcome and pair shares)."""
    p_value: float | None
    p_holm: float | None
    flagged: bool


@dataclass(frozen=True)
class Patterns:
    """The whole test of a sample of shoes."""

    shoes: int
    rounds: int
    has_cards: bool
    statistics: list[Tested]
    fair_shoes: int
    fair_seed: int
    draws: int
    alpha: float
    correction: str
    verdict: str
    like_fair: bool
    streak_lengths: dict[str, list[float]]
    """Share of streaks of each length 1..MAX_STREAK (the last: that long or longer), seen and fair."""

    def to_dict(self) -> dict[str, object]:
        """The test as plain JSON data."""
        return asdict(self)


def monte_carlo_p(observed: float, fair: np.ndarray, upper: bool = False) -> float:
    """The Monte Carlo p-value of ``observed`` among ``fair`` draws (NaN draws left out); two-sided unless ``upper``."""
    fair = fair[~np.isnan(fair)]
    n = len(fair)
    above = (int((fair >= observed).sum()) + 1) / (n + 1)
    if upper:
        return above
    below = (int((fair <= observed).sum()) + 1) / (n + 1)
    return min(1.0, 2 * min(above, below))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def exact_shares(rules: Rules) -> dict[str, float]:
    """The exact chance of Banker, Player, Tie and each pair on one round off the top of a full shoe under ``rules``."""
    odds = round_odds(suited_counts(rules.decks), rules.decks)
    out = {}
    for bet, key, part in (
        ("banker", "banker_share", "win"),
        ("player", "player_share", "win"),
        ("banker", "tie_share", "push"),
        ("player_pair", "player_pair_share", "win"),
        ("banker_pair", "banker_pair_share", "win"),
    ):
        try:
            out[key] = float(getattr(odds.bet(rules, bet), part))
        except Exception:  # noqa: BLE001 - rules without that bet: no exact figure to show
            continue
    return out


def _number(x: float) -> float | None:
    return None if x is None or np.isnan(x) else float(x)


def patterns_against_fair(sums: np.ndarray, has_cards: bool, fair: FairSamples, rules: Rules, alpha: float = ALPHA) -> Patterns:
    """Test the sample whose counts summed over its shoes are ``sums`` against ``fair`` samples of as many shoes."""
    exact = exact_shares(rules)
    rows: list[dict[str, object]] = []
    for stat in STATISTICS:
        if stat.cards and not has_cards:
            continue
        observed = float(stat.value(sums, fair.pool_totals))
        draws = stat.value(fair.sums, fair.pool_totals)
        valid = draws[~np.isnan(draws)]
        p = None if np.isnan(observed) or len(valid) == 0 else monte_carlo_p(observed, draws, stat.upper)
        rows.append(
            {
                "key": stat.key,
                "label": stat.label,
                "family": stat.family,
                "observed": _number(observed),
                "fair_mean": _number(float(valid.mean())) if len(valid) else None,
                "fair_low": _number(float(np.quantile(valid, 0.025))) if len(valid) else None,
                "fair_high": _number(float(np.quantile(valid, 0.975))) if len(valid) else None,
                "exact": exact.get(stat.key),
                "p_value": p,
            }
        )
    tested = [i for i, row in enumerate(rows) if row["p_value"] is not None]
    adjusted = holm([rows[i]["p_value"] for i in tested])  # type: ignore[misc]
    for row in rows:
        row["p_holm"] = None
        row["flagged"] = False
    for i, q in zip(tested, adjusted, strict=True):
        rows[i]["p_holm"] = q
        rows[i]["flagged"] = q <= alpha
    statistics = [Tested(**row) for row in rows]  # type: ignore[arg-type]
    flagged = [s for s in statistics if s.flagged]
    shoes = int(sums[COLUMN["shoes"]])
    verdict = _verdict(shoes, flagged, len(tested), fair, alpha)
    seen = sums[_STREAK_BINS].astype(np.float64)
    fair_bins = fair.pool_totals[_STREAK_BINS].astype(np.float64)
    return Patterns(
        shoes=shoes,
        rounds=int(sums[COLUMN["rounds"]]),
        has_cards=has_cards,
        statistics=statistics,
        fair_shoes=fair.pool_shoes,
        fair_seed=fair.pool_seed,
        draws=fair.draws,
        alpha=alpha,
        correction=CORRECTION,
        verdict=verdict,
        like_fair=not flagged,
        streak_lengths={
            "seen": (seen / seen.sum()).tolist() if seen.sum() else [],
            "fair": (fair_bins / fair_bins.sum()).tolist() if fair_bins.sum() else [],
        },
    )


def _verdict(shoes: int, flagged: list[Tested], tested: int, fair: FairSamples, alpha: float) -> str:
    what = f"{shoes} shoe{'s' if shoes != 1 else ''}"
    plural = "s" if shoes != 1 else ""
    how = (
        f"{tested} statistics against {fair.draws} samples of {shoes} fair shoe{plural}; "
        f"{CORRECTION}-corrected p-values, family-wise level {alpha:g}"
    )
    if not flagged:
        return f"These {what} look like fairly shuffled ones: no statistic is beyond what fair shuffling gives ({how})."
    named = ", ".join(
        f"{s.label} ({_fmt(s.observed)} against {_fmt(s.fair_low)} to {_fmt(s.fair_high)}, p = {s.p_holm:.3g})" for s in flagged
    )
    return f"These {what} do not look like fairly shuffled ones: {named} ({how})."


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"
