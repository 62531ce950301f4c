"""``baccarat search EXPERIMENT.yaml``: every candidate on training shoes, the best k on fresh ones, beside a null search."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from baccarat.commands.shoes import _positive, _seed
from baccarat.commands.strategies import add_plugins_dir_option


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat search``."""
    parser.add_argument("experiment", help="experiment file (YAML): its strategies and grids are the candidates; its shoes train them")
    parser.add_argument("--top", type=_positive, default=10, metavar="K", help="candidates replayed on fresh shoes (default 10)")
    parser.add_argument(
        "--fresh-seed", type=_seed, default=None, metavar="S", help="seed of the fresh shoes (default: the experiment's + 1)"
    )
    parser.add_argument(
        "--set",
        metavar="KEY.PATH=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override a value of the experiment, as for baccarat run (repeatable)",
    )
    add_plugins_dir_option(parser)
    parser.add_argument(
        "--chart", metavar="PNG|SVG|JSON", help="also draw the kept candidates, in sample against fresh shoes, to this file"
    )
    parser.add_argument("--force", action="store_true", help="replace the chart file if it exists")
    parser.add_argument("--json", action="store_true", help="print the whole search as JSON")


def run(args: argparse.Namespace) -> int:
    """Play the candidates in sample, the best k out of sample, and the same search on strategies with the house edge."""

    from baccarat.api import run as run_experiment
    from baccarat.commands import chart_file, print_json
    from baccarat.errors import InputError
    from baccarat.experiment import load_experiment
    from baccarat.results.patterns.search_luck import Search, best_of, expected_max_normal, verdict

    chart = chart_file(args.chart, args.force)
    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    if experiment.shoes["source"] != "seeded":
        raise InputError("baccarat search plays its candidates on seeded shoes: give the experiment seeded shoes (shoes.source: seeded)")
    training = experiment.seeds[0]
    fresh = training + 1 if args.fresh_seed is None else args.fresh_seed
    if fresh == training:
        raise InputError(f"--fresh-seed {fresh} is the training seed: fresh shoes need another seed")
    mapping = experiment.to_mapping()
    mapping["shoes"]["seed"] = training
    n = len(experiment.strategies)
    top = min(args.top, n)

    def summary(data: dict[str, Any]) -> list[dict[str, Any]]:
        return run_experiment(data).summary.to_dicts()

    def replayed(data: dict[str, Any], best: list[str]) -> dict[str, dict[str, Any]]:
        again = {**data, "shoes": {**data["shoes"], "seed": fresh}}
        again["strategies"] = [s for s in data["strategies"] if s["name"] in best]
        return {row["strategy"]: row for row in summary(again)}

    in_sample = summary(mapping)
    chosen = [c.strategy for c in best_of(in_sample, {}, top, n)]
    best = best_of(in_sample, replayed(mapping, chosen), top, n)
    session = mapping["session"]
    null = {
        **mapping,
        "strategies": [
            {"name": f"coin-{i}", "use": "flat", "params": {"side": "random", "unit": session["table_min"]}} for i in range(1, n + 1)
        ],
    }
    null_in = summary(null)
    null_chosen = [c.strategy for c in best_of(null_in, {}, top, n)]
    null_best = best_of(null_in, replayed(null, null_chosen), top, n)
    search = Search(n, top, training, fresh, expected_max_normal(n), best, null_best, verdict(best, null_best, n))
    data = {"experiment": experiment.name, **search.to_dict()}
    if chart is not None:
        _write_chart(chart, data)
    if args.json:
        print_json(json.dumps(data, allow_nan=False))
    else:
        print(render_text(data))
    return 0


def _write_chart(path: Path, data: dict) -> None:
    from baccarat.commands import write_chart
    from baccarat.results.charts.in_out_sample import search_chart

    write_chart(
        path,
        search_chart(data["best"], data["null_best"], f"{data['experiment']}: the best of {data['candidates']:,}, in sample and fresh"),
    )


def render_text(data: dict) -> str:
    """The best k in sample and out of sample, beside the null search's, then the verdict."""

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x:+.2%}"

    def table(rows: list[dict]) -> list[str]:
        width = max([len(r["strategy"]) for r in rows] + [8])
        out = [
            f"{'#':>3} {'strategy':<{width}} {'in sample':>10} {'95% interval':>19} {'deflated':>9} "
            f"{'fresh':>8} {'95% interval':>19} {'expected':>8}"
        ]
        for r in rows:
            fresh = f"{pct(r['out_of_sample_low'])} to {pct(r['out_of_sample_high'])}" if r["out_of_sample"] is not None else "-"
            out.append(
                f"{r['rank']:>3} {r['strategy']:<{width}} {pct(r['in_sample']):>10} "
                f"{pct(r['in_sample_low']) + ' to ' + pct(r['in_sample_high']):>19} {pct(r['deflated']):>9} "
                f"{pct(r['out_of_sample']):>8} {fresh:>19} {pct(r['out_of_sample_expected']):>8}"
            )
        return out

    lines = [
        f"{data['experiment']}: {data['candidates']:,} candidates on the training shoes (seed {data['training_seed']}), "
        f"the best {data['top']} on fresh shoes (seed {data['fresh_seed']}); edge = net / wagered, "
        "expected = what the house edge of the bets placed gives",
        f"deflated: {data['method']} ({data['expected_max']:.2f} standard errors for N = {data['candidates']:,})",
        "",
        *table(data["best"]),
        "",
        f"the same search on {data['candidates']:,} flat bets on a seeded coin (the house edge by construction):",
        *table(data["null_best"]),
        "",
        data["verdict"],
    ]
    return "\n".join(lines)
