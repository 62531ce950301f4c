"""A run's output folder, written whole or not at all, and replaced only when it holds a previous run and nothing else.

A run's folder is written into a temporary folder beside it and renamed
into place when complete (:func:`atomic_folder`). On any failure, Ctrl-C or
SIGTERM included, the temporary folder is removed, and so are the parent
folders made for it; a failure of the operating system (a folder that
cannot be written to, a full disk) becomes an
:class:`~baccarat.errors.OutputError`, one line and exit status 1.

:func:`check_output_folder` refuses, before a run starts, a folder that
cannot be made, or that holds anything but a previous run whose manifest
lists exactly what it holds; a previous run is replaced only when asked
(``--force``).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from baccarat.errors import InputError, OutputError, os_reason
from baccarat.execution.folder_lock import folder_lock
from baccarat.execution.manifest import MANIFEST_FILE, replaceable_problem
from baccarat.files.outfolder import (
    check_output_name,
    left_by_dead_processes,
    nearest_existing,
    os_error_of,
    remove_empty,
    umask,
)
from baccarat.interrupts import held, remove_at_hard_stop


def check_output_folder(out: str | os.PathLike[str], force: bool = False) -> None:
    """Refuse an output folder that cannot be made, or that holds something a new run must not replace.

    A folder that exists must be empty, or hold a previous run and nothing
    else: its ``manifest.json`` lists every file in it, each unchanged
    (:func:`baccarat.execution.manifest.replaceable_problem`). A previous run is
    replaced only with ``force``, and only when every file of it can be
    removed; otherwise nothing is touched. A folder to be made must have a
    folder as its nearest existing parent, one that can be written to: this
    is tried by making and removing an empty folder there.
    """
    out = Path(out)
    check_output_name(out)
    if out.exists() or out.is_symlink():
        if not out.is_dir() or out.is_symlink() or (any(out.iterdir()) and not (out / MANIFEST_FILE).is_file()):
            raise InputError(f"the output folder {out} exists and does not hold a previous run; choose another --out")
        if any(out.iterdir()):
            problem = replaceable_problem(out)
            if problem is not None:
                raise InputError(f"the output folder {out} {problem}")
            if not force:
                raise InputError(f"the output folder {out} holds a previous run; give --force to replace it, or choose another --out")
            blocked = unremovable(out)
            if blocked is not None:
                raise InputError(
                    f"the previous run in {out} cannot be removed: {blocked} is write-protected or immutable; nothing was changed"
                )
        where = out.parent
    else:
        where = nearest_existing(out)
        if not where.is_dir():
            raise InputError(f"the output folder {out} cannot be made: {where} is not a folder; choose another --out")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".baccarat-check-", dir=where))
    except OSError as exc:
        raise OutputError(
            f"the output folder {out} cannot be made: {where} refuses new folders ({os_reason(exc)}); choose another --out"
        ) from None


def temporary_prefix(out: Path) -> str:
    """Return the start of the name of a temporary folder that will become ``out``: ``.OUT.run-PID-`` (PID: this process)."""
    return f".{out.name}.run-{os.getpid()}-"


_TEMPORARY = re.compile(r"(?:run|replaced)-([0-9]+)-[A-Za-z0-9_]{8}")
"""The end of a temporary folder's name after ``.OUT.``: what it holds (the run being written, or the previous run
being removed), the owner's process id and ``mkdtemp``'s eight characters."""


def remove_stale_temporaries(out: Path) -> list[str]:
    """Remove the temporary folders that runs into ``out`` left when they were killed (``kill -9``, a power cut).

    A temporary folder is named ``.OUT.run-PID-XXXXXXXX`` (a run being
    written) or ``.OUT.replaced-PID-XXXXXXXX`` (a previous run being removed
    by ``--force``) after the process that writes it; one whose process no
    longer runs on this machine belongs to a dead run and is removed. A live run's folder, anything named
    otherwise and anything of another user are left alone. Return the names
    removed.
    """
    removed = []
    for entry in left_by_dead_processes(out.parent, re.compile(re.escape(f".{out.name}.") + _TEMPORARY.pattern)):
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.name)
    return removed


def unremovable(folder: Path) -> str | None:
    """Return the first thing in ``folder`` (its path from there) that could not be removed, else None.

    A file or folder that is immutable, append-only or write-protected
    (``chattr +i``, ``chmod a-w``) is refused by the system's own test
    (``access``); so is a folder that cannot be searched.
    """
    if not os.access(folder, os.W_OK | os.X_OK):
        return "the folder itself"
    for here, dirs, files in os.walk(folder):
        for name in dirs:
            if not os.access(os.path.join(here, name), os.W_OK | os.X_OK):
                return os.path.relpath(os.path.join(here, name), folder)
        for name in files:
            if not os.access(os.path.join(here, name), os.W_OK, follow_symlinks=False):
                return os.path.relpath(os.path.join(here, name), folder)
    return None


@contextmanager
def atomic_folder(out: str | os.PathLike[str], what: str = "the results", force: bool = False) -> Iterator[Path]:
    """Yield a temporary folder beside ``out``; rename it to ``out`` when the block ends without error.

    A previous run in ``out`` is replaced only with ``force`` (see
    :func:`check_output_folder`, which is asked again just before). On any
    error or interrupt, the temporary folder and the parents made for it are
    removed, and an operating-system error is raised as :class:`OutputError`.
    """
    out = Path(out)
    check_output_folder(out, force)
    made = [p for p in (out.parent, *out.parent.parents) if not p.exists()]
    tmp: Path | None = None
    lock = ExitStack()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        lock.enter_context(folder_lock(out))  # no other command writes ``out`` until the run is in place
        with held():  # the folder and the name that says where it is, together
            remove_stale_temporaries(out)
            tmp = Path(tempfile.mkdtemp(prefix=temporary_prefix(out), dir=out.parent))
            remove_at_hard_stop(tmp)
        yield tmp
        os.chmod(tmp, 0o777 & ~umask())  # as a folder made by mkdir, not mkdtemp's owner-only 0700
        with held():
            _swap_in(tmp, out, force)
            tmp = None
        lock.close()
    except BaseException as exc:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        lock.close()
        remove_empty(made)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, out, what, "; nothing was left behind") from None
        raise


def _swap_in(tmp: Path, out: Path, force: bool) -> None:
    """Rename ``tmp`` to ``out``; a previous run there is moved aside first and removed only once ``tmp`` is in place."""
    if not out.exists() and not out.is_symlink():
        os.replace(tmp, out)
        return
    check_output_folder(out, force)  # again: something may have been put there during the run
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.replaced-{os.getpid()}-", dir=out.parent))
    os.replace(out, old / out.name)
    try:
        os.replace(tmp, out)
    except BaseException:
        os.replace(old / out.name, out)
        old.rmdir()
        raise
    _remove_previous(old, out)


def _remove_previous(old: Path, out: Path) -> None:
    """Remove the previous run moved aside into ``old``; what cannot be removed is moved where it can be seen, and said.

    Nothing hidden is left behind: should a file of the previous run resist
    removal (made immutable during the run), what is left of that run is
    renamed ``OUT.previous-run`` beside the new one and an
    :class:`OutputError` says so.
    """
    failures: list[tuple[str, BaseException]] = []

    def failed(function: object, path: str, exc: BaseException | tuple[Any, ...]) -> None:
        failures.append((path, exc[1] if isinstance(exc, tuple) else exc))

    if sys.version_info >= (3, 12):
        shutil.rmtree(old, onexc=failed)
    else:
        shutil.rmtree(old, onerror=failed)
    if not failures:
        return
    path, exc = failures[0]
    left = old / out.name
    kept = left
    for n in range(1, 1000):
        candidate = out.with_name(f"{out.name}.previous-run" + (f"-{n}" if n > 1 else ""))
        if not os.path.lexists(candidate):
            try:
                os.rename(left, candidate)
                old.rmdir()
                kept = candidate
            except OSError:
                pass
            break
    reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    raise OutputError(
        f"the new results are in place, but the previous run could not be removed entirely "
        f"({os.path.relpath(path, left)}: {reason}); what is left of it is in {kept}",
        path=str(out),
    )


__all__ = ["atomic_folder", "check_output_folder", "remove_stale_temporaries", "temporary_prefix", "unremovable"]
