"""``baccarat run EXPERIMENT.yaml [--out DIR] [--set key.path=value ...] [--quiet]``."""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime
from pathlib import Path

from baccarat.commands.strategies import add_plugins_dir_option


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat run``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: results/NAME-TIMESTAMP)")
    parser.add_argument("--set", metavar="KEY.PATH=VALUE", action="append", default=[], dest="overrides",
                        help="override a value of the experiment, e.g. --set shoes.count=100 "
                             "--set strategies.0.params.unit=5 (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_plugins_dir_option(parser)


def default_out(name: str, now: datetime | None = None, root: Path = Path("results")) -> Path:
    """Return ``results/NAME-TIMESTAMP``, made unique with ``-2``, ``-3``... when it already exists."""
    safe = re.sub(r"[^\w.+-]+", "-", name).strip("-.") or "experiment"
    base = root / f"{safe}-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def run(args: argparse.Namespace) -> int:
    """Check the experiment, run it, write its results atomically and print a summary table."""
    from tqdm import tqdm

    from baccarat.experiment import load_experiment
    from baccarat.runner import check_output_folder, run_experiment, timed, write_run

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    out = Path(args.out) if args.out else default_out(experiment.name)
    check_output_folder(out)  # before the run, not only before writing
    show = not args.quiet and sys.stderr.isatty()
    total = len(experiment.strategies) * len(experiment.seeds)
    bar = tqdm(total=total, unit="run", desc=experiment.name, disable=not show, file=sys.stderr, delay=0.5, leave=False)
    with bar:
        result, seconds = timed(lambda: run_experiment(experiment, progress=bar.update))
    for warning in result.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    written, write_seconds = timed(lambda: write_run(result, out, {"run": seconds}))
    if result.analysis is not None:
        from baccarat.report import format_summary

        print(format_summary(result.analysis.summary))
    print(f"{result.rounds.height:,} rounds x {len(experiment.strategies)} strategies in {seconds + write_seconds:.1f} s "
          f"-> {written}")
    return 0

