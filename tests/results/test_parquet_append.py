"""Parquet parts appended byte for byte into one file read back exactly as the parts' concatenation."""

from __future__ import annotations

import io
import struct

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from baccarat.results.parquet_append import ParquetAppender, ParquetPartError, decode_struct, encode_struct, split_part
from baccarat.shoes.columnar import encode_parquet


def frame(seed: int, rows: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame({
        "id": np.arange(rows, dtype=np.int64) + seed * 1_000_000,
        "label": [f"s{seed}-{i % 7}" for i in range(rows)],
        "money": pl.Series(rng.integers(-10**12, 10**12, rows)).cast(pl.Decimal(38, 0)) * pl.Series(["0.000001"]).str.to_decimal(scale=6),
        "cards": pl.Series([["AS", "10H"][: i % 3] for i in range(rows)], dtype=pl.List(pl.String)),
        "side": pl.Series(["banker", "player", "tie"] * (rows // 3) + ["tie"] * (rows % 3), dtype=pl.Enum(["banker", "player", "tie"])),
        "flag": rng.integers(0, 2, rows).astype(bool),
    })


def part(frames: list[pl.DataFrame], statistics=("id",)) -> bytes:
    return encode_parquet([f.to_arrow() for f in frames], statistics)


def test_footer_decodes_and_encodes_to_the_same_bytes() -> None:
    data = part([frame(1, 1000), frame(2, 50)])
    length = struct.unpack_from("<I", data, len(data) - 8)[0]
    footer = data[len(data) - 8 - length: len(data) - 8]
    assert encode_struct(decode_struct(footer)) == footer


def test_appended_parts_read_back_as_their_concatenation(tmp_path) -> None:
    pieces = [[frame(1, 3000)], [frame(2, 10), frame(3, 2500)], [frame(4, 1)], [frame(5, 20_000)]]
    appender = ParquetAppender(tmp_path / "all.parquet")
    for frames in pieces:
        appender.append(part(frames))
    appender.close()
    expected = pl.concat([f for frames in pieces for f in frames])
    assert_frame_equal(pl.read_parquet(tmp_path / "all.parquet"), expected)
    assert_frame_equal(pl.scan_parquet(tmp_path / "all.parquet").filter(pl.col("id") >= 3_000_000).collect(),
                       expected.filter(pl.col("id") >= 3_000_000))
    meta = pq.ParquetFile(tmp_path / "all.parquet").metadata
    assert meta.num_rows == expected.height == appender.rows
    assert meta.num_row_groups == 5
    assert meta.row_group(4).column(0).statistics.min == 5_000_000
    assert pq.read_table(tmp_path / "all.parquet").num_rows == expected.height


def test_a_part_with_another_schema_is_refused(tmp_path) -> None:
    appender = ParquetAppender(tmp_path / "x.parquet")
    appender.append(part([frame(1, 10)]))
    with pytest.raises(ParquetPartError, match="another schema"):
        appender.append(part([frame(2, 10).drop("flag")]))
    appender.abort()


def test_a_part_with_a_page_index_is_refused(tmp_path) -> None:
    buffer = io.BytesIO()
    frame(1, 100).write_parquet(buffer)  # polars writes a page index
    appender = ParquetAppender(tmp_path / "x.parquet")
    with pytest.raises(ParquetPartError, match="page index"):
        appender.append(buffer.getvalue())
    appender.abort()


def test_not_a_parquet_file() -> None:
    with pytest.raises(ParquetPartError):
        split_part(b"PAR1 not really PAR1")


def test_spools_taken_in_turn_reorder_the_parts(tmp_path) -> None:
    final = ParquetAppender(tmp_path / "all.parquet")
    spool = ParquetAppender(tmp_path / ".spool")
    for seed in range(4):
        (final if seed % 2 == 0 else spool).append(part([frame(seed, 100 + seed)]))
    final.take(spool)
    final.close()
    assert not (tmp_path / ".spool").exists()
    expected = pl.concat([frame(seed, 100 + seed) for seed in (0, 2, 1, 3)])
    assert_frame_equal(pl.read_parquet(tmp_path / "all.parquet"), expected)
    assert pq.ParquetFile(tmp_path / "all.parquet").metadata.num_row_groups == 4
