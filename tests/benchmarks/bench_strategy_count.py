"""Benchmark of the cost per strategy-round as the strategies grow from 4 to 64, against the floor.

    python tests/benchmarks/bench_strategy_count.py [--shoes 10000] [--counts 4 16 64] [--rounds 2] [--floor PATH]

One experiment (tests/benchmarks/job.yaml's rules, seed and sessions: one
8-deck shoe a session, bankroll 1,000, table 10-1,000) is run by ``baccarat
run`` with the default workers and the report, with 4, 16 and 64 built-in
compiled strategies: flat, Martingale, Paroli and d'Alembert on Banker,
Player, follow-last and chop, with units of 10 to 40 (each count holds the
progressions and the sides in equal numbers). Every count plays the same
strategy-rounds: ``--shoes`` shoes for the largest count, proportionally
more for the smaller ones (``--same-shoes``: ``--shoes`` for every count),
so that start-up weighs the same in each.

The floor (``--floor``, default ``../shared/benchmarks/floor/floor.py``
beside the checkout: the minimal program doing tests/benchmarks/job.yaml's
job with four strategies) runs in the same script on the shoes of the
smallest count, alternately with the runs (floor, 4, 16, 64, floor, ...:
``--rounds`` of each, after one warm-up of each). Printed for each count:
the CPU (user + sys of the whole process tree) and wall microseconds per
strategy-round (the ledger rows the manifest counts), the ratio of each to
the floor's, and the peak resident memory of the largest process. The
machine may be loaded: the CPU ratio moves much less than the wall times.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_floor import FLOOR, floor_command, tree_usage  # noqa: E402

PROGRESSIONS = ("flat", "martingale", "paroli", "dalembert")
SIDES = ("banker", "player", "follow-last", "chop")
UNITS = (10, 20, 30, 40)


def strategies(count: int) -> list[dict[str, object]]:
    """``count`` strategies (a multiple of 4, at most 64), every four of them each progression once and each side once.

    The k-th plays progression ``k % 4`` on side ``(k + k // 4) % 4`` with
    unit ``UNITS[k // 16]``: 4 strategies are one of each progression and of
    each side, 16 every (progression, side) once, 64 those with four units,
    so that every count holds the same mix (the sides cost the reference's
    spot checks differently).
    """
    if count % 4 or not 0 < count <= 64:
        sys.exit(f"--counts: {count} is not a multiple of 4 up to 64")
    chosen = []
    for k in range(count):
        use, side, unit = PROGRESSIONS[k % 4], SIDES[(k + k // 4) % 4], UNITS[k // 16]
        chosen.append({"name": f"{use} {side} {unit}", "use": use, "params": {"side": side, "unit": unit}})
    return chosen


def experiment(count: int, shoes: int, folder: Path) -> Path:
    """Write the experiment of ``count`` strategies on ``shoes`` shoes into ``folder``; return its path."""
    path = folder / f"strategies-{count}.yaml"
    body = {
        "name": f"{count} strategies",
        "rules": "punto-banco-8",
        "shoes": {"source": "seeded", "seed": 7, "count": shoes},
        "session": {"bankroll": 1000, "shoes_per_session": 1, "table_min": 10, "table_max": 1000},
        "strategies": strategies(count),
    }
    path.write_text(json.dumps(body, indent=1))  # JSON is YAML
    return path


def run_command(path: Path, out: Path) -> list[str]:
    """``baccarat run`` of the experiment at ``path`` into ``out``, default workers, with the report."""
    return [sys.executable, "-m", "baccarat", "run", str(path), "--out", str(out), "--force", "--quiet"]


def floor_rounds(floor: Path, shoes: int, out: Path) -> int:
    """The rounds the floor deals on ``shoes`` shoes (a run of its own, not timed)."""
    done = subprocess.run(floor_command(floor, shoes, out), capture_output=True, text=True, check=True)
    found = re.search(r"floor: (\d+) rounds", done.stdout)
    if found is None:
        sys.exit(f"the floor printed no count of rounds:\n{done.stdout}")
    subprocess.run(["rm", "-rf", str(out)], check=True)
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000, help="shoes of the largest count (at least 10,000 for the figures)")
    parser.add_argument("--counts", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, alternately (after one warm-up of each)")
    parser.add_argument("--same-shoes", action="store_true", help="--shoes for every count (start-up then weighs more in the small)")
    parser.add_argument("--floor", type=Path, default=FLOOR)
    args = parser.parse_args()
    if not args.floor.is_file():
        sys.exit(f"the floor is not at {args.floor} (--floor PATH)")
    largest = max(args.counts)
    shoes = {count: args.shoes if args.same_shoes else args.shoes * largest // count for count in args.counts}
    floor_shoes = shoes[min(args.counts)]
    print(
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start; "
        + ", ".join(f"{count} strategies on {shoes[count]:,} shoes" for count in args.counts)
        + f"; the floor (4 strategies) on {floor_shoes:,} shoes"
    )
    names = ["floor", *args.counts]
    cpu: dict[object, list[float]] = {name: [] for name in names}
    wall: dict[object, list[float]] = {name: [] for name in names}
    peak: dict[object, list[float]] = {name: [] for name in names}
    rows: dict[object, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-strategy-count-") as tmp:
        work = Path(tmp)
        paths = {count: experiment(count, shoes[count], work) for count in args.counts}
        rows["floor"] = 4 * floor_rounds(args.floor, floor_shoes, work / "floor-count")
        # Warm-ups: the kernels compiled or loaded from their cache, the bytecode cache written.
        warm = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        tree_usage(floor_command(args.floor, 1_000, work / "floor-warm"), warm)
        for count in args.counts:
            tree_usage(run_command(paths[count], work / "warm") + ["--set", "shoes.count=1000"], {**warm, "BACCARAT_COMPILED_FROM": "0"})
        for k in range(args.rounds):
            for name in names:
                out = work / f"{name}-{k}"
                command = floor_command(args.floor, floor_shoes, out) if name == "floor" else run_command(paths[name], out)
                seconds, elapsed, memory = tree_usage(command)
                if name != "floor":
                    rows[name] = json.loads((out / "manifest.json").read_text())["ledger_rows"]
                cpu[name].append(seconds)
                wall[name].append(elapsed)
                peak[name].append(memory)
                print(
                    f"{name!s:>5}: CPU {seconds:7.2f} s, wall {elapsed:7.2f} s, peak RSS {memory:6.0f} MB, {rows[name]:,} strategy-rounds",
                    flush=True,
                )
                subprocess.run(["rm", "-rf", str(out)], check=True)
    per_cpu = {name: statistics.median(cpu[name]) / rows[name] * 1e6 for name in names}
    per_wall = {name: statistics.median(wall[name]) / rows[name] * 1e6 for name in names}
    print(f"medians of {args.rounds}, microseconds per strategy-round; the floor: CPU {per_cpu['floor']:.3f}, wall {per_wall['floor']:.3f}")
    for count in args.counts:
        print(
            f"{count:3} strategies: CPU {per_cpu[count]:.3f} us ({per_cpu[count] / per_cpu['floor']:.2f}x the floor's), "
            f"wall {per_wall[count]:.3f} us ({per_wall[count] / per_wall['floor']:.2f}x), "
            f"peak RSS {max(peak[count]):.0f} MB"
        )
    first, last = min(args.counts), max(args.counts)
    print(
        f"cost per strategy-round, {last} strategies against {first}: "
        f"CPU {per_cpu[last] / per_cpu[first]:.2f}x, wall {per_wall[last] / per_wall[first]:.2f}x"
    )


if __name__ == "__main__":
    main()
