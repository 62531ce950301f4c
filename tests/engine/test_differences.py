"""Where two ledgers first differ: an unknown value (NaN) in both is no difference, any other change is."""

from __future__ import annotations

import numpy as np

from baccarat.engine.differences import first_difference


def test_nan_in_both_ledgers_is_the_same_unknown_value() -> None:
    ev = np.array([0.5, np.nan, -0.25])
    assert first_difference({"ev": ev, "stake": np.arange(3)}, {"ev": ev.copy(), "stake": np.arange(3)}) is None


def test_a_changed_value_or_a_nan_on_one_side_is_found_at_its_row() -> None:
    reference = {"ev": np.array([0.5, np.nan, -0.25]), "stake": np.arange(3)}
    assert first_difference({"ev": np.array([0.5, 0.0, -0.25]), "stake": np.arange(3)}, reference) == 1
    assert first_difference({"ev": reference["ev"], "stake": np.array([0, 1, 5])}, reference) == 2
    assert first_difference({"ev": reference["ev"]}, reference) == 0  # a column missing
