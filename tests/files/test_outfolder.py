"""Output that cannot be written: one line, exit status 1 (2 for a bad --out), and nothing half-written or lost.

Faults are real where that needs no privilege: a path under a regular file,
``/proc`` (refuses new folders even to root), a file-size limit set with
``RLIMIT_FSIZE`` in a child process (writes fail with EFBIG as on a full
disk); a full disk (ENOSPC) and a refused folder (EACCES, which root
bypasses) are simulated by making the writer fail.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from helpers.datasets import dataset_bytes

from baccarat.cli import main
from baccarat.files import outfolder

EXPERIMENT = "shoes: {seed: 4, count: 3}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"
LARGE = "shoes: {seed: 4, count: 400}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    return tmp_path


def names(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def run_limited(folder: Path, max_bytes: int, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the command in a child process whose files cannot grow beyond ``max_bytes``."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))

    code = "import sys; from baccarat.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=folder, capture_output=True, text=True, preexec_fn=limit)


def test_an_output_folder_under_a_file_is_refused_before_the_run(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "notes.txt").write_text("mine")
    assert main(["run", "exp.yaml", "--out", "notes.txt/run", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"baccarat: error: the output folder notes.txt/run cannot be made: {work / 'notes.txt'} is not a folder; choose another --out\n"
    )
    assert names(work) == ["exp.yaml", "notes.txt"]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_a_folder_that_refuses_new_folders_is_exit_1_before_the_run(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "/proc/baccarat-run", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("baccarat: error: the output folder /proc/baccarat-run cannot be made: /proc refuses new folders (")
    assert err.count("\n") == 1 and names(work) == ["exp.yaml"]


def test_a_folder_without_write_permission_is_exit_1(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*args: object, **kwargs: object) -> str:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(outfolder.tempfile, "mkdtemp", refused)
    assert main(["run", "exp.yaml", "--out", "runs/one", "--quiet"]) == 1
    assert capsys.readouterr().err == (
        "baccarat: error: the output folder runs/one cannot be made: "
        f"{work} refuses new folders (Permission denied (the folder cannot be written to)); "
        "choose another --out\n"
    )
    assert names(work) == ["exp.yaml"]


def test_a_full_disk_while_the_report_is_written_leaves_nothing(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import baccarat.results.report.analysis

    real = baccarat.results.report.analysis._write_atomic

    def full(path: Path, data: bytes) -> None:
        if path.name == "report.html":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(baccarat.results.report.analysis, "_write_atomic", full)
    assert main(["run", "exp.yaml", "--out", "deep/er/run", "--quiet"]) == 1
    assert capsys.readouterr().err == (
        "baccarat: error: deep/er/run: cannot write the results: No space left on device (the disk is full); nothing was left behind\n"
    )
    assert names(work) == ["exp.yaml"]  # the folders made for the run are gone too


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_files_that_outgrow_the_limit_end_the_run_with_one_line_and_nothing_left(tmp_path: Path) -> None:
    (tmp_path / "exp.yaml").write_text(LARGE)
    done = run_limited(tmp_path, 200_000, "run", "exp.yaml", "--out", "out", "--quiet")
    assert done.returncode == 1
    assert done.stderr == (
        "baccarat: error: out: cannot write the results: File too large "
        "(larger than this system allows a file to be); nothing was left behind\n"
    )
    assert names(tmp_path) == ["exp.yaml"]


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_shoe_file_that_cannot_be_finished_leaves_the_old_one(tmp_path: Path) -> None:
    (tmp_path / "shoes.txt").write_text("# the shoes of last week\n")
    done = run_limited(
        tmp_path,
        20_000,
        "shoes",
        "generate",
        "--rules",
        "punto-banco-8",
        "--count",
        "200",
        "--seed",
        "1",
        "--out",
        "shoes.txt",
        "--force",
        "--quiet",
    )
    assert done.returncode == 1
    assert done.stderr.startswith("baccarat: error: shoes.txt: cannot write the shoe file: File too large")
    assert done.stderr.count("\n") == 1
    assert names(tmp_path) == ["shoes.txt"] and (tmp_path / "shoes.txt").read_text() == "# the shoes of last week\n"


def test_a_device_or_pipe_is_never_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    assert main(["shoes", "generate", "--rules", "punto-banco-8", "--count", "1", "--seed", "1", "--out", "pipe", "--force"]) == 2
    assert "pipe is not a regular file" in capsys.readouterr().err
    assert (tmp_path / "pipe").exists() and not (tmp_path / "pipe").is_file()


def test_a_previous_run_is_replaced_whole_and_keeps_the_usual_permissions(work: Path) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    first = dataset_bytes(work / "out" / "ledger.parquet")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=5"]) == 0
    assert dataset_bytes(work / "out" / "ledger.parquet") != first
    assert sorted(os.listdir(work)) == ["exp.yaml", "out"]  # nothing hidden beside it
    mask = os.umask(0)
    os.umask(mask)
    assert (work / "out").stat().st_mode & 0o777 == 0o777 & ~mask


def test_a_previous_run_holding_the_users_files_is_not_replaced(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    (work / "out" / "notes.txt").write_text("mine")
    (work / "out" / "extra").mkdir()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
    assert capsys.readouterr().err == (
        "baccarat: error: the output folder out holds a previous run and also extra, notes.txt, "
        "which replacing the run would delete; move them or choose another --out\n"
    )
    assert (work / "out" / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_a_failure_while_swapping_in_the_new_run_puts_the_previous_one_back(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], exchange: bool
) -> None:
    from baccarat.execution import folder_commit

    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    files = [p for p in (work / "out").rglob("*") if p.is_file()]  # the ledger and rounds are folders of parts
    before = {str(p.relative_to(work)): p.read_bytes() for p in files}
    listed = names(work)
    real = os.rename

    def failing(*args: object) -> bool:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def failing_rename(src: object, dst: object) -> None:
        if Path(str(src)).name.startswith(".out.new-") and Path(str(dst)).name == "out":
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    if exchange:
        monkeypatch.setattr(folder_commit, "exchange", failing)
    else:
        monkeypatch.setenv(folder_commit.NO_EXCHANGE, "1")
        monkeypatch.setattr(folder_commit.os, "rename", failing_rename)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=9"]) == 1
    assert "out: cannot write the results: Input/output error" in capsys.readouterr().err
    assert {str(p.relative_to(work)): p.read_bytes() for p in (work / "out").rglob("*") if p.is_file()} == before
    assert names(work) == listed


def test_a_saved_run_whose_shoe_file_has_moved_still_rebuilds_its_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shoes = Path(__file__).resolve().parents[2] / "configs" / "shoes" / "sample-cards.txt"
    (tmp_path / "shoes.txt").write_bytes(shoes.read_bytes())
    (tmp_path / "exp.yaml").write_text("shoes: {source: recorded, path: shoes.txt, format: cards}\nstrategies:\n  - use: flat\n")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    exact = ["strategy", "sessions", "rounds", "wagered", "net", "final_bankroll_mean", "risk_of_ruin"]
    summary = pl.read_csv(tmp_path / "out" / "summary.csv").select(exact)
    (tmp_path / "shoes.txt").unlink()
    (tmp_path / "out" / "summary.csv").unlink()
    capsys.readouterr()
    assert main(["report", "out", "--quiet"]) == 0, capsys.readouterr().err
    assert pl.read_csv(tmp_path / "out" / "summary.csv").select(exact).equals(summary)
