"""Benchmark of the report's test of the shoes against fair shoes: ``baccarat run`` with it against the same run without it.

    python tests/benchmarks/bench_report_patterns.py [--shoes 1000 10000] [--repeat 2]

For each number of shoes, ``baccarat run configs/quickstart.yaml`` (1,000
shoes; other counts by ``--set shoes.count=N``) in its own process, once as
shipped and once with the report's patterns test left out (the yardstick: the
same run, its ``run_against_fair`` replaced by one returning nothing), taken
in turn ``--repeat`` times. Printed: the least and the median CPU time
(user + sys of the process tree) of each, and the ratios with / without. The machine may be
loaded: the CPU ratios move much less than the wall times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICKSTART = HERE.parents[1] / "configs" / "quickstart.yaml"

WITHOUT = """
import sys
import baccarat.results.report.analysis as analysis
analysis.run_against_fair = lambda *args, **kwargs: None
analysis.patterns_html = lambda data: ""
from baccarat.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""The run without the report's patterns test: the same command, the test replaced by nothing."""

WITH = """
import sys
from baccarat.cli import main
sys.exit(main(sys.argv[1:]))
"""


def tree_cpu(command: list[str]) -> float:
    """Run ``command``; return the CPU seconds (user + sys) of its process tree."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    error = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"{' '.join(command)} failed:\n{error}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    print(f"{'shoes':>8} {'':>6} {'without (s CPU)':>16} {'with (s CPU)':>13} {'with / without':>15}")
    with tempfile.TemporaryDirectory(prefix="bench-report-patterns-") as tmp:
        for shoes in args.shoes:
            times: dict[str, list[float]] = {"without": [], "with": []}
            for i in range(args.repeat):
                for kind, code in (("without", WITHOUT), ("with", WITH)):
                    out = Path(tmp) / f"{kind}-{shoes}-{i}"
                    command = [sys.executable, "-c", code, "run", str(QUICKSTART), "--out", str(out), "--quiet"]
                    if shoes != 1_000:
                        command += ["--set", f"shoes.count={shoes}"]
                    times[kind].append(tree_cpu(command))
            for name, pick in (("least", min), ("median", statistics.median)):
                without, with_ = pick(times["without"]), pick(times["with"])
                print(f"{shoes:>8} {name:>6} {without:>16.2f} {with_:>13.2f} {with_ / without:>15.2f}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
