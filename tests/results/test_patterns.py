"""The patterns players read, tested against fair shoes: counts held to the roads, and the test's calibration and power."""

from __future__ import annotations

import math

import numpy as np
import pytest

from baccarat.results.patterns.fair_shoes import fair_pool, pool_size, resample
from baccarat.results.patterns.fairness import ALPHA, holm, monte_carlo_p, patterns_against_fair
from baccarat.results.patterns.shoe_counts import COLUMN, MAX_STREAK, counts_of, shoe_counts
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.dealer import OUTCOMES
from baccarat.table.roads import DERIVED_ROADS, roads
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")


@pytest.fixture(scope="module")
def pool() -> np.ndarray:
    return fair_pool(RULES, pool_size(5), seed=777)


def binomial_upper(n: int, p: float, tail: float = 0.001) -> int:
    """The smallest count c with P(Binomial(n, p) > c) <= tail."""
    total = 0.0
    for c in range(n + 1):
        total += math.comb(n, c) * p**c * (1 - p) ** (n - c)
        if 1 - total <= tail:
            return c
    return n


def test_counts_agree_with_the_roads_shoe_by_shoe() -> None:
    table = seeded_table_compiled(RULES, 5, 1, 60)
    counts = shoe_counts(table)
    for row, shoe in enumerate(np.unique(table.shoe)):
        outcomes = [OUTCOMES[c] for c in table.outcome[table.shoe == shoe].tolist()]
        road = roads(outcomes)
        lengths = list(road.columns)
        assert counts[row, COLUMN["runs"]] == len(lengths)
        assert counts[row, COLUMN["decided"]] == sum(lengths)
        assert counts[row, COLUMN["tie"]] == outcomes.count("tie")
        assert counts[row, COLUMN["chops"]] == len(lengths) - 1
        for k in range(1, MAX_STREAK + 1):
            assert counts[row, COLUMN[f"goes_on_{k}"]] == sum(length > k for length in lengths)
            assert counts[row, COLUMN[f"ends_{k}"]] == sum(length == k for length in lengths[:-1])
            in_bin = sum(min(length, MAX_STREAK) == k for length in lengths)
            assert counts[row, COLUMN[f"streaks_{k}"]] == in_bin
        for name, _ in DERIVED_ROADS:
            cells = road.derived(name)
            assert counts[row, COLUMN[f"{name}_marks"]] == len(cells)
            assert counts[row, COLUMN[f"{name}_red"]] == sum(cell.mark == "red" for cell in cells)


def test_a_shoe_of_ties_only_has_no_streak() -> None:
    counts = counts_of(np.array([1, 1, 2]), np.array([2, 2, 0], dtype=np.int8))
    assert counts[:, COLUMN["runs"]].tolist() == [0, 1]
    assert counts[:, COLUMN["tie"]].tolist() == [2, 0]


def test_holm_adjusts_step_down() -> None:
    # m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, max(0.04, 0.06), max(0.06, 0.06), max(0.06, 0.5)
    assert holm([0.03, 0.01, 0.5, 0.02]) == pytest.approx([0.06, 0.04, 0.5, 0.06])


def test_monte_carlo_p_counts_the_draws_as_extreme() -> None:
    fair = np.arange(99, dtype=np.float64)  # 0..98
    assert monte_carlo_p(1000.0, fair) == pytest.approx(2 / 100)
    assert monte_carlo_p(49.0, fair) == 1.0
    assert monte_carlo_p(1000.0, fair, upper=True) == pytest.approx(1 / 100)
    assert monte_carlo_p(-1.0, fair, upper=True) == 1.0


def fair_flag_count(pool: np.ndarray, runs: int, shoes: int, draws: int, seed: int) -> tuple[int, int]:
    fair = resample(pool, shoes, draws, seed=seed)
    observed = shoe_counts(seeded_table_compiled(RULES, seed, 1, runs * shoes))
    flagged = 0
    for run in range(runs):
        result = patterns_against_fair(observed[run * shoes : (run + 1) * shoes].sum(axis=0), True, fair, RULES)
        flagged += not result.like_fair
    return flagged, runs


@pytest.mark.slow
def test_fair_shoes_are_flagged_in_at_most_five_percent_of_runs(pool: np.ndarray) -> None:
    flagged, runs = fair_flag_count(pool, runs=200, shoes=5, draws=999, seed=31)
    # A test at family-wise level 0.05 flags fair shoes in at most 5% of runs: over 200 runs, more than the
    # binomial bound (a 1-in-1000 excess for a 5% rate) would refute it.
    assert flagged <= binomial_upper(runs, ALPHA), f"{flagged} of {runs} fair runs flagged"


@pytest.mark.slow
def test_fair_shoes_are_flagged_in_at_most_five_percent_of_many_runs() -> None:
    pool = fair_pool(RULES, pool_size(10), seed=778)
    flagged, runs = fair_flag_count(pool, runs=2000, shoes=10, draws=1999, seed=32)
    assert flagged <= binomial_upper(runs, ALPHA), f"{flagged} of {runs} fair runs flagged"
    # Holm's method is conservative here (the statistics are correlated): the share itself stays under 5%.
    assert flagged <= ALPHA * runs, f"{flagged} of {runs} fair runs flagged"


def streaky_outcomes(lengths: list[int], repeat: float, seed: int) -> np.ndarray:
    """Each shoe's rounds from a dealer who repeats the last decided winner with extra probability ``repeat``."""
    rng = np.random.default_rng(seed)
    fair = np.array([0.458597, 0.446247, 0.095156])
    out = []
    for length in lengths:
        last = None
        for _ in range(length):
            code = last if last is not None and rng.random() < repeat else int(rng.choice(3, p=fair / fair.sum()))
            out.append(code)
            if code != 2:
                last = code
    return np.asarray(out, dtype=np.int8)


def test_a_streaky_dealer_is_flagged_on_the_streaks(pool: np.ndarray) -> None:
    shoes = 30
    like = seeded_table_compiled(RULES, 41, 1, shoes)  # the same rounds per shoe as fair shoes
    lengths = np.bincount(like.shoe)[1:].tolist()
    outcomes = streaky_outcomes(lengths, repeat=0.15, seed=41)
    counts = counts_of(np.repeat(np.arange(1, shoes + 1), lengths), outcomes)
    fair = resample(fair_pool(RULES, pool_size(shoes), seed=779), shoes, 1999, seed=41)
    result = patterns_against_fair(counts.sum(axis=0), False, fair, RULES)
    flagged = {s.key for s in result.statistics if s.flagged}
    assert not result.like_fair
    assert flagged & {"runs_per_shoe", "chop_share", "goes_on_after_1", "streak_lengths"}
    assert "do not look like fairly shuffled ones" in result.verdict
    by_key = {s.key: s for s in result.statistics}
    assert by_key["chop_share"].observed < by_key["chop_share"].fair_low
    assert "player_pair_share" not in by_key  # outcome-only shoes have no pairs to test


def test_fair_shares_sit_on_the_exact_odds(pool: np.ndarray) -> None:
    fair = resample(pool, 5, 999, seed=3)
    result = patterns_against_fair(pool[:5].sum(axis=0), True, fair, RULES)
    rounds = pool[:, COLUMN["rounds"]].astype(np.float64)
    checked = 0
    for s in result.statistics:
        if s.exact is None:
            continue
        seen = pool[:, COLUMN[s.key.removesuffix("_share")]].astype(np.float64)
        share = seen.sum() / rounds.sum()
        # The pool's share and its standard error with shoes as clusters (rounds within a shoe are not independent).
        se = math.sqrt(((seen - share * rounds) ** 2).sum()) / rounds.sum()
        assert abs(share - s.exact) < 4 * se, (s.key, share, s.exact, se)
        checked += 1
    assert checked == 5
