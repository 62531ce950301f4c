"""Reading a shoe file as lines of UTF-8 text, with positions for every error.

A shoe file is read line by line (never whole), so files of any number of
shoes are read in bounded memory. Binary data (a NUL or another control
byte), text that is not UTF-8 and absurdly long lines are errors naming the
line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from baccarat.errors import ShoeError
from baccarat.files.inputfile import MAX_SHOE_FILE_BYTES, open_regular

Item = TypeVar("Item")

MAX_LINE_BYTES = 1 << 20
"""Longest line accepted (1 MiB); an eight-deck shoe on one line takes about 1.5 KiB."""

_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\v\f\r") + b"\x7f"
_TOKEN = re.compile(r"[^\s,]+")


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` for every line of ``path``, line ends (LF, CRLF or CR) removed.

    Raises :class:`ShoeError` for an unreadable file, binary data, text that is
    not UTF-8, or a line longer than :data:`MAX_LINE_BYTES`.
    """
    where = str(path)
    try:
        handle = open_regular(path, "a shoe file", MAX_SHOE_FILE_BYTES, ShoeError)
    except ShoeError as exc:
        message = "cannot read the file: Is a directory" if exc.message.startswith("is a folder") else exc.message
        raise ShoeError(message.replace("cannot read the file", "cannot read the shoe file"), path=where) from None
    with handle:
        number = 0
        while True:
            try:
                raw = handle.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise ShoeError(f"cannot read the shoe file: {exc.strerror or exc}", path=where, line=number + 1) from None
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise ShoeError(f"line longer than {MAX_LINE_BYTES:,} bytes: this is not a shoe file", path=where, line=number)
            text = decode_line(raw, where, number)
            if "\r" in text:  # old Mac line ends: a lone carriage return ends a line, as editors show it
                parts = text.split("\r")
                for part in parts[:-1]:
                    yield number, part
                    number += 1
                text = parts[-1]
            yield number, text


def decode_line(raw: bytes, path: str, line: int) -> str:
    """Decode one raw line as UTF-8 text (line end and a leading byte-order mark removed)."""
    if len(raw.translate(None, _CONTROL)) != len(raw):
        offset = next(i for i, b in enumerate(raw) if b in _CONTROL)
        column = len(raw[:offset].decode("utf-8", errors="replace")) + 1
        raise ShoeError(
            f"not a text file: it holds the control byte 0x{raw[offset]:02x}; a shoe file is UTF-8 text",
            path=path,
            line=line,
            column=column,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
        raise ShoeError(
            f"not UTF-8 text: the byte 0x{raw[exc.start]:02x} cannot be read; a shoe file is UTF-8 text",
            path=path,
            line=line,
            column=column,
        ) from None
    if line == 1 and text.startswith("\ufeff"):
        text = text[1:]
    return text.rstrip("\r\n")


def strip_comment(text: str) -> str:
    """Return ``text`` without a ``#`` comment."""
    return text.split("#", 1)[0]


def split_tokens(text: str) -> list[str]:
    """Split ``text`` into tokens separated by whitespace or commas."""
    return text.replace(",", " ").split()


def token_columns(text: str) -> Iterator[tuple[str, int]]:
    """Yield ``(token, column)`` for the tokens of ``text`` (columns from 1), as :func:`split_tokens` cuts them."""
    for match in _TOKEN.finditer(text):
        yield match.group(), match.start() + 1


def shoe_lines(
    lines: Iterable[tuple[int, str]], parse: Callable[[str, str, int], list[Item]], path: str
) -> Iterator[tuple[int, int, str, list[Item]]]:
    """Yield ``(shoe_id, line, text, parse(text, path, line))`` for each line of a shoe-a-line file that holds a shoe.

    A line ``parse`` finds empty (blank, or a comment alone) holds none; the shoes are numbered from 1 in file order.
    """
    shoe_id = 0
    for line, text in lines:
        parsed = parse(text, path, line)
        if parsed:
            shoe_id += 1
            yield shoe_id, line, text, parsed
