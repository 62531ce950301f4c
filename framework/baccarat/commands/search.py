"""``baccarat search EXPERIMENT.yaml``: every candidate on training shoes, the best k on fresh ones, beside a null search."""

from __future__ import annotations

import argparse
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from baccarat.commands import add_set_option, number_argument
from baccarat.commands.shoes import _samples, _seed
from baccarat.commands.strategies import add_plugins_dir_option
from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.experiment import Experiment


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat search``."""
    parser.add_argument("experiment", help="experiment file (YAML): its strategies and grids are the candidates; its shoes train them")
    parser.add_argument("--top", type=_samples, default=10, metavar="K", help="candidates replayed on fresh shoes (default 10)")
    parser.add_argument(
        "--fresh-seed", type=_seed, default=None, metavar="S", help="seed of the fresh shoes (default: the experiment's + 1)"
    )
    parser.add_argument(
        "--hold-out",
        type=_fraction,
        default=None,
        metavar="F",
        help="recorded shoes: the share of the file's shoes, its last ones, held out as fresh shoes (default 0.5)",
    )
    add_set_option(parser)
    add_plugins_dir_option(parser)
    parser.add_argument(
        "--chart", metavar="PNG|SVG|JSON", help="also draw the kept candidates, in sample against fresh shoes, to this file"
    )
    parser.add_argument("--force", action="store_true", help="replace the chart file if it exists")
    parser.add_argument("--json", action="store_true", help="print the whole search as JSON")


def run(args: argparse.Namespace) -> int:
    """Play the candidates in sample, the best k out of sample, and the same search on strategies with the house edge."""

    from baccarat.commands import chart_file, print_json
    from baccarat.experiment import load_experiment

    chart = chart_file(args.chart, args.force)
    experiment = load_experiment(args.experiment, overrides=args.overrides, plugins_dirs=args.plugins_dir)
    with tempfile.TemporaryDirectory(prefix="baccarat-search-") as folder:
        shoes = _training_and_fresh(experiment, args, Path(folder))
        data = _search(experiment, shoes, args.top)
    if chart is not None:
        _write_chart(chart, data)
    if args.json:
        print_json(json.dumps(data, allow_nan=False))
    else:
        print(render_text(data))
    return 0


@dataclass(frozen=True)
class _Shoes:
    """The training and the fresh shoes of a search, as experiment ``shoes:`` sections, and in words."""

    training: dict[str, Any]
    fresh: dict[str, Any]
    training_seed: int | None
    fresh_seed: int | None
    training_words: str
    fresh_words: str


def _training_and_fresh(experiment: Experiment, args: argparse.Namespace, folder: Path) -> _Shoes:
    """Seeded shoes: the experiment's seed, and another for fresh shoes; a recorded file: its first shoes and the rest."""
    from baccarat.execution.runner import recorded_path  # commands import their work when run: start-up time
    from baccarat.shoes.recorded.split import split_shoes

    shoes = experiment.to_mapping()["shoes"]
    if experiment.shoes["source"] == "seeded":
        if args.hold_out is not None:
            raise InputError("--hold-out is for recorded shoes: a search on seeded shoes replays its best on fresh shoes of --fresh-seed")
        training = experiment.seeds[0]
        fresh = training + 1 if args.fresh_seed is None else args.fresh_seed
        if fresh == training:
            raise InputError(f"--fresh-seed {fresh} is the training seed: fresh shoes need another seed")
        return _Shoes(
            {**shoes, "seed": training},
            {**shoes, "seed": fresh},
            training,
            fresh,
            f"the training shoes (seed {training})",
            f"fresh shoes (seed {fresh})",
        )
    if args.fresh_seed is not None:
        raise InputError("--fresh-seed is for seeded shoes: a search on a recorded file replays its best on the file's held-out shoes")
    path = recorded_path(experiment)
    split = split_shoes(path, experiment.shoes["format"], experiment.rules, 0.5 if args.hold_out is None else args.hold_out, folder)
    return _Shoes(
        {**shoes, "path": str(split.training)},
        {**shoes, "path": str(split.held_out)},
        None,
        None,
        f"the first {_shoes_in_words(split.training_shoes)} of {path.name}",
        f"its last {_shoes_in_words(split.held_out_shoes)}, held out",
    )


def _search(experiment: Experiment, shoes: _Shoes, top_k: int) -> dict[str, Any]:
    """Play the candidates on the training shoes, the best ``top_k`` on the fresh ones, and the same with coins."""
    from baccarat.api import run as run_experiment
    from baccarat.results.patterns.search_luck import Search, best_of, expected_max_normal, verdict

    mapping = experiment.to_mapping()
    mapping["shoes"] = shoes.training
    n = len(experiment.strategies)
    top = min(top_k, n)

    def summary(data: dict[str, Any]) -> list[dict[str, Any]]:
        return run_experiment(data).summary.to_dicts()

    def replayed(data: dict[str, Any], best: list[str]) -> dict[str, dict[str, Any]]:
        if not best:
            raise InputError(
                f"no candidate has an interval of its edge on {shoes.training_words}: that takes at least two sessions "
                "with bets; give more shoes, or fewer shoes per session",
                path=experiment.path,
            )
        again = {**data, "shoes": shoes.fresh}
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
    search = Search(
        n,
        top,
        shoes.training_seed,
        shoes.fresh_seed,
        expected_max_normal(n),
        best,
        null_best,
        verdict(best, null_best, n),
        shoes.training_words,
        shoes.fresh_words,
    )
    return {"experiment": experiment.name, **search.to_dict()}


def _shoes_in_words(n: int) -> str:
    return "shoe" if n == 1 else f"{n:,} shoes"


def _fraction(text: str) -> float:
    """A share strictly between 0 and 1, for ``--hold-out``."""
    return number_argument(text, float, lambda value: 0 < value < 1, "must be a share between 0 and 1, e.g. 0.3")


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
        f"{data['experiment']}: {data['candidates']:,} candidates on {data['training']}, "
        f"the best {data['top']} on {data['fresh']}; edge = net / wagered, "
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
