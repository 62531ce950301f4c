"""Every speed figure of the README in one run, each beside its baseline or target.

    python tests/benchmarks/bench_all.py [--shoes 100000] [--skip-ray]

Runs, one after the other (each in its own processes, nothing else should
run meanwhile): ``bench_job.py`` (the job against the pure-Python baseline,
peak memory at 100,000, 400,000 and 2,000,000 shoes), ``bench_deal.py``
(bulk dealing against the reference dealer), ``bench_strategies.py``
(reference engine and compiled path), ``bench_reference.py`` (plain-Python
plugin strategies on the reference engine against a heavier pure-Python
simulator), ``bench_plain_python.py`` (plain-Python plugin strategies end to
end through ``baccarat run`` against a hand-written loop, ``naive_loop.py``),
``bench_cli.py`` (start-up), and a check
that ``--workers 1``, ``--workers 2`` and, when Ray is installed,
``--executor ray`` write the very same files, and ``bench_startup.py`` (a
10-shoe run against the bare imports, the first run after clearing the
kernel cache against a warm run, the quickstart's first run after
installing against a warm one, the report), ``bench_report.py`` (the report of 100,000 sessions)
and ``bench_floor.py`` (the CPU of the job against the floor, when ``../shared/benchmarks/floor/`` is there) and
``bench_strategy_count.py`` (the CPU per strategy-round with 4, 16 and 64 strategies, against the floor). Echoes every script's output,
then prints the figures as a Markdown table (the README's).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR = HERE.parents[2] / "shared" / "benchmarks" / "floor" / "floor.py"
"""The floor (``bench_floor.py``), when it is there."""
SAME_FILES = ("rounds.parquet", "ledger.parquet", "summary.csv", "comparison.csv")
"""Files compared between executors (the plots and the manifest carry timings or library versions)."""


def script_output(name: str, *args: str) -> str:
    """Run a benchmark script with this interpreter, echo its output and return it."""
    print(f"$ python tests/benchmarks/{name} {' '.join(args)}".rstrip(), flush=True)
    done = subprocess.run([sys.executable, str(HERE / name), *args], capture_output=True, text=True)
    print(done.stdout + done.stderr, flush=True)
    if done.returncode:
        sys.exit(f"{name} failed (exit status {done.returncode})")
    return done.stdout


def number(pattern: str, text: str) -> float:
    """The first number captured by ``pattern`` in ``text`` (thousands separators allowed)."""
    found = re.search(pattern, text, re.M)
    if found is None:
        sys.exit(f"figure not found in a benchmark's output: {pattern}")
    return float(found.group(1).replace(",", ""))


def files_digest(folder: Path) -> str:
    """One SHA-256 over the files every executor must write identically (every part of the two datasets, by name)."""
    digest = hashlib.sha256()
    for name in SAME_FILES:
        path = folder / name
        for part in sorted(path.iterdir()) if path.is_dir() else [path]:
            digest.update(part.name.encode() + part.read_bytes())
    return digest.hexdigest()


def executor_runs(shoes: int, with_ray: bool) -> list[tuple[str, float, str]]:
    """Run the job on ``shoes`` shoes with each executor; return (label, seconds, digest of the files)."""
    variants = [("--workers 1", ["--workers", "1"]), ("--workers 2", ["--workers", "2"])]
    if with_ray:
        variants.append(("--executor ray", ["--executor", "ray", "--workers", "2"]))
    found = []
    with tempfile.TemporaryDirectory(prefix="bench-all-") as tmp:
        for k, (label, options) in enumerate(variants):
            out = Path(tmp) / f"run-{k}"
            command = [
                sys.executable,
                "-m",
                "baccarat",
                "run",
                str(HERE / "job.yaml"),
                "--quiet",
                "--out",
                str(out),
                "--set",
                f"shoes.count={shoes}",
                *options,
            ]
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode:
                sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
            found.append((label, seconds, files_digest(out)))
            print(f"{label:16s} {shoes:,} shoes: {seconds:6.2f} s, files {found[-1][2][:16]}", flush=True)
    return found


def ray_installed() -> bool:
    """Whether the [ray] extra is installed."""
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000, help="shoes of the job (default 100,000)")
    parser.add_argument("--skip-ray", action="store_true", help="leave out the Ray executor")
    args = parser.parse_args()

    job = script_output("bench_job.py", "--shoes", str(args.shoes))
    deal = script_output("bench_deal.py")
    strategies = script_output("bench_strategies.py")
    reference = script_output("bench_reference.py")
    plain_python = script_output("bench_plain_python.py")
    cli = script_output("bench_cli.py")
    startup = script_output("bench_startup.py")
    report = script_output("bench_report.py")
    floor = script_output("bench_floor.py", "--shoes", str(args.shoes)) if FLOOR.is_file() else ""
    counts = script_output("bench_strategy_count.py") if FLOOR.is_file() else ""
    print("$ baccarat run job.yaml on 20,000 shoes with each executor", flush=True)
    with_ray = ray_installed() and not args.skip_ray
    executors = executor_runs(20_000, with_ray)
    print()

    ours = number(r"^baccarat run \(.*?\):\s+([\d.]+) s", job)
    python_base = number(r"^pure-Python baseline, python shuffle:\s+([\d.]+) s", job)
    numpy_base = number(r"^pure-Python baseline, numpy shuffle:\s+([\d.]+) s", job)
    memory = number(r"^baccarat run \(.*?peak memory\s+([\d.]+) MB", job)
    memory_once = number(r"^baccarat run \(.*?peak memory\s+[\d.]+ MB \(([\d.]+) MB with shared pages", job)
    base_memory = number(r"^pure-Python baseline, python shuffle:.*peak memory\s+([\d.]+) MB", job)
    scale = re.findall(r"^baccarat run on ([\d,]+) shoes:\s+([\d.]+) s, peak memory\s+([\d.]+) MB", job, re.M)
    totals_equal = "equal to the numpy-shuffle baseline's: yes" in job
    rounds = number(r"in chunks of [\d,]+, ([\d,]+) rounds", deal)
    dealing = number(r"compiled dealer with the compiled shuffle:\s+([\d.]+) M", deal)
    reference_dealer = number(r"reference dealer \(shuffle included\).*?:\s+([\d.]+) M", deal)
    identical_rounds = number(r"([\d,]+) rounds identical", deal)
    third_party = [float(m) for m in re.findall(r"reference engine, third-party\S*\s+([\d.]+) M", strategies)]
    fast = re.findall(r"built-in (.+?)\s+reference\s+([\d.]+) M/s, compiled path\s+([\d.]+) M/s.*?, ledgers (\w+)", strategies)
    naive = number(r"heavier pure-Python simulator.*?([\d.]+) M strategy-rounds/s", reference)
    hand_written = number(r"^naive hand-written loop.*?: ([\d,]+) strategy-rounds/s", plain_python)
    through_run = number(r"^baccarat run, plain-Python plugin strategies: ([\d,]+) strategy-rounds/s", plain_python)
    compiled_run = number(r"^baccarat run, the same strategies built in \(compiled\): ([\d,]+) strategy-rounds/s", plain_python)
    plain = re.findall(r"reference engine, (.+?)\s+([\d.]+) M strategy-rounds/s\s+\(([\d.]+)x", reference)
    help_seconds = number(r"--help: ([\d.]+) s", cli)
    kernels = number(r"loaded from the cache in a fresh process: ([\d.]+) s", cli)
    digests = {digest for _, _, digest in executors}
    imports = number(r"^python -c .*?: ([\d.]+) s", startup)
    small = number(r"^baccarat run, 10 shoes, warm: ([\d.]+) s", startup)
    small_lean = number(r"^baccarat run, 10 shoes, --no-report: ([\d.]+) s", startup)
    cold = number(r"^first run after clearing the kernel cache: ([\d.]+) s", startup)
    cold_warm = number(r"^first run after clearing the kernel cache: .*warm run on that cache ([\d.]+) s", startup)
    big_shoes = number(r"^first ([\d,]+)-shoe run after clearing", startup)
    big_cold = number(r"^first [\d,]+-shoe run after clearing the kernel cache \(the reference plays it\): ([\d.]+) s", startup)
    big_warm = number(r"^first [\d,]+-shoe run after clearing .*warm run on that cache ([\d.]+) s", startup)
    quick_cold = number(r"^quickstart, the first run after installing .*?: ([\d.]+) s", startup)
    quick_warm = number(r"^quickstart, the first run after installing .*warm run \(kernels cached\) ([\d.]+) s", startup)
    drawn = re.findall(r"^charts and report of a ([\d,]+)-shoe run: ([\d.]+) s", startup, re.M)
    large = re.findall(r"^charts and report of a ([\d,]+)-session run of 12 strategies: ([\d.]+) s.*report\.html ([\d.]+) MB", report, re.M)

    print("| figure | measured | baseline or target |")
    print("|---|---|---|")
    print(
        f"| the job ({args.shoes:,} shoes x 4 strategies, `baccarat run`) | {ours:.1f} s | pure-Python baseline "
        f"{python_base:.1f} s: **{python_base / ours:.1f}x** faster (target 10x, aim 20x); "
        f"with numpy's shuffle {numpy_base:.1f} s: {numpy_base / ours:.1f}x |"
    )
    others = ", ".join(f"{float(mb) / 1024:.2f} GB at {shoes} shoes ({float(seconds):.1f} s)" for shoes, seconds, mb in scale)
    print(
        f"| its peak memory | {memory / 1024:.2f} GB ({memory_once / 1024:.2f} GB with the pages processes share "
        f"counted once); {others} | at most 1.2 GB at 2,000,000 shoes; "
        f"baseline {base_memory / 1024:.1f} GB |"
    )
    print(
        f"| its totals | every strategy's net {'equal' if totals_equal else 'NOT equal'} to the baseline's on the "
        f"same shoes | equal to the micro-unit |"
    )
    print(
        f"| bulk dealing, one core ({rounds:,.0f} rounds, seeded shuffle included) | {dealing:.1f} M rounds/s | "
        f"target 8 M; reference dealer {reference_dealer:.2f} M: {dealing / reference_dealer:.0f}x; "
        f"{identical_rounds:,.0f} rounds identical to it |"
    )
    print(
        f"| third-party Python strategies, reference engine, one core | {min(third_party):.2f}-{max(third_party):.2f} "
        f"M strategy-rounds/s | target 0.5 M |"
    )
    for what, rate, ratio in plain:
        print(
            f"| {what}, reference engine, one core | {float(rate):.2f} M strategy-rounds/s | heavier pure-Python "
            f"simulator (`baseline_pure_python.py`) in the same run {naive:.2f} M: {float(ratio):.2f}x |"
        )
    print(
        f"| plain-Python plugin strategies end to end through `baccarat run --workers 1 --no-report` | "
        f"{through_run / 1e6:.2f} M strategy-rounds/s (CPU time) | a hand-written loop (`naive_loop.py`) in the same "
        f"run {hand_written / 1e6:.2f} M: **{through_run / hand_written:.2f}x** (target 1.5x, aim 3x); the same strategies "
        f"built in (compiled) through the same command {compiled_run / 1e6:.2f} M: {compiled_run / hand_written:.2f}x, "
        "about the most plain Python through the command can reach |"
    )
    for name, slow, quick, same in fast:
        print(
            f"| built-in {name}, compiled path, one core | {float(quick):.1f} M strategy-rounds/s | reference engine "
            f"{float(slow):.2f} M: {float(quick) / float(slow):.0f}x; ledgers {same} |"
        )
    runs = ", ".join(f"{label} {seconds:.1f} s" for label, seconds, _ in executors)
    print(f"| the same files for any executor (20,000 shoes) | {'yes' if len(digests) == 1 else 'NO'} ({runs}) | identical |")
    print(
        f"| a 10-shoe run of the job | {small:.2f} s ({small_lean:.2f} s with `--no-report`) | "
        f'`python -c "import numpy, polars, pyarrow.parquet"` {imports:.2f} s: **{small / imports:.1f}x** '
        f"({small_lean / imports:.1f}x; target at most 3x, aim 1.5x) |"
    )
    print(
        f"| the first run after clearing the kernel cache (10 shoes) | {cold:.1f} s | a warm run {cold_warm:.2f} s: "
        f"**{cold / cold_warm:.1f}x** (target at most 2.5x; a run this small compiles nothing) |"
    )
    print(
        f"| the first run of {big_shoes:,.0f} shoes after clearing the kernel cache (the reference plays it) | "
        f"{big_cold:.1f} s | a warm run (compiled) {big_warm:.2f} s: **{big_cold / big_warm:.1f}x** |"
    )
    print(
        f"| the quickstart, the first run after installing (empty kernel cache) | {quick_cold:.2f} s | a warm run "
        f"(kernels cached) {quick_warm:.2f} s: **{quick_cold / quick_warm:.1f}x** (target at most 1.5x) |"
    )
    if floor:
        job_cpu = number(r"^baccarat run: CPU ([\d.]+) s", floor)
        floor_cpu = number(r"^baccarat run: CPU [\d.]+ s against the floor's ([\d.]+) s", floor)
        print(
            f"| the job's CPU ({args.shoes:,} shoes, user + sys of the process tree) | {job_cpu:.1f} s | the floor "
            f"(`../shared/benchmarks/floor/floor.py`, the same files) {floor_cpu:.1f} s: **{job_cpu / floor_cpu:.2f}x** "
            f"(target at most 1.3x, aim 1.1x) |"
        )
    if counts:
        per_count = re.findall(r"^\s*(\d+) strategies: CPU ([\d.]+) us \(([\d.]+)x the floor's\)", counts, re.M)
        rise = number(r"^cost per strategy-round, \d+ strategies against \d+: CPU ([\d.]+)x", counts)
        figures = ", ".join(f"{n}: {float(us):.2f} us ({float(ratio):.2f}x)" for n, us, ratio in per_count)
        print(
            f"| the CPU per strategy-round by the number of strategies (`bench_strategy_count.py`, built-in compiled "
            f"strategies, the same strategy-rounds) | {figures} | the floor's in the same script (the ratios); flat: "
            f"64 against 4 **{rise:.2f}x** |"
        )
    for shoes, seconds in drawn:
        print(f"| the charts and report.html of a {shoes}-shoe run | {float(seconds):.2f} s | at most 0.5 s |")
    for sessions, seconds, size in large:
        figures = f"{float(seconds):.2f} s, {size} MB"
        print(f"| the charts and report.html of {sessions} sessions x 12 strategies | {figures} | at most 0.5 s, 3 MB |")
    print(f"| `baccarat --help` | {help_seconds:.3f} s | at most 0.3 s |")
    print(f"| imports and every compiled kernel loaded from the cache | {kernels:.2f} s | compiled once after install |")


if __name__ == "__main__":
    main()
