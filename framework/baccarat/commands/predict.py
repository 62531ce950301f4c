"""``baccarat predict EXPERIMENT.yaml``: predictors of the next round scored on the experiment's shoes, against the exact odds."""

from __future__ import annotations

import argparse
import json
import sys

from baccarat.commands import add_set_option
from baccarat.commands.strategies import add_plugins_dir_option


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat predict``."""
    parser.add_argument("experiment", help="experiment file (YAML): its rules and shoes are used, not its strategies")
    parser.add_argument(
        "--predictors",
        metavar="NAME,...",
        help="the predictors to score, by name (default: every registered one; exact is always scored)",
    )
    add_set_option(parser)
    add_plugins_dir_option(parser)
    parser.add_argument("--json", action="store_true", help="print every score as JSON")


def run(args: argparse.Namespace) -> int:
    """Score every predictor on every round of the experiment's shoes and print the table and the verdict."""
    from baccarat.commands import print_json
    from baccarat.errors import InputError, did_you_mean
    from baccarat.experiment import load_experiment
    from baccarat.plugin.manager import registry
    from baccarat.results.patterns.predictions import REFERENCE, score_predictors

    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    found = registry(experiment.plugins_dirs)
    for warning in found.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    known = found.predictors()
    if REFERENCE not in known:
        raise InputError(f"no predictor named {REFERENCE!r} is registered: the built-in plugin must be loaded to pair the others with")
    names = list(known) if not args.predictors else [n.strip() for n in args.predictors.split(",") if n.strip()]
    for name in names:
        if name not in known:
            raise InputError(f"unknown predictor {name!r}{did_you_mean(name, known)}; the predictors are {', '.join(known)}")
    chosen = {REFERENCE: known[REFERENCE], **{n: known[n] for n in names}}
    table = _shoes(experiment)
    if not table.has_cards:
        raise InputError("the experiment's shoes are recorded without cards: the exact predictor needs the cards dealt")
    try:
        scores = score_predictors(table, experiment.rules, chosen)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    descriptions = {name: getattr(cls, "description", "") for name, cls in chosen.items()}
    data = {"experiment": experiment.name, **scores.to_dict(), "descriptions": descriptions}
    if args.json:
        print_json(json.dumps(data, allow_nan=False))
    else:
        print(render_text(data))
    return 0


def _shoes(experiment):  # -> RoundTable
    shoes = experiment.shoes
    if shoes["source"] == "seeded":
        from baccarat.shoes.compiled_deal import seeded_table_compiled

        return seeded_table_compiled(experiment.rules, experiment.seeds[0], 1, int(shoes["count"]))
    from baccarat.execution.runner import recorded_path
    from baccarat.shoes.recorded import read_shoes

    return read_shoes(recorded_path(experiment), shoes["format"], experiment.rules).table


def render_text(data: dict) -> str:
    """The scores as a table, each beside the exact predictor's with a 95% interval, then the verdict."""
    lines = [
        f"{data['experiment']}: {data['rounds']:,} rounds of {data['shoes']:,} shoes; per round, lower is better; "
        "differences from exact with 95% intervals (shoes as units)",
        "",
        f"{'predictor':<18} {'log-loss':>9} {'- exact':>10} {'95% interval':>23} {'Brier':>8} {'- exact':>10} {'95% interval':>23}",
    ]
    for s in data["scores"]:
        ll = f"{s['log_loss_vs_exact_low']:+.2e} to {s['log_loss_vs_exact_high']:+.2e}"
        br = f"{s['brier_vs_exact_low']:+.2e} to {s['brier_vs_exact_high']:+.2e}"
        if s["name"] == "exact":
            ll = br = "-"
        lines.append(
            f"{s['name']:<18} {s['log_loss']:>9.5f} {s['log_loss_vs_exact']:>+10.2e} {ll:>23} "
            f"{s['brier']:>8.5f} {s['brier_vs_exact']:>+10.2e} {br:>23}"
        )
    lines += ["", *(f"{name}: {text}" for name, text in data["descriptions"].items()), "", data["verdict"]]
    return "\n".join(lines)
