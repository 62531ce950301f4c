"""A compiled twin that crashes the process ends it with one line naming the strategy, not a silent exit 139.

Compiled code that writes or reads far outside its arrays (a helper compiled
without bounds checks, say) is stopped by the operating system with a
segmentation fault, which no Python code can catch. While a strategy's twin
plays (:func:`crash_names`), a handler compiled by numba (so that it runs
without the interpreter) writes one prepared line naming the strategy to
standard error and ends the process with status 1. The temporary folder of
the run is left behind; the next run into the same ``--out`` removes it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

CRASH_STATUS = 1
"""Exit status of a process a twin crashed."""

_message = np.zeros(2048, dtype=np.uint8)
"""The line the handler writes, NUL-terminated: set before each strategy's twin plays."""

_once = np.zeros(4096, dtype=np.uint8)
"""A path, NUL-terminated, or empty: set by :func:`one_line_among_processes` in processes that share a run."""

_handler: list[Any] = []
_libc: list[Any] = []


def _compiled_handler() -> tuple[Any, Any]:
    """Return libc and the handler (compiled once per process, cached on disk)."""
    if not _handler:
        import numba

        libc = ctypes.CDLL(None)
        write, strlen, end = libc.write, libc.strlen, libc._exit
        write.argtypes, write.restype = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t], ctypes.c_ssize_t
        strlen.argtypes, strlen.restype = [ctypes.c_void_p], ctypes.c_size_t
        end.argtypes, end.restype = [ctypes.c_int], None
        mkdir = libc.mkdir
        mkdir.argtypes, mkdir.restype = [ctypes.c_void_p, ctypes.c_uint], ctypes.c_int
        libc.signal.argtypes, libc.signal.restype = [ctypes.c_int, ctypes.c_void_p], ctypes.c_void_p
        address, once = _message.ctypes.data, _once.ctypes.data

        def on_fault(signum):  # async-signal-safe: write(2), mkdir(2) and _exit(2) only
            if strlen(once) == 0 or mkdir(once, 0o700) == 0:  # the first process of the run to crash says it
                write(2, address, strlen(address))
            end(CRASH_STATUS)

        _handler.append(numba.cfunc(numba.types.void(numba.types.int32))(on_fault))
        _libc.append(libc)
    return _libc[0], _handler[0]


def one_line_among_processes(mark: str) -> None:
    """Make a crash of this process write its line only if no other process of the run wrote one.

    The processes of a run (its workers) are given the same ``mark``, a path
    that does not exist: the handler creates it as a directory (atomic), and
    a process that finds it there already ends without a line. The process
    that started them removes it once they have ended.
    """
    data = os.fsencode(mark)[: len(_once) - 1]
    _once[:] = 0
    _once[: len(data)] = np.frombuffer(data, dtype=np.uint8)


@functools.cache
def built_in_packages() -> tuple[str, ...]:
    """The top-level packages of baccarat and of its built-in plugin library: their twins are not guarded.

    The handler costs a compilation of about a second per process, paid only
    when a plugin's own compiled code plays.
    """
    from importlib.metadata import entry_points

    from baccarat.plugin.manager import BUILT_IN_DISTRIBUTION, ENTRY_POINT_GROUP

    found = {"baccarat"}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.dist is not None and ep.dist.metadata["Name"] == BUILT_IN_DISTRIBUTION:
            found.add(ep.module.split(".")[0])
    return tuple(sorted(found))


def from_plugin(code: Any) -> bool:
    """Tell whether a function or class comes from a plugin, not from baccarat or its built-in plugin library."""
    return str(getattr(code, "__module__", "")).split(".")[0] not in built_in_packages()


def twin_has_plugin_code(twin: Any) -> bool:
    """Tell whether any function of a :class:`~baccarat.engine.strategy_twin.Twin` comes from a plugin, not from baccarat itself."""
    functions = [twin.progression.restart, twin.progression.won, twin.progression.lost, twin.selector.choose]
    functions += [rule.stop for rule in twin.stops]
    return any(from_plugin(f) for f in functions)


@contextmanager
def crash_names(label: str, twin: Any) -> Iterator[None]:
    """While the block runs, a segmentation fault (or bus error) ends the process with one line naming strategy ``label``.

    Only a twin with a plugin's code in it is guarded (:func:`twin_has_plugin_code`).
    """
    if not twin_has_plugin_code(twin):
        yield
        return
    try:
        libc, handler = _compiled_handler()
    except (OSError, AttributeError):  # no C library to call (not a POSIX system): the default behaviour stays
        yield
        return
    line = (
        f"baccarat: error: strategy {label!r} crashed the process: its compiled twin (or a helper it calls) wrote or read "
        "outside its arrays (a segmentation fault); fix the twin, or run with BACCARAT_NO_COMPILED_PATH=1; the run was "
        "abandoned, and the next run into the same --out removes what it left\n"
    ).encode("utf-8", "replace")[: len(_message) - 1]
    _message[:] = 0
    _message[: len(line)] = np.frombuffer(line, dtype=np.uint8)
    faults = [s for s in (signal.SIGSEGV, getattr(signal, "SIGBUS", None)) if s is not None]
    previous = [libc.signal(int(s), handler.address) for s in faults]
    try:
        yield
    finally:
        for s, before in zip(faults, previous, strict=True):
            libc.signal(int(s), before)


__all__ = ["CRASH_STATUS", "crash_names", "one_line_among_processes"]
