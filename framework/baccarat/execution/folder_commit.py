"""The one step that makes a new run folder visible, and what the next command does when a command was killed in it.

Every command that writes a run folder (``run``, ``report``) writes a
whole new folder beside it, ``.OUT.new-PID-ID`` (PID: its process; ID:
eight random characters, also recorded as the manifest's ``folder_id``),
then :func:`commit` makes it ``OUT`` in one step:

1. the new folder's files and the folder itself are flushed to the disk;
2. the new folder and the previous run are exchanged by one system call
   (``renameat2`` with ``RENAME_EXCHANGE``): ``OUT`` names either the
   previous run or the new one, complete, at every instant; the previous
   run now lies at ``.OUT.new-PID-ID``;
3. the previous run is removed, its manifest last; anything found in it
   that neither run wrote nor the command was asked to replace stops the
   removal, and what is left is renamed ``OUT.previous-run`` and said.

Where the file system cannot exchange two names, the previous run is first
renamed ``.OUT.replaced-PID-ID`` and the new folder then renamed ``OUT``.

A command killed at any point (``kill -9``, a power cut) leaves ``OUT`` as
it was or as it was to become, complete. The next command into the same
folder, holding its lock, looks at what a dead process left there
(:func:`recover`) and says on stderr what it found and what it did:

- ``.OUT.new-PID-ID`` while ``OUT`` is not the folder ID: the dead
  command's unfinished new folder, removed;
- ``.OUT.new-PID-ID`` while ``OUT`` is the folder ID: the previous run,
  which the dead command had replaced, removed as step 3 does;
- ``.OUT.replaced-PID-ID`` while ``OUT`` is missing: the previous run,
  put back;
- anything else of these names (a previous version's leftovers, a folder of
  the user's): left as it is, and said.

``BACCARAT_TEST_KILL_AT_STEP=k`` makes the process kill itself
(``SIGKILL``) at the k-th :func:`step` of its commit: the tests stop a
command at every step this way. ``BACCARAT_TEST_NO_EXCHANGE=1`` takes the
two-rename path.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import signal
import stat
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from baccarat.errors import OutputError
from baccarat.execution.folder_lock import replacing_lock
from baccarat.execution.manifest import MANIFEST_FILE, read_manifest
from baccarat.files.outfolder import PID_MAX, process_running
from baccarat.interrupts import forget_at_hard_stop, held

KILL_AT_STEP = "BACCARAT_TEST_KILL_AT_STEP"
NO_EXCHANGE = "BACCARAT_TEST_NO_EXCHANGE"
_steps = 0


def step(name: str) -> None:
    """Mark a step of a commit; under ``BACCARAT_TEST_KILL_AT_STEP=k`` the k-th step of the process kills it.

    ``name`` says which step it is (for the reader of the code and of a
    failing test: ``BACCARAT_TEST_SHOW_STEPS=1`` prints each on stderr).
    """
    global _steps
    target = os.environ.get(KILL_AT_STEP)
    if not target:
        return
    _steps += 1
    if os.environ.get("BACCARAT_TEST_SHOW_STEPS"):
        print(f"step {_steps}: {name}", file=sys.stderr, flush=True)
    if target.isdigit() and _steps == int(target):
        os.kill(os.getpid(), signal.SIGKILL)


NEW, REPLACED = "new", "replaced"
_LEFTOVER = re.compile(r"\.(?P<out>.+)\.(?P<kind>new|run|replaced)-(?P<pid>[0-9]+)-(?P<id>[A-Za-z0-9_]{8})")


def new_prefix(out: Path) -> str:
    """Return the start of the name of the new folder that will become ``out``: ``.OUT.new-PID-``."""
    return f".{out.name}.{NEW}-{os.getpid()}-"


def folder_id(folder: Path) -> str:
    """Return the ID of a new folder (the end of its name ``.OUT.new-PID-ID``), which its manifest records."""
    return folder.name.rsplit("-", 1)[-1]


def recorded_id(folder: Path) -> str | None:
    """Return the ``folder_id`` that the manifest of the run folder ``folder`` records, else None."""
    try:
        manifest = read_manifest(folder / MANIFEST_FILE)
    except Exception:  # noqa: BLE001 - a damaged manifest records nothing
        return None
    value = manifest.get("folder_id") if manifest is not None else None
    return value if isinstance(value, str) else None


# The exchange ----------------------------------------------------------------------------------------------------

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _renameat2() -> Callable[..., int] | None:
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def exchange(a: Path, b: Path) -> bool:
    """Exchange the names ``a`` and ``b`` in one step; return False where the system or file system cannot."""
    if os.environ.get(NO_EXCHANGE):
        return False
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


# The commit ------------------------------------------------------------------------------------------------------


def flush(folder: Path) -> None:
    """Write every file under ``folder``, and the folders themselves, to the disk (``fsync``)."""
    for here, _dirs, files in os.walk(folder):
        for name in files:
            try:
                fd = os.open(os.path.join(here, name), os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue  # a link, or a file of the user's this command may not read: it was not written by it
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_folder(Path(here))


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def commit(
    new: Path,
    out: Path,
    expected: Mapping[str, tuple[int, int, int]] | None,
    replaceable: Collection[str] = (),
    shown: str | os.PathLike[str] | None = None,
) -> None:
    """Make the complete folder ``new`` the run folder ``out`` (absolute) in one step; remove the previous run, if any.

    ``expected`` is what the previous run held when the command checked it
    (:func:`file_states`, None when ``out`` did not exist); the previous run is
    removed only when it holds nothing else than that, files linked into
    ``new`` and the files named in ``replaceable`` (see :func:`retire`).
    ``shown`` is ``out`` as the user wrote it, for messages. The new folder
    is the commit's from now on: it is removed should the commit fail before
    the swap, and never after.
    """
    shown = str(out if shown is None else shown)
    swapped = False
    try:
        step("flush the new folder")
        flush(new)
        step("the new folder flushed")
        with held():
            if not os.path.lexists(out):
                os.rename(new, out)  # nothing to replace (a folder made meanwhile makes this fail, and nothing is lost)
                swapped = True
                forget_at_hard_stop(new)
                step("the new folder renamed into place")
                _fsync_folder(out.parent)
                return
            with replacing_lock(out) as fd:
                if fd is not None:
                    there, mine = os.stat(out, follow_symlinks=False), os.fstat(fd)
                    if (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
                        raise OutputError("was replaced by something else while the command ran; nothing was changed", path=shown)
                old = _swap(new, out)
                swapped = True
                forget_at_hard_stop(new)  # from now on that name may hold the previous run: a hard stop leaves it to the next command
                step("the new folder in place")
                _fsync_folder(out.parent)
                retire(old, out, expected, replaceable, shown)
    except BaseException:
        if not swapped:
            shutil.rmtree(new, ignore_errors=True)
        raise


def _swap(new: Path, out: Path) -> Path:
    """Put ``new`` in the place of ``out``; return where the previous run now is. On failure, ``out`` is as it was."""
    if exchange(new, out):
        return new
    old = new.with_name(new.name.replace(f".{NEW}-", f".{REPLACED}-", 1))
    os.rename(out, old)
    step("the previous run moved aside")
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(old, out)  # put it back: the command fails, the run folder stays as it was
        raise
    return old


def file_states(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Return (inode, size, modification time) of every entry under ``folder``, by path from it: what tells a change."""
    states = {}
    for here, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(here, name)
            st = os.lstat(path)
            directory = stat.S_ISDIR(st.st_mode)
            states[os.path.relpath(path, folder)] = (st.st_ino, 0 if directory else st.st_size, 0 if directory else st.st_mtime_ns)
    return states


def _strangers(old: Path, out: Path, expected: Mapping[str, tuple[int, int, int]] | None, replaceable: Collection[str]) -> list[str]:
    """Return the entries of the previous run ``old`` that neither run wrote (none inside another)."""
    found: list[str] = []
    for name, state in sorted(file_states(old).items()):
        if any(name.startswith(parent + "/") for parent in found):
            continue
        if expected is not None and expected.get(name) == state:
            continue
        if name in replaceable:
            continue
        try:
            there = os.lstat(out / name)
        except OSError:
            there = None
        if there is not None and there.st_ino == state[0] and not stat.S_ISDIR(there.st_mode):
            continue  # the same file, linked into the new folder (a report keeps the run's data and the user's files)
        if expected is None and stat.S_ISDIR(os.lstat(old / name).st_mode):
            continue
        if expected is None and _listed_unchanged(old, name):
            continue
        found.append(name)
    return found


def _listed_unchanged(old: Path, name: str) -> bool:
    from baccarat.execution.manifest import file_difference

    try:
        manifest = read_manifest(old / MANIFEST_FILE)
    except Exception:  # noqa: BLE001
        return False
    files = manifest.get("files") if manifest is not None else None
    entry = files.get(name) if isinstance(files, dict) else None
    if name == MANIFEST_FILE:
        return manifest is not None
    return isinstance(entry, dict) and (old / name).is_file() and file_difference(old / name, entry) is None


def retire(
    old: Path,
    out: Path,
    expected: Mapping[str, tuple[int, int, int]] | None,
    replaceable: Collection[str] = (),
    shown: str | os.PathLike[str] | None = None,
) -> None:
    """Remove the previous run ``old`` that ``out`` replaced, its manifest last; never anything of the user's.

    What the command checked (``expected``), what is linked into ``out`` and
    the ``replaceable`` names are removed. A file of the user's put in the
    folder while the command ran is moved into the new folder when its name
    is free there (and outside the datasets); else the previous run is kept,
    renamed ``OUT.previous-run``, and an :class:`OutputError` says so.
    ``expected`` None: the previous run is checked against its own manifest
    (the next command finishing a killed one's removal).
    """
    shown = str(out if shown is None else shown)
    foreign = _adopt_strangers(old, out, _strangers(old, out, expected, replaceable))
    reason: tuple[str, str] | None = None
    if foreign is None:
        failures: list[tuple[str, BaseException]] = []
        _remove(old, failures)
        if not failures:
            return
        path, exc = failures[0]
        reason = (os.path.relpath(path, old), (exc.strerror if isinstance(exc, OSError) else None) or str(exc))
    kept = _keep_visible(old, out)
    where = Path(shown).with_name(kept.name) if kept != old else old
    if foreign is not None:
        raise OutputError(
            f"the new results are in place; the previous run also held {foreign}, which neither run wrote, so what is left "
            f"of it was kept in {where}",
            path=shown,
        )
    assert reason is not None
    raise OutputError(
        f"the new results are in place, but the previous run could not be removed entirely "
        f"({reason[0]}: {reason[1]}); what is left of it is in {where}",
        path=shown,
    )


DATASETS = ("ledger.parquet", "rounds.parquet")
"""The folders of a run read whole as one dataset: nothing of the user's is ever moved into them."""


def _adopt_strangers(old: Path, out: Path, strangers: list[str]) -> str | None:
    """Move the user's files found in the previous run into the new one where their names are free; return the first that cannot be."""
    for name in strangers:
        if name.split("/")[0] in DATASETS or os.path.lexists(out / name) or not (out / name).parent.is_dir():
            return name
        os.rename(old / name, out / name)
    return None


def _remove(old: Path, failures: list[tuple[str, BaseException]]) -> None:
    """Remove the folder ``old``, entry by entry, its manifest last (until then it still says what it is)."""

    def failed(function: object, path: str, exc: BaseException | tuple[Any, ...]) -> None:
        failures.append((path, exc[1] if isinstance(exc, tuple) else exc))

    with os.scandir(old) as entries:
        names = sorted((entry.name for entry in entries), key=lambda name: name == MANIFEST_FILE)
    for name in names:
        path = old / name
        try:
            if path.is_dir() and not path.is_symlink():
                if sys.version_info >= (3, 12):
                    shutil.rmtree(path, onexc=failed)
                else:
                    shutil.rmtree(path, onerror=failed)
            else:
                path.unlink()
        except OSError as exc:
            failures.append((str(path), exc))
        if failures:
            return
        step(f"removed {name} of the previous run")
    try:
        old.rmdir()
    except OSError as exc:
        failures.append((str(old), exc))
        return
    step("the previous run removed")


def _keep_visible(old: Path, out: Path) -> Path:
    for n in range(1, 1000):
        candidate = out.with_name(f"{out.name}.previous-run" + (f"-{n}" if n > 1 else ""))
        if not os.path.lexists(candidate):
            try:
                os.rename(old, candidate)
                return candidate
            except OSError:
                return old
    return old


# What a killed command left --------------------------------------------------------------------------------------


def leftovers(out: Path) -> list[tuple[os.DirEntry[str], re.Match[str]]]:
    """Return the entries beside ``out`` that a command writing it left, whose process no longer runs (this user's own)."""
    try:
        entries = list(os.scandir(out.parent))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if match is None or match["out"] != out.name:
            continue
        if len(match["pid"]) > 10 or int(match["pid"]) > PID_MAX or process_running(int(match["pid"])):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid() or not entry.is_dir(follow_symlinks=False):
                continue
        except OSError:
            continue
        found.append((entry, match))
    return sorted(found, key=lambda item: (item[1]["kind"] != REPLACED, item[0].name))


def recover(out: Path, say: Callable[[str], None] | None = None) -> list[str]:
    """Put back or remove what commands killed while writing ``out`` left beside it; return (and say) what was done.

    Called by every command that writes ``out``, holding its lock, before any
    work; see the module's description for what is done with each leftover.
    """
    said: list[str] = []
    tell = say or (lambda text: print(f"baccarat: {text}", file=sys.stderr, flush=True))

    def note(text: str) -> None:
        said.append(text)
        tell(text)

    for entry, match in leftovers(out):
        path, pid, ident = Path(entry.path), match["pid"], match["id"]
        current = recorded_id(out) if os.path.lexists(out) else None
        try:
            if match["kind"] == REPLACED and not os.path.lexists(out):
                inner = path / out.name
                if _old_layout(path, out):
                    os.rename(inner, out)
                    path.rmdir()
                else:
                    os.rename(path, out)
                note(f"found the previous run of {out.name} moved aside by process {pid}, killed while it replaced it: put it back")
            elif current == ident:
                try:
                    retire(path, out, None)
                except OutputError as exc:
                    note(
                        f"found the previous run of {out.name} left by process {pid}, killed after its new run was in place: {exc.message}"
                    )
                else:
                    note(f"found the previous run of {out.name} left by process {pid}, killed after its new run was in place: removed it")
            elif match["kind"] != REPLACED:  # "run": the name a previous version gave it
                shutil.rmtree(path)
                note(f"found the unfinished folder {entry.name} of process {pid}, killed before its run was in place: removed it")
            else:
                note(
                    f"found {entry.name}, a previous run of {out.name} that process {pid} moved aside: "
                    "left it there; look at it, and remove it yourself"
                )
        except OSError as exc:
            note(f"found {entry.name}, left by process {pid}, and could not deal with it ({exc.strerror}); left it there")
    return said


def _old_layout(path: Path, out: Path) -> bool:
    """Tell whether ``path`` is a previous version's ``.OUT.replaced-PID-X/OUT``: a folder holding just the run."""
    try:
        return [entry.name for entry in os.scandir(path)] == [out.name]
    except OSError:
        return False


__all__ = ["commit", "exchange", "file_states", "folder_id", "new_prefix", "recover", "recorded_id", "retire", "step"]
