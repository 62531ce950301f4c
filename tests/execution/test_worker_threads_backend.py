"""The worker-thread back end under the scheduler: outputs in chunk order, never more chunks than threads, errors raised."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.one_bet_plugin import PLUGIN

from baccarat.execution import worker_threads
from baccarat.execution.chunks import Chunk
from baccarat.execution.executor import in_order
from baccarat.execution.runner import prepare
from baccarat.execution.worker_threads import WorkerThreads, threads_suffice
from baccarat.experiment import load_experiment

EXPERIMENT = {
    "name": "threads",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 11, "count": 6},
    "session": {"bankroll": 300, "shoes_per_session": 3, "table_min": 10, "table_max": 200},
    "strategies": [{"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}}],
}


def chunks(count: int) -> list[Chunk]:
    return [Chunk(index=i, seed=1, first_session=i + 1, sessions=1) for i in range(count)]


class Played:
    """A stand-in for ``run_chunk``: later chunks finish first; counts the chunks played at once."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.lock = threading.Lock()
        self.inside = 0
        self.most = 0
        self.fail_at = fail_at

    def __call__(self, plan: Any, chunk: Chunk) -> tuple[Any, int]:
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        try:
            time.sleep(0.02 * (4 - chunk.index % 4))
            if chunk.index == self.fail_at:
                raise RuntimeError(f"chunk {chunk.index} failed")
            return plan, chunk.index
        finally:
            with self.lock:
                self.inside -= 1


def test_outputs_come_in_chunk_order_with_at_most_one_chunk_per_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    played = Played()
    monkeypatch.setattr(worker_threads, "run_chunk", played)
    plan = object()
    with WorkerThreads(plan, workers=3) as backend:  # type: ignore[arg-type]
        outputs = list(in_order(backend, chunks(10)))
        assert backend.window == 3 * 2 and not backend.running
    assert outputs == [(plan, i) for i in range(10)]
    assert 2 <= played.most <= 3  # the threads play at once, one chunk each


def test_a_chunk_that_raises_raises_in_the_scheduler_and_no_later_chunk_is_yielded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker_threads, "run_chunk", Played(fail_at=5))
    seen = []
    with pytest.raises(RuntimeError, match="chunk 5 failed"), WorkerThreads(object(), workers=2) as backend:  # type: ignore[arg-type]
        for _, index in in_order(backend, chunks(10)):
            seen.append(index)
    assert seen == list(range(len(seen))) and len(seen) <= 5  # in order, none from the failed chunk on


def test_submit_outside_the_block_is_a_programming_error() -> None:
    with pytest.raises(AssertionError, match="outside the back end's block"):
        WorkerThreads(object(), workers=1).submit(0, chunks(1)[0])  # type: ignore[arg-type]


def test_threads_are_not_chosen_for_the_reference_a_plugin_or_a_disabled_compiled_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", str(10**9))  # played by the reference: nothing compiled
    assert not threads_suffice(prepare(load_experiment(EXPERIMENT)).plan, (11,))
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "mine.py").write_text(PLUGIN)
    with_plugin = {**EXPERIMENT, "plugins_dir": str(folder), "strategies": [*EXPERIMENT["strategies"], {"use": "mine"}]}
    plan = prepare(load_experiment(with_plugin)).plan
    assert plan.compiled and not threads_suffice(plan, (11,))  # a plugin's strategy plays in player processes
    monkeypatch.setenv("BACCARAT_NO_COMPILED_PATH", "1")
    plan = prepare(load_experiment(EXPERIMENT)).plan
    assert plan.compiled and not threads_suffice(plan, (11,))
