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

    def add(self, output: ChunkOutput) -> None:
        """Count one chunk's output (the rounds of sessions played in several chunks once: where they are written)."""
        self.shoes += output.shoes
        self.sessions += output.sessions
        self.rounds += output.rounds if output.rounds_part is not None else 0
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


class PartsRecord:
    """The manifest's entries of the dataset parts, made as the parts are written (nothing is read back).

    Each entry (:func:`baccarat.execution.manifest.describe_written`) has the
    checksum of the bytes written and the rows of the chunk: a round a row,
    in the rounds and in each strategy's ledger (by the strategies'
    ``labels``). Every part of a dataset has one schema, read from the
    footer of its first part.
    """

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        self.files: dict[str, dict[str, Any]] = {}
        """The entries, by path in the run folder (``ledger.parquet/00000-0000000.parquet``)."""
        self._schemas: dict[str, dict[str, str]] = {}

    def add(self, path: Path, data: bytes, rows: int, strategy: int | None = None) -> None:
        """Describe the part just written at ``path`` (``strategy``: the index of the strategy of a ledger part)."""
        dataset = path.parent.name
        if dataset not in self._schemas:
            self._schemas[dataset] = parquet_shape(path)[1]
        by_strategy = None if strategy is None else {self.labels[strategy]: rows}
        self.files[f"{dataset}/{path.name}"] = describe_written(data, rows, self._schemas[dataset], by_strategy)


def write_parts(output: ChunkOutput, folder: Path, record: PartsRecord | None = None) -> None:
    """Write one output's Parquet parts into ``folder``/rounds.parquet/ and ``folder``/ledger.parquet/ (made already).

    With ``record``, each part is described for the manifest as it is written.
    """
    if output.rounds_part is not None:
        path = folder / ROUNDS_DATASET / part_name(output.index)
        path.write_bytes(output.rounds_part)
        if record is not None:
            record.add(path, output.rounds_part, output.rounds)
    for k, part in enumerate(output.ledger_parts, start=output.first_strategy):
        path = folder / LEDGER_DATASET / part_name(output.index, k)
        path.write_bytes(part)
        if record is not None:
            record.add(path, part, output.rounds, k)


def collect_outputs(outputs: Iterable[ChunkOutput], progress: Callable[[int], None] | None = None):  # -> (rounds, ledger)
    """Return the outputs' rounds and ledger as two polars frames, in the order :func:`write_parts` writes them."""
    import io

    import polars as pl

    rounds: list[pl.DataFrame] = []
    ledgers: list[list[pl.DataFrame]] = []
    for output in outputs:
        if output.rounds_part is not None:
            rounds.append(pl.read_parquet(io.BytesIO(output.rounds_part)))
        for k, part in enumerate(output.ledger_parts, start=output.first_strategy):
            while k >= len(ledgers):
                ledgers.append([])
            ledgers[k].append(pl.read_parquet(io.BytesIO(part)))
        if progress is not None:
            progress(output.shoes)
    return pl.concat(rounds), pl.concat([frame for frames in ledgers for frame in frames])
