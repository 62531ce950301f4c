"""``baccarat exact EXPERIMENT.yaml [--rounds N] [--ruin-at-most P] [--json]``: the exact distribution of each strategy's session.

For every strategy with an exact form (a progression on a fixed side or a
coin, under the built-in stop rules): risk of ruin, chance of ending in
profit, expected net and amount wagered, quantiles of the final bankroll.
With ``--ruin-at-most P``, the smallest starting bankroll (in table-minimum
steps) whose risk of ruin is at most ``P`` instead. Without ``--rounds``, a
session of shoes of many rounds is taken as long as an average one of the
experiment's shoes, and the output says so.
Strategies that cannot be analysed are listed with the reason. The method
is in ``docs/exact.md`` (:mod:`baccarat.exact.analysis`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from baccarat.commands import add_set_option, number_argument, print_json
from baccarat.commands.strategies import add_plugins_dir_option

MEMORY_REMEDY = "analyse fewer rounds (--rounds) or strategies, a smaller bankroll or a larger unit, or allow more memory"
"""What the analysis can change when memory runs out: it holds a distribution over bankrolls, round after round."""


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat exact``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument(
        "--rounds",
        metavar="N",
        type=_rounds,
        default=None,
        help="rounds per session (default: shoes_per_session for one-round shoes such as single-deck; "
        "else the rounds of an average session of the experiment's seeded shoes)",
    )
    add_set_option(parser)
    parser.add_argument(
        "--ruin-at-most",
        metavar="P",
        type=_share,
        default=None,
        help="instead: the smallest starting bankroll (in table-minimum steps) whose risk of ruin is at most P, e.g. 0.05",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_plugins_dir_option(parser)


def _rounds(text: str) -> int:
    return number_argument(text, int, lambda value: value >= 1, "expected a whole number of rounds, 1 or more")


def _share(text: str) -> float:
    return number_argument(text, float, lambda value: 0 < value < 1, "expected a risk of ruin between 0 and 1 such as 0.05")


def run(args: argparse.Namespace) -> int:
    """Analyse the experiment's strategies exactly and print the figures (or the bankroll a target risk of ruin needs)."""
    import sys

    from baccarat.exact.analysis import analyse_experiment, default_session_rounds, ruin_bankrolls
    from baccarat.experiment import load_experiment

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir, shoe_file_needed=False)
    rounds, said = args.rounds, None
    if rounds is None:
        rounds, source = default_session_rounds(experiment)
        if rounds is not None and experiment.session.rounds is None:  # session.rounds is the session's length: nothing to say
            said = f"no --rounds: {rounds:,} rounds, {source}"
    if said is not None and args.json:
        print(said, file=sys.stderr)
    if args.ruin_at_most is not None:
        analysis = ruin_bankrolls(experiment, args.ruin_at_most, rounds=rounds)
        text = format_ruin_bankrolls(analysis, args.ruin_at_most)
        data = {**analysis.to_json(), "ruin_at_most": args.ruin_at_most}
    else:
        analysis = analyse_experiment(experiment, rounds=rounds)
        text, data = format_analysis(analysis), analysis.to_json()
    if said is not None:
        data["rounds_from"] = "average session"
    if args.json:
        print_json(json.dumps(data, indent=2))
    else:
        print("\n".join(line for line in (said, text) if line))
    return 0


def format_ruin_bankrolls(analysis: Any, target: float) -> str:
    """Return the bankroll each strategy needs for a risk of ruin of at most ``target``, as a text table."""
    kind = "exact" if analysis.exact else "independent-rounds approximation"
    lines = [
        f"{analysis.rounds:,} rounds per session, rules {analysis.rules} ({kind}): smallest bankroll with risk of ruin <= {target:.2%}"
    ]
    if analysis.results:
        width = max(8, *(len(r.strategy) for r in analysis.results))
        lines.append(f"{'strategy'.ljust(width)}  {'bankroll':>12}  {'risk of ruin':>12}  {'one min less':>12}")
        for r in analysis.results:
            if r.bankroll is None:
                lines.append(f"{r.strategy.ljust(width)}  {'-':>12}  {r.reason}")
                continue
            less = "-" if r.risk_one_step_less is None else f"{r.risk_one_step_less:.4%}"
            lines.append(f"{r.strategy.ljust(width)}  {r.bankroll:>12,.2f}  {r.risk_of_ruin:>12.4%}  {less:>12}")
    for s in analysis.skipped:
        lines.append(f"skipped {s.strategy}: {s.reason}")
    return "\n".join(lines)


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
        goal = any(r.p_win_goal is not None for r in analysis.results)
        loss = any(r.p_stop_loss is not None for r in analysis.results)
        rules = goal or loss  # with session rules: their chances and the hands a session plays
        header = ("strategy".ljust(width), "risk of ruin", "P(profit)", "expected net", "wagered", "final 5%", "median", "final 95%")
        header += ("P(win goal)",) * goal + ("P(stop-loss)",) * loss + ("hands played",) * rules
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
            cells += (_share_of(r.p_win_goal),) * goal + (_share_of(r.p_stop_loss),) * loss + (f"{r.expected_rounds:,.2f}",) * rules
            lines.append("  ".join(c.rjust(12) if k else c for k, c in enumerate(cells)))
    for s in analysis.skipped:
        lines.append(f"skipped {s.strategy}: {s.reason}")
    return "\n".join(lines)


def _share_of(chance: float | None) -> str:
    return "-" if chance is None else f"{chance:.4%}"
