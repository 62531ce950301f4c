"""Benchmark of the exact odds: time per call of ``bet_evs`` and ``round_odds``.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_odds.py [--calls N]

The per-round budget is 5 ms for a full 8-deck composition after warm-up.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from baccarat.odds.compositions import remove_cards, shoe_counts
from baccarat.odds.exact_odds import round_odds
from baccarat.odds.fast_evs import bet_evs
from baccarat.shoes.seeded import shuffled_shoe
from baccarat.table.rules import preset


def timings(fn, calls: int) -> list[float]:
    """Return the milliseconds of each of ``calls`` calls of ``fn`` (after three warm-up calls)."""
    for _ in range(3):
        fn()
    out = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(label: str, ms: list[float]) -> None:
    """Print the median, 99th percentile and largest time of a series."""
    ms_sorted = sorted(ms)
    p99 = ms_sorted[min(len(ms_sorted) - 1, int(0.99 * len(ms_sorted)))]
    print(f"{label:<58} median {statistics.median(ms):7.3f} ms   p99 {p99:7.3f} ms   max {max(ms):7.3f} ms")


def main() -> None:
    """Time the exact odds on full and depleted 8-deck compositions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, {platform.processor() or '?'}")

    start = time.perf_counter()
    bet_evs(preset("punto-banco-8"), shoe_counts(8))
    print(f"first call (builds the index arrays once): {(time.perf_counter() - start) * 1000:.1f} ms")

    full = shoe_counts(8)
    for name in ("punto-banco-8", "punto-banco-8-pairs", "ez-baccarat-8", "super-6-8"):
        rules = preset(name)
        report(f"bet_evs, full 8-deck shoe, {name}", timings(lambda r=rules: bet_evs(r, full), args.calls))

    # Every round of a real shoe: the composition left before each round.
    rules = preset("ez-baccarat-8")
    cards = shuffled_shoe(rules, seed=1, shoe_id=1)
    compositions = [remove_cards(full, cards[:k]) for k in range(0, 400, 5)]
    it = iter(compositions * (args.calls // len(compositions) + 1))
    report("bet_evs, depleted 8-deck shoes (every 5 cards dealt)", timings(lambda: bet_evs(rules, next(it)), args.calls))

    report("round_odds (exact integer weights), full 8-deck shoe", timings(lambda: round_odds(full), args.calls // 4))
    print("budget: 5 ms per call for a full 8-deck composition")


if __name__ == "__main__":
    main()
