"""Benchmark of ``baccarat exact``: seconds and states of one session's analysis, for each built-in progression.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_exact.py [--bankroll 1000] [--unit 10] [--rounds 500] [--side banker]
                                           [--table-max 1000] [--progressions flat,martingale,...] [--no-baseline]

The target is a few seconds each for bankroll 1000, unit 10, 500 rounds
(``single-deck``, table minimum = unit). Each analysis (the dense dynamic
program and its compiled round, :mod:`baccarat.exact.dense`) is timed beside
a baseline measured in the same run: the same analysis by the sparse dynamic
program in numpy (:mod:`baccarat.exact.sparse`, what holds progressions of
many states), which must give the same figures (``differs``: the largest
difference of risk of ruin, P(profit), expected net and expected amount
wagered, the latter two relative). A progression whose analysis goes beyond
the memory bound is reported with the error instead of a time. The first
analysis of a process loads the compiled kernels (from numba's cache): a
warm-up analysis runs first, untimed.
"""

from __future__ import annotations

import argparse
import platform
import time

from baccarat.errors import InputError
from baccarat.exact import ExactResult, analyse_experiment, bounds
from baccarat.experiment import load_experiment

PROGRESSIONS = ("flat", "martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind")


def timed(experiment: object, dense: bool) -> tuple[float, ExactResult | str]:
    """Return the seconds of one analysis (dense, or everything sparse) and its result, or the error's message."""
    saved = bounds.DENSE_CELLS
    bounds.DENSE_CELLS = saved if dense else 0  # no state space is small enough to be dense
    start = time.perf_counter()
    try:
        result: ExactResult | str = analyse_experiment(experiment).results[0]
    except InputError as exc:
        result = str(exc)
    finally:
        bounds.DENSE_CELLS = saved
    return time.perf_counter() - start, result


def differs(a: ExactResult, b: ExactResult) -> float:
    """The largest difference between the main figures of two analyses (amounts relative to their size)."""
    return max(
        abs(a.risk_of_ruin - b.risk_of_ruin),
        abs(a.p_profit - b.p_profit),
        abs(a.expected_net - b.expected_net) / max(1.0, abs(a.expected_net)),
        abs(a.expected_wagered - b.expected_wagered) / max(1.0, a.expected_wagered),
    )


def main() -> None:
    """Analyse each progression's session, dense and (as the baseline) sparse, and print times, ratio and figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bankroll", type=int, default=1000)
    parser.add_argument("--unit", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--side", default="banker")
    parser.add_argument("--table-max", type=int, default=1000)
    parser.add_argument("--progressions", default=",".join(PROGRESSIONS))
    parser.add_argument("--no-baseline", dest="baseline", action="store_false", help="time the dense analysis only")
    args = parser.parse_args()
    print(
        f"baccarat exact, single-deck, bankroll {args.bankroll}, unit {args.unit}, table {args.unit}-{args.table_max}, "
        f"{args.rounds} rounds, side {args.side} ({platform.python_version()}, {platform.machine()})"
    )
    print("seconds: the analysis; sparse: the same analysis by the sparse numpy program (baseline, same run)")
    print(
        f"{'progression':18s} {'seconds':>8s} {'sparse':>8s} {'speed-up':>9s} {'states':>10s} {'risk of ruin':>13s} "
        f"{'expected net':>13s} {'interpolated':>13s} {'differs':>9s}"
    )

    def experiment(name: str, rounds: int) -> object:
        return load_experiment(
            {
                "name": "bench",
                "rules": "single-deck",
                "shoes": {"source": "seeded", "count": rounds},
                "session": {"bankroll": args.bankroll, "shoes_per_session": rounds, "table_min": args.unit, "table_max": args.table_max},
                "strategies": [{"name": name, "use": name, "params": {"side": args.side, "unit": args.unit}}],
            }
        )

    timed(experiment("martingale", 20), dense=True)  # warm-up: loads the compiled kernels
    for name in args.progressions.split(","):
        seconds, result = timed(experiment(name, args.rounds), dense=True)
        if isinstance(result, str):
            print(f"{name:18s} {seconds:8.2f} s: {result}", flush=True)
            continue
        line = f"{name:18s} {seconds:8.2f}"
        if args.baseline:
            base_seconds, base = timed(experiment(name, args.rounds), dense=False)
            if isinstance(base, str):
                line += f" {'-':>8s} {'-':>9s}"
            else:
                line += f" {base_seconds:8.2f} {base_seconds / seconds:8.1f}x"
        else:
            line += f" {'-':>8s} {'-':>9s}"
        line += f" {result.states:>10,} {result.risk_of_ruin:13.6f} {result.expected_net:13.3f} {result.interpolated:13.3g}"
        if args.baseline and not isinstance(base, str):
            line += f" {differs(result, base):9.1e}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
