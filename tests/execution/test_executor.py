"""Chunked runs: whole sessions per chunk, the same bytes for any number of workers, equal to the reference."""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from helpers.datasets import dataset_bytes
from polars.testing import assert_frame_equal

from baccarat.engine.reference import run_strategy, session_bounds
from baccarat.execution import chunks as chunking
from baccarat.execution.runner import prepare, run_experiment, run_to_folder, strategy_runs
from baccarat.experiment import load_experiment
from baccarat.odds.fast_evs import expected_values
from baccarat.odds.settlement import settlement_table
from baccarat.results.ledger import ledger_table
from baccarat.shoes.recorded.write import write_shoes
from baccarat.shoes.seeded import seeded_rounds, seeded_table

EXPERIMENT = {
    "name": "chunks",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 11, "count": 37},
    "session": {"bankroll": 300, "shoes_per_session": 3, "table_min": 10, "table_max": 200},
    "strategies": [
        {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
        {"name": "martingale player", "use": "martingale", "params": {"side": "player", "unit": 10}},
    ],
}


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """About 2 sessions per chunk, so that a small run has many chunks."""
    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 900)


def experiment(**changes):
    data = {**EXPERIMENT, **changes}
    return load_experiment(data)


def reference_ledger(exp) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Rounds and ledger of the experiment by the reference dealer and engine, in one piece, sessions in order."""
    rules = exp.rules
    table = seeded_table(rules, exp.seed, 1, int(exp.shoes["count"]))
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, exp.session.shoes_per_session)
    frames = [
        pl.from_arrow(
            ledger_table(
                run.label,
                run_strategy(run, table, multipliers, rules, exp.session, exp.seed, sessions),
                tuple(multipliers),
                expected_values(rules),
            )
        )
        for run in strategy_runs(exp)
    ]
    return table.to_frame(), pl.concat(frames)


def test_chunks_hold_whole_sessions_and_every_shoe_once(small_chunks: None) -> None:
    prepared = prepare(experiment())
    chunks = prepared.chunks
    assert len(chunks) > 5
    assert [c.index for c in chunks] == list(range(len(chunks)))
    shoes = [shoe for c in chunks for shoe in range(c.first_shoe, c.first_shoe + c.shoes)]
    assert shoes == list(range(1, 38))
    assert all((c.first_shoe - 1) % 3 == 0 for c in chunks)  # a chunk starts a session
    sessions = [s for c in chunks for s in range(c.first_session, c.first_session + c.sessions)]
    assert sessions == list(range(1, 14))


MANY = [
    {"name": f"{use} {side}", "use": use, "params": {"side": side, "unit": 10}}
    for use in ("flat", "martingale", "paroli")
    for side in ("banker", "player", "follow-last")
]
"""Nine strategies: more than a chunk plays."""


def test_even_parts_cover_every_item_once_in_as_few_parts_of_sizes_within_one() -> None:
    for total in range(0, 60):
        for most in range(1, 12):
            parts = chunking.even_parts(total, most)
            assert [k for first, stop in parts for k in range(first, stop)] == list(range(total))
            sizes = [stop - first for first, stop in parts]
            assert len(parts) == -(-total // most) and all(0 < size <= most for size in sizes)
            assert not sizes or max(sizes) - min(sizes) <= 1


def test_chunks_of_many_strategies_play_each_sessions_in_groups_of_them(small_chunks: None) -> None:
    exp = experiment(strategies=MANY)
    chunks = prepare(exp).chunks
    groups = chunking.strategy_groups(len(MANY))
    assert groups == [(0, 3), (3, 6), (6, 9)]  # 9 strategies, at most 4 a chunk: three groups of three
    # Every (session, strategy) once; the groups of the same sessions follow each other and share their index.
    played = [(s, k) for c in chunks for s in range(c.first_session, c.first_session + c.sessions) for k in range(*c.strategies)]
    assert sorted(played) == [(s, k) for s in range(1, 14) for k in range(9)] and len(played) == len(set(played))
    assert [c.strategies for c in chunks] == groups * (len(chunks) // 3)
    assert [c.index for c in chunks] == [k // 3 for k in range(len(chunks))]
    # A chunk holds as many sessions as the ledger rows of a chunk hold of three strategies (not of nine).
    session_rows = 3 * chunking.rounds_per_shoe_estimate(exp.rules)  # a session's rounds: three shoes
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 8_000)
        three = chunking.sessions_per_chunk(exp.rules, exp.session, 9)
        assert three == chunking.sessions_per_chunk(exp.rules, exp.session, 3) == int(8_000 // (3 * session_rows)) > 3
        patch.setattr(chunking, "STRATEGIES_PER_CHUNK", 9)
        assert chunking.sessions_per_chunk(exp.rules, exp.session, 9) == int(8_000 // (9 * session_rows)) < three
    assert prepare(experiment()).chunks == [dataclasses.replace(c, strategies=(0, 2)) for c in prepare(experiment()).chunks]
    assert chunking.strategy_groups(5) == [(0, 3), (3, 5)] and chunking.strategy_groups(64)[-1] == (60, 64)


@pytest.mark.slow
def test_a_run_of_many_strategies_in_groups_writes_what_one_chunk_of_all_writes(small_chunks: None, tmp_path: Path) -> None:
    exp = experiment(strategies=MANY)
    grouped = run_to_folder(exp, tmp_path / "grouped", workers=2)
    assert len({c.index for c in prepare(exp).chunks}) > 3
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 10**9)
        patch.setattr(chunking, "STRATEGIES_PER_CHUNK", 100)
        assert len(prepare(exp).chunks) == 1
        whole = run_to_folder(exp, tmp_path / "whole", workers=1)
    assert grouped.counts == whole.counts
    assert grouped.counts.shoes == 37 and grouped.counts.sessions == 13 and grouped.counts.ledger_rows == 9 * grouped.counts.rounds
    for name in ("rounds.parquet", "ledger.parquet", "sessions.parquet"):
        assert_frame_equal(pl.read_parquet(tmp_path / "grouped" / name), pl.read_parquet(tmp_path / "whole" / name))
    for name in ("summary.csv", "comparison.csv"):
        assert (tmp_path / "grouped" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    in_memory = run_experiment(exp)  # in groups too, gathered in memory
    assert_frame_equal(in_memory.ledger, pl.read_parquet(tmp_path / "whole" / "ledger.parquet"))
    assert_frame_equal(in_memory.rounds, pl.read_parquet(tmp_path / "whole" / "rounds.parquet"))
    # Each strategy's ledger parts: one per set of sessions, named by its position and theirs, in row order.
    names = sorted(path.name for path in (tmp_path / "grouped" / "ledger.parquet").iterdir())
    chunks = len({c.index for c in prepare(exp).chunks})
    assert names == [f"{k:05d}-{c:07d}.parquet" for k in range(9) for c in range(chunks)]


@pytest.mark.slow
def test_chunked_run_equals_the_reference_engine_on_the_reference_dealer(small_chunks: None) -> None:
    exp = experiment()
    result = run_experiment(exp)
    rounds, ledger = reference_ledger(exp)
    assert_frame_equal(result.rounds, rounds)
    # The strategies back Banker and Player only: the run's ledger has no columns for the tie, which never has a stake.
    assert (ledger["stake_tie"].cast(pl.Float64) == 0).all() and (ledger["net_tie"].cast(pl.Float64) == 0).all()
    assert_frame_equal(result.ledger, ledger.drop("stake_tie", "net_tie"))  # strategy by strategy, sessions in order


@pytest.mark.slow
def test_any_number_of_workers_writes_the_same_bytes(small_chunks: None, tmp_path: Path) -> None:
    exp = experiment()
    one = run_to_folder(exp, tmp_path / "one", workers=1)
    two = run_to_folder(exp, tmp_path / "two", workers=2)
    three = run_to_folder(exp, tmp_path / "three", workers=3)
    for name in ("rounds.parquet", "ledger.parquet"):
        data = dataset_bytes(tmp_path / "one" / name)
        assert len(data) > 1 and data == dataset_bytes(tmp_path / "two" / name) == dataset_bytes(tmp_path / "three" / name)
    assert one.counts == two.counts == three.counts
    assert one.counts.shoes == 37 and one.counts.sessions == 13 and one.counts.ledger_rows == 2 * one.counts.rounds
    in_memory = run_experiment(exp)
    assert_frame_equal(pl.read_parquet(tmp_path / "two" / "ledger.parquet"), in_memory.ledger)
    assert_frame_equal(two.rounds, in_memory.rounds)


@pytest.mark.slow
def test_several_seeds_and_recorded_shoes_in_chunks(small_chunks: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exp = experiment(shoes={"source": "seeded", "seed": [3, 4], "count": 10})
    chunked = run_experiment(exp)
    assert len(prepare(exp).chunks) > 2
    with monkeypatch.context() as patch:
        patch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 10**9)
        assert len(prepare(exp).chunks) == 2
        whole = run_experiment(exp)
    assert_frame_equal(chunked.ledger, whole.ledger)
    assert_frame_equal(chunked.rounds, whole.rounds)
    assert chunked.rounds["seed"].unique(maintain_order=True).to_list() == [3, 4]
    assert chunked.rounds["shoe"].to_list() == sorted(chunked.rounds["shoe"].to_list())
    # Recorded shoes: the seeded shoes written as a cards file replay to the same rounds, chunked.
    path = tmp_path / "shoes.txt"
    write_shoes(path, "cards", seeded_rounds(exp.rules, 3, 1, 10))
    recorded = run_experiment(experiment(shoes={"source": "recorded", "path": str(path), "format": "cards", "seed": 3}))
    seeded = run_experiment(experiment(shoes={"source": "seeded", "seed": 3, "count": 10}))
    assert len(prepare(experiment(shoes={"source": "recorded", "path": str(path), "format": "cards"})).chunks) > 1
    assert_frame_equal(recorded.ledger, seeded.ledger)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install '.[ray]')")
def test_ray_executor_writes_the_same_bytes(small_chunks: None, tmp_path: Path) -> None:
    """Ray in a process of its own (it takes over the process it starts in), with the same small chunks."""
    exp = experiment()
    run_to_folder(exp, tmp_path / "processes", workers=2)
    script = (
        "import ray\nfrom baccarat.execution import chunks as chunking\nfrom baccarat.execution.runner import run_to_folder\n"
        "from baccarat.experiment import load_experiment\n"
        f"chunking.LEDGER_ROWS_PER_CHUNK = {chunking.LEDGER_ROWS_PER_CHUNK}\n"
        "ray.init(num_cpus=2, include_dashboard=False, logging_level='ERROR')\n"
        f"run_to_folder(load_experiment({EXPERIMENT!r}), {str(tmp_path / 'ray')!r}, workers=2, executor='ray')\n"
        "ray.shutdown()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for name in ("rounds.parquet", "ledger.parquet"):
        assert dataset_bytes(tmp_path / "ray" / name) == dataset_bytes(tmp_path / "processes" / name)


CHATTY = """
import os

from baccarat.plugin import Selector, hookimpl


class Chatty(Selector):
    \"\"\"Banker; every round, a line written straight to file descriptor 1 (as C code would).\"\"\"

    name = "chatty"

    def choose(self, view):
        os.write(1, b"chatty says banker\\n")
        return "banker"


@hookimpl
def register_selectors(register):
    register(Chatty)
"""

NO_RAY = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install '.[ray]')")


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["processes", pytest.param("ray", marks=NO_RAY)])
def test_run_json_holds_the_json_only_what_strategies_write_to_stdout_goes_to_stderr(executor: str, tmp_path: Path) -> None:
    """``baccarat run --json`` in this process, or with ``--executor ray`` (a local Ray starts): stdout is the JSON alone."""
    import json

    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "chatty.py").write_text(CHATTY, encoding="utf-8")
    exp = tmp_path / "exp.yaml"
    exp.write_text(
        "shoes: {seed: 3, count: 4}\nsession: {shoes_per_session: 2}\n"
        "strategies:\n  - {name: chatty, use: flat, params: {side: chatty, unit: 10}}\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "baccarat", "run", str(exp), "--plugins-dir", "plugins", "--out", "out", "--json"]
    command += ["--executor", executor, "--workers", "2" if executor == "ray" else "1"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rounds = json.loads(done.stdout)["rounds"]  # the whole of stdout is one JSON object
    assert rounds > 0 and "chatty says banker" in done.stderr
    if executor == "processes":
        # Every round of the run wrote its line to stderr (and so did the sample shoe tried before the run). Ray
        # forwards its workers' output to the driver as its log monitor reads it, and may not have forwarded all of
        # it when the run ends: there only stdout is held.
        assert done.stderr.count("chatty says banker\n") > rounds


UNGUARDED = """
from baccarat.errors import RunFailure
from baccarat.execution import chunks as chunking
from baccarat.execution.runner import run_experiment
from baccarat.experiment import load_experiment

chunking.LEDGER_ROWS_PER_CHUNK = 900
try:
    run_experiment(load_experiment({experiment!r}), workers=2)
except RunFailure as exc:
    print(exc)
"""


@pytest.mark.slow
def test_a_script_without_the_main_guard_is_told_what_to_add(tmp_path: Path) -> None:
    """Worker processes import the main script: without ``if __name__ == "__main__":`` each would run it again.

    ``baccarat.run`` finds such a script before any process starts (tests/test_api.py); a run started below the API
    is caught when its workers, importing the script, would start it again.
    """
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED.format(experiment=EXPERIMENT))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"the worker processes could not start: they import {script}, which starts the run again when imported; "
        'put the code that runs it under `if __name__ == "__main__":`, or use one worker\n'
    )
    assert done.stderr == ""  # the workers end without a traceback of their own
