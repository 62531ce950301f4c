"""Compiled helpers a plugin's compiled twin may call (``from baccarat.plugin.twins import random, njit``).

Importing this module loads numba; :mod:`baccarat.plugin.twins` imports it only
when one of these names is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from baccarat.shoes.compiled_deal import pcg_next64

__all__ = ["njit", "random"]


def njit(function: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``numba.njit`` with its machine code cached on disk and indexes checked: decorate the helpers a compiled twin calls.

    An index outside an array (``history[len(history)]``, a state slot past
    its size) raises ``IndexError``, which stops the run naming the strategy,
    instead of reading or writing memory that is not the array's.
    """
    options.setdefault("cache", True)
    options.setdefault("boundscheck", True)
    return numba.njit(**options) if function is None else numba.njit(**options)(function)


@numba.njit(cache=True, inline="always")
def random(rng: np.ndarray) -> float:
    """The session's next ``session.rng.random()``: a float in [0, 1), the same number the reference draws."""
    return float(pcg_next64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
