"""Every mistake in tests/bad_inputs/: the real command line answers it with its one stored line, exit 2, nothing written.

Each input file there holds one mistake a user makes in an experiment or a
shoe file; ``NAME.expected`` beside it holds the exact line the command must
print (``stderr:``), and may name the command to run (``command:``; by
default ``run FILE --out out`` for ``.yaml`` files and ``shoes check FILE
--format F`` for shoe files: ``.cards``, ``.outcomes``, ``.csv`` for
rounds). ``{file}`` stands for the input as given on the command line,
``{dir}`` for the absolute path of the folder; a line ending in `` ...`` is the start
of the message (a list that grows as plugins add to it). ``data/`` holds
valid files the cases refer to.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from baccarat.cli import main

BAD = Path(__file__).parents[1] / "bad_inputs"
FORMAT_OF_SUFFIX = {".cards": "cards", ".outcomes": "outcomes", ".csv": "rounds"}


def inputs() -> list[Path]:
    """Return every bad input (not the valid files of data/, not the .expected files)."""
    return sorted(p for p in BAD.rglob("*") if p.is_file() and p.suffix not in (".expected", ".md") and p.parent.name != "data")


def command_of(rel: str) -> str:
    """Return the default command line for the input ``rel`` (relative to the folder)."""
    suffix = Path(rel).suffix
    if suffix == ".yaml":
        return "run {file} --out {out}"
    return f"shoes check {{file}} --format {FORMAT_OF_SUFFIX[suffix]}"


def read_expected(path: Path) -> tuple[str | None, int, str]:
    """Return ``(command or None, exit status, stderr line)`` of an ``.expected`` file."""
    fields: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields.get("command"), int(fields.get("status", "2")), fields.get("stderr", "")


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_every_bad_input_has_its_expected_message() -> None:
    missing = [str(p.relative_to(BAD)) for p in inputs() if not Path(f"{p}.expected").is_file()]
    orphans = [str(p.relative_to(BAD)) for p in BAD.rglob("*.expected") if not Path(str(p)[: -len(".expected")]).is_file()]
    assert not missing and not orphans
    assert len(inputs()) >= 60


@pytest.mark.parametrize("rel", [p.relative_to(BAD).as_posix() for p in inputs()])
def test_a_mistake_gets_its_one_line_exit_2_and_nothing_is_written(
    rel: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "bad_inputs"
    shutil.copytree(BAD, work)
    monkeypatch.chdir(work)
    command, status, stderr = read_expected(BAD / f"{rel}.expected")
    before = everything_under(work)
    assert main(shlex.split((command or command_of(rel)).replace("{file}", rel).replace("{out}", "out"))) == status == 2
    out, err = capsys.readouterr()
    assert out == ""
    expected = stderr.replace("{file}", rel).replace("{dir}", str(work))
    if expected.endswith(" ..."):  # a list that grows as plugins add to it
        assert err.startswith(expected[:-3]) and err.count("\n") == 1
    else:
        assert err == expected + "\n"
    assert everything_under(work) == before  # no output folder, no temporary file, nothing else
