"""One line on a terminal while numba compiles kernels, so that the first run after installing is not a silent wait.

Kernels are compiled on first use and cached on disk (beside the package),
so a run compiles only the kernels it calls, once; later runs load them.
numba reports each compilation that misses the cache as a ``numba:compile``
event: the first one in a process prints :data:`MESSAGE`.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

MESSAGE = "baccarat: compiling kernels, once after install"

_installed: list[Any] = []


def announce_compiling(stream: TextIO | None = None) -> None:
    """Print :data:`MESSAGE` on ``stream`` (stderr, a terminal) the first time numba compiles a kernel in this process."""
    if _installed:
        return
    from numba.core import event

    class Notice(event.Listener):
        said = False

        def on_start(self, _event: Any) -> None:
            if not self.said:
                self.said = True
                try:
                    # On a terminal, over the progress bar's line (which is drawn again below it).
                    print(f"\r\x1b[K{MESSAGE}", file=stream or sys.stderr, flush=True)
                except (OSError, ValueError):  # the terminal went away: the run goes on
                    pass

        def on_end(self, _event: Any) -> None:
            pass

    notice = Notice()
    event.register("numba:compile", notice)
    _installed.append(notice)
