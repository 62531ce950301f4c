"""When a run is worth compiled kernels, and the leaf kernels compiled on demand.

numba compiles a kernel on its first use and caches it on disk (beside the
package). Loading the first cached kernel into a process costs about half a
second (numba sets up its compiler), and compiling every kernel a run plays,
the first time after installing, about ten seconds. A small run finishes
sooner without them: the reference dealer and engine play it, and the one
leaf kernel that folds its sessions runs as the plain Python function it is
written as (:func:`compiled` makes the kernel of it). Either
way the rounds, the ledger and every statistic are the same, bit for bit
(tests/test_compiling.py and the parity tests of the engines and the dealer).
tests/benchmarks/bench_startup.py measures both sides of each line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from baccarat.errors import InputError

COMPILED_FROM = 50_000
"""Strategy-rounds (rounds x strategies, every seed) from which a run deals and plays with compiled kernels.

Below it the reference plays: a 10-shoe run of four strategies is about
3,000 strategy-rounds, which the reference plays in a few hundredths of a
second; 50,000 take it about half a second, what loading the kernels costs.
``BACCARAT_COMPILED_FROM`` in the environment sets another line (0: every
run compiled).
"""

COMPILED_FROM_ENV = "BACCARAT_COMPILED_FROM"


def compiled_from() -> int:
    """Return the line of :data:`COMPILED_FROM`, or the one ``BACCARAT_COMPILED_FROM`` sets."""
    text = os.environ.get(COMPILED_FROM_ENV)
    if text is None:
        return COMPILED_FROM
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise InputError(f"{COMPILED_FROM_ENV} must be a whole number of strategy-rounds (0: always compile), not {text!r}")
    return value


def plays_compiled(strategy_rounds: float) -> bool:
    """Tell whether a run of about ``strategy_rounds`` rounds x strategies deals and plays with compiled kernels."""
    return strategy_rounds >= compiled_from()


def compiled(function: Callable[..., Any]) -> Callable[..., Any]:
    """Return ``function`` compiled by numba: once per process, ``nogil``, cached on disk beside the package.

    ``function`` is a leaf kernel: a module-level function numba compiles as
    it is (it calls no other kernel), kept plain so that importing its module
    does not import numba, and so that a small run calls it as it is.
    """
    kernel = _COMPILED.get(function)
    if kernel is None:
        from numba import njit

        kernel = _COMPILED[function] = njit(cache=True, nogil=True)(function)
    return kernel


_COMPILED: dict[Callable[..., Any], Any] = {}
"""The leaf kernels compiled in this process, by function."""
