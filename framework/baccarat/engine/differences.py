"""Where two ledgers of the same sessions first differ (a module of its own: the checks that use it load no numba)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def first_difference(fast: Mapping[str, np.ndarray], reference: Mapping[str, np.ndarray]) -> int | None:
    """Return the first ledger row where two ledgers' columns differ, or None when they are identical."""
    if set(fast) != set(reference) or any(len(fast[name]) != len(reference[name]) for name in reference):
        return 0
    first = None
    for name, column in reference.items():
        a, b = np.asarray(fast[name]), np.asarray(column)
        unequal = a != b
        if a.dtype.kind == "f" and b.dtype.kind == "f":
            unequal &= ~(np.isnan(a) & np.isnan(b))  # an unknown value (NaN) is the same unknown value both times
        differ = np.flatnonzero(unequal)
        if differ.size and (first is None or differ[0] < first):
            first = int(differ[0])
    return first


__all__ = ["first_difference"]
