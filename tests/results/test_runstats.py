"""Statistics gathered during a run equal those computed from its ledger afterwards (the definition)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from helpers import ledger_reference
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import baccarat
from baccarat.engine.compiled import DISABLE_ENV
from baccarat.execution import chunks as chunking
from baccarat.execution.runner import prepare, run_experiment, run_to_folder
from baccarat.experiment import load_experiment
from baccarat.experiment.report_facts import run_facts
from baccarat.results.statistics import folded as runstats
from baccarat.results.statistics import round_counts
from baccarat.results.statistics.tallies import percentiles_of_counts
from baccarat.shoes.recorded.write import write_shoes
from baccarat.shoes.seeded import seeded_rounds

STRATEGIES = [
    {"name": "martingale", "use": "martingale", "params": {"side": "banker", "unit": 10}},
    {"name": "labouchere chop", "use": "labouchere", "params": {"side": "chop", "unit": 10, "stop_win": 60}},
    {"name": "random flat", "use": "flat", "params": {"side": "random", "unit": 25, "stop_loss": 100}},
    {"name": "pairs", "use": "flat", "params": {"side": "player_pair", "unit": 10, "max_rounds": 40}},
]


def experiment(**changes):
    data = {
        "name": "gathered",
        "rules": "punto-banco-8-pairs",
        "shoes": {"source": "seeded", "seed": [3, 8], "count": 30},
        "session": {"bankroll": 250, "shoes_per_session": 2, "table_min": 10, "table_max": 160},
        "strategies": STRATEGIES,
        **changes,
    }
    return load_experiment(data)


def reference_engine_stops(exp, monkeypatch: pytest.MonkeyPatch) -> pl.DataFrame:
    """The sessions a stop rule ended, every strategy played by the reference engine (the ledger does not hold them)."""
    with monkeypatch.context() as patch:
        patch.setenv(DISABLE_ENV, "1")
        return run_experiment(exp).stops


def assert_same_analysis(gathered, reference: ledger_reference.ReferenceAnalysis) -> None:
    for name in ("sessions", "summary", "comparison", "bands", "ruin", "finals", "paths"):
        assert_frame_equal(getattr(gathered, name), getattr(reference, name), check_exact=True)


@pytest.mark.slow
@pytest.mark.parametrize(("workers", "per_chunk", "baseline"), [(1, 4, None), (2, 4, None), (1, 3, "random flat"), (2, 3, "pairs")])
def test_statistics_gathered_while_playing_equal_the_ledger_definition(
    tmp_path: Path, workers: int, per_chunk: int, baseline: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 2_000)  # several chunks
    # 3: the four strategies play each chunk's sessions in two chunks of two, the baseline in the second.
    monkeypatch.setattr(chunking, "STRATEGIES_PER_CHUNK", per_chunk)
    if workers == 1:  # bands a few rounds at a time, the session spool read a few sessions at a time
        monkeypatch.setattr(ledger_reference, "BAND_CELLS", 100)
        monkeypatch.setattr(runstats, "READ_SESSIONS", 37)
        monkeypatch.setattr(runstats, "TALLY_ROWS", 20)  # the tallies take a few chunks at a time
        monkeypatch.setattr(round_counts, "PENDING_TRIPLES", 50)  # the bands' counts merged every few chunks
        # Bands at a few rounds spread over the sessions' (both ways).
        monkeypatch.setattr(runstats, "CURVE_POINTS", 7)
        monkeypatch.setattr(ledger_reference, "CURVE_POINTS", 7)
    exp = experiment()
    result = run_to_folder(exp, tmp_path / "run", workers=workers, baseline=baseline)
    assert {chunk.strategies for chunk in prepare(exp).chunks} == ({(0, 4)} if per_chunk == 4 else {(0, 2), (2, 4)})
    reference = ledger_reference.reference_analysis(
        pl.scan_parquet(tmp_path / "run" / "ledger.parquet"),
        run_facts(exp).bankroll,
        run_facts(exp).table_min,
        baseline=baseline,
        stops=reference_engine_stops(exp, monkeypatch),
        fixed=run_facts(exp).fixed_bets,
    )
    assert result.analysis is not None and result.analysis.sessions.height == 4 * 2 * 15
    assert result.analysis.sessions["ruined"].any()
    stopped = result.analysis.sessions.group_by("strategy", maintain_order=True).agg(pl.col("stopped_by").unique().sort())
    assert stopped.rows() == [
        ("martingale", [None]),
        ("labouchere chop", [None, "stop_win"]),
        ("random flat", [None, "stop_loss"]),
        ("pairs", [None, "max_rounds"]),
    ]
    assert_same_analysis(result.analysis, reference)
    assert not [p.name for p in (tmp_path / "run").iterdir() if p.name.startswith(".")]


@pytest.mark.slow
def test_a_plugin_strategy_on_the_reference_path_and_recorded_shoes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 1_000)  # several chunks, played by worker processes
    exp = experiment()
    write_shoes(tmp_path / "shoes.txt", "cards", seeded_rounds(exp.rules, 5, 1, 8))
    plugin = tmp_path / "plugins"
    plugin.mkdir()
    (plugin / "every_other.py").write_text(
        "from baccarat import hookimpl\n"
        "from baccarat.plugin import Strategy\n\n\n"
        "class EveryOther(Strategy):\n"
        "    name = 'every-other'\n\n"
        "    def bets(self, view):\n"
        "        return {'banker': 10, 'tie': 10} if view.round % 2 else None\n\n\n"
        "@hookimpl\n"
        "def register_strategies(register):\n"
        "    register(EveryOther)\n"
    )
    exp = experiment(
        shoes={"source": "recorded", "path": str(tmp_path / "shoes.txt"), "format": "cards"},
        strategies=[*STRATEGIES[:2], {"name": "every other", "use": "every-other"}],
        plugins_dir=str(plugin),
    )
    result = run_to_folder(exp, tmp_path / "run", workers=2)
    reference = ledger_reference.reference_analysis(
        pl.scan_parquet(tmp_path / "run" / "ledger.parquet"),
        run_facts(exp).bankroll,
        run_facts(exp).table_min,
        stops=reference_engine_stops(exp, monkeypatch),
        fixed=run_facts(exp).fixed_bets,
    )
    assert_same_analysis(result.analysis, reference)
    ledger = pl.read_parquet(tmp_path / "run" / "ledger.parquet")
    assert ledger.filter(pl.col("strategy") == "every other")["stake_tie"].cast(pl.Float64).max() == 10


# No -0.0: equal values sort in any order, and only the sign of a zero could tell which one was read (a bankroll,
# an integer of micro-units divided by 10**6, is never -0.0).
@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.floats(min_value=-1e12, max_value=1e12, allow_nan=False).map(lambda x: x + 0.0) | st.sampled_from([0.0, 250.0]),
            min_size=1,
            max_size=40,
        ),
        min_size=1,
        max_size=4,
    ).filter(lambda rows: len({len(r) for r in rows}) == 1),
    st.lists(st.integers(0, 100), min_size=1, max_size=6),
)
def test_percentiles_of_counted_values_are_numpys_bit_for_bit(rows: list[list[float]], percentiles: list[int]) -> None:
    for row in rows:
        values, counts = np.unique(np.asarray(row, dtype=np.float64), return_counts=True)
        expected = np.percentile(np.asarray(row, dtype=np.float64), percentiles)
        got = percentiles_of_counts(values, counts, percentiles)
        assert np.array_equal(got.view(np.int64), expected.view(np.int64))  # the same bits


def test_the_bands_from_counts_are_numpys_percentiles_and_exact_means_of_every_session() -> None:
    rng = np.random.default_rng(7)
    counts = round_counts.RoundCounts()
    blocks = []
    for sessions in (1, 2, 19, 20, 21, 1_000, 4_321):  # chunks of sessions of up to 60 rounds, some ending early
        lengths = rng.integers(1, 61, size=sessions)
        bankroll = np.round(rng.exponential(500.0, size=int(lengths.sum())), 2).astype(np.int64) * 10_000 + 10**9
        counts.add(bankroll, lengths)
        blocks.append(round_counts.bankroll_block(bankroll, lengths))
    longest = max(block.shape[0] for block in blocks)
    matrix = np.concatenate([np.vstack([block, np.tile(block[-1], (longest - block.shape[0], 1))]) for block in blocks], axis=1)
    grid = round_counts.curve_rounds(longest, 25)
    table, means = counts.bands(grid)
    assert np.array_equal(table, np.percentile(matrix[grid - 1] / 1e6, round_counts.BAND_PERCENTILES, axis=1).T)
    assert np.array_equal(means, matrix[grid - 1].sum(axis=1) / matrix.shape[1] / 1e6)


def test_the_collector_keeps_no_session_in_memory_as_chunks_arrive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracemalloc

    monkeypatch.setattr(round_counts, "PENDING_TRIPLES", 100)  # the bands' counts of the same bankrolls merged at once

    sessions, rounds = 500, 10
    rows = runstats.SessionRows(
        np.arange(sessions, dtype=np.int64), np.full((sessions, runstats.SESSION_VALUES), rounds, dtype=np.int64), np.zeros(sessions)
    )
    bankroll = np.arange(sessions * rounds, dtype=np.int64)

    def kept(chunks: int) -> int:
        folder = tmp_path / str(chunks)
        folder.mkdir()
        collector = runstats.RunStatsCollector(folder, ["a", "b"])
        tracemalloc.start()
        try:
            for _ in range(chunks):  # each chunk's own arrays, as they arrive from the workers
                fresh = [runstats.SessionRows(rows.session.copy(), rows.values.copy(), rows.expected.copy()) for _ in range(2)]
                collector.add(fresh, [bankroll.copy(), bankroll.copy()])
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert (folder / ".sessions.0.spool").stat().st_size == chunks * sessions * runstats.SESSION_RECORD * 8  # on disk
        collector.session_spool.remove()
        return held

    # 350 chunks more of 2 x 500 sessions: 39 MB of session rows were they kept; a block's shape per chunk is what grows.
    assert kept(400) - kept(50) < 350 * 2 * 200


@pytest.mark.slow
@pytest.mark.parametrize("sessions_per_chunk", [1, 3, 7])
def test_statistics_folded_chunk_by_chunk_of_odd_sizes_equal_the_ledger_definition(
    tmp_path: Path, sessions_per_chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chunking, "sessions_per_chunk", lambda *_: sessions_per_chunk)
    exp = experiment(
        shoes={"source": "seeded", "seed": 5, "count": 38},
        session={"bankroll": 250, "shoes_per_session": 3, "table_min": 10, "table_max": 160},
    )
    assert len(prepare(exp).chunks) == -(-13 // sessions_per_chunk)  # 13 sessions of 3 shoes
    result = run_to_folder(exp, tmp_path / "run", baseline="random flat")
    reference = ledger_reference.reference_analysis(
        pl.scan_parquet(tmp_path / "run" / "ledger.parquet"),
        run_facts(exp).bankroll,
        run_facts(exp).table_min,
        baseline="random flat",
        stops=reference_engine_stops(exp, monkeypatch),
        fixed=run_facts(exp).fixed_bets,
    )
    assert result.analysis is not None and result.analysis.comparison["baseline"].unique().to_list() == ["random flat"]
    assert_same_analysis(result.analysis, reference)
    # Loaded: the saved session rows replayed with the ledger's bankrolls; without sessions.parquet, the ledger folded.
    assert_same_analysis(baccarat.load(tmp_path / "run", baseline="random flat").analysis, reference)
    (tmp_path / "run" / "sessions.parquet").unlink()
    folded_again = baccarat.load(tmp_path / "run", baseline="random flat").analysis
    for name in ("summary", "comparison", "bands", "ruin", "finals", "paths"):  # stopped_by is kept only in sessions.parquet
        assert_frame_equal(getattr(folded_again, name), getattr(reference, name), check_exact=True)
    for name in ("summary.csv", "comparison.csv"):  # the files too, byte for byte
        written = (tmp_path / "run" / name).read_bytes()
        assert written == getattr(reference, name.split(".")[0]).write_csv().encode("utf-8")


def test_pairs_tallied_a_few_chunks_at_a_time_are_those_of_the_sessions_both_strategies_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baccarat.results.statistics.tallies import PairTally

    monkeypatch.setattr(runstats, "TALLY_ROWS", 9)
    rng = np.random.default_rng(11)

    def rows(sessions: list[int]) -> runstats.SessionRows:
        values = rng.integers(-(10**9), 10**9, size=(len(sessions), runstats.SESSION_VALUES))
        values[:, 0] = 1
        return runstats.SessionRows(np.asarray(sessions, dtype=np.int64), values, rng.normal(size=len(sessions)))

    chunks = [(rows([1, 2, 3]), rows([1, 3])), (rows([4, 5]), rows([4, 5])), (rows([6, 8, 9]), rows([7, 8, 9])), (rows([10]), rows([]))]
    collector = runstats.RunStatsCollector(tmp_path, ["a", "b"], bankrolls=False)
    for chunk in chunks:
        collector.add(list(chunk), [np.zeros(len(part.session), dtype=np.int64) for part in chunk])
    collector.tallied()
    expected = PairTally()
    for base, other in chunks:
        mine, theirs = runstats.pair_rows(other.session, base.session)
        expected.add(other.values[mine], other.expected[mine], base.values[theirs], base.expected[theirs])
    got = collector.pairs[1]
    assert got.pairs == expected.pairs == 6
    assert got.sums.tolist() == expected.sums.tolist() and got.gram.tolist() == expected.gram.tolist()
    assert (got.better, got.worse, got.ruined, got.base_ruined) == (expected.better, expected.worse, expected.ruined, expected.base_ruined)
    assert got.luck.scaled == expected.luck.scaled and got.luck_squares.scaled == expected.luck_squares.scaled
    assert collector.first_sessions.tolist() == [1, 2, 3, 4, 5]
    collector.session_spool.remove()


def test_the_bands_counts_hold_bankrolls_too_far_apart_for_one_sort_key() -> None:
    rng = np.random.default_rng(5)
    counts = round_counts.RoundCounts()
    lengths = rng.integers(1, 6, size=40)
    bankroll = rng.choice([-(2**61), 0, 7, 2**61], size=int(lengths.sum())).astype(np.int64)  # a span beyond 2**62
    counts.add(bankroll, lengths)
    counts.add(bankroll[::-1].copy(), lengths[::-1].copy())
    block = round_counts.bankroll_block(bankroll, lengths)
    other = round_counts.bankroll_block(bankroll[::-1].copy(), lengths[::-1].copy())
    matrix = np.concatenate([block, other], axis=1)
    grid = round_counts.curve_rounds(matrix.shape[0])
    table, _ = counts.bands(grid)
    assert np.array_equal(table, np.percentile(matrix[grid - 1] / 1e6, round_counts.BAND_PERCENTILES, axis=1).T)
