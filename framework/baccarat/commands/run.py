"""``baccarat run EXPERIMENT.yaml [--out DIR]``."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat run``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: results/NAME-TIMESTAMP)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run the experiment, write its results and say where they went."""
    from tqdm import tqdm

    from baccarat.experiment import load_experiment
    from baccarat.runner import run_experiment, timed, write_run

    experiment = load_experiment(args.experiment)
    out = Path(args.out) if args.out else Path("results") / f"{experiment.name}-{datetime.now():%Y%m%d-%H%M%S}"
    bar = tqdm(total=len(experiment.strategies), unit="strategy", desc=experiment.name,
               disable=args.quiet or None, file=sys.stderr)
    with bar:
        result, seconds = timed(lambda: run_experiment(experiment, progress=bar.update))
    for warning in result.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    written = write_run(result, out, {"run": seconds})
    print(f"{result.rounds.height} rounds x {len(experiment.strategies)} strategies -> {written}")
    return 0
