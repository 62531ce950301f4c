"""Arrow columns straight from numpy: exact decimals, strings, card lists, enums.

The rounds and ledger frames are built here from integer columns without a
Python object per value: a ``Decimal(38, 6)`` column is its int128 buffer of
micro-units, a string column is an offsets buffer and a bytes buffer. polars
takes the result without copying (``pl.from_arrow``), and Parquet parts are
encoded from it directly (:func:`encode_parquet`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from baccarat.table.cards import card_label

_LABELS = pa.array(
    [card_label(code) if code % 16 and code % 16 <= 13 and code // 16 <= 4 else "" for code in range(128)], type=pa.large_string()
)
"""Every card code's label (``AS``, ``10H``; a rank-only card ``A``), by code."""

# The labels as bytes, by code (rows padded with zeros), and their lengths: what _card_strings copies.
_LABEL_LENGTHS = np.array([len(label.encode()) for label in _LABELS.to_pylist()], dtype=np.int64)
_LABEL_BYTES = np.zeros((128, int(_LABEL_LENGTHS.max())), dtype=np.uint8)
for _code, _label in enumerate(_LABELS.to_pylist()):
    _LABEL_BYTES[_code, : len(_label)] = np.frombuffer(_label.encode(), dtype=np.uint8)


def decimal_micros(micros: np.ndarray, scale: int = 1, digits: int = 38) -> pa.Array:
    """Return integer micro-units (times ``scale``: MICROS_PER_CENT for cents) as an exact ``decimal128(digits, 6)`` array."""
    n = len(micros)
    words = np.empty((n, 2), dtype=np.int64)  # little-endian int128: the low word, then the sign extension
    low = words[:, 0]
    if scale == 1:
        np.copyto(low, micros, casting="unsafe")
    else:
        np.multiply(micros, scale, out=low, dtype=np.int64, casting="unsafe")
    np.right_shift(low, 63, out=words[:, 1])
    return pa.Array.from_buffers(pa.decimal128(digits, 6), n, [None, pa.py_buffer(words)])


def decimal64_micros(micros: np.ndarray, scale: int = 1) -> pa.Array:
    """Return integer micro-units (times ``scale``: MICROS_PER_CENT for cents) as an exact ``decimal64(18, 6)`` array.

    A ``decimal64`` array's buffer is its int64 unscaled values: micro-units
    taken as they are (no copy when ``scale`` is 1). Parquet stores it as
    the INT64 ``DECIMAL(18, 6)`` that :func:`decimal_micros` columns are
    stored as, and polars reads both as ``Decimal(18, 6)``; encoding it is
    about a quarter faster (tests/benchmarks/bench_ledger_encoding.py).
    """
    values = np.ascontiguousarray(micros, dtype=np.int64) if scale == 1 else np.multiply(micros, scale, dtype=np.int64, casting="unsafe")
    return pa.Array.from_buffers(pa.decimal64(18, 6), len(values), [None, pa.py_buffer(values)])


def repeated_string(text: str, n: int) -> pa.Array:
    """Return ``text`` repeated ``n`` times as a ``large_string`` array."""
    data = text.encode("utf-8")
    offsets = np.arange(n + 1, dtype=np.int64) * len(data)
    return pa.Array.from_buffers(pa.large_string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)])


def card_lists(codes: np.ndarray, compiled_kernel: bool = False) -> pa.Array:
    """Return rows of card codes (0 = no card) as lists of card labels such as ``AS`` or ``10H``.

    With ``compiled_kernel`` (a run that plays compiled), the Arrow buffers
    are written by one compiled pass over the codes (:func:`_card_strings`),
    about four times faster than Arrow's ``take`` of the labels, which serves
    the runs played without compiled kernels.
    """
    codes = np.asarray(codes, dtype=np.int8)
    if compiled_kernel:
        from baccarat.compiling import compiled

        codes = np.ascontiguousarray(codes)
        list_offsets = np.empty(len(codes) + 1, dtype=np.int64)
        string_offsets = np.empty(codes.size + 1, dtype=np.int64)
        data = np.empty(codes.size * _LABEL_BYTES.shape[1], dtype=np.uint8)
        cards, size = compiled(_card_strings)(codes, _LABEL_BYTES, _LABEL_LENGTHS, list_offsets, string_offsets, data)
        labels = pa.Array.from_buffers(
            pa.large_string(), cards, [None, pa.py_buffer(string_offsets[: cards + 1]), pa.py_buffer(data[:size])]
        )
        return pa.LargeListArray.from_arrays(pa.array(list_offsets), labels)
    import pyarrow.compute as pc

    dealt = codes != 0
    list_offsets = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(dealt.sum(axis=1), out=list_offsets[1:])
    labels = pc.take(_LABELS, pa.array(codes[dealt].astype(np.int64)))  # row by row, in card order
    return pa.LargeListArray.from_arrays(pa.array(list_offsets), labels)


def _card_strings(codes, label_bytes, label_lengths, list_offsets, string_offsets, data):  # pragma: no cover - compiled
    """Write the Arrow buffers of rows of card codes as lists of labels; return the cards and the bytes written.

    A leaf kernel (:func:`baccarat.compiling.compiled`): ``list_offsets``
    gets each row's first card, ``string_offsets`` each card's first byte,
    ``data`` the labels' bytes, in row order and card order (0: no card).
    """
    cards = 0
    size = 0
    list_offsets[0] = 0
    string_offsets[0] = 0
    for row in range(codes.shape[0]):
        for column in range(codes.shape[1]):
            code = codes[row, column]
            if code != 0:
                for k in range(label_lengths[code]):
                    data[size + k] = label_bytes[code, k]
                size += label_lengths[code]
                cards += 1
                string_offsets[cards] = size
        list_offsets[row + 1] = cards
    return cards, size


def enum_array(codes: np.ndarray, names: Sequence[str]) -> pa.Array:
    """Return integer codes as an ordered dictionary array of ``names`` (a polars ``Enum``)."""
    indices = pa.array(np.asarray(codes, dtype=np.uint8))
    return pa.DictionaryArray.from_arrays(indices, pa.array(list(names), type=pa.large_string()), ordered=True)


def arrow_schema(polars_schema: Any) -> pa.Schema:
    """Return the Arrow schema polars writes for ``polars_schema`` (Enum metadata included)."""
    import polars as pl

    return pl.DataFrame(schema=polars_schema).to_arrow().schema


def table(columns: dict[str, pa.Array], schema: pa.Schema) -> pa.Table:
    """Return the columns as a table of ``schema`` (same names, in the schema's order)."""
    return pa.Table.from_arrays([columns[name] for name in schema.names], schema=schema)


PARQUET_OPTIONS: dict[str, Any] = {"compression": "lz4", "store_decimal_as_integer": True}
"""How parts are encoded: LZ4 (fast both ways); decimals of up to 18 digits as INT64 (tests/benchmarks/bench_ledger_encoding.py)."""


def _leaf_path(field: pa.Field) -> str:
    """Return the Parquet column path of a field's values (a list column's values lie one level down)."""
    if pa.types.is_list(field.type) or pa.types.is_large_list(field.type):
        return f"{field.name}.list.element"  # the compliant nested naming pyarrow writes
    return field.name


def encode_parquet(
    tables: Sequence[pa.Table], statistics: Sequence[str] = (), plain: Sequence[str] = (), required: Sequence[str] = ()
) -> bytes:
    """Encode tables of one schema as one Parquet file in memory, one row group per table.

    ``statistics`` names the columns that get min/max statistics; ``plain`` those encoded without a dictionary;
    ``required`` those that hold no null (written as required columns: no definition levels, faster to encode).
    Decimals (money) of up to 18 digits are stored as INT64, with a dictionary: about two thirds of the
    encoding time of ``decimal(38, 6)``; plain INT64 is about a tenth faster again but 2.7 times larger
    (tests/benchmarks/bench_ledger_encoding.py).
    """
    buffer = io.BytesIO()
    schema = tables[0].schema
    if required:
        schema = pa.schema([field.with_nullable(False) if field.name in required else field for field in schema], metadata=schema.metadata)
        tables = [pa.Table.from_arrays(part.columns, schema=schema) for part in tables]
    dictionary = [_leaf_path(field) for field in schema if field.name not in plain]
    with pq.ParquetWriter(
        buffer, schema, write_statistics=list(statistics) or False, use_dictionary=dictionary, **PARQUET_OPTIONS
    ) as writer:
        for part in tables:
            if part.num_rows:
                writer.write_table(part, row_group_size=max(part.num_rows, 1))
    return buffer.getvalue()
