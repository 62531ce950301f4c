"""A long real ``baccarat run`` in its own process group, for the tests that signal or kill it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LONG = (
    "name: long\nshoes: {seed: 3, count: 200000}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"
    "  - use: martingale\n    params: {side: player, unit: 10}\n  - use: labouchere\n    params: {side: banker, unit: 10}\n"
)


def start(folder: Path, *options: str) -> subprocess.Popen[str]:
    (folder / "long.yaml").write_text(LONG)
    code = "import sys; from baccarat.cli import main; sys.exit(main())"
    return subprocess.Popen(
        [sys.executable, "-c", code, "run", "long.yaml", "--out", "out", "--quiet", *options],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # not ignored, even from a background job


def wait_until_writing(folder: Path, process: subprocess.Popen[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        temporary = [p for p in folder.glob(".out.*") if p.is_dir()]
        if temporary and any(temporary[0].iterdir()):
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.kill()
    pytest.fail("the run never started writing")


def group_members(pgid: int) -> list[str]:
    """Processes still alive in the group (zombies waiting to be reaped are dead)."""
    found = subprocess.run(["ps", "-ww", "-eo", "pgid=,stat=,args="], capture_output=True, text=True).stdout.splitlines()
    return [line for line in found if line.split()[0] == str(pgid) and not line.split()[1].startswith("Z")]
