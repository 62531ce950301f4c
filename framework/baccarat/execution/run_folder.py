"""A run's output folder, written whole or not at all, and replaced only when it holds a previous run and nothing else.

A run's folder is written into a new folder beside it and made the run
folder in one step when complete (:func:`atomic_folder`, by
:func:`baccarat.execution.folder_commit.commit`); ``baccarat report``
rebuilds its files the same way, in a new folder that links the run's
other files (:func:`rewritten_folder`). On any failure, Ctrl-C or SIGTERM
included, the new folder is removed, and so are the parent folders made
for it; a failure of the operating system (a folder that cannot be
written to, a full disk) becomes an :class:`~baccarat.errors.OutputError`,
one line and exit status 1.

:func:`check_output_folder` refuses, before a run starts, a folder that
cannot be made, that is the current folder or lies inside another run, or
that holds anything but a previous run whose manifest lists exactly what
it holds; a previous run is replaced only when asked (``--force``).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Collection, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from baccarat.errors import InputError, OutputError, os_reason
from baccarat.execution.folder_commit import commit, file_states, new_prefix, recover, step
from baccarat.execution.folder_lock import folder_lock
from baccarat.execution.manifest import MANIFEST_FILE, read_manifest, replaceable_problem
from baccarat.files.outfolder import check_output_name, nearest_existing, os_error_of, remove_empty, umask
from baccarat.interrupts import held, remove_at_hard_stop


def check_output_folder(out: str | os.PathLike[str], force: bool = False, shown: str | os.PathLike[str] | None = None) -> None:
    """Refuse an output folder that cannot be made, or that holds something a new run must not replace.

    The path is made absolute first: nothing it names moves meanwhile. The
    folder may not be the current folder or hold it, nor lie inside another
    run's folder. A folder that exists must be empty, or hold a previous run and nothing
    else: its ``manifest.json`` lists every file in it, each unchanged
    (:func:`baccarat.execution.manifest.replaceable_problem`). A previous run is
    replaced only with ``force``, and only when every file of it can be
    removed; otherwise nothing is touched. A folder to be made must have a
    folder as its nearest existing parent, one that can be written to: this
    is tried by making and removing an empty folder there.
    """
    shown = Path(out if shown is None else shown)
    check_output_name(Path(out))
    out = Path(os.path.abspath(out))
    check_place(out, shown)
    if out.exists() or out.is_symlink():
        if not out.is_dir() or out.is_symlink() or (any(out.iterdir()) and not (out / MANIFEST_FILE).is_file()):
            raise InputError(f"the output folder {shown} exists and does not hold a previous run; choose another --out")
        if any(out.iterdir()):
            problem = replaceable_problem(out)
            if problem is not None:
                raise InputError(f"the output folder {shown} {problem}")
            if not force:
                raise InputError(f"the output folder {shown} holds a previous run; give --force to replace it, or choose another --out")
            blocked = unremovable(out)
            if blocked is not None:
                raise InputError(
                    f"the previous run in {shown} cannot be removed: {blocked} is write-protected or immutable; nothing was changed"
                )
        where = out.parent
    else:
        where = nearest_existing(out)
        if not where.is_dir():
            raise InputError(f"the output folder {shown} cannot be made: {where} is not a folder; choose another --out")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".baccarat-check-", dir=where))
    except OSError as exc:
        raise OutputError(
            f"the output folder {shown} cannot be made: {where} refuses new folders ({os_reason(exc)}); choose another --out"
        ) from None


def check_place(out: Path, shown: Path) -> None:
    """Refuse an output folder (absolute) that is the current folder or holds it, or that lies inside a run folder."""
    try:
        here = Path(os.getcwd())
    except OSError:
        here = None
    real = Path(os.path.realpath(out))
    if here is not None and (real == here or real in here.parents):
        raise InputError(
            f"the output folder {shown} is the current folder or holds it, and a run folder is replaced whole; "
            "run the command from another folder, or choose another --out"
        )
    for parent in real.parents:
        if (parent / MANIFEST_FILE).is_file() and _is_run_folder(parent):
            raise InputError(f"the output folder {shown} lies inside the run folder {parent}; choose a folder outside it with --out")


def _is_run_folder(folder: Path) -> bool:
    """Tell whether ``folder`` holds a run: a manifest baccarat wrote and its ledger."""
    try:
        manifest = read_manifest(folder / MANIFEST_FILE)
    except InputError:
        return (folder / "ledger.parquet").exists()
    return manifest is not None and ("files" in manifest or (folder / "ledger.parquet").exists())


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
def atomic_folder(out: str | os.PathLike[str], what: str = "the results", force: bool = False, reserved: bool = False) -> Iterator[Path]:
    """Yield a new folder beside ``out``; make it ``out`` in one step when the block ends without error.

    A previous run in ``out`` is replaced only with ``force`` (see
    :func:`check_output_folder`, which is asked again just before), by
    :func:`baccarat.execution.folder_commit.commit`. Before anything, what
    commands killed while writing ``out`` left is put back or removed, and
    said (:func:`baccarat.execution.folder_commit.recover`). On any error or
    interrupt, the new folder and the parents made for it are removed (and
    ``out`` itself when ``reserved``: an empty folder made to hold the name), and an
    operating-system error is raised as :class:`OutputError`.
    """
    shown = out
    out = Path(os.path.abspath(out))
    made = [p for p in (out.parent, *out.parent.parents) if not p.exists()]
    tmp: Path | None = None
    lock = ExitStack()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        lock.enter_context(folder_lock(out))  # no other command writes ``out`` until the run is in place
        recover(out)
        check_output_folder(out, force, shown=shown)
        with held():  # the folder and the name that says where it is, together
            tmp = Path(tempfile.mkdtemp(prefix=new_prefix(out), dir=out.parent))
            remove_at_hard_stop(tmp)
        step("the new folder made")
        yield tmp
        os.chmod(tmp, 0o777 & ~umask())  # as a folder made by mkdir, not mkdtemp's owner-only 0700
        expected = None
        if os.path.lexists(out):
            check_output_folder(out, force, shown=shown)  # again: something may have been put there during the run
            expected = file_states(out)
        new, tmp = tmp, None  # the commit's from now on
        commit(new, out, expected, shown=shown)
        lock.close()
    except BaseException as exc:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if reserved:
            remove_empty([out])
        lock.close()
        remove_empty(made)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, shown, what, "; nothing was left behind") from None
        raise


@contextmanager
def rewritten_folder(out: str | os.PathLike[str], rebuilt: Collection[str], what: str = "the report") -> Iterator[Path]:
    """Yield a new folder beside the run folder ``out`` holding what ``out`` holds, ``rebuilt`` files and manifest aside.

    The files are linked, not copied (a hard link: the same file under a
    second name; a copy where the file system has no links), so that the
    run's data and anything of the user's in the folder stay as they are;
    the caller writes the rebuilt files and the manifest into the new folder
    (as new files: a linked file is never written to). When the block ends
    without error the new folder becomes ``out`` in one step
    (:func:`baccarat.execution.folder_commit.commit`); on any error or stop
    it is removed and ``out`` is left as it was. The caller holds the
    folder's lock (:func:`baccarat.execution.folder_lock.folder_lock`).
    """
    shown = out
    out = Path(os.path.abspath(out))
    tmp: Path | None = None
    try:
        with folder_lock(out):
            recover(out)
            expected = file_states(out)
            with held():
                tmp = Path(tempfile.mkdtemp(prefix=new_prefix(out), dir=out.parent))
                remove_at_hard_stop(tmp)
            step("the new folder made")
            carry_over(out, tmp, skip={MANIFEST_FILE, *rebuilt}, shown=shown)
            step("the run linked into the new folder")
            yield tmp
            os.chmod(tmp, stat.S_IMODE(os.stat(out).st_mode))
            new, tmp = tmp, None  # the commit's from now on
            commit(new, out, expected, replaceable=rebuilt, shown=shown)
    except BaseException as exc:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, shown, what, "; the run folder was left as it was") from None
        raise


def carry_over(source: Path, target: Path, skip: Collection[str], shown: str | os.PathLike[str]) -> None:
    """Link every file under ``source`` into ``target`` (folders made, symbolic links copied), but the names in ``skip``.

    A pipe, a socket or a device in the folder is refused: it cannot be kept.
    """
    for here, dirs, files in os.walk(source):
        rel = os.path.relpath(here, source)
        into = target if rel == "." else target / rel
        for name in sorted(dirs):
            path = os.path.join(here, name)
            if os.path.islink(path):
                continue
            os.mkdir(into / name, stat.S_IMODE(os.lstat(path).st_mode) | stat.S_IRWXU)
        for name in sorted(files) + sorted(d for d in dirs if os.path.islink(os.path.join(here, d))):
            relative = name if rel == "." else f"{rel}/{name}"
            if relative in skip:
                continue
            path = os.path.join(here, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), into / name)
            elif stat.S_ISREG(mode):
                try:
                    os.link(path, into / name, follow_symlinks=False)
                except OSError:
                    shutil.copy2(path, into / name, follow_symlinks=False)
            else:
                raise InputError(
                    f"{relative} is not a regular file, a folder or a link (a pipe, a socket or a device), "
                    "which a rebuilt run folder cannot keep; move it away",
                    path=str(shown),
                )


__all__ = ["atomic_folder", "carry_over", "check_output_folder", "rewritten_folder", "unremovable"]
