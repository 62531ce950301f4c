"""``baccarat trace EXPERIMENT.yaml --strategy LABEL [--session N]``: one session, round by round."""

from __future__ import annotations

import argparse
import sys

from baccarat.commands import add_set_option, number_argument
from baccarat.commands.strategies import add_plugins_dir_option


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat trace``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument("--strategy", metavar="LABEL", required=True, help="the label (name:) of one of its strategies")
    parser.add_argument("--session", metavar="N", type=_session, default=1, help="the session to show (default: 1)")
    add_set_option(parser)
    add_plugins_dir_option(parser)


def _session(text: str) -> int:
    return number_argument(text, int, lambda value: value >= 1, "expected a session number, 1 or more")


def run(args: argparse.Namespace) -> int:
    """Print the session's rounds: outcome, bet, stake, net, bankroll and the strategy's state after each round; then what
    ended the session (a stop rule or session rule, as ``stopped_by`` names it, or ruin) and in which round."""
    from baccarat.execution.trace import format_trace, trace_session
    from baccarat.experiment import load_experiment
    from baccarat.plugin.manager import registry

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    for warning in registry(experiment.plugins_dirs).warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    rounds = trace_session(experiment, args.strategy, args.session)
    session = experiment.session
    print(format_trace(args.strategy, args.session, rounds, session.bankroll_cents, session.table_min_cents))
    return 0
