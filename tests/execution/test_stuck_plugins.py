"""Plugin code cannot make a run unstoppable or keep it from ending (``python -m baccarat``, the real command).

(A strategy whose code never returns to the interpreter is stopped by
killing its player: tests/commands/test_player_boundary.py.) A plugin that ignores the stop signals at
import does not take them from the command, and a thread a plugin starts
does not keep the process alive once the work is done.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


DEAF = '''
import signal
import threading
import time

from baccarat.plugin import Selector, hookimpl

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
threading.Thread(target=time.sleep, args=(3600,), name="a plugin's own thread").start()  # not a daemon


class Deaf(Selector):
    """Banker always."""

    name = "deaf"

    def choose(self, view):
        return "banker"


@hookimpl
def register_selectors(register):
    register(Deaf)
'''

EXPERIMENT = "name: stuck\nshoes: {{seed: 3, count: {count}}}\nstrategies:\n  - use: flat\n    params: {{side: {side}, unit: 10}}\n"


def start(folder: Path, plugin: str, side: str, count: int, *options: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    (folder / "plugins").mkdir()
    (folder / "plugins" / f"{side}.py").write_text(plugin)
    (folder / "stuck.yaml").write_text(EXPERIMENT.format(count=count, side=side))
    return subprocess.Popen(
        [sys.executable, "-m", "baccarat", "run", "stuck.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet", *options],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, **(env or {})},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def stopped(process: subprocess.Popen[str], signum: int, to_group: bool) -> tuple[str, str, float]:
    sent = time.monotonic()
    (os.killpg if to_group else os.kill)(process.pid, signum)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return out, err, time.monotonic() - sent


@pytest.mark.slow
def test_a_plugin_that_ignores_the_stop_signals_does_not_make_the_run_unstoppable(tmp_path: Path) -> None:
    process = start(tmp_path, DEAF, "deaf", 200000, "--workers", "1")
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".out.*")) and time.monotonic() < deadline:  # the plugin is loaded: the run writes
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    out, err, took = stopped(process, signal.SIGTERM, False)
    assert (process.returncode, err, out) == (143, "baccarat: interrupted (SIGTERM)\n", "")
    assert took < 15, f"took {took:.1f} s to stop"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plugins", "stuck.yaml"]


@pytest.mark.slow
def test_a_thread_a_plugin_started_does_not_keep_the_finished_run_alive(tmp_path: Path) -> None:
    process = start(tmp_path, DEAF, "deaf", 20, "--workers", "1")
    try:
        out, err = process.communicate(timeout=120)  # the plugin's thread sleeps for an hour
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert "-> out" in out and (tmp_path / "out" / "summary.csv").is_file()


DEAF_LATER = '''
import signal

from baccarat.plugin import Selector, hookimpl


DEAF = []


class DeafLater(Selector):
    """Banker always; the first time it plays, it ignores SIGTERM from then on."""

    name = "deaf-later"

    def choose(self, view):
        if not DEAF:
            DEAF.append(signal.signal(signal.SIGTERM, signal.SIG_IGN))
        return "banker"


@hookimpl
def register_selectors(register):
    register(DeafLater)
'''

SMALL_CHUNKS = (
    "import sys; from baccarat.execution import chunks; from baccarat.cli import main; chunks.LEDGER_ROWS_PER_CHUNK = 900; sys.exit(main())"
)


@pytest.mark.slow
def test_a_strategy_that_ignores_sigterm_while_it_plays_changes_only_its_own_player(tmp_path: Path) -> None:
    """A strategy's code runs in a player process: the stop handlers it changes there are its player's, not the run's.

    The run plays to its end (the dealer kills the player when it is done with it), and a stop still stops it.
    """
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "deaf_later.py").write_text(DEAF_LATER)
    (tmp_path / "stuck.yaml").write_text(EXPERIMENT.format(count=200, side="deaf-later"))
    done = subprocess.run(
        [sys.executable, "-c", SMALL_CHUNKS, "run", "stuck.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "summary.csv").is_file()
    (tmp_path / "again").mkdir()
    process = start(tmp_path / "again", DEAF_LATER, "deaf-later", 200000, "--workers", "1")
    try:
        deadline = time.monotonic() + 120
        while not list((tmp_path / "again").glob(".out.*")) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        time.sleep(1.0)  # its players play: each has set SIGTERM aside
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    out, err, took = stopped(process, signal.SIGTERM, False)
    assert (process.returncode, err, out) == (143, "baccarat: interrupted (SIGTERM)\n", "")
    assert took < 15, f"took {took:.1f} s to stop"
