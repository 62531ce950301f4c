"""One command at a time writes a run folder, and readers never see it half replaced.

Writers. ``baccarat run --out OUT`` and ``baccarat report OUT`` hold
``.OUT.lock`` in OUT's parent folder (:func:`folder_lock`), from the
check of the folder to the end of their commit. A second writer does not
wait: it stops at once with one line naming the process that holds the
folder. The lock is the operating system's (``flock``): it is released
when its process ends, ``kill -9`` included.

The lock file is created exclusively (``O_CREAT | O_EXCL``) and holds one
line naming its process; only the command that created it removes it.
A file of that name that is not such a lock (a file of the user's) is
locked as it is, never written to, and never removed; a lock file that a
killed command left is taken over by the next command, which removes it.
So is the lock file of version 0.2 (its process id alone on one line,
:data:`OLD_NOTE`), whose command held its ``flock`` as this one does: once
no process holds that, no 0.2 command is writing the folder.

Readers. ``load``, ``compare`` and ``report`` read a run folder under
:func:`reading_lock`, a shared ``flock`` on the run folder itself; a
commit (:mod:`baccarat.execution.folder_commit`) takes the same lock
exclusively, so it waits for the readers of the run it replaces and a
reader never reads a run while it is being replaced.

When the parent folder cannot be written to, no lock file is made: then
no run can replace the folder either (a rename needs that parent).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from baccarat.errors import InputError, OutputError
from baccarat.interrupts import check, remove_at_hard_stop

_held: dict[tuple[int, int, str], int] = {}
"""The locks this process holds (parent folder's device and inode, folder name) and how many times each was taken."""

NOTE = "baccarat run-folder lock of process {pid}\n"
"""What a lock file made by a command holds: the only content a command takes for its own lock file."""

_NOTE = re.compile(r"baccarat run-folder lock of process ([0-9]{1,10})\n")
OLD_NOTE = re.compile(r"([0-9]{1,10})\n")
"""What a lock file made by version 0.2 holds: its process id, then a newline (taken over as a lock file of this version is)."""


def lock_path(out: Path) -> Path:
    """Return the lock file of the run folder ``out``: ``.OUT.lock`` beside it."""
    return out.parent / f".{out.name}.lock"


def _note_of(fd: int) -> str:
    try:
        return os.pread(fd, 64, 0).decode("ascii", "replace")
    except OSError:
        return ""


def _holder(fd: int) -> str:
    found = _NOTE.fullmatch(_note_of(fd)) or OLD_NOTE.fullmatch(_note_of(fd))
    return f"process {found.group(1)}" if found else "another process"


@contextmanager
def folder_lock(out: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the run folder ``out`` for this command; raise OutputError at once when another command holds it.

    The lock is taken again freely by the process that holds it (``report``
    locks before it reads, and the write it then makes locks again).
    """
    shown = str(out)
    out = Path(os.path.abspath(out))  # "." and "r/" name the folder itself, whose lock lies beside it
    try:
        parent = os.stat(out.parent)
    except OSError:
        yield  # no parent yet: the caller makes it, or fails with its own message
        return
    key = (parent.st_dev, parent.st_ino, out.name)
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    taken = _take(out, shown)
    if taken is None:
        yield
        return
    fd, owned = taken
    _held[key] = 1
    try:
        yield
    finally:
        del _held[key]
        if owned:
            _remove_own(fd, lock_path(out))  # while still held: a command waiting on the old file then takes a new one
        os.close(fd)


def holds_lock(out: str | os.PathLike[str]) -> bool:
    """Tell whether this process holds the lock of the run folder ``out``."""
    out = Path(os.path.abspath(out))
    try:
        parent = os.stat(out.parent)
    except OSError:
        return False
    return (parent.st_dev, parent.st_ino, out.name) in _held


def _remove_own(fd: int, path: Path) -> None:
    """Remove the lock file this command made, only when the name still holds that very file."""
    try:
        mine, there = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except OSError:
        return
    if (mine.st_dev, mine.st_ino) == (there.st_dev, there.st_ino) and there.st_nlink == 1:
        try:
            os.unlink(path)
        except OSError:
            pass


def _open_lock(path: Path, shown: str) -> tuple[int, bool] | None:
    """Open ``.OUT.lock``: made exclusively (owned), else the file already there (not owned unless a dead command's)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666), True
    except FileExistsError:
        pass
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENOTDIR):
            return None  # no lock where no folder can be made: the command then says why with its own message
        raise OutputError.from_os_error(exc, shown, "the lock of the run folder") from None
    try:
        fd = _open_existing(path)
    except FileNotFoundError:
        return -1, False  # removed meanwhile: try again
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(
                f"{path.name} beside the run folder is a symbolic link, not baccarat's lock; move it away", path=shown
            ) from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            return None
        raise OutputError.from_os_error(exc, shown, "the lock of the run folder") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"{path.name} beside the run folder is not a regular file, so it cannot be its lock; move it away", path=shown)
    return fd, False


def _open_existing(path: Path) -> int:
    """Open the lock file already there: for writing when allowed (to take a dead command's over), else for reading."""
    flags = os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        return os.open(path, os.O_RDWR | flags)
    except PermissionError:
        return os.open(path, os.O_RDONLY | flags)


def _take(out: Path, shown: str) -> tuple[int, bool] | None:
    """Open and lock ``.OUT.lock`` (None when the parent folder cannot be written to); refuse when another holds it."""
    path = lock_path(out)
    while True:
        opened = _open_lock(path, shown)
        if opened is None:
            return None
        fd, owned = opened
        if fd < 0:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise OutputError(
                f"another baccarat command ({holder}) is writing this run folder; wait for it to finish, or choose another folder",
                path=shown,
            ) from None
        mine = os.fstat(fd)
        try:
            there = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            there = None
        if there is None or (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
            os.close(fd)  # the holder removed that file as it finished: take the new one
            continue
        if owned:
            os.pwrite(fd, NOTE.format(pid=os.getpid()).encode("ascii"), 0)
            remove_at_hard_stop(path)
        elif _is_lock_note(_note_of(fd)) and there.st_nlink == 1 and there.st_uid == os.getuid():
            owned = True  # a lock file a killed command (or an ended 0.2 one) made, its flock gone: this command removes it
            _rewrite_note(fd)
        return fd, owned


def _is_lock_note(note: str) -> bool:
    """Tell whether ``note`` is exactly what a command's lock file holds: this version's :data:`NOTE` or 0.2's :data:`OLD_NOTE`."""
    return bool(_NOTE.fullmatch(note) or OLD_NOTE.fullmatch(note))


def _rewrite_note(fd: int) -> None:
    """Name this process in a lock file taken over, so that a command refused meanwhile names the live holder."""
    note = NOTE.format(pid=os.getpid()).encode("ascii")
    try:
        os.pwrite(fd, note, 0)
        os.ftruncate(fd, len(note))
    except OSError:
        pass  # opened for reading only: the old note stays, the lock holds all the same


READ_WAIT_NOTE_SECONDS = 2.0
"""How long a reader or a commit waits on the other before it says so on stderr."""


@contextmanager
def reading_lock(folder: str | os.PathLike[str]) -> Iterator[None]:
    """Read the run folder ``folder`` with no commit replacing it meanwhile (a shared lock on the folder itself).

    A commit under way is waited for (it is short); a folder that cannot be
    opened is read without the lock (the reader then fails with its own message).
    """
    path = os.path.abspath(folder)
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            yield
            return
        try:
            _wait_lock(fd, fcntl.LOCK_SH, f"a baccarat command is replacing the run folder {folder}; waiting for it")
            try:
                there = os.stat(path)
            except OSError:
                there = None
            mine = os.fstat(fd)
            if there is not None and (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
                continue  # replaced while this reader waited: read the new run
            yield
            return
        finally:
            os.close(fd)


def _wait_lock(fd: int, kind: int, saying: str) -> None:
    """Take ``flock`` ``kind`` on ``fd``, waiting with a stop honoured every 50 ms and one line on stderr after a while."""
    import sys

    start, said = time.monotonic(), False
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        check()
        if not said and time.monotonic() - start > READ_WAIT_NOTE_SECONDS:
            print(f"baccarat: {saying}", file=sys.stderr, flush=True)
            said = True
        time.sleep(0.05)


@contextmanager
def replacing_lock(folder: Path) -> Iterator[int | None]:
    """Hold the run folder ``folder`` exclusively against its readers (:func:`reading_lock`) while it is replaced.

    Yields the folder's file descriptor (None when it cannot be opened): the
    caller checks that ``folder`` still names it before replacing it.
    """
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        yield None
        return
    try:
        _wait_lock(fd, fcntl.LOCK_EX, f"waiting for the baccarat commands reading {folder} to finish before replacing it")
        yield fd
    finally:
        os.close(fd)


__all__ = ["folder_lock", "holds_lock", "lock_path", "reading_lock", "replacing_lock"]
