"""Benchmark of ``baccarat report`` of a saved run against the run itself, with the floor as the yardstick.

    python tests/benchmarks/bench_report_cost.py [--shoes 10000 100000] [--floor PATH]

For each number of shoes: the floor (``--floor``, default
``../shared/benchmarks/floor/floor.py`` beside the checkout: the minimal
program doing the job of tests/benchmarks/job.yaml), ``baccarat run
tests/benchmarks/job.yaml`` and ``baccarat report`` of the folder it wrote,
each in its own process tree, one after the other. Printed: the CPU time of
each whole tree (user + sys of the process and every child it waited for),
the ratios report / run (target: at most 0.10) and run / floor, the run folder's size once written,
and the most the folders beside the output held while the run played (the
temporary folder: its datasets and anything spooled beside them), sampled
every 0.05 s. The machine may be loaded: the CPU ratios move much less than
the wall times.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR = HERE.parents[2] / "shared" / "benchmarks" / "floor" / "floor.py"


def folder_bytes(folder: Path) -> int:
    """The bytes of every file under ``folder`` (files that vanish meanwhile count as none)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except FileNotFoundError:
                pass
    return total


def tree_cpu(command: list[str], watched: Path | None = None) -> tuple[float, float, int]:
    """Run ``command``; return the CPU seconds (user + sys) of its process tree, its wall seconds, and the most bytes
    ``watched`` held while it ran (0 without)."""
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], folder_bytes(watched))

    watcher = threading.Thread(target=watch, daemon=True) if watched is not None else None
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if watcher is not None:
        watcher.start()
    _, status, usage = os.wait4(process.pid, 0)  # the usage of the process and of the children it waited for
    wall = time.perf_counter() - start
    done.set()
    if watcher is not None:
        watcher.join()
    error = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{' '.join(command)} failed:\n{error}")
    return usage.ru_utime + usage.ru_stime, wall, peak[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--floor", type=Path, default=FLOOR)
    args = parser.parse_args()
    if not args.floor.is_file():
        sys.exit(f"the floor is not at {args.floor} (--floor PATH)")
    where = subprocess.run([sys.executable, "-c", "import baccarat; print(baccarat.__file__)"], capture_output=True, text=True, check=True)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start; baccarat from {Path(where.stdout.strip()).parent}")
    baccarat = [sys.executable, "-m", "baccarat"]
    with tempfile.TemporaryDirectory(prefix="bench-report-cost-") as tmp:
        work = Path(tmp)
        # Warm-ups: the kernels compiled (or loaded from numba's cache) and the bytecode cache written, should the
        # environment forbid it (PYTHONDONTWRITEBYTECODE): the measured commands read it, as every command after a
        # user's first one does.
        cached = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, str(args.floor), "--shoes", "1000", "--out", str(work / "floor-warm")], check=True, env=cached)
        warm = {**cached, "BACCARAT_COMPILED_FROM": "0"}
        subprocess.run(
            [*baccarat, "run", str(HERE / "job.yaml"), "--out", str(work / "warm"), "--quiet", "--set", "shoes.count=1000"],
            check=True,
            env=warm,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run([*baccarat, "report", str(work / "warm"), "--quiet"], check=True, env=cached, stdout=subprocess.DEVNULL)
        for shoes in args.shoes:
            floor_cpu, _, _ = tree_cpu([sys.executable, str(args.floor), "--shoes", str(shoes), "--out", str(work / f"floor-{shoes}")])
            beside = work / f"runs-{shoes}"
            beside.mkdir()
            out = beside / "run"
            run = [*baccarat, "run", str(HERE / "job.yaml"), "--out", str(out), "--quiet", "--set", f"shoes.count={shoes}"]
            run_cpu, run_wall, peak = tree_cpu(run, beside)
            size = folder_bytes(out)
            report_cpu, report_wall, _ = tree_cpu([*baccarat, "report", str(out), "--quiet"])
            print(
                f"{shoes:,} shoes: floor CPU {floor_cpu:.2f} s; run CPU {run_cpu:.2f} s ({run_cpu / floor_cpu:.2f}x the floor, "
                f"wall {run_wall:.2f} s); report CPU {report_cpu:.2f} s (wall {report_wall:.2f} s) = {report_cpu / run_cpu:.2f}x "
                f"the run's CPU (target: at most 0.10x), {report_cpu / floor_cpu:.2f}x the floor's; run folder {size / 1e6:.1f} MB, "
                f"at most {peak / 1e6:.1f} MB while the run played",
                flush=True,
            )
            subprocess.run(["rm", "-rf", str(beside), str(work / f"floor-{shoes}")], check=True)


if __name__ == "__main__":
    main()
