"""Benchmark of ``baccarat exact``: seconds and states of one session's analysis, for each built-in progression.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_exact.py [--bankroll 1000] [--unit 10] [--rounds 500] [--side banker]
                                           [--table-max 1000] [--progressions flat,martingale,...]

The target is a few seconds each for bankroll 1000, unit 10, 500 rounds
(``single-deck``, table minimum = unit). A progression whose analysis goes
beyond the memory bound is reported with the error instead of a time.
"""

from __future__ import annotations

import argparse
import platform
import time

from baccarat.errors import InputError
from baccarat.exact.analysis import analyse_experiment
from baccarat.experiment.resolution import resolve

PROGRESSIONS = ("flat", "martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6",
                "oscars-grind")


def main() -> None:
    """Analyse each progression's session and print its time, states held and main figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bankroll", type=int, default=1000)
    parser.add_argument("--unit", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--side", default="banker")
    parser.add_argument("--table-max", type=int, default=1000)
    parser.add_argument("--progressions", default=",".join(PROGRESSIONS))
    args = parser.parse_args()
    print(f"baccarat exact, single-deck, bankroll {args.bankroll}, unit {args.unit}, table {args.unit}-{args.table_max}, "
          f"{args.rounds} rounds, side {args.side} ({platform.python_version()}, {platform.machine()})")
    print(f"{'progression':18s} {'seconds':>8s} {'states':>10s} {'risk of ruin':>13s} {'expected net':>13s} "
          f"{'interpolated':>13s}")
    for name in args.progressions.split(","):
        experiment = resolve({
            "name": "bench", "rules": "single-deck", "shoes": {"source": "seeded", "count": args.rounds},
            "session": {"bankroll": args.bankroll, "shoes_per_session": args.rounds, "table_min": args.unit,
                        "table_max": args.table_max},
            "strategies": [{"name": name, "use": name, "params": {"side": args.side, "unit": args.unit}}]})
        start = time.perf_counter()
        try:
            analysis = analyse_experiment(experiment)
        except InputError as exc:
            print(f"{name:18s} {time.perf_counter() - start:8.2f} s: {exc}", flush=True)
            continue
        seconds = time.perf_counter() - start
        result = analysis.results[0]
        print(f"{name:18s} {seconds:8.2f} {result.states:>10,} {result.risk_of_ruin:13.6f} {result.expected_net:13.3f} "
              f"{result.interpolated:13.3g}", flush=True)


if __name__ == "__main__":
    main()
