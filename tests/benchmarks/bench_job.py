"""Benchmark of the job users run: ``baccarat run`` against a straightforward pure-Python simulator.

    python tests/benchmarks/bench_job.py [--shoes 100000] [--workers N] [--skip-baseline]

Runs, one after the other and each in its own process:

1. ``baccarat run tests/benchmarks/job.yaml`` (4 strategies on the same
   100,000 seeded 8-deck shoes): ledger and rounds to Parquet, summary,
   plots, report;
2. ``baseline_pure_python.py`` with Python's own shuffle (the pure-Python
   baseline) and with numpy's seeded shuffle (the very shoes of ``baccarat
   run``): the same dealing and betting, every round and ledger row kept in
   lists in memory;
3. ``baccarat run`` again on 100,000, 400,000 and 2,000,000 shoes
   (``--memory-shoes``), to show that peak memory does not grow with the
   number of shoes: the ledger is streamed, the session table goes to the
   run folder as the chunks arrive, and the summary and comparison are made
   from exact aggregates folded meanwhile (target: at most 1.2 GB at 2,000,000).

Prints wall times, peak memory (the resident memory of the process and its
workers, sampled; also with the pages they share counted once), the ratios, and checks that each strategy's total net in
``ledger.parquet`` equals the numpy-shuffle baseline's to the micro-unit.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``: from /proc/PID/task/*/children where the kernel has it (cheap), else a scan."""
    try:
        found = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
        return found
    except (OSError, ValueError):
        pass
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def _kb(pid: int, file: str, field: str) -> int:
    """A figure in kB of ``/proc/PID/FILE`` (``status`` ``VmRSS:``, ``smaps_rollup`` ``Pss:``), 0 when gone."""
    try:
        with open(f"/proc/{pid}/{file}") as handle:
            for line in handle:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_measured(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """Run ``command``; return its wall seconds, the peak memory of its process tree (MB) and its output.

    Memory twice: the sum of the processes' resident sets (a library's pages
    shared by several processes counted in each), and the sum of their
    proportional set sizes (a shared page counted once, split between them).
    """
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})})
    peak = [0, 0]

    def sample() -> None:
        while process.poll() is None:
            tree, total, proportional, seen = [process.pid], 0, 0, set()
            while tree:
                pid = tree.pop()
                if pid in seen:
                    continue
                seen.add(pid)
                total += _kb(pid, "status", "VmRSS:")
                proportional += _kb(pid, "smaps_rollup", "Pss:")
                tree.extend(_children(pid))
            peak[0] = max(peak[0], total)
            peak[1] = max(peak[1], proportional)
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - start
    sampler.join()
    if process.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{output}")
    return seconds, peak[0] / 1024, peak[1] / 1024, output


def machine() -> str:
    """Describe this machine in one line."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = os.getloadavg()[0]
    return (
        f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, Linux {platform.release()}, "
        f"Python {platform.python_version()}; load average {load:.2f} at start"
    )


def baccarat_run(shoes: int, workers: int | None, folder: Path, env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """Run ``baccarat run job.yaml`` on ``shoes`` shoes into ``folder``."""
    command = [
        sys.executable,
        "-m",
        "baccarat",
        "run",
        str(HERE / "job.yaml"),
        "--out",
        str(folder),
        "--quiet",
        "--set",
        f"shoes.count={shoes}",
    ]
    if workers:
        command += ["--workers", str(workers)]
    return run_measured(command, env)


def ledger_totals(folder: Path) -> dict[str, str]:
    """Each strategy's total net in the run's ledger, as text with 6 decimals."""
    import polars as pl

    totals = pl.scan_parquet(folder / "ledger.parquet").group_by("strategy", maintain_order=True).agg(pl.col("net").sum()).collect()
    return {row[0]: f"{row[1]:.6f}" for row in totals.iter_rows()}


def baseline_totals(output: str) -> dict[str, str]:
    """Each strategy's total net printed by the baseline."""
    return dict(re.findall(r"^  (.+): net (-?[\d.]+)$", output, re.M))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=None, help="baccarat run --workers (default: all cores)")
    parser.add_argument("--skip-baseline", action="store_true", help="time baccarat run only")
    parser.add_argument(
        "--memory-shoes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[100_000, 400_000, 2_000_000],
        help="shoes of the runs whose peak memory is printed (comma-separated)",
    )
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory(prefix="bench-job-") as tmp:
        work = Path(tmp)
        # Kernels compiled once after install, then cached (compiled even though a run of 1,000 shoes is under the line
        # of baccarat.compiling while the cache is cold).
        warm, _, _, _ = baccarat_run(1_000, args.workers, work / "warm", {"BACCARAT_COMPILED_FROM": "0"})
        print(f"first 1,000-shoe run (loads or compiles the cached kernels): {warm:.2f} s")
        load = os.getloadavg()[0]
        seconds, memory, shared_once, output = baccarat_run(args.shoes, args.workers, work / "run")
        summary_line = output.strip().splitlines()[-1]
        baselines = {}
        if not args.skip_baseline:
            for shuffle in ("python", "numpy"):
                base_load = os.getloadavg()[0]
                base, base_memory, _, base_output = run_measured(
                    [sys.executable, str(HERE / "baseline_pure_python.py"), "--shoes", str(args.shoes), "--shuffle", shuffle]
                )
                baselines[shuffle] = (base, base_memory, base_output)
                print(
                    f"pure-Python baseline, {shuffle} shuffle: {base:7.2f} s, peak memory {base_memory:7.0f} MB "
                    f"(load average {base_load:.2f} before)"
                )
        print(
            f"baccarat run (Parquet ledger and rounds, summary, plots, report): {seconds:7.2f} s, "
            f"peak memory {memory:6.0f} MB ({shared_once:.0f} MB with shared pages counted once; load average "
            f"{load:.2f} before)"
        )
        print("  " + summary_line)
        for shuffle, (base, _, _) in baselines.items():
            print(f"  {base / seconds:5.1f}x faster than the pure-Python baseline with the {shuffle} shuffle")
        if "numpy" in baselines:
            ours, theirs = ledger_totals(work / "run"), baseline_totals(baselines["numpy"][2])
            same = ours == theirs
            print(f"  total net of every strategy equal to the numpy-shuffle baseline's: {'yes' if same else 'NO'}")
            if not same:
                print(f"    baccarat run: {ours}\n    baseline:     {theirs}")
        for shoes in args.memory_shoes:
            part_seconds, part_memory, part_once, _ = baccarat_run(shoes, args.workers, work / f"run-{shoes}")
            print(
                f"baccarat run on {shoes:,} shoes: {part_seconds:6.2f} s, peak memory {part_memory:6.0f} MB "
                f"({part_once:.0f} MB with shared pages counted once)"
            )
            shutil.rmtree(work / f"run-{shoes}")


if __name__ == "__main__":
    main()
