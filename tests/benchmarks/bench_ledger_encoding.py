"""Benchmark of the ledger's Parquet encoding: candidate encodings of one chunk's ledger, and ways to write a run's parts.

    python tests/benchmarks/bench_ledger_encoding.py [--repeat 9]

Plays the first chunk of the job (tests/benchmarks/job.yaml: 8-deck shoes,
four strategies, about 800,000 ledger rows) and encodes its four strategy
parts as a run does (:func:`baccarat.shoes.columnar.encode_parquet`: plain integer
columns, required columns, statistics on session and shoe), with:

- ``decimal(38,6), dictionary``: money as 16-byte decimals with a dictionary
  (the encoding before this one);
- ``decimal128(18,6) as INT64``: money in the narrowest exact type (8-byte
  integers of micro-units), plain, and with a dictionary (about a tenth
  more CPU time than plain, files 2.7 times smaller);
- ``decimal64(18,6) as INT64, dictionary`` (the encoding chosen): the same
  Parquet columns from Arrow's 8-byte decimal, whose buffer is the engine's
  micro-units as they are (the writer narrows no 16-byte value);
- the chosen one without the ``strategy`` column (a file per strategy), and
  without the per-bet columns left (the job's strategies back Banker and
  Player, so the ledger already has no tie columns).

Candidates are timed in turn, ``--repeat`` rounds, and the least CPU time of
each (this process's: the machine may be loaded) is printed with the bytes written; each encoding is read back by polars and
checked to hold the same values. Then, for writing a run's parts, the
main-process time of one library-backed single file (pyarrow's
``ParquetWriter`` encoding every part in this process) against a dataset
folder (parts encoded where they are played, written here as files).
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import polars as pl  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from baccarat.execution.chunk_play import _PLAIN_LEDGER, run_chunk  # noqa: E402
from baccarat.execution.chunks import seeded_chunks  # noqa: E402
from baccarat.execution.runner import prepare  # noqa: E402
from baccarat.experiment import load_experiment  # noqa: E402
from baccarat.shoes.columnar import encode_parquet  # noqa: E402

JOB = Path(__file__).resolve().parent / "job.yaml"


def best_of(repeat: int, fn):
    """Return the value of ``fn()`` and the least seconds it took in ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        value = fn()
        best = min(best, time.process_time() - start)
    return value, best


def with_money(table: pa.Table, money_type: pa.DataType) -> pa.Table:
    """Return ``table`` with every decimal column cast to ``money_type``."""
    fields = [pa.field(f.name, money_type, f.nullable) if pa.types.is_decimal(f.type) else f for f in table.schema]
    return table.cast(pa.schema(fields, metadata=table.schema.metadata))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="rounds (at least 2: the first also makes the tables)")
    args = parser.parse_args()

    experiment = load_experiment(str(JOB))
    prepared = prepare(experiment)
    chunk = seeded_chunks(prepared.plan, experiment.seeds, int(experiment.shoes["count"]))[0]
    output = run_chunk(prepared.plan, chunk)
    parts = [pq.read_table(io.BytesIO(part)) for part in output.ledger_parts]
    ledger = pa.concat_tables(parts)
    reference = pl.from_arrow(ledger)
    print(f"one chunk of the job: {chunk.shoes:,} shoes, {ledger.num_rows:,} ledger rows, {len(parts)} strategies")

    money = [f.name for f in parts[0].schema if pa.types.is_decimal(f.type)]
    repeated = [name for name in money if name.startswith(("stake_", "net_"))]

    cast: dict[tuple[pa.DataType, tuple[str, ...]], list[pa.Table]] = {}  # made once: the least time is the encoding's

    def encode(money_type: pa.DataType, dictionary_on_money: bool = True, drop: tuple[str, ...] = ()) -> list[bytes]:
        tables = cast.get((money_type, drop))
        if tables is None:
            tables = cast[money_type, drop] = [with_money(part, money_type).drop_columns(list(drop)) for part in parts]
        if money_type.precision > 18:  # as the ledger was encoded before: 16-byte decimals with a dictionary
            return [dictionary_encode(table, False) for table in tables]
        plain = _PLAIN_LEDGER if dictionary_on_money else (*_PLAIN_LEDGER, *money)
        return [encode_parquet([table], statistics=("session", "shoe"), plain=plain, required=table.schema.names) for table in tables]

    def dictionary_encode(table: pa.Table, as_integer: bool) -> bytes:
        buffer = io.BytesIO()
        schema = pa.schema([field.with_nullable(False) for field in table.schema], metadata=table.schema.metadata)
        with pq.ParquetWriter(
            buffer,
            schema,
            write_statistics=["session", "shoe"],
            compression="lz4",
            store_decimal_as_integer=as_integer,
            use_dictionary=[name for name in schema.names if name not in _PLAIN_LEDGER],
        ) as writer:
            writer.write_table(pa.Table.from_arrays(table.columns, schema=schema), row_group_size=table.num_rows)
        return buffer.getvalue()

    candidates = [
        ("decimal128(38,6), dictionary (earlier)", lambda: encode(pa.decimal128(38, 6)), ()),
        ("decimal128(18,6) as INT64, plain", lambda: encode(pa.decimal128(18, 6), False), ()),
        ("decimal128(18,6) as INT64, dictionary (before)", lambda: encode(pa.decimal128(18, 6)), ()),
        ("decimal64(18,6) as INT64, dictionary (chosen)", lambda: encode(pa.decimal64(18, 6)), ()),
        ("  without the strategy column", lambda: encode(pa.decimal64(18, 6), drop=("strategy",)), ("strategy",)),
        ("  without the per-bet columns", lambda: encode(pa.decimal64(18, 6), drop=tuple(repeated)), tuple(repeated)),
    ]
    best = {name: float("inf") for name, _, _ in candidates}
    sizes = {}
    for _ in range(args.repeat):
        for name, fn, _ in candidates:
            start = time.process_time()
            data = fn()
            best[name] = min(best[name], time.process_time() - start)
            sizes[name] = sum(len(part) for part in data)
    print(f"{'encoding of the chunk ledger (4 parts)':45} {'ms':>8} {'MB':>8}  same values")
    for name, fn, dropped in candidates:
        back = pl.concat([pl.read_parquet(io.BytesIO(part)) for part in fn()])
        expected = reference.drop(list(dropped))
        same = back.columns == expected.columns and all(
            back[c].cast(pl.String).equals(expected[c].cast(pl.String)) for c in expected.columns
        )
        print(f"{name:45} {best[name] * 1000:8.1f} {sizes[name] / 1e6:8.2f}  {same}")

    encoded = encode(pa.decimal64(18, 6))
    with tempfile.TemporaryDirectory() as tmp:

        def one_file() -> None:
            with pq.ParquetWriter(Path(tmp) / "ledger.parquet", parts[0].schema, compression="lz4") as writer:
                for part in parts:
                    writer.write_table(part)

        def folder() -> None:
            target = Path(tmp) / "ledger"
            target.mkdir(exist_ok=True)
            for k, data in enumerate(encoded):
                (target / f"{k:04d}-000000.parquet").write_bytes(data)

        _, single = best_of(args.repeat, one_file)
        _, dataset = best_of(args.repeat, folder)
    print(
        f"main-process time to write the chunk's ledger: one file by ParquetWriter {single * 1000:.1f} ms, "
        f"dataset folder of encoded parts {dataset * 1000:.1f} ms ({single / dataset:.0f}x)"
    )


if __name__ == "__main__":
    main()
