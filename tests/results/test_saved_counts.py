"""The per-round bankroll counts a run saves (round_counts.parquet): read back, they are the counts of the ledger."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

import baccarat
from baccarat.cli import main
from baccarat.execution import chunks as chunking
from baccarat.execution.manifest import unchanged
from baccarat.experiment import load_experiment
from baccarat.results.statistics import round_counts
from baccarat.results.statistics.saved_counts import ROUND_COUNTS_FILE, read_round_counts, write_round_counts

SMALL = {
    "name": "saved counts",
    "shoes": {"source": "seeded", "seed": 4, "count": 24},
    "session": {"bankroll": 200, "table_min": 10, "table_max": 320},
    "strategies": [
        {"name": "martingale", "use": "martingale", "params": {"side": "banker", "unit": 10}},
        {"name": "flat", "use": "flat", "params": {"side": "player", "unit": 10, "stop_loss": 60}},
    ],
}


def test_counts_written_and_read_back_are_the_same_counts_bands_and_paths(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    counts = [round_counts.RoundCounts(), round_counts.RoundCounts()]
    for sessions in (1, 7, 300, 41):  # chunks of sessions of up to 50 rounds, some ending early
        for mine in counts:
            lengths = rng.integers(1, 51, size=sessions)
            mine.add(rng.integers(-(10**12), 10**12, size=int(lengths.sum())), lengths)
    samples = [{3: np.array([5, -7, 9], dtype=np.int64), 1: np.array([2], dtype=np.int64)}, {}]
    write_round_counts(tmp_path / ROUND_COUNTS_FILE, ["a", "b"], counts, samples)
    read, kept = read_round_counts(tmp_path / ROUND_COUNTS_FILE, ["a", "b"])
    for before, after in zip(counts, read, strict=True):
        assert (after.sessions, after.longest) == (before.sessions, before.longest)
        for part in ("rounds", "ended"):
            for was, now in zip(getattr(before, part).merge(), getattr(after, part).merge(), strict=True):
                assert np.array_equal(was, now)
        grid = round_counts.curve_rounds(before.longest, 13)
        for was, now in zip(before.bands(grid), after.bands(grid), strict=True):
            assert np.array_equal(was.view(np.int64), now.view(np.int64))  # the same bits
    assert sorted(kept[0]) == [1, 3] and np.array_equal(kept[0][3], samples[0][3]) and np.array_equal(kept[0][1], samples[0][1])
    assert kept[1] == {}


def test_counts_given_out_of_order_are_merged() -> None:
    keyed = round_counts.KeyedCounts.of(np.array([2, 1, 2, 1]), np.array([5, 9, 5, -3]), np.array([1, 2, 3, 4]))
    assert [column.tolist() for column in keyed.merge()] == [[1, 1, 2], [-3, 9, 5], [4, 2, 4]]


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 300)  # several chunks
    baccarat.run(load_experiment(SMALL), out=tmp_path / "run")
    return tmp_path / "run"


@pytest.mark.slow
def test_a_run_saves_its_counts_and_a_loaded_run_reads_the_bands_the_ledger_gives(run_dir: Path, tmp_path: Path) -> None:
    assert unchanged(run_dir / ROUND_COUNTS_FILE)  # recorded in the manifest like the other files
    shutil.copytree(run_dir, tmp_path / "recounted")
    (tmp_path / "recounted" / ROUND_COUNTS_FILE).unlink()  # a folder written before the counts were saved
    saved, recounted = baccarat.load(run_dir).analysis, baccarat.load(tmp_path / "recounted").analysis
    assert saved.bands.height > 10 and saved.paths.height > 10
    for name in ("bands", "paths", "summary", "comparison", "sessions"):
        assert_frame_equal(getattr(saved, name), getattr(recounted, name), check_exact=True)
    # The report of the older folder saves the counts, recorded in its manifest: the same file as the run's.
    assert main(["report", str(tmp_path / "recounted"), "--quiet"]) == 0
    assert unchanged(tmp_path / "recounted" / ROUND_COUNTS_FILE)
    assert pq.read_table(tmp_path / "recounted" / ROUND_COUNTS_FILE).equals(pq.read_table(run_dir / ROUND_COUNTS_FILE))


@pytest.mark.slow
def test_counts_changed_after_the_run_are_not_read_and_the_ledger_is_counted_again(run_dir: Path) -> None:
    expected = baccarat.load(run_dir).analysis.bands
    table = pq.read_table(run_dir / ROUND_COUNTS_FILE)
    richer = table.set_column(4, "bankroll_micros", pa.array(table.column("bankroll_micros").to_numpy() + 10**6))  # a unit more
    pq.write_table(richer, run_dir / ROUND_COUNTS_FILE)
    assert not unchanged(run_dir / ROUND_COUNTS_FILE)
    assert_frame_equal(baccarat.load(run_dir).analysis.bands, expected, check_exact=True)
