"""Benchmark of the job against the floor: the CPU of ``baccarat run`` beside a minimal program doing the same job.

    python tests/benchmarks/bench_floor.py [--shoes 100000] [--rounds 2] [--floor PATH]

The floor (``--floor``, default ``../shared/benchmarks/floor/floor.py`` beside
the checkout) deals the seeded shoes with numba, plays the four strategies of
tests/benchmarks/job.yaml with integer money and writes the same
``ledger.parquet/`` and ``rounds.parquet/`` datasets with pyarrow on two
threads. ``baccarat run tests/benchmarks/job.yaml`` does that and more: the
summary, the comparison, sessions.parquet, the plots, the report and the
manifest.

Both are run alternately (floor, job, floor, job, ...: ``--rounds`` of each,
after one warm-up of each that compiles the kernels, or loads them from the cache, and writes the
bytecode cache), each in its own process tree, and the script prints the CPU time of each whole tree
(user + sys of the process and every child it waited for: the workers), the
wall times, and the ratio job / floor of the medians. The machine may be
loaded: the CPU ratio moves much less than the wall times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR = HERE.parents[2] / "shared" / "benchmarks" / "floor" / "floor.py"


def tree_usage(command: list[str], environment: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Run ``command``; return the CPU seconds (user + sys) of its process tree, its wall seconds and its peak memory.

    The peak is the largest resident set (MB) of any process of the tree,
    as ``/usr/bin/time -v`` prints it (with worker threads, the run is one
    process).
    """
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    _, status, usage = os.wait4(process.pid, 0)  # the usage of the process and of the children it waited for
    wall = time.perf_counter() - start
    error = process.stderr.read().decode() if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        sys.exit(f"{' '.join(command)} failed (exit status {process.returncode}):\n{error}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def tree_cpu(command: list[str], environment: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``command``; return the CPU seconds (user + sys) of its process tree and its wall seconds."""
    seconds, wall, _ = tree_usage(command, environment)
    return seconds, wall


def job_command(shoes: int, out: Path) -> list[str]:
    """``baccarat run tests/benchmarks/job.yaml`` on ``shoes`` shoes into ``out``."""
    return [sys.executable, "-m", "baccarat", "run", str(HERE / "job.yaml"), "--out", str(out), "--force", "--quiet"] + [
        "--set",
        f"shoes.count={shoes}",
    ]


def floor_command(floor: Path, shoes: int, out: Path) -> list[str]:
    """The floor on ``shoes`` shoes into ``out``."""
    return [sys.executable, str(floor), "--shoes", str(shoes), "--out", str(out)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternately (after one warm-up of each)")
    parser.add_argument("--floor", type=Path, default=FLOOR)
    args = parser.parse_args()
    if not args.floor.is_file():
        sys.exit(f"the floor is not at {args.floor} (--floor PATH)")
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start; {args.shoes:,} shoes")
    cpu: dict[str, list[float]] = {"floor": [], "job": []}
    wall: dict[str, list[float]] = {"floor": [], "job": []}
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        work = Path(tmp)
        # 1,000 shoes are below the line from which a run compiles: the warm-up is told to compile all the same. It
        # also writes the interpreter's bytecode cache, as a first import does, should the environment forbid it
        # (PYTHONDONTWRITEBYTECODE): the measured runs then read it, as every run after a user's first one does.
        warm = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        tree_cpu(floor_command(args.floor, 1_000, work / "floor-warm"), warm)
        tree_cpu(job_command(1_000, work / "job-warm"), {**warm, "BACCARAT_COMPILED_FROM": "0"})
        for k in range(args.rounds):
            for name in ("floor", "job"):
                out = work / f"{name}-{k}"
                command = floor_command(args.floor, args.shoes, out) if name == "floor" else job_command(args.shoes, out)
                seconds, elapsed = tree_cpu(command)
                cpu[name].append(seconds)
                wall[name].append(elapsed)
                print(f"{name:5}: CPU {seconds:6.2f} s (user + sys of the process tree), wall {elapsed:6.2f} s", flush=True)
                subprocess.run(["rm", "-rf", str(out)], check=True)
    floor_cpu, job_cpu = statistics.median(cpu["floor"]), statistics.median(cpu["job"])
    print(
        f"baccarat run: CPU {job_cpu:.2f} s against the floor's {floor_cpu:.2f} s: {job_cpu / floor_cpu:.2f}x the floor's CPU "
        f"(wall {statistics.median(wall['job']) / statistics.median(wall['floor']):.2f}x; medians of {args.rounds})"
    )


if __name__ == "__main__":
    main()
