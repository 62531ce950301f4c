"""While a strategy plays, ``os._exit`` raises instead of ending the process without a word.

``os._exit`` ends a process at once: no ``finally``, no cleanup, no message,
and whatever status the plugin chose (0 looks like success). While plugin
code plays in the engine (:func:`exit_refused`), it raises
:class:`ExitRefused` instead, which the engine reports like any exception of
the strategy's: one line naming it, its file and line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


class ExitRefused(Exception):
    """A strategy called ``os._exit`` while it played."""


def _refuse(status: int = 0) -> None:
    raise ExitRefused(f"os._exit({status}) ends the process without cleaning up; raise an exception instead")


@contextmanager
def exit_refused() -> Iterator[None]:
    """Make ``os._exit`` raise :class:`ExitRefused` in the block (the strategies' play), and restore it after."""
    real = os._exit
    os._exit = _refuse
    try:
        yield
    finally:
        os._exit = real


__all__ = ["ExitRefused", "exit_refused"]
