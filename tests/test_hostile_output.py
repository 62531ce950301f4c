"""Output that cannot go where it is sent, and names the file system cannot hold: one line, the promised status.

Through the ``baccarat`` command in a child process where the fault needs a
real process: standard output sent to ``/dev/full`` (every write fails with
ENOSPC) in every command, or closed (``>&-``). Names: an experiment name of
240 characters makes a default folder name that fits; an ``--out`` name
without room for the temporary name beside it is refused before the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from baccarat.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHOES = ROOT / "configs" / "shoes" / "sample-cards.txt"
EXPERIMENT = "shoes: {seed: 4, count: 3}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"
FULL = "baccarat: error: cannot write to standard output: No space left on device (the disk is full)"


def command(folder: Path, *args: str, stdout: object = None, close_stdout: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``baccarat ARGS`` in ``folder`` as a user would (``python -m baccarat``)."""
    return subprocess.run(
        [sys.executable, "-m", "baccarat", *args],
        cwd=folder,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        preexec_fn=(lambda: os.close(1)) if close_stdout else None,
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("hostile-output")
    (here / "exp.yaml").write_text(EXPERIMENT)
    assert command(here, "run", "exp.yaml", "--out", "saved", "--quiet", stdout=subprocess.DEVNULL).returncode == 0
    return here


COMMANDS = {
    "odds": (["odds"], ""),
    "odds --json": (["odds", "--json"], ""),
    "strategies": (["strategies"], ""),
    "strategies --json": (["strategies", "--json"], ""),
    "--help": (["--help"], ""),
    "shoes check": (["shoes", "check", str(SHOES), "--format", "cards"], ""),
    "shoes generate": (
        ["shoes", "generate", "--rules", "punto-banco-8", "--count", "2", "--seed", "1", "--out", "gen.txt", "--quiet", "--force"],
        "; the shoes are in gen.txt",
    ),
    "roads": (["roads", str(SHOES), "--format", "cards", "--out", "roads.png", "--force"], "; the roads are drawn in roads.png"),
    "report": (["report", "saved"], "; the report is in saved/report.html"),
    "run": (["run", "exp.yaml", "--out", "fresh", "--quiet"], "; the results are in fresh"),
}


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("name", list(COMMANDS))
def test_standard_output_to_a_full_device_is_one_line_and_status_1(name: str, folder: Path) -> None:
    args, written = COMMANDS[name]
    with open("/dev/full", "w") as full:
        done = command(folder, *args, stdout=full)
    assert done.returncode == 1
    assert done.stderr == FULL + written + "\n"


@pytest.mark.slow
def test_the_files_of_a_command_whose_output_is_full_are_whole(folder: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full (Linux)")
    with open("/dev/full", "w") as full:
        assert command(folder, "run", "exp.yaml", "--out", "whole", "--quiet", stdout=full).returncode == 1
    assert command(folder, "report", "whole", "--quiet", stdout=subprocess.DEVNULL).returncode == 0  # intact, by its manifest


@pytest.mark.slow
def test_a_run_with_standard_output_closed_is_refused_before_any_work(folder: Path) -> None:
    done = command(folder, "run", "exp.yaml", "--out", "closed", "--quiet", close_stdout=True)
    assert done.returncode == 2
    assert done.stderr == "baccarat: error: standard output is closed; send it somewhere (for example > /dev/null)\n"
    assert not (folder / "closed").exists()
    assert not [p for p in folder.iterdir() if p.name.startswith(".closed")]


@pytest.mark.slow
def test_a_240_character_experiment_name_gets_a_default_folder_that_fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "long.yaml").write_text(f"name: {'x' * 240}\n" + EXPERIMENT)
    assert main(["run", "long.yaml", "--quiet"]) == 0
    [made] = (tmp_path / "results").iterdir()
    assert made.name.startswith("x" * 100 + "-") and not made.name.startswith("x" * 101)
    assert (made / "report.html").is_file()


def test_an_out_name_without_room_for_its_temporary_name_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    assert main(["run", "exp.yaml", "--out", "é" * 120, "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"baccarat: error: the name {'é' * 40 + '...'!r} of --out is 240 bytes long; it may have at most 223 bytes "
        "(the file system allows 255, and the temporary name the output is written under is longer); choose a shorter --out\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["exp.yaml"]
