"""Benchmark of sessions of ``session.rounds`` rounds: what counting the shoes' rounds while planning costs, and what a run costs.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_session_rounds.py [--shoes 10000]

A run whose sessions are ``session.rounds`` rounds deals its seeded shoes once
more while it is planned, to count their rounds (so that each chunk knows where
its sessions start). Each figure is measured beside its yardstick in the same
process: the planning of the run of ``configs/sixty-hands.yaml`` (60 rounds a
session, continuing in the shoe, then ``new_shoe``) against the planning of the
same run in whole shoes (``shoes_per_session: 1``, which deals nothing when
planned), and both against the whole run in memory (dealing, playing the four
strategies, the ledger); with the ledger's rows of each.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from baccarat.execution.runner import prepare, run_experiment
from baccarat.experiment import load_experiment

CONFIG = Path(__file__).resolve().parents[2] / "configs" / "sixty-hands.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000)
    args = parser.parse_args()
    count = f"shoes.count={args.shoes}"
    settings = {
        "whole shoes (yardstick)": [count, "session.shoes_per_session=1", "session.rounds=null"],
        "60 rounds, same shoe": [count],
        "60 rounds, new shoe": [count, "session.new_shoe=true"],
    }
    run_experiment(load_experiment(CONFIG, [f"shoes.count={min(args.shoes, 200)}"]), workers=1)  # warm-up: kernels loaded
    print(f"{args.shoes:,} seeded shoes of {CONFIG.name}, one worker")
    print(f"{'sessions':<24} {'plan s':>8} {'run s':>8} {'plan / run':>10} {'ledger rows':>12}")
    for name, overrides in settings.items():
        experiment = load_experiment(CONFIG, [o for o in overrides if not o.endswith("=null")])
        if "session.rounds=null" in overrides:
            data = experiment.to_mapping()
            data["session"] = {k: v for k, v in data["session"].items() if k not in ("rounds", "new_shoe")}
            data["session"]["shoes_per_session"] = 1
            experiment = load_experiment(data)
        start = time.perf_counter()
        prepare(experiment)
        planned = time.perf_counter() - start
        start = time.perf_counter()
        result = run_experiment(experiment, workers=1)
        ran = time.perf_counter() - start
        print(f"{name:<24} {planned:>8.2f} {ran:>8.2f} {planned / ran:>10.1%} {result.ledger.height:>12,}")


if __name__ == "__main__":
    main()
