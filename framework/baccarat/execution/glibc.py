"""glibc's allocator thresholds: a process that plays chunks keeps the memory it frees for the next chunk.

Every chunk allocates and frees the same large arrays; returning them to
the system and faulting them in again costs more system time than the
chunk's own work. Elsewhere than on glibc these functions do nothing.
"""

from __future__ import annotations

import functools

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
DEFAULT_THRESHOLD = 128 * 1024
"""glibc's default trim and mmap thresholds (bytes)."""


def _set_thresholds(mmap_threshold: int, trim_threshold: int, trim_now: bool = False) -> None:
    """Set glibc's allocator thresholds (bytes), and give freed memory back at once with ``trim_now``."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, mmap_threshold)
        libc.mallopt(M_TRIM_THRESHOLD, trim_threshold)
        if trim_now:
            libc.malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


@functools.cache
def keep_freed_memory() -> None:
    """Let this process's allocator keep freed memory for reuse (once per process)."""
    _set_thresholds(1 << 30, 1 << 30)


def release_freed_memory() -> None:
    """Give back to the system what this process freed and kept, and stop keeping it (glibc's defaults again)."""
    keep_freed_memory.cache_clear()
    _set_thresholds(DEFAULT_THRESHOLD, DEFAULT_THRESHOLD, trim_now=True)
