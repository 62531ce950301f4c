"""Output files written whole or not at all, and output names the file system can hold.

A file is written beside its place and renamed (:func:`atomic_file`). On
any failure, Ctrl-C or SIGTERM included, the temporary file is removed, and
so are the parent folders made for it; a failure of the operating system (a
folder that cannot be written to, a full disk) becomes an
:class:`~baccarat.errors.OutputError`, one line and exit status 1.
:func:`check_output_name` refuses names the file system cannot hold. A
run's whole folder is written the same way by
:mod:`baccarat.execution.run_folder`.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from baccarat.errors import InputError, OutputError
from baccarat.interrupts import held, remove_at_hard_stop

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


NAME_ROOM = 32
"""Bytes kept free in an output's name for the temporary names made from it (``.NAME.XXXXXXXX``)."""


def _limit(where: Path, name: str, default: int) -> int:
    try:
        return int(os.pathconf(where if where.is_dir() else where.parent, name))
    except (OSError, ValueError, AttributeError):
        return default


def _shown_name(name: str) -> str:
    return repr(name if len(name) <= 40 else name[:40] + "...")


def check_output_name(out: Path, option: str = "--out") -> None:
    """Refuse an output path the file system cannot hold, before any work: a name or a path too long, a NUL byte.

    Every name in the path must fit the file system's limit (255 bytes on
    most), the last one with room for the temporary names made from it.
    """
    text = os.fspath(out)
    if "\0" in text:
        raise InputError(f"{option} holds a NUL byte, which no file name may hold; choose another {option}")
    where = nearest_existing(out)
    name_max = _limit(where, "PC_NAME_MAX", 255)
    for part in out.parts:
        size = len(os.fsencode(part))
        if size > name_max:
            raise InputError(
                f"the name {_shown_name(part)} in {option} is {size:,} bytes long, and this file system allows "
                f"at most {name_max} bytes a name; choose a shorter {option}"
            )
    size = len(os.fsencode(out.name))
    if size > name_max - NAME_ROOM:
        raise InputError(
            f"the name {_shown_name(out.name)} of {option} is {size:,} bytes long; it may have at most "
            f"{name_max - NAME_ROOM} bytes (the file system allows {name_max}, and the temporary name the "
            f"output is written under is longer); choose a shorter {option}"
        )
    path_max = _limit(where, "PC_PATH_MAX", 4096)
    size = len(os.fsencode(os.path.abspath(out)))
    if size + NAME_ROOM > path_max:
        raise InputError(
            f"{option} is a path of {size:,} bytes, and this file system allows at most {path_max - NAME_ROOM} "
            f"here; choose a shorter {option}"
        )


@contextmanager
def atomic_file(path: str | os.PathLike[str], what: str = "the file", suffix: str = "") -> Iterator[Path]:
    """Yield a temporary file name beside ``path``; rename it to ``path`` when the block ends without error.

    ``path`` may exist only as a regular file (it is replaced); the new file
    gets the usual permissions (0666 less the umask). On any error or
    interrupt, the temporary file and the parents made for it are removed,
    and an operating-system error is raised as :class:`OutputError`.
    """
    path = Path(path)
    check_output_name(path)
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
        remove_stale_files(path, suffix or ".tmp")
        with held():  # the file and the name that says where it is, together
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-", suffix=suffix or ".tmp", dir=path.parent)
            os.close(fd)
            tmp = Path(name)
            remove_at_hard_stop(tmp)
        yield tmp
        os.chmod(tmp, 0o666 & ~umask())
        with held():
            os.replace(tmp, path)
            tmp = None
    except BaseException as exc:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        remove_empty(made)
        cause = os_error_of(exc)
        if cause is not None and not isinstance(exc, OutputError):
            raise OutputError.from_os_error(cause, path, what, "; nothing was left behind") from None
        raise


def remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (innermost first) while they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            break


PID_MAX = 1 << 22
"""The largest process id any Linux system gives (``PID_MAX_LIMIT``): a larger number in a name is no process's."""


def process_running(pid: int) -> bool:
    """Tell whether process ``pid`` runs on this machine (one of another user counts as running; no number is too large)."""
    if not 0 < pid <= PID_MAX:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, ValueError):
        return False
    return True


def remove_stale_files(path: Path, suffix: str) -> list[str]:
    """Remove the temporary files that commands writing ``path`` left when they were killed (``kill -9``, a power cut).

    :func:`atomic_file` names its temporary file ``.NAME.PID-XXXXXXXX`` and
    ``suffix`` after its process; one whose process no longer runs on this
    machine is removed (a regular file of this user only). Return the names removed.
    """
    pattern = re.compile(re.escape(f".{path.name}.") + r"([0-9]+)-[A-Za-z0-9_]{8}" + re.escape(suffix))
    removed = []
    for entry in left_by_dead_processes(path.parent, pattern):
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue
    return removed


def left_by_dead_processes(parent: Path, pattern: re.Pattern[str]) -> list[os.DirEntry[str]]:
    """Return the entries of ``parent``, this user's own, that a process no longer running left.

    An entry's name must match ``pattern`` whole, its first group being the
    id of the process that made it; one that cannot be read is passed over.
    """
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return []
    left = []
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found is None or len(found.group(1)) > 10 or int(found.group(1)) > PID_MAX or process_running(int(found.group(1))):
            continue  # a number no process has: not a name a command of ours made
        try:
            if entry.stat(follow_symlinks=False).st_uid == os.getuid():
                left.append(entry)
        except OSError:
            continue
    return left


def umask() -> int:
    """Return the process's umask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["PID_MAX", "atomic_file", "check_output_name", "nearest_existing", "os_error_of", "process_running", "remove_empty", "umask"]
