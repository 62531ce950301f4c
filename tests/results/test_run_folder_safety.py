"""A run never destroys what is not its own, and ``baccarat report`` refuses results changed after the run.

Through the command line: ``--out`` onto a previous run is refused unless
``--force``; a folder that holds anything its manifest does not list is
never replaced, even with ``--force``; an old run that cannot be removed is
refused before the run and leaves nothing hidden; the manifest lists every
file the run wrote (size, SHA-256, rows and schema, the ledger's rows per
strategy, every part of the ``ledger.parquet/`` and ``rounds.parquet/``
datasets by name) and a ledger part cut, edited, retyped, swapped, removed or
added is named.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest
from helpers.datasets import dataset_bytes

from baccarat.cli import main
from baccarat.execution import run_folder

EXPERIMENT = (
    "shoes: {seed: 4, count: 3}\nstrategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
    "  - name: martingale\n    use: martingale\n    params: {side: banker, unit: 10}\n"
)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    return tmp_path


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One run folder, copied by the tests that change it."""
    folder = tmp_path_factory.mktemp("saved")
    (folder / "exp.yaml").write_text(EXPERIMENT)
    assert main(["run", str(folder / "exp.yaml"), "--out", str(folder / "run"), "--quiet"]) == 0
    return folder / "run"


def everything(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes; folders and hidden entries included by name."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<folder>") for p in sorted(folder.rglob("*"))}


def one_line(err: str) -> str:
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1, err
    return err.strip()


LEDGER_PART = "ledger.parquet/00000-0000000.parquet"
MARTINGALE_PART = "ledger.parquet/00001-0000000.parquet"
ROUNDS_PART = "rounds.parquet/0000000.parquet"
"""The parts of a 3-shoe run: one chunk, the first strategy's and the second's ledger."""


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# Replacing a previous run --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_out_onto_a_previous_run_is_refused_without_force_and_nothing_changes(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    before = everything(work)
    capsys.readouterr()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--set", "shoes.seed=5"]) == 2
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: the output folder out holds a previous run; give --force to replace it, or choose another --out"
    )
    assert everything(work) == before


@pytest.mark.slow
def test_force_replaces_a_previous_run_whole_and_leaves_nothing_hidden(work: Path) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    first = dataset_bytes(work / "out" / "ledger.parquet")
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=5"]) == 0
    assert dataset_bytes(work / "out" / "ledger.parquet") != first
    assert sorted(os.listdir(work)) == ["exp.yaml", "out"]  # no hidden .out.* folder beside it


@pytest.mark.slow
def test_a_rebuilt_report_keeps_the_run_replaceable(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    assert main(["report", "out", "--quiet", "--baseline", "martingale"]) == 0
    assert main(["report", "out", "--quiet"]) == 0  # the manifest lists the rebuilt files as they now are
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0, capsys.readouterr().err


USERS_FILES = {
    "notes.csv": "my notes\n",
    "my-experiment.yaml": "name: mine\n",
    "analysis.json": "{}\n",
    "my-figure.png": "\x89PNG mine",
    "writeup.html": "<p>mine</p>\n",
}


@pytest.mark.parametrize("force", [False, True])
def test_a_run_folder_holding_the_users_files_is_never_replaced(work: Path, capsys: pytest.CaptureFixture[str], force: bool) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    for name, text in USERS_FILES.items():
        (work / "out" / name).write_text(text)
    before = everything(work)
    capsys.readouterr()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", *(["--force"] if force else [])]) == 2
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: the output folder out holds a previous run and also analysis.json, my-experiment.yaml, "
        "my-figure.png and 2 more, which replacing the run would delete; move them or choose another --out"
    )
    assert everything(work) == before


def test_a_folder_whose_manifest_lists_no_files_is_never_replaced(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "out").mkdir()
    (work / "out" / "manifest.json").write_text('{"mine": true}\n')
    (work / "out" / "data.csv").write_text("a,b\n1,2\n")
    before = everything(work)
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
    assert "holds a run whose manifest.json does not list its files" in one_line(capsys.readouterr().err)
    assert everything(work) == before


def test_a_previous_run_whose_file_was_edited_is_not_replaced(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    with open(work / "out" / "summary.csv", "a") as summary:
        summary.write("my own row\n")
    before = everything(work)
    capsys.readouterr()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: the output folder out holds a previous run whose summary.csv changed after the run wrote it, "
        "which replacing the run would lose; move them or choose another --out"
    )
    assert everything(work) == before


def test_a_users_file_put_in_the_folder_during_the_run_keeps_it_there(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    import baccarat.execution.runner

    real = baccarat.execution.runner.write_results

    def meanwhile(*args: object, **kwargs: object) -> object:
        (work / "out" / "notes.txt").write_text("written while the new run played")
        return real(*args, **kwargs)

    monkeypatch.setattr(baccarat.execution.runner, "write_results", meanwhile)
    capsys.readouterr()
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
    assert "holds a previous run and also notes.txt" in one_line(capsys.readouterr().err)
    assert (work / "out" / "notes.txt").read_text() == "written while the new run played"
    assert sorted(os.listdir(work)) == ["exp.yaml", "out"]


def _immutable(path: Path, on: bool) -> bool:
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def test_an_old_run_that_cannot_be_removed_is_refused_before_the_run(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    locked = work / "out" / "rounds.parquet"
    if shutil.which("chattr") is None or not _immutable(locked, True):
        pytest.skip("needs chattr and the right to make a file immutable (CAP_LINUX_IMMUTABLE, a file system with attributes)")
    try:
        before = everything(work)
        capsys.readouterr()
        assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 2
        assert one_line(capsys.readouterr().err) == (
            "baccarat: error: the previous run in out cannot be removed: "
            "rounds.parquet is write-protected or immutable; nothing was changed"
        )
        assert everything(work) == before  # no hidden folder, nothing moved
    finally:
        _immutable(locked, False)


@pytest.mark.slow
def test_an_old_run_that_resists_removal_at_the_end_is_said_and_nothing_is_hidden(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file made immutable during the run (simulated: removing it fails) is left in sight, and the message says so."""
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    old_ledger = (work / "out" / LEDGER_PART).read_bytes()
    real_unlink = os.unlink

    def refuse_the_old_ledger(path: object, *args: object, **kwargs: object) -> None:
        if str(path) == Path(LEDGER_PART).name and kwargs.get("dir_fd") is not None:  # as shutil.rmtree removes it
            raise PermissionError(1, "Operation not permitted", str(path))
        real_unlink(path, *args, **kwargs)

    capsys.readouterr()
    with monkeypatch.context() as patched:
        patched.setattr(run_folder.shutil.os, "unlink", refuse_the_old_ledger)
        assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force", "--set", "shoes.seed=5"]) == 1
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: out: the new results are in place, but the previous run could not be removed entirely "
        f"({LEDGER_PART}: Operation not permitted); what is left of it is in "
        "out.previous-run"
    )
    assert sorted(os.listdir(work)) == ["exp.yaml", "out", "out.previous-run"]  # nothing hidden
    kept = {str(p.relative_to(work / "out.previous-run")) for p in (work / "out.previous-run").rglob("*")}
    assert {LEDGER_PART, "manifest.json"} <= kept  # the removal stopped at the first failure: the manifest still says what it is
    assert (work / "out.previous-run" / LEDGER_PART).read_bytes() == old_ledger
    assert (work / "out" / LEDGER_PART).read_bytes() != old_ledger
    assert main(["report", "out", "--quiet"]) == 0  # the new run is whole


@pytest.mark.slow
def test_roads_out_refuses_an_existing_file_without_force(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shoes = Path(__file__).resolve().parents[2] / "configs" / "shoes" / "sample-cards.txt"
    (work / "ledger.parquet").write_bytes(b"a ledger of mine")
    assert main(["roads", str(shoes), "--format", "cards", "--out", "ledger.parquet"]) == 2
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: ledger.parquet: exists already; give another --out, or --force to replace it"
    )
    assert (work / "ledger.parquet").read_bytes() == b"a ledger of mine"
    assert main(["roads", str(shoes), "--format", "cards", "--out", "ledger.parquet", "--force"]) == 0
    assert (work / "ledger.parquet").read_bytes().startswith(b"\x89PNG")


# What the manifest records ------------------------------------------------------------------------------------


def test_the_manifest_lists_every_file_the_run_wrote_with_checksums_rows_and_schema(saved_run: Path) -> None:
    files = manifest_of(saved_run)["files"]
    on_disk = sorted(str(p.relative_to(saved_run)) for p in saved_run.rglob("*") if p.is_file())
    assert sorted([*files, "manifest.json"]) == on_disk
    for name, entry in files.items():
        data = (saved_run / name).read_bytes()
        assert entry["bytes"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest()
    ledger = pl.read_parquet(saved_run / "ledger.parquet")
    parts = [LEDGER_PART, MARTINGALE_PART]  # one file per strategy (and chunk: this run has one)
    assert sorted(name for name in files if name.startswith("ledger.parquet/")) == parts
    assert sum(files[name]["rows"] for name in parts) == ledger.height
    for name in parts:
        assert files[name]["schema"] == {column: str(dtype) for column, dtype in ledger.schema.items()}
        assert files[name]["rows_by_strategy"] == dict(pl.read_parquet(saved_run / name).group_by("strategy").len().iter_rows())
    by_strategy = dict(ledger.group_by("strategy").len().iter_rows())
    assert [files[name]["rows_by_strategy"] for name in parts] == [
        {"flat banker": by_strategy["flat banker"]},
        {"martingale": by_strategy["martingale"]},
    ]
    assert files[ROUNDS_PART]["rows"] == pl.read_parquet(saved_run / "rounds.parquet").height
    kinds = {name: entry["kind"] for name, entry in files.items()}
    assert {name for name, kind in kinds.items() if kind == "data"} == {*parts, ROUNDS_PART, "experiment.yaml"}
    assert kinds["summary.csv"] == kinds["report.html"] == "results"


@pytest.mark.slow
def test_a_file_a_new_version_writes_is_listed_without_being_named_anywhere(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import baccarat.execution.runner

    real = baccarat.execution.runner.write_results

    def with_an_extra_file(folder: Path, *args: object, **kwargs: object) -> object:
        (Path(folder) / "tables").mkdir()
        pl.DataFrame({"strategy": ["a", "a", "b"], "net": [1, 2, 3]}).write_parquet(Path(folder) / "tables" / "sessions.parquet")
        return real(folder, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(baccarat.execution.runner, "write_results", with_an_extra_file)
        assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 0
    entry = manifest_of(work / "out")["files"]["tables/sessions.parquet"]
    assert entry["bytes"] == (work / "out" / "tables" / "sessions.parquet").stat().st_size
    assert entry["kind"] == "results" and entry["rows"] == 3 and entry["schema"] == {"strategy": "String", "net": "Int64"}
    assert main(["run", "exp.yaml", "--out", "out", "--quiet", "--force"]) == 0  # listed, so replaceable
    assert not (work / "out" / "tables").exists()


# report refuses tampered results ------------------------------------------------------------------------------


def _net_one_row(frame: pl.DataFrame, value: object) -> pl.DataFrame:
    row = pl.int_range(pl.len()) == 7
    return frame.with_columns(pl.when(row).then(pl.lit(value, dtype=frame["net"].dtype)).otherwise(pl.col("net")).alias("net"))


def _other_run(folder: Path) -> None:
    other = folder.parent / "other"
    assert main(["run", str(folder.parent / "exp.yaml"), "--out", str(other), "--quiet", "--set", "shoes.seed=11"]) == 0
    shutil.rmtree(folder / "ledger.parquet")
    shutil.copytree(other / "ledger.parquet", folder / "ledger.parquet")


def _rewrite(folder: Path, part: str, change) -> None:
    path = folder / part
    change(pl.read_parquet(path)).write_parquet(path)


def _relabelled(manifest: dict, name: str) -> dict:
    manifest["files"][name]["kind"] = "results"  # what is data is decided by the file's role, not by this field
    return manifest


TAMPERING = {
    "a strategy's part removed": (lambda f: (f / MARTINGALE_PART).unlink(), f"{MARTINGALE_PART} is missing (the run wrote it)"),
    "a strategy's rows relabelled": (
        lambda f: _rewrite(f, MARTINGALE_PART, lambda frame: frame.with_columns(strategy=pl.lit("flat banker"))),
        f"{MARTINGALE_PART} is not the file the run wrote: strategy 'martingale' is missing (",
    ),
    "a net edited to 1,000,000": (
        lambda f: _rewrite(f, LEDGER_PART, lambda frame: _net_one_row(frame, 1_000_000)),
        f"{LEDGER_PART} is not the file the run wrote: its content differs from what the run wrote (",
    ),
    "money rewritten as floats": (
        lambda f: _rewrite(f, LEDGER_PART, lambda frame: frame.with_columns(pl.col("stake", "net", "bankroll").cast(pl.Float64))),
        f"{LEDGER_PART} is not the file the run wrote: its column stake is Float64 where the run wrote Decimal(",
    ),
    "a net edited and its part relabelled results in the manifest": (
        lambda f: (
            _rewrite(f, LEDGER_PART, lambda frame: _net_one_row(frame, 1_000_000)),
            (f / "manifest.json").write_text(json.dumps(_relabelled(manifest_of(f), LEDGER_PART))),
        ),
        f"{LEDGER_PART} is not the file the run wrote: its content differs from what the run wrote (",
    ),
    "a null net": (
        lambda f: _rewrite(f, LEDGER_PART, lambda frame: _net_one_row(frame, None)),
        f"{LEDGER_PART} is not the file the run wrote: its content differs from what the run wrote (",
    ),
    "another run's ledger": (_other_run, f"{LEDGER_PART} is not the file the run wrote: "),
    "a part added to the ledger": (
        lambda f: shutil.copyfile(f / LEDGER_PART, f / "ledger.parquet" / "00000-0000001.parquet"),
        "ledger.parquet/00000-0000001.parquet is not a file the run wrote, and would be read as part of ledger.parquet",
    ),
    "a hidden file in the ledger": (
        lambda f: shutil.copyfile(f / LEDGER_PART, f / "ledger.parquet" / ".more.parquet"),
        "ledger.parquet/.more.parquet is not a file the run wrote, and would be read as part of ledger.parquet",
    ),
    "rounds cut short": (
        lambda f: _rewrite(f, ROUNDS_PART, lambda frame: frame.head(10)),
        f"{ROUNDS_PART} is not the file the run wrote: it holds 10 rows where the run wrote ",
    ),
    "an edited experiment": (
        lambda f: (f / "experiment.yaml").write_text((f / "experiment.yaml").read_text().replace("seed: 4", "seed: 5")),
        "experiment.yaml is not the file the run wrote: its content differs from what the run wrote (the same size, "
        "another SHA-256 checksum)",
    ),
    "a ledger part that is not Parquet": (
        lambda f: (f / LEDGER_PART).write_bytes(b"not parquet at all"),
        f"{LEDGER_PART} is not the file the run wrote: it cannot be read as Parquet (",
    ),
    "missing rounds": (lambda f: shutil.rmtree(f / "rounds.parquet"), f"{ROUNDS_PART} is missing (the run wrote it)"),
    "a manifest without its list of files": (
        lambda f: (f / "manifest.json").write_text(json.dumps({k: v for k, v in manifest_of(f).items() if k != "files"})),
        "its manifest.json does not list the run's files",
    ),
}


@pytest.mark.parametrize("case", list(TAMPERING))
def test_report_refuses_results_changed_after_the_run_naming_what_differs(
    case: str, saved_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    shutil.copytree(saved_run, folder)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    change, expected = TAMPERING[case]
    change(folder)
    before = everything(folder)
    capsys.readouterr()
    assert main(["report", str(folder), "--quiet"]) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith(f"baccarat: error: {folder}: {expected}"), err
    assert everything(folder) == before  # nothing rebuilt from the changed files


def test_report_rebuilds_deleted_results_of_an_intact_run(saved_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(saved_run, folder)
    (folder / "report.html").unlink()
    (folder / "summary.csv").write_text("edited\n")
    assert main(["report", str(folder), "--quiet"]) == 0
    assert (folder / "report.html").is_file() and (folder / "summary.csv").read_text() != "edited\n"
    files = manifest_of(folder)["files"]
    assert files["summary.csv"]["sha256"] == hashlib.sha256((folder / "summary.csv").read_bytes()).hexdigest()


def test_compare_does_not_use_a_session_table_changed_after_the_run(
    saved_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b", "changed"):
        shutil.copytree(saved_run, tmp_path / name)
    sessions = tmp_path / "changed" / "sessions.parquet"
    pl.read_parquet(sessions).with_columns(pl.col("net") * 100).write_parquet(sessions)
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json"]) == 0
    honest = capsys.readouterr().out
    assert main(["compare", str(tmp_path / "changed"), str(tmp_path / "b"), "--json"]) == 0
    assert capsys.readouterr().out.replace("changed", "a") == honest
