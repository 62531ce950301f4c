"""The ``baccarat`` command's quick exit: output flushed, exit handlers run, status kept."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CONSOLE = (
    "import atexit, sys\n"
    "from baccarat import cli\n"
    "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
    "sys.argv = ['baccarat', *sys.argv[1:]]\n"
    "cli.console()\n"
)


def console(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CONSOLE, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_the_output_is_complete_and_the_exit_handlers_run() -> None:
    done = console("odds", "--json", "--decks", "8")
    assert done.returncode == 0
    odds = json.loads(done.stdout)  # every byte written reached the reader
    assert round(odds["house_edge"]["banker"], 6) == 0.010579
    assert done.stderr == "exit handler ran\n"


def test_an_error_keeps_its_status_and_its_one_line() -> None:
    done = console("odds", "--decks", "0")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("baccarat odds: error: argument --decks: ") and lines[1] == "exit handler ran"


def test_python_dash_m_ends_with_the_command_status() -> None:
    done = subprocess.run([sys.executable, "-m", "baccarat", "run", "no-such-file.yaml"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("baccarat: error: no-such-file.yaml") and done.stderr.count("\n") == 1
