"""Benchmark of ``baccarat plan``: the player's question of docs/plan.md, whole command, beside the naive-loop yardstick.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_plan.py [--repeat 3] [--shoes 1000]

The question ("1,000 and 60 hands: which of Martingale, Paroli, D'Alembert and
flat Banker lasts longest, and what bankroll does a 1% risk of ruin need?") is
answered by one ``baccarat plan`` process, timed end to end (start-up,
plugins, the four exact analyses and the bankroll searches). The yardstick,
run in the same script on the same machine, is the naive pure-Python backtest
``/work/shared/benchmarks/naive_loop.py`` over ``--shoes`` shoes (four
strategies inline, about 80 rounds a shoe): the ratio says how many such
naive-loop runs the answer costs, whatever the load of the machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

QUESTION = [
    "plan",
    "--bankroll",
    "1000",
    "--hands",
    "60",
    *("--strategy", "martingale", "--strategy", "paroli", "--strategy", "dalembert", "--strategy", "flat"),
]
NAIVE_LOOP = Path("/work/shared/benchmarks/naive_loop.py")


def seconds(command: list[str]) -> float:
    """Return the wall-clock seconds of one process running ``command`` (its output discarded)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    """Time the question's command and the naive loop alternately, and print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shoes", type=int, default=1000)
    args = parser.parse_args()
    baccarat = [str(Path(sys.executable).parent / "baccarat"), *QUESTION]
    seconds(baccarat)  # warm-up: numba's cache of the exact analysis's kernels
    plan, naive = [], []
    for _ in range(args.repeat):
        plan.append(seconds(baccarat))
        naive.append(seconds([sys.executable, str(NAIVE_LOOP), str(args.shoes)]))
    p, n = statistics.median(plan), statistics.median(naive)
    print(f"baccarat plan (the question, whole process): median {p:.2f} s of {args.repeat}")
    print(f"naive_loop.py {args.shoes} shoes (whole process):   median {n:.2f} s of {args.repeat}")
    print(f"ratio plan / naive loop: {p / n:.2f}")


if __name__ == "__main__":
    main()
