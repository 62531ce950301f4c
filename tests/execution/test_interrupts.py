"""Ctrl-C, SIGTERM and SIGHUP during a real ``baccarat run``: a quick stop, one line, exit 128+N, nothing left behind.

Each test starts the command in its own process group, waits until the run
has started writing (its temporary folder beside the output folder holds a
file), sends the signal, and checks the exit status, stderr, the time it
took, and that neither the output folder nor any temporary file nor any
worker process is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.processes import LONG, group_members, start, wait_until_writing

from baccarat import interrupts

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signum", "to_group", "workers"),
    [
        (signal.SIGINT, True, ("--executor", "processes", "--workers", "2")),  # Ctrl-C in a terminal: the whole group, workers included
        (signal.SIGTERM, False, ("--executor", "processes", "--workers", "2")),  # kill PID, or a job scheduler
        (signal.SIGINT, True, ("--workers", "2")),  # built-in compiled strategies: worker threads
        (signal.SIGTERM, False, ("--workers", "2")),
        (signal.SIGINT, True, ("--workers", "1")),
        (signal.SIGTERM, True, ("--workers", "1")),
        (signal.SIGHUP, False, ("--workers", "1")),  # the terminal closed
    ],
)
def test_a_signal_stops_the_run_cleanly(tmp_path: Path, signum: int, to_group: bool, workers: tuple[str, ...]) -> None:
    process = start(tmp_path, *workers)
    try:
        wait_until_writing(tmp_path, process)
        sent = time.monotonic()
        (os.killpg if to_group else os.kill)(process.pid, signum)
        out, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 128 + signum
    assert err == f"baccarat: {interrupts.Interrupted(signum)}\n"
    assert out == ""
    assert took < 5, f"took {took:.1f} s to stop"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.yaml"]  # no output folder, no temporary folder
    deadline = time.monotonic() + 5
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker left running


@pytest.mark.slow
def test_ctrl_c_before_any_writing_leaves_nothing_either(tmp_path: Path) -> None:
    process = start(tmp_path, "--executor", "processes", "--workers", "2")
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".out.*")) and time.monotonic() < deadline:
            time.sleep(0.005)
        os.killpg(process.pid, signal.SIGINT)  # while the workers are being started
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert (process.returncode, err) == (130, "baccarat: interrupted (Ctrl-C)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.yaml"]


def test_the_handlers_are_put_back_after_a_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from baccarat.cli import main

    before = {s: signal.getsignal(s) for s in interrupts.STOP_SIGNALS}
    monkeypatch.chdir(tmp_path)
    assert main(["strategies", "--json"]) == 0
    assert {s: signal.getsignal(s) for s in interrupts.STOP_SIGNALS} == before


def test_an_interrupt_while_workers_start_is_held_then_acted_on() -> None:
    with pytest.raises(interrupts.Interrupted) as info, interrupts.stop_on_signals():
        with interrupts.starting_workers():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler has run, and held the signal
            reached = True
        pytest.fail("the held signal was not acted on")
    assert reached and info.value.signum == signal.SIGTERM and info.value.exit_status == 143


@pytest.mark.slow
def test_a_worker_that_dies_ends_the_run_with_one_line_and_nothing_left(tmp_path: Path) -> None:
    process = start(tmp_path, "--executor", "processes", "--workers", "2")
    try:
        wait_until_writing(tmp_path, process)
        workers: list[int] = []
        deadline = time.monotonic() + 30
        while not workers and time.monotonic() < deadline:
            children = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout
            workers = [int(line.split()[0]) for line in children.splitlines() if "spawn_main" in line]
            time.sleep(0.05)
        time.sleep(0.5)  # at work on a chunk
        os.kill(workers[0], signal.SIGKILL)  # as the kernel does to a process out of memory
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 1
    assert err == (
        "baccarat: error: a worker process stopped abruptly (killed, or out of memory); the run was abandoned "
        "and nothing was written; try again, with fewer --workers if memory is short\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.yaml"]


SIGNAL_WHILE_A_WORKER_STARTS = """
import os, signal, sys
from multiprocessing import process
from baccarat.cli import main
original, started = process.BaseProcess.start, []
def start(self):  # the moment the run starts a worker process
    started.append(self)
    if len(started) == {which} and {before}:
        os.kill(os.getpid(), signal.SIGTERM)
    original(self)
    if len(started) == {which} and not {before}:
        os.kill(os.getpid(), signal.SIGTERM)
process.BaseProcess.start = start
sys.exit(main())
"""


@pytest.mark.slow
@pytest.mark.parametrize(("which", "before"), [(1, True), (2, False)])
def test_a_signal_while_the_workers_start_leaves_none_and_says_one_line(tmp_path: Path, which: int, before: bool) -> None:
    (tmp_path / "short.yaml").write_text(LONG.replace("200000", "20000"))
    semaphores = set(Path("/dev/shm").glob("sem.mp-*")) if Path("/dev/shm").is_dir() else set()
    code = SIGNAL_WHILE_A_WORKER_STARTS.format(which=which, before=before)
    process = subprocess.Popen(
        [sys.executable, "-c", code, "run", "short.yaml", "--out", "out", "--quiet", "--executor", "processes", "--workers", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert (process.returncode, err) == (143, "baccarat: interrupted (SIGTERM)\n")
    if Path("/dev/shm").is_dir():
        assert set(Path("/dev/shm").glob("sem.mp-*")) <= semaphores  # no named semaphore left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.yaml"]
    deadline = time.monotonic() + 5
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker left running


WATCHDOG = """
import os, signal, sys, time
from pathlib import Path
from baccarat import interrupts

interrupts.CHECK_POINT_SECONDS = 0.2
temporary = Path(sys.argv[1])
temporary.mkdir()
(temporary / "part").write_text("half")
try:
    with interrupts.stop_on_signals():
        with interrupts.held():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1.0)  # five times the watchdog's wait: a held block is never cut
            print("the held block ended", flush=True)
        print("not reached", flush=True)
except interrupts.Interrupted as exc:
    print("raised at its end:", exc.exit_status, flush=True)
with interrupts.stop_on_signals():
    interrupts.remove_at_hard_stop(temporary)
    os.kill(os.getpid(), signal.SIGHUP)
    while True:  # no check point ever: the watchdog ends the process
        time.sleep(0.05)
"""


@pytest.mark.slow
def test_the_watchdog_waits_for_a_held_block_and_ends_code_that_reaches_no_check_point(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WATCHDOG, str(tmp_path / "tmp")], capture_output=True, text=True, timeout=60)
    assert done.stdout == "the held block ended\nraised at its end: 143\n"
    assert (done.returncode, done.stderr) == (129, "baccarat: interrupted (SIGHUP)\n")
    assert list(tmp_path.iterdir()) == []  # the registered temporary folder was removed
