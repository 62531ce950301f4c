"""``baccarat exact EXPERIMENT.yaml [--rounds N] [--json]``: the exact distribution of each strategy's session.

For every strategy with an exact form (a progression on a fixed side or a
coin, under the built-in stop rules): risk of ruin, chance of ending in
profit, expected net and amount wagered, quantiles of the final bankroll.
Strategies that cannot be analysed are listed with the reason. The method
is in ``docs/exact.md`` (:mod:`baccarat.exact.analysis`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from baccarat.commands.strategies import add_plugins_dir_option


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat exact``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument(
        "--rounds",
        metavar="N",
        type=_rounds,
        default=None,
        help="rounds per session (default: shoes_per_session for one-round shoes such as single-deck; needed for other rules)",
    )
    parser.add_argument(
        "--set",
        metavar="KEY.PATH=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override a value of the experiment, as for baccarat run (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_plugins_dir_option(parser)


def _rounds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of rounds, 1 or more, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Analyse the experiment's strategies exactly and print the figures."""
    from baccarat.exact.analysis import analyse_experiment
    from baccarat.experiment import load_experiment

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir, shoe_file_needed=False)
    analysis = analyse_experiment(experiment, rounds=args.rounds)
    if args.json:
        print(json.dumps(analysis.to_json(), indent=2))
    else:
        print(format_analysis(analysis))
    return 0


def format_analysis(analysis: Any) -> str:
    """Return the analysis as a text table, then the skipped strategies with their reasons."""
    kind = (
        "exact: the rounds are independent"
        if analysis.exact
        else "independent-rounds approximation: the rounds of a shoe are not independent"
    )
    lines = [f"{analysis.rounds:,} rounds per session, rules {analysis.rules} ({kind})"]
    if analysis.results:
        width = max(8, *(len(r.strategy) for r in analysis.results))
        header = ("strategy".ljust(width), "risk of ruin", "P(profit)", "expected net", "wagered", "final 5%", "median", "final 95%")
        lines.append("  ".join(h.rjust(12) if k else h for k, h in enumerate(header)))
        for r in analysis.results:
            q = r.final_bankroll_quantiles
            cells = (
                r.strategy.ljust(width),
                f"{r.risk_of_ruin:.4%}",
                f"{r.p_profit:.4%}",
                f"{r.expected_net:,.2f}",
                f"{r.expected_wagered:,.2f}",
                f"{q['0.05']:,.2f}",
                f"{q['0.5']:,.2f}",
                f"{q['0.95']:,.2f}",
            )
            lines.append("  ".join(c.rjust(12) if k else c for k, c in enumerate(cells)))
    for s in analysis.skipped:
        lines.append(f"skipped {s.strategy}: {s.reason}")
    return "\n".join(lines)
