"""Plugin code cannot make a run unstoppable or keep it from ending (``python -m baccarat``, the real command).

A compiled twin that loops forever never returns to the interpreter, where
signal handlers run: Ctrl-C, SIGTERM and SIGHUP still stop the run within
seconds (the stop watchdog of baccarat.interrupts), with the usual line and
status and nothing left behind. A plugin that ignores the stop signals at
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
from helpers.processes import group_members

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")

FOREVER = '''
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, SelectorTwin


class Forever(Selector):
    """Banker always; its compiled twin never returns."""

    name = "forever"

    def choose(self, view):
        with open("played", "a") as marker:  # the reference plays: the twin comes after, in the parity check
            marker.write("x")
        return "banker"


def forever(view, history, state, params, rng):
    n = 1
    while n > 0:
        n = (n * 3 + 1) % 1000003 + 1
    return BANKER


@hookimpl
def register_selectors(register):
    register(Forever)


@hookimpl
def register_twins(register):
    register(Forever, SelectorTwin(forever))
'''

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


def wait_until_the_twin_plays(folder: Path, process: subprocess.Popen[str], seconds: float = 120) -> None:
    """Wait until the reference has played (the marker grew) and then stopped growing for a second: the twin runs."""
    marker = folder / "played"
    deadline = time.monotonic() + seconds
    size, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        now = marker.stat().st_size if marker.exists() else -1
        if now != size:
            size, since = now, time.monotonic()
        elif size > 0 and time.monotonic() - since > 1.0:
            return
        time.sleep(0.05)
    pytest.fail("the twin never started")


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
@pytest.mark.parametrize(
    ("signum", "to_group", "workers"),
    [(signal.SIGINT, True, "1"), (signal.SIGTERM, False, "1"), (signal.SIGHUP, False, "1"), (signal.SIGTERM, False, "2")],
)
def test_a_twin_that_never_returns_is_stopped_by_a_signal(tmp_path: Path, signum: int, to_group: bool, workers: str) -> None:
    process = start(tmp_path, FOREVER, "forever", 2000, "--workers", workers, env={"BACCARAT_COMPILED_FROM": "0"})
    try:
        wait_until_the_twin_plays(tmp_path, process)
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    out, err, took = stopped(process, signum, to_group)
    name = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    assert (process.returncode, err, out) == (128 + signum, f"baccarat: interrupted ({name})\n", "")
    assert took < 15, f"took {took:.1f} s to stop"  # the watchdog acts after 2 s without a check point
    assert sorted(p.name for p in tmp_path.iterdir()) == ["played", "plugins", "stuck.yaml"]  # nothing half-written
    deadline = time.monotonic() + 5
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker left looping


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
def test_a_strategy_that_ignores_sigterm_while_it_plays_is_refused_in_one_line(tmp_path: Path) -> None:
    """A plain-Python strategy plays on a thread of its own, where the stop handlers cannot be changed.

    Its attempt to ignore SIGTERM is the strategy's failure, named with its file and line before the run starts,
    and nothing is written.
    """
    (tmp_path / "plugins").mkdir()
    plugin = tmp_path / "plugins" / "deaf_later.py"
    plugin.write_text(DEAF_LATER)
    (tmp_path / "stuck.yaml").write_text(EXPERIMENT.format(count=200, side="deaf-later"))
    done = subprocess.run(
        [sys.executable, "-c", SMALL_CHUNKS, "run", "stuck.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = DEAF_LATER.splitlines().index("            DEAF.append(signal.signal(signal.SIGTERM, signal.SIG_IGN))") + 1
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "strategy 'flat' raised ValueError: signal only works in main thread" in done.stderr
    assert f"{plugin.resolve()}:{line}" in done.stderr or f"{plugin}:{line}" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plugins", "stuck.yaml"]
