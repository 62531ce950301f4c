"""The reaper of a local Ray: ends its processes when the process that started it is gone, however it went.

Run as a script (``python -I ray_reaper.py PID``, no import of the package)
by :class:`~baccarat.execution.ray_tasks.RayTasks` before it starts a local
Ray. Ray's GCS server and raylet end with the process that started them,
but the raylet's own children (the dashboard and runtime-env agents, the
workers) outlive a ``kill -9`` of that process by about a minute, waiting
for the GCS to answer. This reaper notes, twice a second, the Ray processes
that descend from ``PID`` and appeared after it started; when its standard
input closes (``PID`` ended, or shut Ray down) it kills those still alive.
Linux only (it reads ``/proc``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

SCAN_SECONDS = 0.5


def process_table() -> dict[int, tuple[int, int]]:
    """Return each process's parent and start time (clock ticks since boot), by process id."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            table[int(name)] = (int(fields[1]), int(fields[19]))
    return table


def is_ray(pid: int) -> bool:
    """Tell whether ``pid`` runs Ray (its command line names it)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"ray" in cmdline.read()
    except OSError:
        return False


def main(parent: int) -> None:
    """Note the Ray processes under ``parent`` until standard input closes, then kill those still alive."""
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # a terminal's Ctrl-C reaches the whole group: the run stops Ray itself
    before = set(process_table())
    noted: dict[int, int] = {}
    closed = threading.Event()

    def wait_for_eof() -> None:
        sys.stdin.buffer.read()
        closed.set()

    threading.Thread(target=wait_for_eof, daemon=True).start()
    while not closed.wait(SCAN_SECONDS):
        table = process_table()
        under = {parent}
        for pid in sorted(table, key=lambda pid: table[pid][1]):  # parents start before their children
            if table[pid][0] in under:
                under.add(pid)
                if pid not in before and pid not in noted and pid != os.getpid() and is_ray(pid):
                    noted[pid] = table[pid][1]
    table = process_table()
    for pid, started in noted.items():
        if pid in table and table[pid][1] == started:  # the same process, not a new one with its number
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


if __name__ == "__main__":
    main(int(sys.argv[1]))
