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
While the kernels are not yet cached, the line is higher
(:data:`COMPILED_COLD_FROM`): the first runs after installing do not wait
for compiling that takes longer than the reference would play them.
tests/benchmarks/bench_startup.py measures both sides of each line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from baccarat.errors import InputError

DISABLE_ENV = "BACCARAT_NO_COMPILED_PATH"
"""Set (to anything) in the environment, every strategy plays on the reference engine."""

DISABLE_ENV_0_2 = "BACCARAT_NO_FAST_PATH"
"""The 0.2 name of :data:`DISABLE_ENV`, still honoured (deprecated, removed in 0.5)."""


def compiled_path_disabled() -> bool:
    """Tell whether the environment turns the compiled path off (:data:`DISABLE_ENV`, or its 0.2 name)."""
    return bool(os.environ.get(DISABLE_ENV) or os.environ.get(DISABLE_ENV_0_2))


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


COMPILED_COLD_FROM = 1_000_000
"""The line of :data:`COMPILED_FROM` while the kernels are not in numba's cache (the first runs after installing).

Compiling the kernels a run plays takes about five seconds; the reference
plays about a million strategy-rounds in that time. Below the line, the
reference plays the run rather than have it wait for compiling that does
not pay; a larger run compiles (and caches) the kernels, and every run
after it has the lower line.
"""

CACHED_KERNELS = (("engine", "session_loop._session_loop"), ("shoes", "compiled_deal._shuffle_shoes"))
"""The kernels (package folder, numba's cache name) that take longest to compile: cached, they are taken as all cached."""


def plays_compiled(strategy_rounds: float) -> bool:
    """Tell whether a run of about ``strategy_rounds`` rounds x strategies deals and plays with compiled kernels.

    From :func:`compiled_from` rounds when the kernels are cached (or the
    environment sets the line), else from :data:`COMPILED_COLD_FROM`.
    """
    line = compiled_from()
    if strategy_rounds < line:
        return False
    if os.environ.get(COMPILED_FROM_ENV) is not None or strategy_rounds >= COMPILED_COLD_FROM:
        return True
    return kernels_cached()


def kernels_cached() -> bool:
    """Tell whether numba's cache holds the kernels of :data:`CACHED_KERNELS`, written after their source.

    Looks for numba's index files without importing numba: in
    ``NUMBA_CACHE_DIR`` when set, else in the ``__pycache__`` beside each
    module, or where numba caches for a package it cannot write beside (the
    user's cache folder). An index older than its module's source (a
    reinstall since) counts as not cached.
    """
    package = Path(__file__).resolve().parent
    root = os.environ.get("NUMBA_CACHE_DIR")
    user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
    for folder, name in CACHED_KERNELS:
        source = package / folder / f"{name.split('.')[0]}.py"
        pattern = f"{name}-*.nbi"
        try:
            written = source.stat().st_mtime
            places = [Path(root)] if root else [source.parent / "__pycache__", user_cache]
            if not any(
                index.stat().st_mtime >= written
                for place in places
                for index in _indexes(place, pattern, deep=bool(root) or place == user_cache)
            ):
                return False
        except OSError:
            return False
    return True


def _indexes(place: Path, pattern: str, deep: bool) -> list[Path]:
    """numba's index files matching ``pattern`` in ``place`` (and below it, ``deep``); none when it is not there."""
    if not place.is_dir():
        return []
    return list(place.rglob(pattern) if deep else place.glob(pattern))


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
