"""Benchmark of the report: its charts and report.html for 100,000 sessions of 12 strategies, against a hand-written loop.

    python tests/benchmarks/bench_report.py [--runs 5]

The statistics (summary, comparison, bands, ruin curve, sample paths, the
final bankrolls' percentiles) come first and are not timed: a run computes
them anyway, in the background while the report is made (tests/helpers/large_run.py
makes them from a small real run, its session table repeated to 100,000
sessions per strategy). Timed, best of ``--runs`` in this process after a
first pass (imports loaded, the Vega JavaScript in its cache): the charts
specified with Vega-Altair and report.html written, for a 2-session run and
for the 100,000-session one; the page's size is printed too. The yardstick,
timed in the same script: the hand-written loop of
../shared/benchmarks/naive_loop.py (beside the checkout) on 500 shoes (its own seconds). The
target is at most 0.5 s for any run size and at most 3 MB for the page.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/helpers
NAIVE = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "naive_loop.py"
NAIVE_SHOES = 500


def report_seconds(analysis, facts, runs: int) -> tuple[float, int]:
    """Best seconds of specifying the charts and writing report.html, and the page's size in bytes."""
    from baccarat.results.report.html import render_html

    best, size = float("inf"), 0
    for k in range(runs + 1):
        start = time.perf_counter()
        page = render_html(analysis, facts, analysis.charts(), "name: bench\n").encode("utf-8")
        if k:  # the first pass loads what a run has loaded
            best = min(best, time.perf_counter() - start)
        size = len(page)
    return best, size


def naive_seconds() -> float | None:
    """The hand-written loop's own seconds on NAIVE_SHOES shoes, or None when the yardstick is not on this machine."""
    if not NAIVE.is_file():
        return None
    out = subprocess.run([sys.executable, str(NAIVE), str(NAIVE_SHOES)], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"seconds=([\d.]+)", out).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from helpers.large_run import large_analysis, small_run

    from baccarat.experiment.report_facts import run_facts

    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        run = small_run(Path(tmp) / "run")
        facts = run_facts(run.experiment)
        frames = run.analysis
        small = (frames.summary, frames.comparison, frames.bands, frames.paths)  # computed first: not timed
        large = large_analysis(run, 100_000)
        _ = (large.summary, large.comparison, large.bands, large.paths, large.finals, small, frames.finals)
        yardstick = naive_seconds()
        for label, analysis in (("2-session", frames), ("100,000-session", large)):
            seconds, size = report_seconds(analysis, facts, args.runs)
            versus = f" ({seconds / yardstick:.2f}x a hand-written loop of {NAIVE_SHOES} shoes, {yardstick:.2f} s)" if yardstick else ""
            print(f"charts and report of a {label} run of 12 strategies: {seconds:.2f} s{versus}, report.html {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
