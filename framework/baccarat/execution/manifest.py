"""The files of a run folder, as its ``manifest.json`` records them, and the checks made against that record.

When a run is complete, every file in its folder (``manifest.json`` aside)
is listed under the manifest's ``files``: its size, its SHA-256 checksum and
its ``kind`` (``data``: written by the run, such as the ledger and the
rounds; ``results``: summary, plots and report, which ``baccarat report``
rebuilds from the data). The ``kind`` is for people reading the manifest:
the checks decide what is data by the file's name (:func:`result_files`),
so that an edited ``kind`` cannot pass an edited ledger. Parquet files also get their row count and their
schema (column names and types), and the ledger its rows per strategy. The
list is made by walking the folder, so whatever a run writes is covered.

Two checks read that record:

- :func:`check_data` (``baccarat report``, :func:`baccarat.load`): each data
  file is there and is the very file the run wrote; otherwise an
  :class:`~baccarat.errors.InputError` names the file and what differs.
- :func:`replaceable_problem` (``--out`` onto a previous run): the folder
  holds nothing but files its manifest lists, unchanged; otherwise it says
  what else is there, and the folder must not be replaced.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from baccarat.errors import InputError

MANIFEST_FILE = "manifest.json"
DATA, RESULTS = "data", "results"
"""The kinds of file a manifest lists: written by the run, or rebuilt by ``baccarat report``."""


MAX_MANIFEST_BYTES = 32 << 20
"""Largest ``manifest.json`` read (32 MiB): a run of a billion ledger rows lists a few thousand files in far less."""


def read_manifest(path: Path) -> dict[str, Any] | None:
    """Return a run's ``manifest.json``, or None when there is none; a damaged one is an InputError at its line.

    A manifest larger than :data:`MAX_MANIFEST_BYTES` is refused before it is read.
    """
    from baccarat.files.inputfile import read_regular

    if not path.is_file():
        return None
    try:
        data = json.loads(read_regular(path, "a run's manifest", MAX_MANIFEST_BYTES).decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text; a run's manifest is JSON", path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"is not valid JSON: {exc.msg}", path=str(path), line=exc.lineno, column=exc.colno) from None
    except (OSError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "nested too deeply"
        raise InputError(f"cannot read the file: {reason}", path=str(path)) from None
    if not isinstance(data, dict):
        raise InputError("must hold a JSON object (the manifest written by baccarat run)", path=str(path))
    return data


def write_manifest(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest.json`` into ``folder``, replacing the one there at once (a temporary file renamed)."""
    path = folder / MANIFEST_FILE
    tmp = folder / f".{MANIFEST_FILE}.tmp"
    try:
        tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def folder_contents(folder: Path) -> tuple[list[str], list[str]]:
    """Return the regular files under ``folder`` (paths from it, with ``/``) and everything else found there.

    ``manifest.json`` is left out of the files. "Everything else" is what a
    run never writes: symbolic links, devices, pipes, sockets and empty
    folders, by the same relative names.
    """
    files: list[str] = []
    others: list[str] = []

    def walk(here: Path, prefix: str) -> bool:  # returns whether anything was found under ``here``
        found = False
        with os.scandir(here) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                name = prefix + entry.name
                found = True
                if entry.is_symlink():
                    others.append(name)
                elif entry.is_dir(follow_symlinks=False):
                    if not walk(Path(entry.path), name + "/"):
                        others.append(name)
                elif entry.is_file(follow_symlinks=False):
                    if name != MANIFEST_FILE:
                        files.append(name)
                else:
                    others.append(name)
        return found

    walk(folder, "")
    return files, others


def sha256_of(path: Path) -> str:
    """Return the SHA-256 checksum of a file, in hexadecimal (as ``sha256sum`` prints it)."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def describe_file(path: Path, rows_by_strategy: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Return what the manifest records of one file: size and checksum; rows and schema of a Parquet file."""
    from baccarat.results.ledger import READ_ERRORS

    entry: dict[str, Any] = {"bytes": path.stat().st_size, "sha256": sha256_of(path)}
    if path.suffix == ".parquet":
        try:
            entry["rows"], entry["schema"] = parquet_shape(path)
        except READ_ERRORS:  # not Parquet after all: its size and checksum still hold it
            pass
    if rows_by_strategy is not None:
        entry["rows_by_strategy"] = dict(rows_by_strategy)
    return entry


def describe_written(
    data: bytes, rows: int, schema: Mapping[str, str], rows_by_strategy: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """Return :func:`describe_file` of a Parquet file from the bytes written to it and its writer's row count.

    The same entry, without reading the file back: the checksum of the bytes
    as they are written, the rows the writer put in, the schema every part
    of a dataset shares.
    """
    entry: dict[str, Any] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "rows": int(rows), "schema": dict(schema)}
    if rows_by_strategy is not None:
        entry["rows_by_strategy"] = dict(rows_by_strategy)
    return entry


def parquet_shape(path: Path) -> tuple[int, dict[str, str]]:
    """Return a Parquet file's row count and its columns with their types (read from its footer only)."""
    import polars as pl

    schema = pl.read_parquet_schema(path)
    rows = pl.scan_parquet(path).select(pl.len()).collect().item()
    return int(rows), {name: str(dtype) for name, dtype in schema.items()}


def rows_by_strategy(path: Path) -> dict[str, int]:
    """Return the number of rows of each strategy in a Parquet file with a ``strategy`` column (reads that column)."""
    import polars as pl

    counts = pl.scan_parquet(path).group_by("strategy").len().collect()
    return {str(name): int(n) for name, n in counts.iter_rows()}


def record_files(
    folder: Path,
    manifest: dict[str, Any],
    data: Iterable[str],
    details: Mapping[str, Mapping[str, int]] | None = None,
    written: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """List every file now in ``folder`` under ``manifest["files"]`` and write the manifest; return it.

    Files named in ``data`` are of kind ``data``, the others ``results``.
    ``details`` gives the rows per strategy of files that have them (the
    ledger), as counted by the writer. ``written`` gives the entries of
    files described as they were written (:func:`describe_written`), which
    are not read again.
    """
    data, details, written = set(data), details or {}, written or {}

    def entry(name: str) -> dict[str, Any]:
        if name in written:
            return dict(written[name])
        return describe_file(folder / name, details.get(name))

    files, _ = folder_contents(folder)
    manifest["files"] = {name: {"kind": DATA if name in data else RESULTS, **entry(name)} for name in files}
    write_manifest(folder, manifest)
    return manifest


def result_files() -> frozenset[str]:
    """Return the names of the results files, the ones ``baccarat report`` rebuilds: their role, not the manifest, says so."""
    from baccarat.results.report.analysis import CHART_FILES, COMPARISON_FILE, REPORT_FILE, SESSIONS_FILE, SUMMARY_FILE
    from baccarat.results.statistics.saved_counts import ROUND_COUNTS_FILE

    return frozenset({SESSIONS_FILE, ROUND_COUNTS_FILE, SUMMARY_FILE, COMPARISON_FILE, REPORT_FILE, *CHART_FILES})


def listed_files(folder: Path, manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Return the manifest's list of files; refuse a manifest that has none (older, or edited)."""
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(isinstance(e, dict) for e in files.values()):
        raise InputError(
            "its manifest.json does not list the run's files (it was written by an older version of "
            "baccarat, or edited), so its results cannot be checked; run the experiment again",
            path=str(folder),
        )
    return files


def check_data(folder: Path, manifest: Mapping[str, Any]) -> None:
    """Refuse a run folder whose data files are missing or are not the files the run wrote, naming what differs.

    A data folder (a Parquet dataset such as ``ledger.parquet/``, read whole
    by polars) must also hold nothing but the files the run wrote there.
    """
    listed = listed_files(folder, manifest)
    data = {name: entry for name, entry in listed.items() if name not in result_files()}  # by role, whatever ``kind`` says
    for name, entry in data.items():
        path = folder / name
        if not path.is_file() or path.is_symlink():
            raise InputError(f"{name} is missing (the run wrote it); the folder is incomplete", path=str(folder))
        difference = file_difference(path, entry)
        if difference is not None:
            raise InputError(
                f"{name} is not the file the run wrote: {difference}; the folder was changed after the run (run the experiment again)",
                path=str(folder),
            )
    datasets = sorted({name.split("/")[0] for name in data if "/" in name})
    for dataset in datasets:
        extra = next((name for name in _dataset_entries(folder / dataset, dataset + "/") if name not in listed), None)
        if extra is not None:
            raise InputError(
                f"{extra} is not a file the run wrote, and would be read as part of {dataset}; the folder "
                "was changed after the run (run the experiment again)",
                path=str(folder),
            )


def _dataset_entries(path: Path, prefix: str) -> list[str]:
    """Return the names of everything in the folder ``path`` (files, links, folders), from the run folder."""
    with os.scandir(path) as entries:
        return sorted(prefix + entry.name for entry in entries)


def unchanged(path: Path) -> bool:
    """Return whether the file at ``path`` is listed in its folder's manifest and is as it was written."""
    try:
        manifest = read_manifest(path.parent / MANIFEST_FILE)
    except InputError:
        return False
    files = manifest.get("files") if manifest is not None else None
    entry = files.get(path.name) if isinstance(files, dict) else None
    return isinstance(entry, dict) and file_difference(path, entry) is None


def file_difference(path: Path, entry: Mapping[str, Any]) -> str | None:
    """Return how the file at ``path`` differs from its manifest ``entry`` (None when it is the same file).

    Size and checksum decide; when they differ, a Parquet file is read to
    name what changed: its schema, its row count, or its rows per strategy.
    """
    size = path.stat().st_size
    if size == entry.get("bytes") and sha256_of(path) == entry.get("sha256"):
        return None
    if "schema" in entry or "rows" in entry:
        found = _parquet_difference(path, entry)
        if found is not None:
            return found
    if size != entry.get("bytes"):
        return f"its content differs from what the run wrote ({size:,} bytes, not {_count(entry.get('bytes'))})"
    return "its content differs from what the run wrote (the same size, another SHA-256 checksum)"


def _count(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else repr(value)


def _parquet_difference(path: Path, entry: Mapping[str, Any]) -> str | None:
    from baccarat.results.ledger import READ_ERRORS, read_error_reason

    try:
        rows, schema = parquet_shape(path)
    except READ_ERRORS as exc:
        return f"it cannot be read as Parquet ({read_error_reason(exc)})"
    recorded = entry.get("schema")
    if isinstance(recorded, dict) and schema != recorded:
        for name, dtype in recorded.items():
            if name not in schema:
                return f"its column {name} is missing"
            if schema[name] != dtype:
                return f"its column {name} is {schema[name]} where the run wrote {dtype}"
        extra = next(name for name in schema if name not in recorded)
        return f"it has a column {extra} the run did not write"
    by_strategy = entry.get("rows_by_strategy")
    if isinstance(by_strategy, dict) and "strategy" in schema:
        try:
            found = rows_by_strategy(path)
        except READ_ERRORS as exc:
            return f"it cannot be read as Parquet ({read_error_reason(exc)})"
        for label, count in by_strategy.items():
            if found.get(label, 0) != count:
                return (
                    f"strategy {label!r} has {found.get(label, 0):,} rows where the run wrote {_count(count)}"
                    if label in found
                    else f"strategy {label!r} is missing ({_count(count)} rows in the run)"
                )
        extra = next((label for label in found if label not in by_strategy), None)
        if extra is not None:
            return f"it holds rows of strategy {extra!r}, which the run did not play"
    if rows != entry.get("rows"):
        return f"it holds {rows:,} rows where the run wrote {_count(entry.get('rows'))}"
    return None


def replaceable_problem(folder: Path) -> str | None:
    """Return why ``folder`` may not be replaced by a new run (None when it holds a previous run and nothing else).

    It may be replaced only when its ``manifest.json`` lists every file it
    holds, each unchanged since the run (or ``baccarat report``) wrote it,
    and it holds nothing else. The answer ends a sentence that begins
    "the output folder X ...".
    """
    try:
        manifest = read_manifest(folder / MANIFEST_FILE)
        listed = listed_files(folder, manifest) if manifest is not None else None
    except InputError:
        listed = None
    if listed is None:
        return (
            "holds a run whose manifest.json does not list its files (an older version of baccarat, or edited), "
            "so replacing it could delete files of yours; empty it yourself or choose another --out"
        )
    files, others = folder_contents(folder)
    files = [name for name in files if not _leftover(name, listed)]
    foreign = sorted(others + [name for name in files if name not in listed])
    if foreign:
        return f"holds a previous run and also {_some(foreign)}, which replacing the run would delete; move them or choose another --out"
    changed = [name for name in files if file_difference(folder / name, listed[name]) is not None]
    if changed:
        return (
            f"holds a previous run whose {_some(changed)} changed after the run wrote {'it' if len(changed) == 1 else 'them'}, "
            "which replacing the run would lose; move them or choose another --out"
        )
    return None


def _leftover(name: str, listed: Mapping[str, Any]) -> bool:
    """Tell whether ``name`` is the temporary file of a write into the run folder that was killed (``.summary.csv.tmp``)."""
    head, _, base = name.rpartition("/")
    if not (base.startswith(".") and base.endswith(".tmp")):
        return False
    target = (head + "/" if head else "") + base[1 : -len(".tmp")]
    return target in listed or target == MANIFEST_FILE


def _some(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


__all__ = [
    "MANIFEST_FILE",
    "check_data",
    "describe_file",
    "file_difference",
    "folder_contents",
    "read_manifest",
    "record_files",
    "replaceable_problem",
    "result_files",
    "unchanged",
    "write_manifest",
]
