"""Benchmark of small runs: a 10-shoe run against the bare imports, the first run after install, the report.

    python tests/benchmarks/bench_startup.py [--runs 5]

Prints, each the best of ``--runs`` fresh processes:

- ``python -c "import numpy, polars, pyarrow.parquet"``, the floor of any run;
- ``baccarat run`` of the job (tests/benchmarks/job.yaml) on 10 shoes, kernels
  loaded from the cache (a warm run), and with ``--no-report``;
- the same 10-shoe run after clearing the kernel cache (an empty
  ``NUMBA_CACHE_DIR``: the first run after installing), once; a run that
  small loads no kernel (baccarat.compiling), so the same is measured for
  a run of :data:`COMPILED_SHOES` shoes, over the line of a warm cache and
  under that of a cold one;
- the quickstart (configs/quickstart.yaml) the first time after installing
  (an empty ``NUMBA_CACHE_DIR``, once) against a warm run (the kernels
  cached: compiled by a warm-up run); the target is at most 1.5x;
- the charts (Vega-Altair specifications) and report.html of a 10-shoe and
  of a 20,000-shoe run, from the saved run's statistics (computed first, not
  timed) in a process that has made them once (imports loaded, as in a run).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICKSTART = HERE.parents[1] / "configs" / "quickstart.yaml"
IMPORTS = "import numpy, polars, pyarrow.parquet"
COMPILED_SHOES = 2_000
"""Shoes of the run measured on the compiled path (x 4 strategies, about 640,000 strategy-rounds)."""

DRAW = """
import sys, time
from baccarat import api
from baccarat.experiment.report_facts import run_facts
from baccarat.results.report import html
from baccarat.execution.manifest import read_manifest
run = api.load(sys.argv[1])
analysis = run.analysis
frames = (analysis.summary, analysis.comparison, analysis.bands, analysis.paths)  # statistics first: not timed
text = (run.out_dir / "experiment.yaml").read_text()
manifest = read_manifest(run.out_dir / "manifest.json")
best = float("inf")
for k in range(4):  # the first loads the imports and the Vega JavaScript, as a run has them
    start = time.perf_counter()
    page = html.render_html(analysis, run_facts(run.experiment), analysis.charts(), text, manifest, None)
    if k:
        best = min(best, time.perf_counter() - start)
print(best)
"""


def seconds_of(command: list[str], env: dict[str, str] | None = None) -> float:
    """Return the wall-clock seconds of one run of ``command`` (which must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **(env or {})})
    took = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return took


def best_of(runs: int, command: list[str], env: dict[str, str] | None = None) -> float:
    """Return the least seconds of ``runs`` runs of ``command``."""
    return min(seconds_of(command, env) for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        work = Path(tmp)
        counter = iter(range(10**6))

        def run(shoes: int, *options: str) -> list[str]:
            return [
                sys.executable,
                "-m",
                "baccarat",
                "run",
                str(HERE / "job.yaml"),
                "--quiet",
                "--set",
                f"shoes.count={shoes}",
                "--force",
                "--out",
                str(work / f"run-{next(counter)}"),
                *options,
            ]

        seconds_of(run(1_000), {"BACCARAT_COMPILED_FROM": "0"})  # kernels compiled into the package's cache if they are not there yet
        imports = best_of(args.runs, [sys.executable, "-c", IMPORTS])
        warm = best_of(args.runs, run(10))
        lean = best_of(args.runs, run(10, "--no-report"))
        cache = {"NUMBA_CACHE_DIR": str(work / "empty-kernel-cache")}
        cold = seconds_of(run(10), cache)
        warm_same_cache = best_of(args.runs, run(10), cache)
        big_cache = {"NUMBA_CACHE_DIR": str(work / "empty-kernel-cache-compiled")}
        big_cold = seconds_of(run(COMPILED_SHOES), big_cache)
        big_warm = best_of(args.runs, run(COMPILED_SHOES), big_cache)
        quickstart = [sys.executable, "-m", "baccarat", "run", str(QUICKSTART), "--quiet", "--force", "--out", str(work / "quickstart")]
        quick_cold = seconds_of(quickstart, {"NUMBA_CACHE_DIR": str(work / "empty-kernel-cache-quickstart")})
        quick_warm = best_of(args.runs, quickstart)
        print(f"python -c {IMPORTS!r}: {imports:.2f} s (best of {args.runs})")
        print(f"baccarat run, 10 shoes, warm: {warm:.2f} s ({warm / imports:.1f}x the imports)")
        print(f"baccarat run, 10 shoes, --no-report: {lean:.2f} s ({lean / imports:.1f}x the imports)")
        print(
            f"first run after clearing the kernel cache: {cold:.2f} s, warm run on that cache {warm_same_cache:.2f} s "
            f"({cold / warm_same_cache:.1f}x)"
        )
        print(
            f"first {COMPILED_SHOES:,}-shoe run after clearing the kernel cache (the reference plays it): {big_cold:.2f} s, "
            f"warm run on that cache {big_warm:.2f} s ({big_cold / big_warm:.1f}x)"
        )
        print(
            f"quickstart, the first run after installing (empty kernel cache): {quick_cold:.2f} s, warm run (kernels cached) "
            f"{quick_warm:.2f} s ({quick_cold / quick_warm:.1f}x; target at most 1.5x)"
        )
        for shoes in (10, 20_000):
            folder = work / f"plots-{shoes}"
            seconds_of(run(shoes)[:-2] + ["--out", str(folder)])
            drawn = float(subprocess.run([sys.executable, "-c", DRAW, str(folder)], capture_output=True, text=True, check=True).stdout)
            print(f"charts and report of a {shoes:,}-shoe run: {drawn:.2f} s")


if __name__ == "__main__":
    main()
