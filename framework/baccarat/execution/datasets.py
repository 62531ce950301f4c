"""The chunks' outputs written into a run folder's Parquet datasets (or collected in memory), and the run's sizes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from baccarat.execution.chunks import ChunkOutput
from baccarat.execution.manifest import describe_written, parquet_shape


@dataclasses.dataclass
class RunCounts:
    """Sizes of a written run."""

    shoes: int = 0
    sessions: int = 0
    rounds: int = 0
    ledger_rows: int = 0
    files: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    """The manifest's entries of the parts written (:func:`baccarat.execution.manifest.describe_written`), by path."""

    def add(self, output: ChunkOutput) -> None:
        """Count one chunk's output."""
        self.shoes += output.shoes
        self.sessions += output.sessions
        self.rounds += output.rounds
        self.ledger_rows += output.ledger_rows


ROUNDS_DATASET = "rounds.parquet"


LEDGER_DATASET = "ledger.parquet"
"""The run folder's Parquet datasets: folders of Parquet files that polars reads as one table, in file-name order.

Why folders and not one file written by pyarrow's ``ParquetWriter``: the
parts are encoded in the worker processes (encoding is most of a run's
work), and only a dataset takes them as they are. One library-written file
would be encoded in the main process alone, and, the ledger being ordered
strategy by strategy, every strategy but the first would have to be held
back and encoded after the last chunk (tests/benchmarks/bench_ledger_encoding.py
prints the main process's time for both).
"""


def part_name(chunk: int, strategy: int | None = None) -> str:
    """Return the file name of a chunk's part in a dataset: ``C.parquet`` for rounds, ``S-C.parquet`` for the ledger.

    Names sort as the rows must be read: the ledger strategy by strategy
    (each strategy's sessions in order), as the reference engine gives it;
    the rounds in chunk order.
    """
    return f"{chunk:07d}.parquet" if strategy is None else f"{strategy:05d}-{chunk:07d}.parquet"


def write_outputs(
    outputs: Iterable[ChunkOutput],
    folder: Path,
    progress: Callable[[int], None] | None = None,
    collect: Callable[[ChunkOutput], None] | None = None,
    labels: Sequence[str] | None = None,
) -> RunCounts:
    """Write every output's Parquet parts, as they arrive, into ``folder``/rounds.parquet/ and ``folder``/ledger.parquet/.

    Each part is a whole Parquet file, encoded where its chunk was played
    (:func:`part_name` gives its order). ``collect`` sees every output as
    it passes (statistics gathered during the run). With the strategies'
    ``labels``, each part is also described for the manifest as it is
    written (``RunCounts.files``): its checksum from the bytes written, its
    rows from the chunk (a round a row, in the rounds and in each strategy's
    ledger), so that the manifest reads no part back.
    """
    counts = RunCounts()
    rounds, ledger = folder / ROUNDS_DATASET, folder / LEDGER_DATASET
    rounds.mkdir()
    ledger.mkdir()
    schemas: dict[str, dict[str, str]] = {}

    def write(path: Path, data: bytes, rows: int, by_strategy: dict[str, int] | None = None) -> None:
        path.write_bytes(data)
        if labels is not None:
            dataset = path.parent.name
            if dataset not in schemas:  # every part of a dataset has one schema: read from the first part's footer
                schemas[dataset] = parquet_shape(path)[1]
            counts.files[f"{dataset}/{path.name}"] = describe_written(data, rows, schemas[dataset], by_strategy)

    for output in outputs:
        write(rounds / part_name(output.index), output.rounds_part, output.rounds)
        for k, part in enumerate(output.ledger_parts):
            write(ledger / part_name(output.index, k), part, output.rounds, None if labels is None else {labels[k]: output.rounds})
        counts.add(output)
        if collect is not None:
            collect(output)
        if progress is not None:
            progress(output.shoes)
    return counts


def write_frame(frame: Any, path: Path) -> None:
    """Write a polars frame as a dataset of one part (the layout of :func:`write_outputs`)."""
    path.mkdir()
    frame.write_parquet(path / part_name(0, 0 if path.name == LEDGER_DATASET else None))


def collect_outputs(outputs: Iterable[ChunkOutput], progress: Callable[[int], None] | None = None):  # -> (rounds, ledger)
    """Return the outputs' rounds and ledger as two polars frames, in the order :func:`write_outputs` writes them."""
    import io

    import polars as pl

    rounds: list[pl.DataFrame] = []
    ledgers: list[list[pl.DataFrame]] = []
    for output in outputs:
        rounds.append(pl.read_parquet(io.BytesIO(output.rounds_part)))
        for k, part in enumerate(output.ledger_parts):
            if k == len(ledgers):
                ledgers.append([])
            ledgers[k].append(pl.read_parquet(io.BytesIO(part)))
        if progress is not None:
            progress(output.shoes)
    return pl.concat(rounds), pl.concat([frame for frames in ledgers for frame in frames])
