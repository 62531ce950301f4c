"""Benchmark of start-up: ``baccarat --help`` and the compiled kernels' on-disk cache.

    python tests/benchmarks/bench_cli.py

Prints the best of 5 runs of ``baccarat --help`` (the command imports no
heavy module before it knows what to do), and the time to load every
compiled kernel in a fresh process from numba's cache (compiled once after
install, on first use, then reused).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

LOAD_KERNELS = """
import time
start = time.perf_counter()
import numpy as np
from baccarat.table.rules import preset
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.odds.settlement import settlement_table
from baccarat.engine.reference import SessionConfig, StrategyRun, session_bounds
from baccarat.engine.compiled import play_compiled
from baccarat.plugin.manager import registry
from baccarat.results.statistics.folded import fold_sessions
rules = preset("punto-banco-8")
table = seeded_table_compiled(rules, 1, 1, 2)
table.to_arrow()
cls, params = registry().configure("flat", {"side": "banker", "unit": 10})
columns = play_compiled(StrategyRun("x", cls, params), table, settlement_table(table, rules), rules,
                    SessionConfig(100000, 1000, 100000, 1), 1, session_bounds(table, 1))
fold_sessions(columns, None, 10**11, 1000)
print(time.perf_counter() - start)
"""


def best_of(command: list[str], runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    script = Path(sys.executable).with_name("baccarat")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "baccarat"]
    print(f"{' '.join(command)} --help: {best_of([*command, '--help']):.3f} s (best of 5)")
    subprocess.run([sys.executable, "-c", LOAD_KERNELS], check=True, capture_output=True)  # compile once if needed
    seconds = min(
        float(subprocess.run([sys.executable, "-c", LOAD_KERNELS], check=True, capture_output=True, text=True).stdout) for _ in range(3)
    )
    print(f"imports and every compiled kernel loaded from the cache in a fresh process: {seconds:.2f} s")


if __name__ == "__main__":
    main()
