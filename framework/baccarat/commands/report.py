"""``baccarat report RUN_DIR [--baseline NAME] [--exact] [--png] [--svg]``: rebuild summary, comparison and report of a saved run."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat report``."""
    parser.add_argument("run_dir", metavar="RUN_DIR", help="folder written by baccarat run")
    parser.add_argument("--baseline", metavar="NAME", help="strategy the others are compared with (default: the first)")
    parser.add_argument("--quiet", action="store_true", help="do not print the summary table")
    parser.add_argument(
        "--exact", action="store_true", default=None, help="set the exact analysis (baccarat exact) beside the simulation in the report"
    )
    parser.add_argument("--roads", metavar="N[,N...]", default="", help="show the scoreboard roads of these shoes in the report")
    parser.add_argument("--png", action="store_true", help="also write every chart as KIND.png in the run folder")
    parser.add_argument("--svg", action="store_true", help="also write every chart as KIND.svg in the run folder")
    parser.add_argument(
        "--force", action="store_true", help="replace files named like the report's (final.png) that baccarat did not write"
    )


def shoe_list(text: str) -> tuple[int, ...]:
    """Return the shoe ids of a ``--roads`` value such as ``1,5,9``; raise InputError on anything else."""
    from baccarat.errors import InputError

    shoes = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or int(part) < 1:
            raise InputError(f"--roads takes shoe ids from 1 separated by commas (like 1,5,9), not {text!r}")
        shoes.append(int(part))
    return tuple(shoes)


def run(args: argparse.Namespace) -> int:
    """Recompute the results of a run folder from its ledger and say where they went."""
    from baccarat.api import load
    from baccarat.commands import saying_what_was_written
    from baccarat.errors import InputError, OutputError
    from baccarat.execution.folder_lock import folder_lock
    from baccarat.files.outfolder import os_error_of
    from baccarat.results.formatting import format_summary
    from baccarat.results.ledger import READ_ERRORS, read_error_reason
    from baccarat.results.report.analysis import REPORT_FILE

    roads = shoe_list(args.roads)
    try:
        formats = tuple(fmt for fmt in ("png", "svg") if getattr(args, fmt)) or None
        with folder_lock(Path(args.run_dir)):  # from the check of the data to the manifest written last
            result = load(args.run_dir, baseline=args.baseline)
            result.save_results(roads=roads, exact=args.exact, formats=formats, force=args.force)
    except READ_ERRORS as exc:
        cause = os_error_of(exc)
        if cause is not None:
            raise OutputError.from_os_error(cause, args.run_dir, "the report") from None
        raise InputError(
            f"the ledger cannot be summarised ({read_error_reason(exc)}); the run folder is damaged", path=args.run_dir
        ) from None
    with saying_what_was_written(f"the report is in {result.out_dir / REPORT_FILE}"):
        if not args.quiet:
            print(format_summary(result.summary))
        print(f"report -> {result.out_dir / REPORT_FILE}")
        for fmt in formats or result.experiment.chart_formats:
            print(f"charts -> {result.out_dir}/*.{fmt}")
    return 0
