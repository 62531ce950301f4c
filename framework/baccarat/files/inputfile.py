"""Opening a user's input file: regular files only, and never more read than a size cap.

A path that names a device (``/dev/zero``, ``/dev/urandom``), a named pipe
or a socket would be read without end, or would block: such a file is
refused as "not a regular file" before a byte is read. A FIFO is opened
without blocking, so that asking about it cannot hang. Files larger than
their cap are refused before they are read whole.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from baccarat.errors import InputError

MAX_YAML_BYTES = 2 << 20
"""Largest experiment or rules file read (2 MiB): 50,000 values, the most a document may hold, fit in far less."""

MAX_SHOE_FILE_BYTES = 1 << 30
"""Largest recorded shoe file read (1 GiB, several hundred thousand eight-deck shoes)."""


MAX_PLUGIN_BYTES = 16 << 20
"""Largest plugin file imported (16 MiB): a module of code, not data."""


def _size(limit: int) -> str:
    return f"{limit >> 30} GiB" if limit >= 1 << 30 else f"{limit >> 20} MiB"


def open_regular(path: str | Path, what: str, limit: int, cls: type[InputError] = InputError) -> BinaryIO:
    """Open ``path`` for reading in binary, refusing a folder, anything but a regular file, or more than ``limit`` bytes.

    ``what`` names the file in errors (``"a YAML file"``); errors are of class
    ``cls`` and name the path.
    """
    where = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise cls(f"is a folder, not {what}", path=where) from None
    except OSError as exc:
        raise cls(f"cannot read the file: {exc.strerror or exc}", path=where) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise cls(f"is a folder, not {what}", path=where)
        if not stat.S_ISREG(info.st_mode):
            raise cls(f"is not a regular file (a device, a pipe or a socket), so it cannot be read as {what}", path=where)
        if info.st_size > limit:
            raise cls(f"is {info.st_size:,} bytes, more than the {_size(limit)} {what} may hold", path=where)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, what: str, limit: int, cls: type[InputError] = InputError) -> bytes:
    """Return the bytes of the regular file ``path`` (see :func:`open_regular`), never reading more than ``limit``."""
    with open_regular(path, what, limit, cls) as handle:
        try:
            raw = handle.read(limit + 1)
        except OSError as exc:
            raise cls(f"cannot read the file: {exc.strerror or exc}", path=str(path)) from None
    if len(raw) > limit:  # it grew while being read
        raise cls(f"is more than the {_size(limit)} {what} may hold", path=str(path))
    return raw
