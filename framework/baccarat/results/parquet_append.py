"""One Parquet file from parts written with one schema, without decoding them.

Workers encode their chunks of a run into Parquet parts (in memory); the main
process appends each part's row groups to the output file as they arrive,
byte for byte, and writes one footer at the end. Only the footer is read and
rewritten: its metadata (Thrift compact protocol) gets the row groups of every
part with their file offsets moved to where the bytes now lie. Encoding thus
runs in parallel and the output is a single ordinary Parquet file.

Parts must carry no page index or bloom filter (their offsets live outside the
footer); :func:`baccarat.parts.encode` writes them that way.
"""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path
from typing import Any, BinaryIO

MAGIC = b"PAR1"

# Thrift compact protocol type codes.
_TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(1, 13)

Field = tuple[int, int, Any]
"""A struct field: (field id, compact type, value)."""


class ParquetPartError(ValueError):
    """A part that is not a Parquet file this module can append."""


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self) -> int:
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind: int) -> Any:
        if kind in (_TRUE, _FALSE):  # only inside containers: one byte
            return self.byte() == _TRUE
        if kind == _BYTE:
            return self.byte()
        if kind in (_I16, _I32, _I64):
            return self.zigzag()
        if kind == _DOUBLE:
            value = struct.unpack_from("<d", self.data, self.pos)[0]
            self.pos += 8
            return value
        if kind == _BINARY:
            size = self.varint()
            value = self.data[self.pos: self.pos + size]
            self.pos += size
            return value
        if kind in (_LIST, _SET):
            header = self.byte()
            size = header >> 4
            if size == 15:
                size = self.varint()
            element = header & 0x0F
            return element, [self.value(element) for _ in range(size)]
        if kind == _MAP:
            size = self.varint()
            if size == 0:
                return 0, 0, []
            types = self.byte()
            key, val = types >> 4, types & 0x0F
            return key, val, [(self.value(key), self.value(val)) for _ in range(size)]
        if kind == _STRUCT:
            return self.struct()
        raise ParquetPartError(f"unknown Thrift type {kind} in the Parquet footer")

    def struct(self) -> list[Field]:
        fields: list[Field] = []
        last = 0
        while True:
            header = self.byte()
            if header == 0:
                return fields
            kind = header & 0x0F
            delta = header >> 4
            field_id = last + delta if delta else self.zigzag()
            value = kind == _TRUE if kind in (_TRUE, _FALSE) else self.value(kind)
            fields.append((field_id, kind, value))
            last = field_id


class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()

    def varint(self, n: int) -> None:
        while True:
            if n < 0x80:
                self.out.append(n)
                return
            self.out.append((n & 0x7F) | 0x80)
            n >>= 7

    def zigzag(self, n: int) -> None:
        self.varint((n << 1) ^ (n >> 63))

    def value(self, kind: int, value: Any) -> None:
        if kind in (_TRUE, _FALSE):
            self.out.append(_TRUE if value else _FALSE)
        elif kind == _BYTE:
            self.out.append(value & 0xFF)
        elif kind in (_I16, _I32, _I64):
            self.zigzag(value)
        elif kind == _DOUBLE:
            self.out += struct.pack("<d", value)
        elif kind == _BINARY:
            self.varint(len(value))
            self.out += value
        elif kind in (_LIST, _SET):
            element, items = value
            if len(items) < 15:
                self.out.append(len(items) << 4 | element)
            else:
                self.out.append(0xF0 | element)
                self.varint(len(items))
            for item in items:
                self.value(element, item)
        elif kind == _MAP:
            key, val, items = value
            self.varint(len(items))
            if items:
                self.out.append(key << 4 | val)
                for k, v in items:
                    self.value(key, k)
                    self.value(val, v)
        elif kind == _STRUCT:
            if isinstance(value, bytes):  # a struct already encoded
                self.out += value
            else:
                self.struct(value)
        else:
            raise ParquetPartError(f"unknown Thrift type {kind}")

    def struct(self, fields: list[Field]) -> None:
        last = 0
        for field_id, kind, value in fields:
            wire = (_TRUE if value else _FALSE) if kind in (_TRUE, _FALSE) else kind
            delta = field_id - last
            if 0 < delta <= 15:
                self.out.append(delta << 4 | wire)
            else:
                self.out.append(wire)
                self.zigzag(field_id)
            if kind not in (_TRUE, _FALSE):
                self.value(kind, value)
            last = field_id
        self.out.append(0)


def decode_struct(data: bytes) -> list[Field]:
    """Decode one Thrift compact struct (a Parquet footer, say) into fields."""
    return _Reader(data).struct()


def encode_struct(fields: list[Field]) -> bytes:
    """Encode fields as one Thrift compact struct."""
    writer = _Writer()
    writer.struct(fields)
    return bytes(writer.out)


def _get(fields: list[Field], field_id: int, default: Any = None) -> Any:
    for fid, _, value in fields:
        if fid == field_id:
            return value
    return default


def _set(fields: list[Field], field_id: int, kind: int, value: Any) -> list[Field]:
    out = [f for f in fields if f[0] != field_id] + [(field_id, kind, value)]
    return sorted(out, key=lambda f: f[0])


def _shift(fields: list[Field], ids: tuple[int, ...], delta: int) -> list[Field]:
    return [(fid, kind, value + delta if fid in ids else value) for fid, kind, value in fields]


# Field ids of parquet.thrift.
_FMD_SCHEMA, _FMD_NUM_ROWS, _FMD_ROW_GROUPS, _FMD_KEY_VALUE = 2, 3, 4, 5
_RG_COLUMNS, _RG_FILE_OFFSET, _RG_ORDINAL = 1, 5, 7
_CC_FILE_OFFSET, _CC_META, _CC_OFFSET_INDEX, _CC_COLUMN_INDEX = 2, 3, 4, 6
_CMD_OFFSETS = (9, 10, 11)  # data_page_offset, index_page_offset, dictionary_page_offset
_CMD_BLOOM = 14


def split_part(part: bytes) -> tuple[list[Field], memoryview]:
    """Return a part's footer metadata and its body (the bytes between the magic and the footer)."""
    if len(part) < 12 or part[:4] != MAGIC or part[-4:] != MAGIC:
        raise ParquetPartError("not a Parquet file")
    footer_length = struct.unpack_from("<I", part, len(part) - 8)[0]
    footer_start = len(part) - 8 - footer_length
    metadata = decode_struct(part[footer_start: len(part) - 8])
    return metadata, memoryview(part)[4:footer_start]


def _copy_rest(source: BinaryIO, start: int, target: BinaryIO) -> None:
    """Append the bytes of ``source`` from ``start`` on to ``target`` (in the kernel where it can: no copy through Python)."""
    target.flush()
    out = target.tell()
    size = os.fstat(source.fileno()).st_size - start
    try:
        while size > 0:
            done = os.copy_file_range(source.fileno(), target.fileno(), size, start, out)
            if done == 0:
                break
            start, out, size = start + done, out + done, size - done
    except (AttributeError, OSError):  # no copy_file_range here (or not between these files): copy the rest by hand
        pass
    target.seek(out)
    if size > 0:
        source.seek(start)
        shutil.copyfileobj(source, target, 1 << 20)


class ParquetAppender:
    """Write one Parquet file from parts of one schema, appended in order."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file: BinaryIO = self.path.open("wb")
        self._file.write(MAGIC)
        self._position = len(MAGIC)
        self._head: list[Field] | None = None
        # Row groups are kept encoded: bytes are not followed by the garbage collector, nested lists would be (a run
        # appends thousands of row groups, and every full collection would walk all of them).
        self._row_groups: list[bytes] = []
        self.rows = 0

    def append(self, part: bytes) -> None:
        """Append the row groups of ``part`` (a whole Parquet file in memory)."""
        metadata, body = split_part(part)
        if self._head is None:
            self._head = metadata
        elif (_get(metadata, _FMD_SCHEMA) != _get(self._head, _FMD_SCHEMA)
              or _get(metadata, _FMD_KEY_VALUE) != _get(self._head, _FMD_KEY_VALUE)):
            raise ParquetPartError("a part has another schema than the first part")
        delta = self._position - len(MAGIC)
        for group in _get(metadata, _FMD_ROW_GROUPS, (_STRUCT, []))[1]:
            self._row_groups.append(encode_struct(self._moved_row_group(group, delta)))
        self.rows += _get(metadata, _FMD_NUM_ROWS, 0)
        self._file.write(body)
        self._position += len(body)

    def _moved_row_group(self, group: list[Field], delta: int) -> list[Field]:
        element, columns = _get(group, _RG_COLUMNS)
        moved = []
        for column in columns:
            if _get(column, _CC_OFFSET_INDEX) is not None or _get(column, _CC_COLUMN_INDEX) is not None:
                raise ParquetPartError("a part carries a page index, which cannot be moved")
            meta = _get(column, _CC_META)
            if meta is None or _get(meta, _CMD_BLOOM) is not None:
                raise ParquetPartError("a part carries a bloom filter or no column metadata")
            column = _shift(column, (_CC_FILE_OFFSET,), delta)
            moved.append(_set(column, _CC_META, _STRUCT, _shift(meta, _CMD_OFFSETS, delta)))
        group = _set(group, _RG_COLUMNS, _LIST, (element, moved))
        group = _shift(group, (_RG_FILE_OFFSET,), delta)
        if _get(group, _RG_ORDINAL) is None:
            return group
        ordinal = len(self._row_groups)
        if ordinal > 0x7FFF:  # the optional ordinal is an i16: leave it out past that
            return [f for f in group if f[0] != _RG_ORDINAL]
        return _set(group, _RG_ORDINAL, _I16, ordinal)

    def take(self, spool: ParquetAppender) -> None:
        """Append every row group appended so far to ``spool`` (another appender of the same schema), then remove it.

        Spools let rows arrive in one order and be written in another: a run
        writes each strategy's ledger parts to its own spool as chunks come,
        then takes the spools one after the other.
        """
        spool._file.close()
        try:
            if spool._head is None:
                return
            if self._head is None:
                self._head = spool._head
            elif (_get(spool._head, _FMD_SCHEMA) != _get(self._head, _FMD_SCHEMA)
                  or _get(spool._head, _FMD_KEY_VALUE) != _get(self._head, _FMD_KEY_VALUE)):
                raise ParquetPartError("a spool has another schema than this file")
            delta = self._position - len(MAGIC)
            for group in spool._row_groups:
                self._row_groups.append(encode_struct(self._moved_row_group(decode_struct(group), delta)))
            with spool.path.open("rb") as source:
                _copy_rest(source, len(MAGIC), self._file)
            self._position += spool._position - len(MAGIC)
            self.rows += spool.rows
        finally:
            spool.path.unlink(missing_ok=True)

    def close(self) -> None:
        """Write the footer and close the file; at least one part must have been appended."""
        try:
            if self._head is None:
                raise ParquetPartError("no part was appended")
            metadata = _set(self._head, _FMD_ROW_GROUPS, _LIST, (_STRUCT, self._row_groups))
            metadata = _set(metadata, _FMD_NUM_ROWS, _I64, self.rows)
            footer = encode_struct(metadata)
            self._file.write(footer)
            self._file.write(struct.pack("<I", len(footer)))
            self._file.write(MAGIC)
        finally:
            self._file.close()

    def abort(self) -> None:
        """Close the file without finishing it (the caller removes it)."""
        self._file.close()
