"""Running under an address-space limit (``ulimit -v``): less reserved up front, and one line when memory runs out.

Arrow's own allocator and glibc's per-thread arenas reserve address space
far beyond what they use (about 1 GB and 1 GB for a small run); under a
limit of a few GB that alone can exhaust it, and a native library that
cannot allocate aborts the process without a word. When the address space
is limited, :func:`fit_address_space_limit` (called before those libraries
load) makes them reserve only what they use. OpenBLAS (loaded by numba
when SciPy is installed) is kept to one thread: its thread buffers are
allocated in a loop that retries for ever when the allocation fails, so under
a tight limit the run would hang instead of saying that memory ran out; a run
needs no BLAS (its parallelism is its worker processes). Whatever still runs out is a
``MemoryError``, a thread that cannot start or a shared library that cannot be
mapped, which the command line reports
as one line (:func:`ran_out`, :func:`describe`).
"""

from __future__ import annotations

import os


def address_space_limit() -> int | None:
    """Return this process's address-space limit in bytes (``ulimit -v``), or None when there is none."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


M_ARENA_MAX = -8
"""glibc's ``mallopt`` option: the most malloc arenas (each reserves 64 MB of address space)."""


def fit_address_space_limit() -> None:
    """Under an address-space limit, make Arrow use the system allocator, glibc keep two arenas and OpenBLAS one thread.

    Each holds here and in worker processes; a value the user set is kept.

    Call it before pyarrow and polars are imported; without a limit it does nothing.
    """
    if address_space_limit() is None:
        return
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    os.environ.setdefault("MALLOC_ARENA_MAX", "2")  # read by worker processes when they start
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read when numba loads SciPy's OpenBLAS
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, 2)
    except (OSError, AttributeError):  # not glibc
        pass


def ran_out(exc: BaseException) -> bool:
    """Tell whether ``exc`` says that memory ran out.

    A ``MemoryError``; a thread that could not be given a stack; or a module
    whose shared library could not be mapped into memory (an import made
    late, numba loading its math on first use, under ``ulimit -v``).
    """
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, RuntimeError):
        return "can't start new thread" in str(exc)
    return isinstance(exc, ImportError) and "failed to map segment from shared object" in str(exc)


RUN_REMEDY = "nothing was written; run fewer shoes or strategies, fewer --workers, or allow more memory"
"""What a run that ran out of memory left, and what to change (``baccarat run``, ``baccarat.run``)."""

REMEDY = "allow more memory"
"""What to change when a command without a remedy of its own ran out of memory."""


def describe(remedy: str = RUN_REMEDY) -> str:
    """Return the one line that says memory ran out, with the limit when there is one, and ``remedy``: what the command can change."""
    limit = address_space_limit()
    within = f" within this process's limit of {limit / 2**30:.1f} GB of address space (ulimit -v)" if limit else ""
    return f"memory ran out{within}; {remedy}"
