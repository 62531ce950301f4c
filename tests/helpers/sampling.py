"""Simulated figures held to exact ones within a number of standard errors of their sample size."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

STANDARD_ERRORS = 4
"""How many standard errors a simulated figure may lie from the exact one (a chance of about 6e-5 each to fail)."""


def assert_share_near(hits: Any, p: float, what: Any = None) -> None:
    """Assert that the share of true values of ``hits`` lies within 4 standard errors of a binomial of chance ``p``."""
    hits = np.asarray(hits, dtype=bool)
    error = math.sqrt(p * (1 - p) / len(hits))
    assert abs(hits.mean() - p) <= STANDARD_ERRORS * error, (what, hits.mean(), p)


def assert_mean_near(values: Any, mean: float, what: Any = None) -> None:
    """Assert that the mean of ``values`` lies within 4 of its standard errors (sample deviation) of ``mean``."""
    values = np.asarray(values, dtype=float)
    assert abs(values.mean() - mean) <= STANDARD_ERRORS * values.std(ddof=1) / math.sqrt(len(values)), (what, values.mean(), mean)
