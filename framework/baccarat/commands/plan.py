"""``baccarat plan --strategy NAME ... [--bankroll B] [--hands N] [--ruin-at-most P] [--win-goal G] [--stop-loss L] [--json]``.

A player's questions answered in one command: for each strategy, the risk of
ruin over a session of so many hands, the chance of reaching the win goal
first, the expected loss (after the rules' rebates), the amount wagered, the
bankroll a target risk of ruin needs, the loss per session and per hour, and
one sentence of conclusion; the strategies are then ranked from the one that
lasts longest. Every figure comes from the exact analysis's dynamic programs
(:mod:`baccarat.exact.plan`); strategies it cannot analyse are listed with the
reason. docs/plan.md describes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from typing import Any

from baccarat.commands import number_argument, print_json
from baccarat.commands.exact import MEMORY_REMEDY as MEMORY_REMEDY
from baccarat.commands.exact import _rounds, _share
from baccarat.commands.odds import add_rebate_options, with_rebates
from baccarat.commands.strategies import add_plugins_dir_option
from baccarat.table.pace import HANDS_PER_HOUR, MAX_HANDS_PER_HOUR, PACE_EXAMPLE, PACE_RULE

DEFAULT_HANDS = 60
"""Hands of a session planned from options (about 50 minutes at a full table's pace)."""
DEFAULT_RUIN_AT_MOST = 0.01
"""The target risk of ruin whose bankroll ``plan`` finds when none is given."""


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat plan``."""
    parser.add_argument(
        "--strategy",
        metavar="'NAME key=value ...'",
        action="append",
        default=[],
        dest="strategies",
        help="a strategy to plan: a registered name, then parameters, e.g. --strategy martingale --strategy 'paroli wins=2' "
        "(repeatable; `baccarat strategies` lists them; side defaults to banker)",
    )
    parser.add_argument("--experiment", metavar="FILE", help="plan the strategies, rules and session of this experiment file instead")
    parser.add_argument("--rules", metavar="PRESET|FILE", help="rule preset or rules file (default: punto-banco-8, or the experiment's)")
    parser.add_argument("--bankroll", metavar="AMOUNT", type=_amount, help="bankroll at the start of a session (default: 1000)")
    parser.add_argument("--unit", metavar="AMOUNT", type=_amount, help="every strategy's betting unit (default: 10)")
    parser.add_argument("--table-min", metavar="AMOUNT", type=_amount, help="table minimum (default: 10)")
    parser.add_argument("--table-max", metavar="AMOUNT", type=_amount, help="table maximum (default: 1000)")
    parser.add_argument(
        "--hands",
        metavar="N",
        type=_rounds,
        default=None,
        help=f"hands (rounds) per session (default: {DEFAULT_HANDS}; with --experiment, the session as baccarat exact takes it)",
    )
    parser.add_argument(
        "--ruin-at-most",
        metavar="P",
        type=_share,
        default=DEFAULT_RUIN_AT_MOST,
        help=f"the target risk of ruin whose bankroll is found, e.g. 0.05 (default: {DEFAULT_RUIN_AT_MOST})",
    )
    parser.add_argument(
        "--win-goal",
        metavar="AMOUNT",
        type=_amount,
        help="the session's win goal (session.win_goal, as baccarat run plays it): betting stops once the session has won this much",
    )
    parser.add_argument(
        "--stop-loss",
        metavar="AMOUNT",
        type=_amount,
        help="the session's stop-loss (session.stop_loss, as baccarat run plays it): betting stops once the session has lost this much",
    )
    parser.add_argument(
        "--hands-per-hour",
        metavar="N",
        type=_pace,
        default=None,
        help=f"the table's pace, for the loss per hour, such as {PACE_EXAMPLE} (default: the experiment's "
        f"session.hands_per_hour, else {HANDS_PER_HOUR}, a full table; docs/plan.md)",
    )
    parser.add_argument(
        "--simulate",
        metavar="N",
        type=_sessions,
        default=None,
        help="sessions simulated for a strategy the exact analysis cannot analyse, such as a side chosen from the rounds "
        "dealt (default: 10000; 0 lists it as skipped)",
    )
    add_rebate_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    add_plugins_dir_option(parser)


def _amount(text: str) -> Decimal:
    from baccarat.plugin.params import positive_amount

    try:
        return positive_amount(text, "the amount")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _sessions(text: str) -> int:
    return number_argument(
        text, int, lambda value: 0 <= value <= 10_000_000, "expected a number of sessions from 0 to 10000000, such as 10000"
    )


def _pace(text: str) -> float:
    """``--hands-per-hour``: as ``session.hands_per_hour`` takes it (:func:`baccarat.table.pace.checked_pace`), in its words."""
    return number_argument(text, float, lambda value: 0 < value <= MAX_HANDS_PER_HOUR, f"expected hands per hour, {PACE_RULE}")


def run(args: argparse.Namespace) -> int:
    """Plan every strategy exactly and print the figures, each strategy's conclusion and the ranking."""
    import dataclasses

    from baccarat.errors import InputError
    from baccarat.exact.analysis import default_session_rounds
    from baccarat.exact.plan import conclude, plan_experiment
    from baccarat.execution.plan_simulation import SIMULATED_SESSIONS, simulate_skipped
    from baccarat.experiment.plan_input import PlanInput, planned_experiment

    given = PlanInput(
        strategies=args.strategies,
        experiment=args.experiment,
        rules=args.rules,
        bankroll=args.bankroll,
        unit=args.unit,
        table_min=args.table_min,
        table_max=args.table_max,
        win_goal=args.win_goal,
        stop_loss=args.stop_loss,
        plugins_dirs=args.plugins_dir,
    )
    experiment, stops = planned_experiment(given)
    experiment = dataclasses.replace(experiment, rules=with_rebates(experiment.rules, args))
    rounds, said = args.hands, None
    if rounds is None and args.experiment is None:
        rounds = DEFAULT_HANDS
    elif rounds is None:
        rounds, source = default_session_rounds(experiment)
        if rounds is not None:
            said = f"no --hands: {rounds:,} hands, {source}"
        elif not experiment.rules.reshuffle_every_round:
            raise InputError(
                f"{args.experiment}: its shoes are recorded, so a session's hands are not known here; give them with --hands N"
            )
    pace = experiment.session.hands_per_hour if args.hands_per_hour is None else args.hands_per_hour
    plan = plan_experiment(experiment, rounds, args.ruin_at_most, pace, stops)
    sessions = SIMULATED_SESSIONS if args.simulate is None else args.simulate
    if plan.skipped and sessions:
        plan = conclude(simulate_skipped(experiment, plan, stops, sessions))
    if said is not None:
        plan.rounds_from = said
    if args.json:
        if said is not None:
            print(said, file=sys.stderr)
        print_json(json.dumps(plan.to_json(), indent=2))
    else:
        print(format_plan(plan))
    return 0


def format_plan(plan: Any) -> str:
    """Return the plan as text: the session, a table of the figures, each strategy's conclusion, the ranking."""
    from baccarat.exact.plan import SIMULATION, method

    kind = method(plan.exact) + ("" if plan.exact else ": the rounds of a shoe are not independent")
    minutes = plan.hours * 60
    lines = [
        *([plan.rounds_from] if plan.rounds_from else []),
        f"{plan.rounds:,} hands per session (about {minutes:,.0f} minutes at {plan.hands_per_hour:g} hands an hour), "
        f"rules {plan.rules} ({kind})",
        f"bankroll {plan.bankroll:,.2f}, table {plan.table_min:,.2f} to {plan.table_max:,.2f}"
        + _rebates_said(plan)
        + f"; bankroll for a {plan.ruin_at_most:.2%} risk of ruin",
    ]
    if plan.strategies:
        goals = any(s.p_goal is not None for s in plan.strategies)
        need = f"bankroll {plan.ruin_at_most:.0%}" if plan.ruin_at_most * 100 == round(plan.ruin_at_most * 100) else "bankroll"
        header = ["strategy", "risk of ruin", *(["P(goal first)"] if goals else []), "expected loss", "wagered", need, "loss an hour"]
        rows = []
        simulated = [s for s in plan.strategies if s.method == SIMULATION]
        for s in plan.strategies:
            goal = ["-" if s.p_goal is None else f"{s.p_goal:.4%}"] if goals else []
            bankroll = "-" if s.bankroll_for_ruin is None else f"{s.bankroll_for_ruin:,.2f}"
            rows.append(
                [
                    s.strategy + (" *" if s.method == SIMULATION else ""),
                    f"{s.risk_of_ruin:.4%}",
                    *goal,
                    f"{s.expected_loss:,.2f}",
                    f"{s.expected_wagered:,.2f}",
                    bankroll,
                    f"{s.loss_per_hour:,.2f}",
                ]
            )
        widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
        for row in [header, *rows]:
            lines.append("  ".join(cell.ljust(widths[0]) if k == 0 else cell.rjust(widths[k]) for k, cell in enumerate(row)).rstrip())
        if simulated:
            lines.append(f"* simulated over {simulated[0].simulated_sessions:,} sessions: the exact analysis cannot analyse it (below)")
        lines.append("")
        lines.extend(s.conclusion for s in plan.strategies)
        lines.extend(_simulated_said(s) for s in simulated)
        if len(plan.strategies) > 1:
            ranked = plan.by_risk()
            lines.append(
                "Lasts longest (lowest risk of ruin first): " + ", ".join(f"{s.strategy} {s.risk_of_ruin:.4%}" for s in ranked) + "."
            )
    for s in plan.skipped:
        lines.append(f"skipped {s.strategy}: {s.reason}")
    return "\n".join(lines)


def _rebates_said(plan: Any) -> str:
    given = []
    if plan.rolling_rebate:
        given.append(f"rolling rebate {plan.rolling_rebate:.2%} of the amount wagered")
    if plan.loss_rebate:
        given.append(f"rebate {plan.loss_rebate:.2%} of a session's net loss")
    return "".join(f", {g}" for g in given)


def _simulated_said(figures: Any) -> str:
    """The note of a simulated strategy: why, and the 95% intervals of its main figures."""
    intervals = figures.intervals or {}

    def between(key: str, share: bool) -> str:
        low, high = intervals.get(key, (None, None))
        if low is None or high is None:
            return "-"
        return f"{low:.2%} to {high:.2%}" if share else f"{low:,.2f} to {high:,.2f}"

    said = [f"risk of ruin {between('risk_of_ruin', True)}"]
    if "p_goal_first" in intervals:
        said.append(f"P(goal first) {between('p_goal_first', True)}")
    said.append(f"expected loss {between('expected_loss', False)}")
    if "bankroll_for_ruin" in intervals:
        said.append(f"bankroll {between('bankroll_for_ruin', False)}")
    return f"{figures.strategy}: {figures.note}. 95% intervals: " + ", ".join(said) + "."
