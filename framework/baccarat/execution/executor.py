"""Chunks of whole sessions, run in this process, in worker processes or on Ray.

A run is cut into chunks of consecutive sessions. The cut depends on the
experiment only (never on the number of workers), each chunk is dealt and
played on its own (a seeded shoe's cards come from its own random stream, a
strategy's from its label and session number), and encoded as Parquet where
it was played; the main process writes each part as a file of the run's
datasets (``rounds.parquet/``, ``ledger.parquet/``). So one worker, N workers
or a Ray cluster write the same bytes; and only a few chunks are in memory at
a time, whatever the number of shoes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import Chunk, ChunkOutput, RunPlan
from baccarat.execution.ray_tasks import ray_outputs
from baccarat.execution.workers import process_outputs


def execute(plan: RunPlan, chunks: Sequence[Chunk], workers: int = 1, executor: str = "processes") -> Iterator[ChunkOutput]:
    """Yield every chunk's output, in chunk order: played here (one worker), by ``workers`` processes, or on Ray."""
    if executor == "ray":
        yield from ray_outputs(plan, chunks, workers)
    elif workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield run_chunk(plan, chunk)
    else:
        yield from process_outputs(plan, chunks, workers)
