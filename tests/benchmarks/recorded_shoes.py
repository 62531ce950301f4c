"""Benchmark: generate and check recorded shoe files; time and peak memory against the number of shoes.

Run: ``python tests/benchmarks/recorded_shoes.py [SHOES ...] [--formats cards,outcomes,rounds]``
(default 1,000 10,000 100,000 shoes of punto-banco-8). Each step runs as its own ``baccarat``
process, so the peak resident memory printed is that step's alone. ``check`` streams the file in
chunks and keeps no table, so its memory should stay flat as the file grows; ``read`` (what a run
does) keeps the round table, 24 bytes a round.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

READ = (
    "import sys; from baccarat.shoes.recorded import read_shoes; from baccarat.table.rules import preset; "
    "r = read_shoes(sys.argv[1], sys.argv[2], preset('punto-banco-8')); print(len(r.table))"
)


def measure(argv: list[str]) -> tuple[float, float]:
    """Run ``argv`` in a fresh process; return wall seconds and its peak resident memory in MiB."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        os.execvp(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv)}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    """Print a table of figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("shoes", nargs="*", type=int, default=[1_000, 10_000, 100_000])
    parser.add_argument("--formats", default="cards,outcomes,rounds")
    args = parser.parse_args()
    baccarat = str(Path(sys.executable).with_name("baccarat"))
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"{'format':<9} {'shoes':>8} {'rounds':>10} {'file MiB':>9} {'generate s':>11} {'check s':>8} "
        f"{'check MiB':>10} {'read s':>7} {'read MiB':>9}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats.split(","):
            for count in args.shoes:
                path = Path(folder) / f"{count}.{fmt}"
                gen_s, _ = measure(
                    [
                        baccarat,
                        "shoes",
                        "generate",
                        "--rules",
                        "punto-banco-8",
                        "--count",
                        str(count),
                        "--seed",
                        "1",
                        "--format",
                        fmt,
                        "--out",
                        str(path),
                        "--quiet",
                    ]
                )
                check_s, check_mib = measure([baccarat, "shoes", "check", str(path), "--format", fmt])
                read_s, read_mib = measure([sys.executable, "-c", READ, str(path), fmt])
                out = subprocess.run(
                    [baccarat, "shoes", "check", str(path), "--format", fmt], capture_output=True, text=True, check=True
                ).stdout
                rounds = next(line.split()[1] for line in out.splitlines() if line.split()[0] == "rounds")
                print(
                    f"{fmt:<9} {count:>8,} {rounds:>10} {path.stat().st_size / 2**20:>9.1f} {gen_s:>11.1f} {check_s:>8.1f} "
                    f"{check_mib:>10.0f} {read_s:>7.1f} {read_mib:>9.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
