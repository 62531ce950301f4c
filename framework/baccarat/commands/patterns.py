"""``baccarat patterns [FILE|RUN_DIR]``: the patterns players read in shoes, against fairly shuffled shoes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from baccarat.commands.shoes import _positive, _samples, _seed

if TYPE_CHECKING:
    from baccarat.table.rules import Rules

DEFAULT_RULES = "punto-banco-8"
"""The rules of shoes that do not say theirs (seeded shoes, a shoe file) when ``--rules`` is not given."""


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat patterns``."""
    parser.add_argument(
        "source",
        nargs="?",
        metavar="FILE|RUN_DIR",
        help="a recorded shoe file (with --format) or a run folder (its rounds.parquet); without it, seeded shoes (--count, --seed)",
    )
    parser.add_argument("--format", dest="fmt", metavar="FORMAT", help="format of a shoe file: cards, outcomes or rounds")
    parser.add_argument(
        "--rules",
        default=None,
        metavar="PRESET|FILE",
        help=f"the rules the shoes were dealt under (default: a run folder's own, else {DEFAULT_RULES})",
    )
    parser.add_argument("--count", type=_positive, default=100, metavar="N", help="seeded shoes to test, without a source (default 100)")
    parser.add_argument("--seed", type=_seed, default=1, metavar="S", help="seed of the seeded shoes, without a source (default 1)")
    parser.add_argument("--draws", type=_samples, default=None, metavar="M", help="samples of fair shoes to compare with (default 1999)")
    parser.add_argument("--fair-seed", type=_seed, default=None, metavar="S", help="seed of the pool of fair shoes (default 20261207)")
    parser.add_argument("--chart", metavar="PNG|SVG|JSON", help="also draw each statistic against fair shoes to this file")
    parser.add_argument("--force", action="store_true", help="replace the chart file if it exists")
    parser.add_argument("--json", action="store_true", help="print the whole test as JSON")


def run(args: argparse.Namespace) -> int:
    """Test the shoes against fair shoes of the same rules and shoe count; print the table and the verdict."""
    from baccarat.commands import chart_file, print_json, saying_what_was_written
    from baccarat.errors import InputError
    from baccarat.results.patterns.against_fair import sample_against_fair
    from baccarat.results.patterns.fair_shoes import DRAWS, POOL_SEED
    from baccarat.results.patterns.sources import recorded_sample, run_sample, seeded_sample
    from baccarat.table.rules import load_rules

    chart = chart_file(args.chart, args.force)
    rules_name = DEFAULT_RULES if args.rules is None else args.rules
    rules = load_rules(rules_name)
    fair_seed = POOL_SEED if args.fair_seed is None else args.fair_seed
    if args.source is None:
        if fair_seed == args.seed:
            raise InputError(f"--seed {args.seed} is the seed of the fair shoes too; give another --seed or --fair-seed")
        sample = seeded_sample(rules, args.count, args.seed)
    elif Path(args.source).is_dir():  # a run folder: its rounds are read only when they are the ones the run wrote
        from baccarat.execution.manifest import MANIFEST_FILE, check_data, read_manifest

        manifest = read_manifest(Path(args.source) / MANIFEST_FILE)
        if manifest is not None:
            check_data(Path(args.source), manifest)
        sample = run_sample(args.source)
        rules, rules_name = _run_rules(Path(args.source), args.rules, rules)
    elif not Path(args.source).exists():
        raise InputError(f"no such file or folder: {args.source}")
    elif args.fmt is None:
        raise InputError(f"{args.source} is a shoe file: name its format with --format (cards, outcomes or rounds)")
    else:
        sample = recorded_sample(args.source, args.fmt, rules)
    data = sample_against_fair(sample, rules, rules_name, DRAWS if args.draws is None else args.draws, fair_seed)
    if chart is not None:
        _write_chart(chart, data)
    with saying_what_was_written(f"the chart is drawn in {chart}" if chart else "nothing was written"):
        if args.json:
            print_json(json.dumps(data, allow_nan=False))
        else:
            print(render_text(data))
            if chart is not None:
                print(f"chart -> {chart}")
    return 0


def _run_rules(folder: Path, asked: str | None, given: Rules) -> tuple[Rules, str]:
    """The rules a run folder's shoes were dealt under, from its ``experiment.yaml``, and their name.

    ``--rules`` (``asked``, loaded as ``given``) is refused when it names
    other rules; a folder without ``experiment.yaml`` takes ``given``.
    """
    from baccarat.errors import InputError
    from baccarat.experiment import load_experiment

    if not (folder / "experiment.yaml").is_file():
        return given, DEFAULT_RULES if asked is None else asked
    run_rules = load_experiment(folder / "experiment.yaml", shoe_file_needed=False, strategies_needed=False).rules
    if asked is not None and given.to_mapping() != run_rules.to_mapping():
        raise InputError(f"the run in {folder} was dealt under the rules {run_rules.name}, not {asked}: leave out --rules")
    return run_rules, run_rules.name


def _write_chart(path: Path, data: dict) -> None:
    from baccarat.commands import write_chart
    from baccarat.results.charts.observed_fair import patterns_chart

    write_chart(path, patterns_chart(data["statistics"], f"{data['source']}: seen against fair shoes"))


def render_text(data: dict) -> str:
    """The test as a table: each statistic, seen, fair mean and middle 95%, exact chance, p-values; then the verdict."""
    from baccarat.results.patterns.against_fair import fmt_figure as num

    lines = [
        f"{data['source']}: {data['shoes']} shoe{'s' if data['shoes'] != 1 else ''}, {data['rounds']} rounds, rules {data['rules']}",
        f"fair: {data['draws']} samples of {data['shoes']} shoes drawn from {data['fair_shoes']:,} seeded shoes "
        f"(seed {data['fair_seed']}) under the same rules; exact: one round off the top",
        "",
        f"{'statistic':<36} {'seen':>8} {'fair':>8} {'fair 95% range':>19} {'exact':>8} {'p':>7} {'p Holm':>7}",
    ]
    for s in data["statistics"]:
        rng = f"{num(s['fair_low'])} to {num(s['fair_high'])}" if s["fair_low"] is not None else "-"
        p = "-" if s["p_value"] is None else f"{s['p_value']:.3f}"
        q = "-" if s["p_holm"] is None else f"{s['p_holm']:.3f}"
        mark = "  <- unlike fair" if s["flagged"] else ""
        lines.append(
            f"{s['label']:<36} {num(s['observed']):>8} {num(s['fair_mean']):>8} {rng:>19} {num(s['exact']):>8} {p:>7} {q:>7}{mark}"
        )
    seen, fair = data["streak_lengths"]["seen"], data["streak_lengths"]["fair"]
    if seen and fair:
        lines += ["", "streak length   " + " ".join(f"{k if k < len(seen) else f'{k}+':>6}" for k in range(1, len(seen) + 1))]
        lines.append("seen share      " + " ".join(f"{x:>6.3f}" for x in seen))
        lines.append("fair share      " + " ".join(f"{x:>6.3f}" for x in fair))
    lines += ["", data["verdict"]]
    return "\n".join(lines)
