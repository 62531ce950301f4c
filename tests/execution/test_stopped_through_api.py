"""Ctrl-C in a script's ``baccarat.run(...)`` while a strategy's code never returns: a KeyboardInterrupt, within seconds.

The Python API leaves the script's signal handlers alone: Python's own turns
Ctrl-C into a ``KeyboardInterrupt``, which reaches the script as for any
other Python code, once every ``finally`` on the way up has removed the
run's temporary folder and lock. The strategy's code plays in a player
process, here stuck in C code that holds the interpreter's lock (a
backtracking regular expression): the script's process, waiting for it,
kills it.

The plugin makes a folder once it is stuck, so each test signals a run known to be stuck.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.processes import group_members

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")

LOOPING = '''
import os
import re

from baccarat.plugin import Selector, hookimpl

FROM_SHOE = {from_shoe}


class Looping(Selector):
    """Banker always; from shoe FROM_SHOE it never returns (C code holding the interpreter's lock)."""

    name = "looping"

    def choose(self, view):
        if view.shoe >= FROM_SHOE:
            os.makedirs("looping", exist_ok=True)  # tells the test the strategy is stuck
            re.match(r"(a+)+$", "a" * 64 + "b")
        return "banker"


@hookimpl
def register_selectors(register):
    register(Looping)
'''

SCRIPT = """
import sys

import baccarat

if __name__ == "__main__":
    experiment = {
        "name": "stuck",
        "shoes": {"seed": 3, "count": 20000},  # four chunks
        "plugins_dir": "plugins",
        "strategies": [{"use": "flat", "params": {"side": "looping", "unit": 10}}],
    }
    try:
        baccarat.run(experiment, out="out", workers=int(sys.argv[1]))
    except KeyboardInterrupt:
        print("the script caught KeyboardInterrupt", flush=True)
        raise
    print("the run ended", flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("from_shoe", "workers"),
    [
        (1, 1),  # in the sample shoe tried before the run: its player waited for by the script's process
        (40, 1),  # in the chunks the script's process deals
        (40, 2),  # in the worker processes' players, while the script's process waits for them
    ],
)
def test_ctrl_c_in_a_script_stops_a_strategy_that_never_returns(tmp_path: Path, from_shoe: int, workers: int) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "looping.py").write_text(LOOPING.replace("{from_shoe}", str(from_shoe)))
    (tmp_path / "script.py").write_text(SCRIPT)
    process = subprocess.Popen(
        [sys.executable, "script.py", str(workers)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored, even from a background job
    )
    try:
        deadline = time.monotonic() + 180
        while not (tmp_path / "looping").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the strategy never got stuck"
            time.sleep(0.05)
        time.sleep(0.5)  # well inside the loop
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole group
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert out == "the script caught KeyboardInterrupt\n", err
    assert process.returncode == -signal.SIGINT, err  # Python's own end for an uncaught KeyboardInterrupt
    assert err.rstrip("\n").splitlines()[-1] == "KeyboardInterrupt", err
    assert "baccarat: warning" not in err, err  # the player was killed: nothing of it goes on
    assert took < 15, f"took {took:.1f} s to stop"  # measured: under 1 s on a loaded machine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["looping", "plugins", "script.py"]  # no temporary folder, no lock
    deadline = time.monotonic() + 10
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker left looping
