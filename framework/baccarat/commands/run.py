"""``baccarat run EXPERIMENT.yaml [--out DIR] [--set key.path=value ...] [--baseline LABEL] [--json] [--quiet]``."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from baccarat.commands import add_set_option, number_argument, print_json, saying_what_was_written
from baccarat.commands.strategies import add_plugins_dir_option
from baccarat.execution.memorylimit import RUN_REMEDY

MEMORY_REMEDY = RUN_REMEDY
"""What the run can change when memory runs out (the command line's one line)."""


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat run``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: results/NAME-TIMESTAMP)")
    parser.add_argument(
        "--force", action="store_true", help="replace the previous run in --out (only a folder holding that run and nothing else)"
    )
    add_set_option(parser)
    parser.add_argument(
        "--workers",
        metavar="N",
        type=_positive_int,
        default=None,
        help="workers: threads or processes (default: all cores); the results are the same for any N",
    )
    parser.add_argument(
        "--executor",
        choices=("local", "processes", "ray"),
        default="local",
        help="run the chunks of shoes on this machine (default: in worker threads when every strategy plays baccarat's "
        "own compiled code, else in worker processes), always in worker processes, or as Ray tasks "
        "(on the cluster named by RAY_ADDRESS, else on a local Ray; needs the [ray] extra)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--json", action="store_true", help="print the summary as one JSON object on stdout, for scripts (no progress bar, no table)"
    )
    parser.add_argument(
        "--baseline", metavar="LABEL", help="strategy the others are compared with in comparison.csv and the report (default: the first)"
    )
    parser.add_argument(
        "--no-report",
        dest="report",
        action="store_false",
        default=None,
        help="write the ledger, rounds and summary tables only: no plots, no report.html "
        "(for sweeps of many small runs; also 'report: false' in the experiment)",
    )
    add_plugins_dir_option(parser)


def _positive_int(text: str) -> int:
    return number_argument(text, int, lambda value: 1 <= value <= MAX_WORKERS, f"expected a whole number of workers, 1 to {MAX_WORKERS:,}")


MAX_WORKERS = 1024
"""Most worker processes (or Ray tasks at a time) a run may ask for."""


DEFAULT_NAME_BYTES = 100
"""Most bytes of the experiment's name in a default output folder's name."""


def default_out(name: str, now: datetime | None = None, root: Path = Path("results")) -> Path:
    """Return ``results/NAME-TIMESTAMP``, made unique with ``-2``, ``-3``... when it already exists.

    NAME is the experiment's name made safe for a file name, and cut to
    ``DEFAULT_NAME_BYTES`` so that the folder's name fits any file system.
    """
    safe = re.sub(r"[^\w.+-]+", "-", name).strip("-.")
    safe = safe.encode("utf-8", "ignore")[:DEFAULT_NAME_BYTES].decode("utf-8", "ignore").strip("-.") or "experiment"
    base = root / f"{safe}-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def reserve_default_out(name: str, root: Path = Path("results")) -> Path:
    """Return :func:`default_out` made as an empty folder, so that two runs started in the same second never share it.

    The empty folder holds the name: a second run finds it taken and goes on to ``-2``, ``-3``...
    """
    base = default_out(name, root=root)
    for n in range(1, 10_000):
        out = base if n == 1 else base.with_name(f"{base.name}-{n}")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.mkdir()
            return out
        except FileExistsError:
            continue
        except OSError:
            return out  # the run says why the folder cannot be made
    return base


def run(args: argparse.Namespace) -> int:
    """Check the experiment, run it, write its results atomically and print a summary table (or its JSON)."""
    experiment, result, seconds = _play(args)
    for warning in result.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    with saying_what_was_written(f"the results are in {result.out_dir}"):
        if args.json:
            print_json(json.dumps(summary_json(result, seconds), allow_nan=False))
            return 0
        if result.analysis is not None:
            from baccarat.results.comparisons.conclusion import conclusion
            from baccarat.results.formatting import format_summary

            print(conclusion(result.analysis.summary, result.analysis.comparison))
            print(format_summary(result.analysis.summary))
        timing = timing_words(result.played_seconds, seconds)
        print(f"{result.counts.rounds:,} rounds x {len(experiment.strategies)} strategies {timing} -> {result.out_dir}")
    return 0


def _play(args: argparse.Namespace) -> tuple[Any, Any, float]:
    """Check the experiment and run it to its folder; return the experiment, the run's result and its seconds."""
    from baccarat.execution.folder_commit import recover
    from baccarat.execution.folder_lock import folder_lock
    from baccarat.execution.run_folder import check_output_folder
    from baccarat.experiment import load_experiment
    from baccarat.files.outfolder import remove_empty

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    check_baseline(args.baseline, [entry.name for entry in experiment.strategies])
    made = [] if args.out else [p for p in (Path("results"),) if not p.exists()]
    out = Path(args.out) if args.out else reserve_default_out(experiment.name)
    made = [out, *made] if not args.out else []  # the empty folder that holds the name, and results/ if made for it
    try:
        with folder_lock(out):  # from the check of the folder to its commit: one command at a time writes it
            recover(Path(os.path.abspath(out)))  # what a command killed while writing it left: put back, or removed, and said
            check_output_folder(out, args.force)  # before the run, not only before writing
            result, seconds = _play_into(args, experiment, out)
    except BaseException:
        remove_empty(made)
        raise
    return experiment, result, seconds


def _play_into(args: argparse.Namespace, experiment: Any, out: Path) -> tuple[Any, float]:
    """Run the experiment into ``out`` with a progress bar on a terminal; return the run's result and its seconds."""
    from tqdm import tqdm

    from baccarat.execution.runner import run_to_folder
    from baccarat.execution.workers import default_workers

    show = not args.quiet and not args.json and sys.stderr.isatty()
    workers = args.workers or default_workers()
    total = _shoes_to_deal(experiment)
    bar = tqdm(total=total, unit="shoe", desc=experiment.name, disable=not show, file=sys.stderr, leave=False)
    start = time.perf_counter()

    def status(text: str) -> None:  # the chunks are done: the bar shows them all, and says what comes next
        bar.set_postfix_str(text, refresh=False)
        bar.refresh()

    with bar:
        result = run_to_folder(
            experiment,
            out,
            workers=workers,
            executor=args.executor,
            progress=bar.update,
            baseline=args.baseline,
            force=args.force,
            report=args.report,
            status=status,
            announce_compiling=show,
        )
    return result, time.perf_counter() - start


def timing_words(played: float | None, seconds: float) -> str:
    """``played in 8.2 s (9.4 s with the results written)``: the report's run time, then the command's whole time."""
    if played is None:
        return f"in {seconds:.1f} s"
    return f"played in {played:.1f} s ({seconds:.1f} s with the results written)"


def check_baseline(baseline: str | None, labels: list[str]) -> None:
    """Raise InputError, before anything runs, when ``--baseline`` names no strategy of the experiment."""
    if baseline is None or baseline in labels:
        return
    from baccarat.errors import InputError, did_you_mean

    raise InputError(
        f"--baseline: no strategy is labelled {baseline!r}{did_you_mean(baseline, labels)}; the strategies are {', '.join(labels)}"
    )


def summary_json(result: Any, seconds: float) -> dict[str, Any]:
    """Return what ``baccarat run --json`` prints: the run's folder and counts, its summary and comparison rows."""
    from baccarat.results.comparisons.conclusion import conclusion
    from baccarat.results.formatting import frame_records

    analysis = result.analysis
    return {
        "name": result.experiment.name,
        "out_dir": str(result.out_dir),
        "rounds": result.counts.rounds,
        "sessions": result.counts.sessions,
        "seconds": round(seconds, 3),
        "played_seconds": None if result.played_seconds is None else round(result.played_seconds, 3),
        "warnings": list(result.warnings),
        "engines": dict(result.engines),
        "conclusion": conclusion(analysis.summary, analysis.comparison),
        "summary": frame_records(analysis.summary),
        "comparison": frame_records(analysis.comparison),
        "patterns": analysis.patterns,
    }


def _shoes_to_deal(experiment: Any) -> int | None:
    """Return the number of shoes the run deals (None when they are read from a file)."""
    if experiment.shoes["source"] != "seeded":
        return None
    return int(experiment.shoes["count"]) * len(experiment.seeds)
