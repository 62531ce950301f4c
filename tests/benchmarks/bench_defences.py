"""What the defences against a plugin's bugs cost on the job: ``baccarat run`` with them and without, side by side.

    python tests/benchmarks/bench_defences.py [--shoes 100000] [--repeats 2]

Runs the job of ``job.yaml`` (4 strategies on the same seeded shoes) in one
worker, alternating (A B A B ...), each run in its own process:

A. as shipped: each strategy plays with its own copy of the rules, checked
   afterwards; the compiled helpers check bounds; every chunk spot-checks
   one session of every compiled strategy on the reference engine;
B. the same with those three switched off inside the benchmark's process
   (the spot check a no-op, the rules not copied, helpers compiled without
   bounds checks).

The selector's own history buffer in the compiled loop (one store per
round) cannot be switched off and is in both. Prints each run's CPU
seconds (user and system, of the run's process: less swayed by a loaded
machine than wall time), the best of each side and the ratio A/B, with the naive pure-Python loop
of ``../shared/benchmarks/naive_loop.py`` beside the checkout (when present) on the same
shoes as the yardstick.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
YARDSTICK = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "naive_loop.py"

WITHOUT = """
import baccarat.engine.compiled as compiled, baccarat.engine.rules_guard as guard, baccarat.execution.chunk_play as play
import baccarat.plugin.twin_helpers as helpers, numba
compiled.spot_check = lambda *args: None
play.private_rules = lambda rules: rules
helpers.njit = lambda function=None, **o: numba.njit(cache=True, **o) if function is None else numba.njit(cache=True, **o)(function)
"""
"""Switches the defences off in the process of a B run (before the plugins are loaded)."""


def run_job(shoes: int, out: Path, defences: bool) -> tuple[float, float]:
    """Run the job in a process of its own; return its wall seconds and the CPU seconds of that process."""
    args = ["run", str(HERE / "job.yaml"), "--set", f"shoes.count={shoes}", "--workers", "1", "--quiet", "--force", "--out", str(out)]
    code = ("" if defences else WITHOUT) + f"import sys\nfrom baccarat.cli import main\nsys.exit(main({args!r}))\n"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        run_job(min(args.shoes, 2000), Path(work) / "warm", True)  # compiles and caches the kernels of both sides
        run_job(min(args.shoes, 2000), Path(work) / "warm", False)
        times: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeats):
            for defences in (True, False):
                wall, cpu = run_job(args.shoes, Path(work) / "out", defences)
                times[defences].append(cpu)
                print(f"{'with   ' if defences else 'without'} defences: {cpu:.2f} s CPU ({wall:.2f} s wall)", flush=True)
    with_, without = min(times[True]), min(times[False])
    print(f"best CPU: with {with_:.2f} s, without {without:.2f} s; ratio with/without = {with_ / without:.3f}")
    if YARDSTICK.is_file():
        done = subprocess.run([sys.executable, str(YARDSTICK), str(args.shoes)], capture_output=True, text=True, check=True)
        seconds = float(done.stdout.split("seconds=")[1].split()[0])
        print(
            f"yardstick (a hand-written loop, {args.shoes:,} shoes): {seconds:.2f} s of its loop (wall); "
            f"job CPU with defences / yardstick = {with_ / seconds:.3f}"
        )


if __name__ == "__main__":
    os.environ.setdefault("BACCARAT_COMPILED_FROM", "0")
    main()
