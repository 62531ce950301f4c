"""A run folder is never lost: each way a hostile user or a killed command lost or confused it, through the real command line.

The one commit step of ``run`` and ``report`` is stopped by ``kill -9`` at
every one of its steps (``BACCARAT_TEST_KILL_AT_STEP``): each time, the
folder holds the run as it was or as it was to become, complete, and the
next command says what it found and what it did. Those tests start a
command per step: they are in the slow tier (``-m slow``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import baccarat
from baccarat.cli import main
from baccarat.errors import ExperimentError
from baccarat.execution.folder_commit import KILL_AT_STEP, NO_EXCHANGE
from baccarat.execution.manifest import describe_file, replaceable_problem

EXPERIMENT = (
    "shoes: {seed: 4, count: 3}\nstrategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
    "  - name: martingale\n    use: martingale\n    params: {side: banker, unit: 10, stop_win: 20}\n"
)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    capsys.readouterr()
    return tmp_path


def everything(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<folder>") for p in sorted(folder.rglob("*"))}


def data_of(folder: Path) -> dict[str, bytes]:
    """The run's data and results, without what holds the time of the run (its manifest, and the report that shows it)."""
    return {name: data for name, data in everything(folder).items() if name not in ("manifest.json", "report.html")}


def one_line(err: str) -> str:
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1, err
    return err.strip()


def cli(work: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baccarat", *args], cwd=work, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=600
    )


def complete(folder: Path) -> None:
    """Assert that ``folder`` holds a whole run: readable, and replaceable (its manifest lists all it holds, unchanged)."""
    baccarat.load(folder).summary  # noqa: B018 - reading it is the test
    assert replaceable_problem(folder) is None


# 1-2, 6: every step of the commit ----------------------------------------------------------------------------------


def kill_at_every_step(work: Path, command: list[str], again: list[str], env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> int:
    """Run ``command`` killed at step 1, 2, ... until it completes; after each kill the folder is the old or the new run.

    A reader (``baccarat.load``) finds the folder complete, and the next command (``again``, run in this process)
    succeeds and leaves nothing beside the folder. Return the number of steps.
    """
    pristine = work / "pristine"
    shutil.copytree(work / "out", pristine)
    old = data_of(pristine)
    seen: dict[int, dict[str, bytes]] = {}
    step = 0
    while True:
        step += 1
        shutil.rmtree(work / "out")
        shutil.copytree(pristine, work / "out")
        done = cli(work, *command, env={**env, KILL_AT_STEP: str(step)})
        if done.returncode == 0:
            break
        assert done.returncode == -signal.SIGKILL, done.stderr
        capsys.readouterr()
        complete(work / "out")  # a reader finds a whole run (and puts back one a killed command had moved aside)
        seen[step] = data_of(work / "out")
        assert main(again) == 0, f"step {step}: {capsys.readouterr().err}"
        assert "Traceback" not in capsys.readouterr().err
        left = sorted(p.name for p in work.iterdir())
        assert left == ["exp.yaml", "out", "pristine"], f"step {step}: {left}"
        complete(work / "out")
    new = data_of(work / "out")
    assert new != old
    for at, state in seen.items():
        assert state in (old, new), f"killed at step {at}, the folder holds neither the old run nor the new one"
    assert old in seen.values() and new in seen.values()  # killed before the commit, and after it
    return step


@pytest.mark.slow
@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_run_force_killed_at_every_step_leaves_the_old_or_the_new_run(
    work: Path, exchange: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {} if exchange else {NO_EXCHANGE: "1"}
    command = ["run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=5"]
    steps = kill_at_every_step(work, command, ["run", "exp.yaml", "--out", "out", "--quiet", "--force"], env, capsys)
    assert steps > 8  # the new folder, its files, the flush, the exchange, each file of the previous run removed


@pytest.mark.slow
def test_report_killed_at_every_step_leaves_the_old_or_the_new_report(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stops = pl.read_parquet(work / "out" / "sessions.parquet")["stopped_by"].drop_nulls().len()
    assert stops > 0
    steps = kill_at_every_step(work, ["report", "out", "--quiet", "--baseline", "martingale"], ["report", "out", "--quiet"], {}, capsys)
    assert steps > 8
    assert pl.read_parquet(work / "out" / "sessions.parquet")["stopped_by"].drop_nulls().len() == stops  # no stop record lost


@pytest.mark.slow
def test_a_previous_run_moved_aside_by_a_killed_command_is_put_back_and_said(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = everything(work / "out")
    done = cli(
        work,
        "run",
        "exp.yaml",
        "--out",
        "out",
        "--quiet",
        "--force",
        env={NO_EXCHANGE: "1", KILL_AT_STEP: "5", "BACCARAT_TEST_SHOW_STEPS": "1"},
    )
    assert done.returncode == -signal.SIGKILL and "step 5: the previous run moved aside" in done.stderr, done.stderr
    assert not (work / "out").exists()
    baccarat.load("out")  # a reader puts it back
    err = capsys.readouterr().err
    assert "moved aside by process" in err and "put it back" in err
    assert everything(work / "out") == before
    assert sorted(p.name for p in work.iterdir()) == ["exp.yaml", "out"]


def test_a_leftover_that_is_not_provably_the_commands_own_is_left_and_said(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aside = work / ".out.replaced-99999-abcdefgh"
    shutil.copytree(work / "out", aside)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    err = capsys.readouterr().err
    assert ".out.replaced-99999-abcdefgh" in err and "left it there" in err
    assert aside.is_dir()


# 1, 5: paths, and output folders that would swallow themselves --------------------------------------------------


@pytest.mark.slow
def test_the_current_folder_as_the_output_is_refused_before_any_work(work: Path) -> None:
    before = everything(work)
    done = cli(work / "out", "run", "../exp.yaml", "--out", "../out", "--force", "--quiet")
    assert done.returncode == 2 and "is the current folder or holds it" in one_line(done.stderr)
    done = cli(work / "out", "run", "../exp.yaml", "--out", ".", "--force", "--quiet")
    assert done.returncode == 2 and "is the current folder or holds it" in one_line(done.stderr)
    assert everything(work) == before


@pytest.mark.slow
def test_an_output_inside_a_run_folder_is_refused_and_the_run_stays_readable(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = everything(work)
    assert main(["run", "exp.yaml", "--out", "out/ledger.parquet/inner", "--quiet"]) == 2
    assert "lies inside the run folder" in one_line(capsys.readouterr().err)
    assert everything(work) == before
    complete(work / "out")


def test_a_relative_output_is_resolved_before_anything_moves(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "sub").mkdir()
    assert main(["run", "exp.yaml", "--out", "sub/../out", "--quiet", "--force", "--set", "shoes.seed=5"]) == 0
    complete(work / "out")
    assert sorted(p.name for p in work.iterdir()) == ["exp.yaml", "out", "sub"]


# 3: chart exports ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_report_png_refuses_a_users_file_and_never_lists_it(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = work / "out" / "final.png"
    mine.write_bytes(b"\x89PNG my own figure")
    assert main(["report", "out", "--quiet", "--png"]) == 2
    assert "final.png is not a file baccarat wrote" in one_line(capsys.readouterr().err)
    assert mine.read_bytes() == b"\x89PNG my own figure"
    assert "final.png" not in json.loads((work / "out" / "manifest.json").read_text())["files"]
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2  # still the user's: never deleted
    assert mine.read_bytes() == b"\x89PNG my own figure"
    capsys.readouterr()
    assert main(["report", "out", "--quiet", "--png", "--force"]) == 0
    assert mine.read_bytes().startswith(b"\x89PNG\r\n")
    assert "final.png" in json.loads((work / "out" / "manifest.json").read_text())["files"]


def test_report_refuses_to_rebuild_without_the_sessions_stop_records(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sessions = work / "out" / "sessions.parquet"
    pl.read_parquet(sessions).with_columns(pl.lit(None, pl.String).alias("stopped_by")).write_parquet(sessions)
    before = everything(work / "out")
    assert main(["report", "out", "--quiet"]) == 2
    assert "which stop rule ended each session is kept only there" in one_line(capsys.readouterr().err)
    assert everything(work / "out") == before


def test_report_keeps_a_users_files_folders_and_links_in_the_folder(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "out" / "notes.txt").write_text("mine")
    (work / "out" / "secret.txt").write_text("unreadable")
    (work / "out" / "secret.txt").chmod(0o200)
    (work / "out" / "mine" / "deeper").mkdir(parents=True)
    (work / "out" / "link").symlink_to("notes.txt")
    assert main(["report", "out", "--quiet"]) == 0, capsys.readouterr().err
    assert (work / "out" / "notes.txt").read_text() == "mine"
    assert (work / "out" / "mine" / "deeper").is_dir() and os.readlink(work / "out" / "link") == "notes.txt"
    (work / "out" / "secret.txt").chmod(0o600)
    assert (work / "out" / "secret.txt").read_text() == "unreadable"
    listed = json.loads((work / "out" / "manifest.json").read_text())["files"]
    assert not {"notes.txt", "secret.txt", "link"} & set(listed)


# 4: the lock ----------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_users_file_named_like_the_lock_is_never_written_nor_removed(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lock = work / ".out.lock"
    lock.write_text("my notes\n")
    os.link(lock, work / "linked")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert main(["report", "out", "--quiet"]) == 0
    assert lock.read_text() == "my notes\n" and (work / "linked").read_text() == "my notes\n"


def test_the_lock_made_by_a_command_is_removed_by_it(work: Path) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert not (work / ".out.lock").exists()


@pytest.mark.parametrize(
    "note",
    [
        "baccarat run-folder lock of process 4000000\n",  # left by a command killed with kill -9: its flock went with it
        "4000000\n",  # left by version 0.2 (its process id alone), whose flock went with its command
    ],
)
def test_a_lock_left_by_a_killed_command_is_taken_over_and_names_its_new_holder(work: Path, note: str) -> None:
    """A refused command names the live holder, never the killed one whose file was taken over."""
    from baccarat.execution.folder_lock import NOTE, folder_lock

    lock = work / ".out.lock"
    lock.write_text(note)
    with folder_lock(work / "out"):
        assert lock.read_text() == NOTE.format(pid=os.getpid())
        refused = cli(work, "run", "exp.yaml", "--out", "out", "--quiet", "--force")
        assert refused.returncode == 1 and f"(process {os.getpid()})" in refused.stderr
    assert not lock.exists()


def test_a_run_takes_over_the_lock_file_version_0_2_left_and_removes_it(work: Path) -> None:
    lock = work / ".out.lock"
    lock.write_text("4000000\n")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert not lock.exists()


@pytest.mark.slow
@pytest.mark.parametrize("note", ["4000000", " 4000000\n", "4000000\nmine\n", "12345678901\n"])
def test_a_file_not_exactly_a_lock_note_is_never_taken_over(work: Path, note: str) -> None:
    lock = work / ".out.lock"
    lock.write_text(note)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert lock.read_text() == note


@pytest.mark.slow
def test_a_0_2_lock_file_with_another_link_is_never_taken_over(work: Path) -> None:
    lock = work / ".out.lock"
    lock.write_text("4000000\n")
    os.link(lock, work / "linked")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert lock.read_text() == "4000000\n" and (work / "linked").read_text() == "4000000\n"


# 7: what the data says ------------------------------------------------------------------------------------------

PART = "ledger.parquet/00001-0000000.parquet"


def rewrite_part(folder: Path, name: str, change) -> None:
    """Change a ledger part and record it in the manifest as if the run had written it (what a careful forger does)."""
    path = folder / name
    frame = change(pl.read_parquet(path))
    frame.write_parquet(path)
    manifest = json.loads((folder / "manifest.json").read_text())
    entry = manifest["files"][name]
    counts = frame.group_by("strategy").len()
    manifest["files"][name] = {**entry, **describe_file(path, {str(s): int(n) for s, n in counts.iter_rows()})}
    (folder / "manifest.json").write_text(json.dumps(manifest))


BAD_DATA = {
    "a negative stake": (
        lambda f: f.with_columns(pl.when(pl.int_range(pl.len()) == 2).then(-pl.col("stake")).otherwise(pl.col("stake")).alias("stake")),
        "row 3: stake is -",
    ),
    "a null net": (
        lambda f: f.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(None).otherwise(pl.col("net")).alias("net")),
        "row 1: net is missing",
    ),
    "an emptied part": (lambda f: f.head(0), "holds no row of strategy 'martingale'"),
    "a NUL byte in a label": (lambda f: f.with_columns(pl.lit("marti\0ngale").alias("strategy")), "holds a control character"),
}


@pytest.mark.parametrize("case", list(BAD_DATA))
def test_what_the_ledger_says_is_checked_by_every_reader(case: str, work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    change, said = BAD_DATA[case]
    shutil.copytree(work / "out", work / "intact")
    rewrite_part(work / "out", PART, change)
    for command in (["report", "out", "--quiet"], ["compare", "intact", "out"]):
        assert main(command) == 2
        err = one_line(capsys.readouterr().err)
        assert said in err and "\0" not in err, err
    with pytest.raises(baccarat.errors.InputError, match="the run folder is damaged"):
        baccarat.load("out")


# 8: readers and a replacing command ------------------------------------------------------------------------------

READER = (
    "import sys\nfrom baccarat.execution.folder_lock import reading_lock\n"
    "with reading_lock(sys.argv[1]):\n    print('reading', flush=True)\n    sys.stdin.read()\n"
)


@pytest.mark.slow
def test_a_replacing_command_waits_for_a_reader(work: Path) -> None:
    reader = subprocess.Popen([sys.executable, "-c", READER, "out"], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert reader.stdout.readline() == "reading\n"
    before = everything(work / "out")
    writer = subprocess.Popen(
        [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=5"],
        cwd=work,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = writer.stderr.readline()
        assert "waiting for the baccarat commands reading" in line, line
        assert everything(work / "out") == before  # the reader still reads the run it began with
    finally:
        reader.stdin.close()
        reader.wait(timeout=60)
    assert writer.wait(timeout=600) == 0
    assert everything(work / "out") != before
    complete(work / "out")


# 9-10: bounds and the API ---------------------------------------------------------------------------------------


def test_a_huge_manifest_is_refused_before_it_is_read(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = work / "out" / "manifest.json"
    with manifest.open("r+b") as file:
        file.truncate(33 << 20)
    assert main(["report", "out", "--quiet"]) == 2
    assert "more than the 32 MiB a run's manifest may hold" in one_line(capsys.readouterr().err)


def test_a_set_key_path_of_thousands_of_parts_is_one_line(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "other", "--quiet", "--set", ".".join(["a"] * 2000) + "=1"]) == 2
    assert "a key path has at most 32 parts" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("pid", ["9" * 30, "99999999999"])
def test_a_huge_process_id_in_a_name_beside_the_output_is_no_traceback(work: Path, pid: str, capsys: pytest.CaptureFixture[str]) -> None:
    (work / f".out.new-{pid}-abcdefgh").mkdir()
    (work / f".shoes.txt.{pid}-abcdefgh.tmp").write_text("mine")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0
    assert main(["shoes", "generate", "--rules", "punto-banco-8", "--count", "2", "--seed", "1", "--out", "shoes.txt"]) == 0
    assert (work / f".out.new-{pid}-abcdefgh").is_dir() and (work / f".shoes.txt.{pid}-abcdefgh.tmp").read_text() == "mine"


@pytest.mark.slow
def test_two_runs_in_the_same_second_without_out_get_two_folders(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from baccarat.commands import run as run_command

    fixed = run_command.default_out("same", root=Path("results"))
    monkeypatch.setattr(run_command, "default_out", lambda name, now=None, root=Path("results"): fixed)
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    assert sorted(p.name for p in (work / "results").iterdir()) == [fixed.name, f"{fixed.name}-2"]


def experiment(**params: object) -> dict[str, object]:
    return {"shoes": {"seed": 1, "count": 2}, "strategies": [{"name": "flat", "use": "flat", "params": {"side": "banker", **params}}]}


def test_the_api_takes_numpy_numbers(tmp_path: Path) -> None:
    result = baccarat.run(experiment(unit=np.int64(20)))
    assert result.summary["strategy"].to_list() == ["flat"]


def nested(depth: int) -> dict[str, object]:
    value: dict[str, object] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    "source, said",
    [
        ({**experiment(unit=10), 3: "x"}, "the key 3 at the top is not text"),
        ({**experiment(unit=10), "deep": nested(5000)}, "nested more than 32 levels deep"),
        (experiment(unit=(n for n in range(3))), "holds a generator at strategies.0.params.unit"),
        (42, "not a int"),
    ],
    ids=["integer key", "deep nesting", "generator", "a number"],
)
def test_every_other_bad_api_input_is_one_experiment_error(source: object, said: str) -> None:
    with pytest.raises(ExperimentError, match=said.replace("(", r"\(")):
        baccarat.run(source)


def test_a_loaded_runs_statistics_are_read_under_its_reading_lock(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a loaded run's statistics read its files, no command can take the folder to replace it (flock refused)."""
    import fcntl

    import baccarat.api

    result = baccarat.load(work / "out")
    refused: list[bool] = []
    analyse = baccarat.api.analyse

    def watched(*args: object, **kwargs: object) -> object:
        fd = os.open(work / "out", os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            refused.append(False)
        except BlockingIOError:
            refused.append(True)
        finally:
            os.close(fd)
        return analyse(*args, **kwargs)

    monkeypatch.setattr(baccarat.api, "analyse", watched)
    assert result.summary["strategy"].len() >= 1
    assert refused == [True]
