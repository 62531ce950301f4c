"""Two commands into one run folder, and what a killed command left there: no user's file is ever lost.

Through the command line: ``report`` lists in the manifest only the files
it wrote (a file of the user's put there meanwhile is never adopted, so a
later ``--force`` refuses to delete it); ``run`` and ``report`` into the same
folder exclude each other, the second stopping at once with one line; and
what a command killed with ``kill -9`` left (its lock, a previous run being
removed, a results file being written) is cleaned by the next command
into the same place.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import baccarat.api
from baccarat.cli import main

EXPERIMENT = "shoes: {seed: 4, count: 3}\nstrategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
HOLD = (
    "import sys\nfrom baccarat.execution.folder_lock import folder_lock\n"
    "with folder_lock(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.read()\n"
)
"""A process that holds the lock of the folder it is given until its standard input closes."""


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    capsys.readouterr()
    return tmp_path


def everything(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<folder>") for p in sorted(folder.rglob("*"))}


def test_report_never_lists_a_file_put_in_the_folder_while_it_wrote(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = baccarat.api.write_results

    def meanwhile(*args: object, **kwargs: object) -> object:
        (work / "out" / "notes.txt").write_text("mine")
        return real(*args, **kwargs)

    monkeypatch.setattr(baccarat.api, "write_results", meanwhile)
    assert main(["report", "out", "--quiet"]) == 0
    listed = json.loads((work / "out" / "manifest.json").read_text())["files"]
    assert "notes.txt" not in listed and "summary.csv" in listed
    capsys.readouterr()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
    assert "holds a previous run and also notes.txt" in capsys.readouterr().err
    assert (work / "out" / "notes.txt").read_text() == "mine"


@pytest.fixture
def holder(work: Path):
    """A second process holding the run folder ``out``, as a command writing it does."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, "out"], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "held\n"
    yield process
    process.stdin.close()
    process.wait(timeout=60)


@pytest.mark.parametrize("command", [["report", "out", "--quiet"], ["run", "exp.yaml", "--out", "out", "--quiet", "--force"]])
def test_a_second_command_into_a_folder_being_written_stops_at_once_with_one_line(
    work: Path, holder: subprocess.Popen[str], command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = everything(work / "out")
    assert main(command) == 1
    out, err = capsys.readouterr()
    assert err == (
        f"baccarat: error: out: another baccarat command (process {holder.pid}) is writing this run folder; "
        "wait for it to finish, or choose another folder\n"
    )
    assert everything(work / "out") == before
    assert sorted(os.listdir(work)) == [".out.lock", "exp.yaml", "out"]  # the holder's lock only


@pytest.mark.slow
def test_a_command_killed_while_it_held_the_folder_leaves_nothing_in_the_way(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    process = subprocess.Popen([sys.executable, "-c", HOLD, "out"], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "held\n"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    assert (work / ".out.lock").is_file()  # the killed command's lock: the next command takes it over and removes it
    unfinished = work / f".out.new-{process.pid}-abcdefgh"  # the unfinished folder of a killed run
    (unfinished / "ledger.parquet").mkdir(parents=True)
    assert main(["report", "out", "--quiet"]) == 0
    assert f"found the unfinished folder {unfinished.name} of process {process.pid}" in capsys.readouterr().err
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0, capsys.readouterr().err
    assert sorted(os.listdir(work)) == ["exp.yaml", "out"]


@pytest.mark.slow
def test_a_previous_run_a_killed_command_moved_aside_is_never_deleted(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    aside = work / f".out.replaced-{dead}-abcdefgh"  # as a previous version moved a run aside: no proof that it is replaced
    aside.mkdir()
    shutil.copytree(work / "out", aside / "out")
    before = everything(aside)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    err = capsys.readouterr().err
    assert f"found {aside.name}, a previous run of out that process {dead} moved aside: left it there" in err
    assert everything(aside) == before
    shutil.rmtree(work / "out")
    assert main(["report", "out", "--quiet"]) == 0  # with the run folder gone, it is put back
    assert "put it back" in capsys.readouterr().err
    assert not aside.exists() and (work / "out" / "manifest.json").is_file()
