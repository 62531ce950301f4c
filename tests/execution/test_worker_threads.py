"""Worker threads: chosen only for runs of baccarat's own compiled code, the same bytes as processes, plugin code one at a time."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.datasets import dataset_bytes
from helpers.one_bet_plugin import PLUGIN

from baccarat.execution import chunk_play
from baccarat.execution import chunks as chunking
from baccarat.execution import workers as worker_processes
from baccarat.execution.runner import prepare, run_to_folder
from baccarat.execution.worker_threads import threads_suffice
from baccarat.experiment import load_experiment

EXPERIMENT = {
    "name": "threads",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 11, "count": 60},
    "session": {"bankroll": 300, "shoes_per_session": 3, "table_min": 10, "table_max": 200},
    "strategies": [
        {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
        {"name": "martingale player", "use": "martingale", "params": {"side": "player", "unit": 10}},
        {"name": "paroli follow-last", "use": "paroli", "params": {"side": "follow-last", "unit": 10}},
    ],
}


@pytest.fixture
def compiled_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small run played compiled, cut in many chunks."""
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 2_000)


def no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: Any) -> None:
        raise AssertionError("worker processes were started")

    monkeypatch.setattr(worker_processes.WorkerProcesses, "__enter__", refused)


@pytest.mark.slow
def test_built_in_compiled_strategies_play_on_threads_and_write_the_bytes_of_processes(
    compiled_chunks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exp = load_experiment(EXPERIMENT)
    prepared = prepare(exp)
    assert prepared.plan.compiled and len(prepared.chunks) > 4
    assert threads_suffice(prepared.plan, (11,))
    processes = run_to_folder(exp, tmp_path / "processes", workers=2, executor="processes")
    one = run_to_folder(exp, tmp_path / "one", workers=1)
    with monkeypatch.context() as patch:
        no_processes(patch)
        threads = run_to_folder(exp, tmp_path / "threads", workers=2)
    for name in ("rounds.parquet", "ledger.parquet", "sessions.parquet"):
        data = dataset_bytes(tmp_path / "threads" / name)
        assert len(data) >= 1 and data == dataset_bytes(tmp_path / "processes" / name) == dataset_bytes(tmp_path / "one" / name)
    for name in ("summary.csv", "comparison.csv"):
        assert (tmp_path / "threads" / name).read_bytes() == (tmp_path / "processes" / name).read_bytes()
    assert threads.counts == processes.counts == one.counts


@pytest.mark.slow
def test_a_plugins_strategy_the_reference_or_a_small_run_needs_processes(
    compiled_chunks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "mine.py").write_text(PLUGIN)
    with_plugin = {**EXPERIMENT, "plugins_dir": str(folder), "strategies": [*EXPERIMENT["strategies"], {"use": "mine"}]}
    assert not threads_suffice(prepare(load_experiment(with_plugin)).plan, (11,))
    monkeypatch.setenv("BACCARAT_NO_COMPILED_PATH", "1")
    assert not threads_suffice(prepare(load_experiment(EXPERIMENT)).plan, (11,))
    monkeypatch.delenv("BACCARAT_NO_COMPILED_PATH")
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", str(10**9))  # played by the reference: nothing compiled
    assert not threads_suffice(prepare(load_experiment(EXPERIMENT)).plan, (11,))
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    assert threads_suffice(prepare(load_experiment(EXPERIMENT)).plan, (11,))


@pytest.mark.slow
def test_chunks_are_dealt_and_played_at_once_by_the_threads(compiled_chunks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No lock holds the threads apart: the framework's own strategies play in the threads at once (a plugin's, in players)."""
    lock = threading.Lock()
    inside = {"play": 0, "deal": 0}
    most = {"play": 0, "deal": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with lock:
                inside[name] += 1
                most[name] = max(most[name], inside[name])
            try:
                time.sleep(0.02)  # long enough for the other thread to come in, were it let in
                return function(*args, **kwargs)
            finally:
                with lock:
                    inside[name] -= 1

        return wrapper

    monkeypatch.setattr(chunk_play, "play_strategy", counted("play", chunk_play.play_strategy))
    monkeypatch.setattr(chunk_play, "deal", counted("deal", chunk_play.deal))
    no_processes(monkeypatch)
    run_to_folder(load_experiment(EXPERIMENT), tmp_path / "out", workers=2)
    assert most == {"play": 2, "deal": 2}
