"""Student's t of the verdict's intervals against its closed forms (1, 2, 4 degrees of freedom), and its degrees of freedom."""

from __future__ import annotations

import math
from statistics import NormalDist

import polars as pl
import pytest

from baccarat.results.comparisons.strategies import ratio_df
from baccarat.results.comparisons.verdict import two_sided_p
from baccarat.results.statistics import student_t

PROBABILITIES = (0.6, 0.9, 0.95, 0.975, 0.995, 0.9995)


def cdf_1(t: float) -> float:
    """Cauchy: 1/2 + atan(t)/pi."""
    return 0.5 + math.atan(t) / math.pi


def cdf_2(t: float) -> float:
    return 0.5 + t / (2 * math.sqrt(2 + t * t))


def cdf_4(t: float) -> float:
    x = 4 / (4 + t * t)
    upper = 0.5 * (1 - math.sqrt(1 - x) * (1 + x / 2))  # P(T > |t|)
    return 1 - upper if t >= 0 else upper


@pytest.mark.parametrize(("df", "cdf"), [(1, cdf_1), (2, cdf_2), (4, cdf_4)])
@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 1.96, 2.5, 7.0, 40.0])
def test_two_sided_p_is_the_closed_form(df: int, cdf, t: float) -> None:
    assert student_t.two_sided_p(t, df) == pytest.approx(2 * (1 - cdf(t)), rel=1e-12, abs=1e-15)
    assert student_t.two_sided_p(-t, df) == student_t.two_sided_p(t, df)


@pytest.mark.parametrize("probability", PROBABILITIES)
def test_quantiles_are_the_closed_forms(probability: float) -> None:
    assert student_t.quantile(probability, 1) == pytest.approx(math.tan(math.pi * (probability - 0.5)), rel=1e-12)
    alpha = 4 * probability * (1 - probability)
    assert student_t.quantile(probability, 2) == pytest.approx((2 * probability - 1) * math.sqrt(2 / alpha), rel=1e-12)
    assert cdf_4(student_t.quantile(probability, 4)) == pytest.approx(probability, rel=1e-12)
    assert student_t.quantile(1 - probability, 4) == -student_t.quantile(probability, 4)


def test_many_degrees_of_freedom_approach_the_normal_law() -> None:
    z = NormalDist().inv_cdf(0.975)
    assert student_t.quantile(0.975, math.inf) == z
    assert student_t.two_sided_p(z, math.inf) == pytest.approx(0.05, rel=1e-12)
    # t quantiles fall towards z as the degrees of freedom grow: 1 + (1 + z²)/(4 df) to first order.
    previous = math.inf
    for df in (2, 10, 149, 10_000, 1_000_000):
        q = student_t.quantile(0.975, df)
        assert z < q < previous
        previous = q
    assert student_t.quantile(0.975, 1_000_000) == pytest.approx(z * (1 + (1 + z * z) / 4e6), rel=1e-9)


def test_the_p_value_of_an_interval_is_5_percent_at_its_edge() -> None:
    """A 95% interval built from the t quantile has p = 0.05 exactly when one of its ends is 0."""
    for df in (3, 39, 149, 598.5):
        half = student_t.quantile(0.975, df) * 0.002
        assert two_sided_p(half, 0.0, 2 * half, df) == pytest.approx(0.05, rel=1e-9)
        # An estimate 1.96 standard errors from 0 is not beyond chance with an estimated standard error.
        assert student_t.two_sided_p(NormalDist().inv_cdf(0.975), df) > 0.05
    assert two_sided_p(0.01, 0.01, 0.01, 10) == 0.0 and two_sided_p(0.0, 0.0, 0.0, 10) == 1.0


def test_the_degrees_of_freedom_of_a_ratio_fall_with_heavy_tails() -> None:
    """``ratio_df``: ``k - 1`` for tails no heavier than normal; one outlier among 10 sessions, by hand: about 2.73."""
    frame = pl.DataFrame({"num": [1.0, -1.0] * 5, "den": [1.0] * 10})
    assert frame.select(ratio_df(pl.col("num"), pl.col("den"))).item() == pytest.approx(9)  # kurtosis 1: k - 1
    # num 1 then nine 0s, den 1: ratio 0.1, u = 0.9 then nine -0.1; Σu² = 0.9, Σu⁴ = 0.657, κ = 10·0.657/0.81.
    frame = pl.DataFrame({"num": [1.0] + [0.0] * 9, "den": [1.0] * 10})
    kurtosis = 10 * 0.657 / 0.81
    assert frame.select(ratio_df(pl.col("num"), pl.col("den"))).item() == pytest.approx(2 / (2 / 9 + (kurtosis - 3) / 10))
    assert frame.head(1).select(ratio_df(pl.col("num"), pl.col("den"))).item() is None
