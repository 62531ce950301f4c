"""Output folders and files written whole or not at all.

A run's folder is written into a temporary folder beside it and renamed
into place when complete (:func:`atomic_folder`); a single file is written
beside its place and renamed (:func:`atomic_file`). On any failure, Ctrl-C
or SIGTERM included, the temporary folder or file is removed, and so are
the parent folders made for it; a failure of the operating system (a
folder that cannot be written to, a full disk) becomes an
:class:`~baccarat.errors.OutputError`, one line and exit status 1.

:func:`check_output_folder` refuses, before a run starts, a folder that
holds something other than a previous run, or that cannot be made.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from baccarat.errors import InputError, OutputError, os_reason
from baccarat.interrupts import held

_OS_ERROR = re.compile(r"\(os error (\d+)\)")


def os_error_of(exc: BaseException) -> OSError | None:
    """Return the operating-system error behind ``exc`` (an ``OSError``, or a polars error wrapping one), else None.

    polars reports a failed write as ``ComputeError: ... (os error 28)``,
    sometimes as an ``OSError`` without an errno; both are read back here.
    """
    if isinstance(exc, OSError) and exc.errno is not None:
        return exc
    found = _OS_ERROR.search(str(exc)) if isinstance(exc, OSError) or type(exc).__module__.startswith("polars") else None
    if found is not None:
        code = int(found.group(1))
        return OSError(code, os.strerror(code))
    return exc if isinstance(exc, OSError) else None


def nearest_existing(path: Path) -> Path:
    """Return ``path`` or its nearest parent that exists."""
    path = Path(os.path.abspath(path))
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


RUN_FILE_SUFFIXES = frozenset({".parquet", ".csv", ".png", ".html", ".json", ".yaml", ".spool", ".tmp"})
"""Kinds of file a run writes at the top of its folder: a previous run made only of these may be replaced."""


def foreign_files(folder: Path) -> list[str]:
    """Return the names in a run folder that a run does not write (sub-folders, other kinds of file)."""
    return sorted(p.name for p in folder.iterdir() if p.is_dir() or p.is_symlink() or p.suffix not in RUN_FILE_SUFFIXES)


def check_output_folder(out: str | os.PathLike[str]) -> None:
    """Refuse an output folder that holds something other than a previous run, or that cannot be made.

    A folder that exists must be empty or hold a previous run (its
    ``manifest.json``) and nothing else a run does not write: the new run
    replaces it, and files of the user's must not go with it. A folder to be
    made must have a folder as its nearest existing parent, one that can be
    written to: this is tried by making and removing an empty folder there.
    """
    out = Path(out)
    if out.exists() or out.is_symlink():
        if not out.is_dir() or out.is_symlink() or (any(out.iterdir()) and not (out / "manifest.json").is_file()):
            raise InputError(f"the output folder {out} exists and does not hold a previous run; choose another --out")
        others = foreign_files(out)
        if others:
            shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
            raise InputError(f"the output folder {out} holds a previous run and also {shown}, which replacing the run "
                             "would delete; move them or choose another --out")
        where = out.parent
    else:
        where = nearest_existing(out)
        if not where.is_dir():
            raise InputError(f"the output folder {out} cannot be made: {where} is not a folder; choose another --out")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".baccarat-check-", dir=where))
    except OSError as exc:
        raise OutputError(f"the output folder {out} cannot be made: {where} refuses new folders ({os_reason(exc)}); "
                          "choose another --out") from None


def temporary_prefix(out: Path) -> str:
    """Return the start of the name of a temporary folder that will become ``out``: ``.OUT.run-PID-`` (PID: this process)."""
    return f".{out.name}.run-{os.getpid()}-"


_TEMPORARY = re.compile(r"run-([0-9]+)-[A-Za-z0-9_]{8}")
"""The end of a temporary folder's name after ``.OUT.``: the owner's process id and ``mkdtemp``'s eight characters."""


def _running(pid: int) -> bool:
    """Tell whether process ``pid`` runs on this machine (one of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temporaries(out: Path) -> list[str]:
    """Remove the temporary folders that runs into ``out`` left when they were killed (``kill -9``, a power cut).

    A temporary folder is named ``.OUT.run-PID-XXXXXXXX`` after the process
    that writes it; one whose process no longer runs on this machine belongs
    to a dead run and is removed. A live run's folder, anything named
    otherwise and anything of another user are left alone. Return the names
    removed.
    """
    prefix = f".{out.name}."
    removed = []
    try:
        entries = list(os.scandir(out.parent))
    except OSError:
        return removed
    for entry in entries:
        found = _TEMPORARY.fullmatch(entry.name[len(prefix):]) if entry.name.startswith(prefix) else None
        if found is None or _running(int(found.group(1))):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.name)
    return removed


@contextmanager
def atomic_folder(out: str | os.PathLike[str], what: str = "the results") -> Iterator[Path]:
    """Yield a temporary folder beside ``out``; rename it to ``out`` when the block ends without error.

    A previous run in ``out`` is replaced. On any error or interrupt, the
    temporary folder and the parents made for it are removed, and an
    operating-system error is raised as :class:`OutputError`.
    """
    out = Path(out)
    check_output_folder(out)
    made = [p for p in (out.parent, *out.parent.parents) if not p.exists()]
    tmp: Path | None = None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with held():  # the folder and the name that says where it is, together
            remove_stale_temporaries(out)
            tmp = Path(tempfile.mkdtemp(prefix=temporary_prefix(out), dir=out.parent))
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())  # as a folder made by mkdir, not mkdtemp's owner-only 0700
        with held():
            _swap_in(tmp, out)
            tmp = None
    except BaseException as exc:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        _remove_empty(made)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, out, what, "; nothing was left behind") from None
        raise


@contextmanager
def atomic_file(path: str | os.PathLike[str], what: str = "the file", suffix: str = "") -> Iterator[Path]:
    """Yield a temporary file name beside ``path``; rename it to ``path`` when the block ends without error.

    ``path`` may exist only as a regular file (it is replaced); the new file
    gets the usual permissions (0666 less the umask). On any error or
    interrupt, the temporary file and the parents made for it are removed,
    and an operating-system error is raised as :class:`OutputError`.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path} is a folder; give the name of the file to write")
    if path.exists() and not path.is_file():
        raise InputError(f"{path} is not a regular file (a device or a pipe); give the name of a file to write")
    made = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
    tmp: Path | None = None
    try:
        where = nearest_existing(path.parent)
        if not where.is_dir():
            raise InputError(f"{path} cannot be written: {where} is not a folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        with held():  # the file and the name that says where it is, together
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix or ".tmp", dir=path.parent)
            os.close(fd)
            tmp = Path(name)
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        with held():
            os.replace(tmp, path)
            tmp = None
    except BaseException as exc:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        _remove_empty(made)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, path, what, "; nothing was left behind") from None
        raise


def _swap_in(tmp: Path, out: Path) -> None:
    """Rename ``tmp`` to ``out``; a previous run there is moved aside first and removed only once ``tmp`` is in place."""
    if not out.exists():
        os.replace(tmp, out)
        return
    check_output_folder(out)  # again: something may have been put there during the run
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.replaced.", dir=out.parent))
    os.replace(out, old / out.name)
    try:
        os.replace(tmp, out)
    except BaseException:
        os.replace(old / out.name, out)
        old.rmdir()
        raise
    shutil.rmtree(old, ignore_errors=True)


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (innermost first) while they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            break


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["atomic_file", "atomic_folder", "check_output_folder", "nearest_existing", "os_error_of"]
