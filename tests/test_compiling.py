"""Small runs load no compiled kernel and write what the compiled path writes; the leaf kernel equals its function; the
numpy and Arrow forms of what were kernels give the definitions' values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from baccarat.cli import main
from baccarat.compiling import (
    CACHED_KERNELS,
    COMPILED_COLD_FROM,
    COMPILED_FROM,
    COMPILED_FROM_ENV,
    compiled,
    kernels_cached,
    plays_compiled,
)
from baccarat.results.statistics import folded as runstats
from baccarat.results.statistics import round_counts
from baccarat.shoes import columnar
from baccarat.table.cards import card_label

EXPERIMENT = """name: small
shoes: {seed: 11, count: 40}
session: {bankroll: 300, shoes_per_session: 2, table_min: 10, table_max: 400}
strategies:
  - name: flat banker
    use: flat
    params: {side: banker, unit: 10}
  - name: martingale stopped
    use: martingale
    params: {side: player, unit: 10, stop_loss: 60, stop_win: 50}
  - name: paroli
    use: paroli
    params: {side: banker, unit: 10}
"""


def test_the_line_between_the_reference_and_the_kernels(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(COMPILED_FROM_ENV, raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # empty: the first run after installing
    assert not kernels_cached()
    assert not plays_compiled(COMPILED_FROM) and not plays_compiled(COMPILED_COLD_FROM - 1) and plays_compiled(COMPILED_COLD_FROM)
    for folder, name in CACHED_KERNELS:  # numba's index files, written after the sources
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{name}-10.py311.nbi").write_bytes(b"")
        assert kernels_cached() == (name == CACHED_KERNELS[-1][1])  # every one of them is needed
    assert not plays_compiled(COMPILED_FROM - 1) and plays_compiled(COMPILED_FROM)
    old = os.stat(tmp_path / CACHED_KERNELS[0][0] / f"{CACHED_KERNELS[0][1]}-10.py311.nbi").st_mtime - 10**9
    os.utime(tmp_path / CACHED_KERNELS[0][0] / f"{CACHED_KERNELS[0][1]}-10.py311.nbi", (old, old))
    assert not kernels_cached()  # an index older than its source: a reinstall since
    assert compiled(runstats._fold) is compiled(runstats._fold) is not runstats._fold  # once per process
    monkeypatch.setenv(COMPILED_FROM_ENV, "0")
    assert plays_compiled(1)


def test_exact_decimals_hold_every_value_times_its_scale() -> None:
    rng = np.random.default_rng(1)
    values = np.concatenate([rng.integers(-(2**40), 2**40, 500), [0, -1, 1, 2**49, -(2**49)]]).astype(np.int64)
    for scale in (1, 10_000):  # micro-units, and cents to micro-units
        array = columnar.decimal_micros(values, scale, 38)
        assert [int(v.scaleb(6)) for v in array.to_pylist()] == [int(v) * scale for v in values]


def test_ledger_money_as_decimal64_reads_back_as_the_decimal128_it_replaces(tmp_path) -> None:
    import polars as pl
    import pyarrow as pa
    import pyarrow.parquet as pq

    from baccarat.engine.reference import MAX_MICROS

    rng = np.random.default_rng(3)
    values = np.concatenate([rng.integers(-(2**40), 2**40, 500), [0, -1, 1, MAX_MICROS // 10_000, -(MAX_MICROS // 10_000)]]).astype(
        np.int64
    )
    for scale in (1, 10_000):
        wide, narrow = columnar.decimal_micros(values, scale, 18), columnar.decimal64_micros(values, scale)
        assert narrow.type == pa.decimal64(18, 6) and narrow.to_pylist() == wide.to_pylist()
        frames = []
        for name, array in (("wide", wide), ("narrow", narrow)):
            pq.write_table(pa.table({"money": array}), tmp_path / f"{name}.parquet", store_decimal_as_integer=True)
            assert str(pq.read_metadata(tmp_path / f"{name}.parquet").schema.column(0).logical_type) == "Decimal(precision=18, scale=6)"
            frames.append(pl.read_parquet(tmp_path / f"{name}.parquet"))
        assert frames[0].schema == frames[1].schema == {"money": pl.Decimal(18, 6)} and frames[0].equals(frames[1])


def test_card_lists_label_every_card_in_order() -> None:
    rng = np.random.default_rng(2)
    valid = [code for code in range(1, 128) if code % 16 and code % 16 <= 13 and code // 16 <= 4]
    codes = rng.choice(valid, size=(300, 3)).astype(np.int8)
    codes[rng.random((300, 3)) < 0.3] = 0  # rows with two cards, or none
    for compiled_kernel in (False, True):
        got = columnar.card_lists(codes, compiled_kernel).to_pylist()
        assert got == [[card_label(int(code)) for code in row if code] for row in codes]
        assert any(len(row) == 3 for row in got) and any(len(row) < 3 for row in got)
    assert columnar.card_lists(codes[:0], True).to_pylist() == []


def test_session_folds_compiled_and_interpreted_are_equal() -> None:
    rng = np.random.default_rng(3)
    lengths = rng.integers(1, 90, 60).astype(np.int64)
    first = (np.cumsum(lengths) - lengths).astype(np.int64)
    n = int(lengths.sum())
    stake = rng.choice([0, 1000, 2000, 4000], n).astype(np.int64)
    net = (stake * rng.choice([-1, 0, 1], n) * 10_000).astype(np.int64)
    bankroll = (30_000_000 + rng.integers(-30_000_000, 30_000_000, n)).astype(np.int64)
    capped = rng.integers(0, 2, n).astype(np.int64)
    stopped_by = np.where(rng.random(n) < 0.02, rng.integers(1, 3, n), 0).astype(np.int64)
    expected = rng.normal(-0.1, 1.0, n)
    outputs = []
    for fold in (runstats._fold, compiled(runstats._fold)):
        out, out_expected = np.zeros((60, runstats.SESSION_VALUES), dtype=np.int64), np.zeros(60)
        fold(first, lengths, stake, net, bankroll, capped, stopped_by, expected, 30_000_000, 10_000_000, out, out_expected)
        outputs.append((out, out_expected))
    (out, out_expected), (kernel_out, kernel_expected) = outputs
    assert np.array_equal(out, kernel_out) and np.array_equal(out_expected, kernel_expected)  # floats bit for bit
    assert out[:, 0].tolist() == lengths.tolist() and (out[:, 11] > 0).any()  # folded, stops included


def test_a_bankroll_block_holds_each_session_bankroll_round_by_round_or_its_last_one() -> None:
    rng = np.random.default_rng(4)
    lengths = rng.integers(1, 80, 40).astype(np.int64)
    first = (np.cumsum(lengths) - lengths).astype(np.int64)
    values = rng.integers(0, 10**9, int(lengths.sum())).astype(np.int64)
    block = round_counts.bankroll_block(values, lengths)
    assert block.shape == (lengths.max(), 40)
    for r in range(block.shape[0]):
        for s in range(40):
            assert block[r, s] == values[first[s] + min(r, lengths[s] - 1)]


def run_folder(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch, compiled_from: str | None) -> Path:
    with monkeypatch.context() as patch:
        if compiled_from is not None:
            patch.setenv(COMPILED_FROM_ENV, compiled_from)
        assert main(["run", str(tmp_path / "small.yaml"), "--out", str(tmp_path / name), "--quiet", "--workers", "1"]) == 0
    return tmp_path / name


@pytest.mark.slow
def test_a_small_run_writes_what_the_compiled_path_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "small.yaml").write_text(EXPERIMENT)
    small = run_folder(tmp_path, "small", monkeypatch, None)
    kernels = run_folder(tmp_path, "kernels", monkeypatch, "0")
    for name in ("rounds.parquet", "ledger.parquet", "sessions.parquet"):
        assert pl.read_parquet(small / name).equals(pl.read_parquet(kernels / name)), name
    for name in ("summary.csv", "comparison.csv"):
        assert (small / name).read_bytes() == (kernels / name).read_bytes(), name
    sessions = pl.read_parquet(small / "sessions.parquet")
    assert sessions.height == 60 and sessions["stopped_by"].is_not_null().any()


def numba_loaded_by_a_run(tmp_path: Path, env: dict[str, str]) -> bool:
    code = (
        "import sys\nfrom baccarat.cli import main\n"
        f"assert main(['run', {str(tmp_path / 'small.yaml')!r}, '--out', {str(tmp_path / env.get('out', 'out'))!r}, "
        "'--quiet', '--workers', '1', '--no-report']) == 0\nprint('numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **{k: v for k, v in env.items() if k != "out"}},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-1] == "True"


@pytest.mark.slow
def test_a_small_run_does_not_even_import_numba_and_a_large_one_does(tmp_path: Path) -> None:
    """The run itself: its report's test of the shoes against fair shoes deals 20,000 fair shoes with the compiled dealer."""
    (tmp_path / "small.yaml").write_text(EXPERIMENT)
    assert not numba_loaded_by_a_run(tmp_path, {"out": "small"})
    assert numba_loaded_by_a_run(tmp_path, {"out": "kernels", COMPILED_FROM_ENV: "0"})


def test_a_bad_line_in_the_environment_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "small.yaml").write_text(EXPERIMENT)
    monkeypatch.setenv(COMPILED_FROM_ENV, "lots")
    assert main(["run", str(tmp_path / "small.yaml"), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and COMPILED_FROM_ENV in err and "'lots'" in err
    assert not (tmp_path / "out").exists()
