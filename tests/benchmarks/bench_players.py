"""Benchmark: plain-Python plugin strategies in player processes, wall time, against the naive loop in the same script.

    python tests/benchmarks/bench_players.py [--shoes 10000] [--repeat 2] [--naive ../shared/benchmarks/naive_loop.py]

The yardstick is ``naive_loop.py`` (a hand-written loop playing four
strategies inline). Beside it, ``baccarat run`` plays the same four
strategies written as a plugin author writes them in plain Python (the
plugin of ``bench_plain_python.py``), with the default workers and the
report, as a user runs it: each strategy plays in player processes, in
lock-step over every session of a chunk. Wall time of each whole command,
``--repeat`` times interleaved, the best kept; it prints both rates in
strategy-rounds per second and their ratio (target: at least 0.7x).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_plain_python import EXPERIMENT, NAIVE, PLUGIN  # noqa: E402


def naive_run(naive: Path, shoes: int) -> tuple[int, float]:
    """Strategy-rounds and wall seconds of the naive loop's whole process."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(naive), str(shoes)], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    found = re.search(r"strategy_rounds=(\d+)", done.stdout)
    if found is None:
        sys.exit(f"unexpected output of {naive}: {done.stdout}")
    return int(found.group(1)), seconds


def baccarat_run(folder: Path) -> tuple[int, float]:
    """Strategy-rounds and wall seconds of ``baccarat run`` with the default workers and the report."""
    out = folder / "out"
    command = [
        sys.executable,
        "-m",
        "baccarat",
        "run",
        "experiment.yaml",
        "--plugins-dir",
        "plugins",
        "--quiet",
        "--force",
        "--out",
        str(out),
    ]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"baccarat run failed:\n{done.stderr}")
    import polars as pl

    return pl.scan_parquet(out / "ledger.parquet").select(pl.len()).collect().item(), seconds


def main() -> None:
    """Time both, interleaved, and print the rates and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--naive", type=Path, default=NAIVE)
    args = parser.parse_args()
    if not args.naive.is_file():
        sys.exit(f"the yardstick {args.naive} is missing: give its place with --naive")
    with tempfile.TemporaryDirectory(prefix="bench-players-") as tmp:
        folder = Path(tmp)
        (folder / "plugins").mkdir()
        (folder / "plugins" / "plain.py").write_text(PLUGIN, encoding="utf-8")
        (folder / "experiment.yaml").write_text(textwrap.dedent(EXPERIMENT.format(shoes=args.shoes)), encoding="utf-8")
        best: dict[str, tuple[int, float]] = {}
        for _ in range(args.repeat):
            for what, result in (("naive", naive_run(args.naive, args.shoes)), ("players", baccarat_run(folder))):
                if what not in best or result[1] < best[what][1]:
                    best[what] = result
    naive, players = (best[what][0] / best[what][1] for what in ("naive", "players"))
    print(f"{args.shoes:,} shoes, wall time of each whole command")
    print(f"naive hand-written loop ({args.naive.name}): {naive:,.0f} strategy-rounds/s ({best['naive'][1]:.1f} s)")
    print(f"baccarat run, plain-Python plugin, default workers, report: {players:,.0f} strategy-rounds/s ({best['players'][1]:.1f} s)")
    print(f"ratio: {players / naive:.2f}x the naive loop")


if __name__ == "__main__":
    main()
