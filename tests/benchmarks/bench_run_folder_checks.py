"""Benchmark of what reading a run folder checks: the ledger's rows against the manifest's checksums.

    python tests/benchmarks/bench_run_folder_checks.py [--shoes 4000] [--runs 5]

A run of ``--shoes`` seeded shoes and two strategies is written once into a
temporary folder. Timed in this process, the median of ``--runs``: the
checks of what the ledger says (:func:`baccarat.results.ledger_checks.check_ledger`:
no null money, no negative stake, nets within and summing with the
stakes, every strategy present, printable labels) and, as the yardstick,
the check every reader already made before them: every data file against
the manifest's sizes and SHA-256 checksums
(:func:`baccarat.execution.manifest.check_data`). The ratio is printed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from baccarat.execution.manifest import check_data, read_manifest
from baccarat.results.ledger_checks import check_ledger

EXPERIMENT = (
    "shoes: {{seed: 4, count: {shoes}}}\nstrategies:\n"
    "  - {{name: flat, use: flat, params: {{side: banker, unit: 10}}}}\n"
    "  - {{name: mart, use: martingale, params: {{side: banker, unit: 10}}}}\n"
)


def median_seconds(function: Callable[[], object], runs: int) -> float:
    """Return the median of ``runs`` timings of ``function`` (after one untimed call)."""
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Write the run, time both checks, print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        experiment, out = Path(folder) / "exp.yaml", Path(folder) / "run"
        experiment.write_text(EXPERIMENT.format(shoes=args.shoes))
        subprocess.run([sys.executable, "-m", "baccarat", "run", str(experiment), "--out", str(out), "--quiet"], check=True)
        ledger = out / "ledger.parquet"
        rows = pl.scan_parquet(ledger).select(pl.len()).collect().item()
        checks = median_seconds(lambda: check_ledger(ledger, ["flat", "mart"]), args.runs)
        yardstick = median_seconds(lambda: check_data(out, read_manifest(out / "manifest.json") or {}), args.runs)
    print(f"ledger of {rows:,} rows: its rows checked in {checks:.3f} s; the manifest's checksums (yardstick) in {yardstick:.3f} s")
    print(f"ratio {checks / yardstick:.2f}x")


if __name__ == "__main__":
    main()
