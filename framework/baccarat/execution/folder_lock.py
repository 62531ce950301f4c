"""One command at a time writes a run folder: a lock file beside it, taken without waiting.

``baccarat run --out OUT`` (from the check of the folder to the rename of
the finished run) and ``baccarat report OUT`` (from reading the folder to the
manifest written last) hold ``.OUT.lock`` in OUT's parent folder. A second
command into the same folder does not wait: it stops at once with one line
naming the process that holds the folder. The lock is the operating
system's (``flock``): it is released when its process ends, ``kill -9``
included, and the next command removes the file a dead process left.

When the parent folder cannot be written to, no lock is taken: then no run
can replace the folder either (a rename needs that parent), and the report
writes its files atomically all the same.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from baccarat.errors import OutputError
from baccarat.interrupts import remove_at_hard_stop

_held: dict[tuple[int, int, str], int] = {}
"""The locks this process holds (parent folder's device and inode, folder name) and how many times each was taken."""


def lock_path(out: Path) -> Path:
    """Return the lock file of the run folder ``out``: ``.OUT.lock`` beside it."""
    return out.parent / f".{out.name}.lock"


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"process {text}" if text.isdigit() else "another process"


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
    fd = _take(out, shown)
    if fd is None:
        yield
        return
    _held[key] = 1
    remove_at_hard_stop(lock_path(out))  # removed while still held, as below, should a stop end the process at once
    try:
        yield
    finally:
        del _held[key]
        try:
            os.unlink(lock_path(out))  # while still held: a command waiting on the old file then takes a new one
        except OSError:
            pass
        os.close(fd)


def _take(out: Path, shown: str) -> int | None:
    """Open and lock ``.OUT.lock`` (None when the parent folder cannot be written to); refuse when another holds it."""
    path = lock_path(out)
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return None
            raise OutputError.from_os_error(exc, shown, "the lock of the run folder") from None
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
        if there is not None and (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
            return fd
        os.close(fd)  # the holder removed that file as it finished: take the new one


__all__ = ["folder_lock", "lock_path"]
