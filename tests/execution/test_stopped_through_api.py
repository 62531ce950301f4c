"""Ctrl-C in a script's ``baccarat.run(...)`` while a compiled twin never returns: a KeyboardInterrupt, within seconds.

The Python API leaves the script's signal handlers alone: Python's own turns
Ctrl-C into a ``KeyboardInterrupt``, which reaches the script as for any
other Python code, once every ``finally`` on the way up has removed the
run's temporary folder and lock. Compiled code never comes back to the
interpreter, where Python runs signal handlers, so it plays on a thread of
its own while the main thread waits (:func:`baccarat.interrupts.call_stoppably`);
it cannot be ended inside the process, and one line on stderr says it runs
on until the process ends.

The plugin's twin makes a folder (through the C library, from compiled code)
once it loops, so each test signals a run known to be stuck in compiled code.
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
import ctypes
import os

import numpy as np

from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, SHOE, SelectorTwin

_libc = ctypes.CDLL(None)
_mkdir = _libc.mkdir
_mkdir.argtypes, _mkdir.restype = [ctypes.c_void_p, ctypes.c_uint], ctypes.c_int
_PATH = np.frombuffer(os.fsencode(os.path.abspath("looping")) + b"\\0", dtype=np.uint8).copy()
_ADDRESS = _PATH.ctypes.data
FROM_SHOE = {from_shoe}


class Looping(Selector):
    """Banker always; its compiled twin never returns once it reaches shoe FROM_SHOE."""

    name = "looping"

    def choose(self, view):
        return "banker"


def looping(view, history, state, params, rng):
    if view[SHOE] >= FROM_SHOE:
        _mkdir(_ADDRESS, 0o700)  # tells the test the twin loops
        n = 1
        while n > 0:
            n = (n * 3 + 1) % 1000003 + 1
    return BANKER


@hookimpl
def register_selectors(register):
    register(Looping)


@hookimpl
def register_twins(register):
    register(Looping, SelectorTwin(looping))
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
        (1, 1),  # the twin loops in the parity check before the run, in the script's process
        (40, 1),  # past the parity check's shoes: in the chunks the script's process plays
        (40, 2),  # in the worker processes, while the script's process waits for them
    ],
)
def test_ctrl_c_in_a_script_stops_a_twin_that_never_returns(tmp_path: Path, from_shoe: int, workers: int) -> None:
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
        env={**os.environ, "BACCARAT_COMPILED_FROM": "0"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored, even from a background job
    )
    try:
        deadline = time.monotonic() + 180  # compiling the twin takes seconds, many more on a loaded machine
        while not (tmp_path / "looping").exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the twin never looped"
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
    if workers == 1:  # the script's own thread was left looping: one line says so
        assert "baccarat: warning: stopped while the compiled twin of strategy 'flat' ran" in err, err
    else:  # the workers are stopped by the script's process: nothing of theirs loops on
        assert "baccarat: warning" not in err, err
    assert took < 15, f"took {took:.1f} s to stop"  # measured: under 1 s on a loaded machine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["looping", "plugins", "script.py"]  # no temporary folder, no lock
    deadline = time.monotonic() + 10
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker left looping
