"""When compiled kernels are worth loading: for a whole run, and for one call of a kernel.

numba compiles a kernel on its first use and caches it on disk (beside the
package). Loading the first cached kernel into a process costs about half a
second (numba sets up its compiler), and compiling every kernel a run plays,
the first time after installing, about ten seconds. A small run finishes
sooner without them: the reference dealer and engine play it, and the few
kernels that fold or encode its rows run as the plain Python functions they
are written as (a kernel's ``py_func``: the same code, interpreted). Either
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
A call of a leaf kernel (:func:`kernel_for`) on fewer items than this runs
the plain function (about a microsecond an item). ``BACCARAT_COMPILED_FROM``
in the environment sets another line (0: every run compiled).
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


def kernel_for(function: Callable[..., Any], items: int) -> Callable[..., Any]:
    """Return ``function`` compiled by numba for ``items`` items or more, else the function itself.

    ``function`` is a leaf kernel: a module-level function numba compiles as
    it is (no other kernel called), kept plain so that importing its module
    does not import numba. It is compiled once per process (``nogil``, cached
    on disk beside the package, as every kernel is).
    """
    if items < compiled_from():
        return function
    kernel = _COMPILED.get(function)
    if kernel is None:
        from numba import njit

        kernel = _COMPILED[function] = njit(cache=True, nogil=True)(function)
    return kernel


_COMPILED: dict[Callable[..., Any], Any] = {}
"""The leaf kernels compiled in this process, by function."""
