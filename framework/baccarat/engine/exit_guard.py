"""While a strategy plays, ``os._exit`` raises instead of ending the process without a word.

``os._exit`` ends a process at once: no ``finally``, no cleanup, no message,
and whatever status the plugin chose (0 looks like success). While plugin
code plays in the engine (:func:`exit_refused`), it raises
:class:`ExitRefused` instead, which the engine reports like any exception of
the strategy's: one line naming it, its file and line. The working folder
a strategy changes while it plays (``os.chdir``) is put back when it has
played, as after a plugin's import: the run's files (its temporary folder,
a recorded shoe file) are named relative to it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager


class ExitRefused(Exception):
    """A strategy called ``os._exit`` while it played."""


def _refuse(status: int = 0) -> None:
    raise ExitRefused(f"os._exit({status}) ends the process without cleaning up; raise an exception instead")


@contextmanager
def exit_refused() -> Iterator[None]:
    """Make ``os._exit`` raise :class:`ExitRefused` in the block (the strategies' play), and restore it after.

    The working folder is put back too, should the block's code have changed it.
    """
    real = os._exit
    os._exit = _refuse
    try:
        here = os.getcwd()
    except OSError:  # the working folder was removed: nothing to put back
        here = None
    try:
        yield
    finally:
        os._exit = real
        if here is not None:
            with contextlib.suppress(OSError):  # a folder since removed is left as it is
                if os.getcwd() != here:
                    os.chdir(here)


__all__ = ["ExitRefused", "exit_refused"]
