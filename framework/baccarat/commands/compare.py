"""``baccarat compare RUN_A RUN_B [...] [--baseline LABEL] [--json]``: saved runs side by side."""

from __future__ import annotations

import argparse


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat compare``."""
    parser.add_argument("runs", metavar="RUN_DIR", nargs="+", help="two folders written by baccarat run, or more")
    parser.add_argument(
        "--baseline",
        metavar="LABEL",
        help="strategy the others are compared with, as 'RUN: label' (default: the first strategy of the first run)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")


def run(args: argparse.Namespace) -> int:
    """Print the runs' summaries side by side and each strategy against the baseline, paired when the rounds are the same.

    Every run folder is read under its reading lock
    (:func:`baccarat.execution.folder_lock.reading_lock`): a command replacing one
    waits until the comparison is made.
    """
    import json
    from contextlib import ExitStack

    from baccarat.api import load
    from baccarat.commands import print_json
    from baccarat.errors import InputError
    from baccarat.execution.folder_lock import reading_lock
    from baccarat.results.comparisons.runs import check_run_count, compare_runs, comparison_records, format_comparison
    from baccarat.results.ledger import READ_ERRORS, read_error_reason

    check_run_count(args.runs)
    with ExitStack() as reading:
        for folder in args.runs:
            reading.enter_context(reading_lock(folder))
        try:
            comparison = compare_runs(args.runs, [load(folder) for folder in args.runs], args.baseline)
        except READ_ERRORS as exc:
            raise InputError(f"a run folder could not be read ({read_error_reason(exc)}); it is damaged") from None
    if args.json:
        print_json(json.dumps(comparison_records(comparison), allow_nan=False))
    else:
        print(format_comparison(comparison))
    return 0
