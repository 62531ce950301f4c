"""``baccarat shoes generate|check``: write seeded shoes to a file, check a recorded shoe file."""

from __future__ import annotations

import argparse
import sys

from baccarat.commands import number_argument

FORMAT_NAMES = ("cards", "outcomes", "rounds")


def _positive(text: str) -> int:
    from baccarat.experiment.model import MAX_SHOES

    return _whole(text, 1, MAX_SHOES, "expected a whole number from 1", f"expected at most {MAX_SHOES:,} shoes")


def _samples(text: str) -> int:
    """A count of samples or candidates (``patterns --draws``, ``search --top``): a whole number from 1, bounded as shoes are."""
    from baccarat.experiment.model import MAX_SHOES

    return _whole(text, 1, MAX_SHOES, "expected a whole number from 1", f"expected at most {MAX_SHOES:,}")


def _seed(text: str) -> int:
    from baccarat.experiment.model import MAX_SEED

    return _whole(text, 0, MAX_SEED, "a seed is a whole number from 0", f"a seed is at most {MAX_SEED:,}, as in an experiment")


def _whole(text: str, low: int, high: int, below: str, above: str) -> int:
    """``text`` as a whole number from ``low`` to ``high``; else argparse's error, ``below`` or ``above`` saying why."""
    value = number_argument(text, int, lambda value: value >= low, below, unreadable="expected a whole number")
    if value > high:
        raise argparse.ArgumentTypeError(f"{above}, not {text!r}")
    return value


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare ``baccarat shoes generate`` and ``baccarat shoes check``."""
    sub = parser.add_subparsers(dest="shoes_command", metavar="ACTION", required=True)
    gen = sub.add_parser(
        "generate",
        help="write seeded shoes to a file, as dealt (burned cards excluded)",
        description="Write seeded shoes to a file, as dealt (burned cards excluded): replaying the file "
        "gives exactly the rounds of the seeded run.",
    )
    gen.add_argument("--rules", required=True, metavar="PRESET", help="rule preset name or rules YAML file")
    gen.add_argument("--count", required=True, type=_positive, metavar="N", help="number of shoes")
    gen.add_argument("--seed", required=True, type=_seed, metavar="S", help="experiment seed (the shoes of a run with this seed)")
    gen.add_argument("--out", required=True, metavar="FILE", help="file to write")
    gen.add_argument("--format", choices=FORMAT_NAMES, default="cards", help="file format (default: cards)")
    gen.add_argument("--force", action="store_true", help="replace FILE if it exists")
    gen.add_argument("--quiet", action="store_true", help="no progress bar")
    check = sub.add_parser(
        "check",
        help="validate a recorded shoe file and summarise it",
        description="Validate a recorded shoe file and print its shoes, rounds and Banker/Player/Tie counts.",
    )
    check.add_argument("file", help="shoe file")
    check.add_argument("--format", required=True, choices=FORMAT_NAMES, help="file format (never guessed)")
    check.add_argument(
        "--rules",
        default="punto-banco-8",
        metavar="PRESET",
        help="rule preset name or rules YAML file (default: punto-banco-8); sets the number of decks",
    )


WHAT_IS_WRITTEN = {
    "cards": "cards as dealt, burned cards excluded",
    "outcomes": "outcomes of the rounds as dealt (B Banker, P Player, T Tie)",
    "rounds": "rounds as dealt, each hand's cards, burned cards excluded",
}
"""What the header of a generated file says it holds, by format."""


def run(args: argparse.Namespace) -> int:
    """Run ``generate`` or ``check``."""
    return generate(args) if args.shoes_command == "generate" else check(args)


def generate(args: argparse.Namespace) -> int:
    """Write ``--count`` seeded shoes of ``--rules`` under ``--seed`` to ``--out``."""
    from pathlib import Path

    from tqdm import tqdm

    from baccarat.commands import saying_what_was_written
    from baccarat.errors import InputError
    from baccarat.shoes.recorded.write import write_shoes
    from baccarat.shoes.seeded import seeded_rounds
    from baccarat.table.rules import load_rules

    rules = load_rules(args.rules)
    out = Path(args.out)
    if out.exists() and not args.force:
        raise InputError("exists already; give another --out, or --force to replace it", path=str(out))
    comment = (
        f"{args.count} seeded shoe(s): rules {rules.name}, seed {args.seed}; {WHAT_IS_WRITTEN[args.format]}.\n"
        f"Made by: baccarat shoes generate --rules {args.rules} --count {args.count} --seed {args.seed} "
        f"--format {args.format}"
    )
    shoes = seeded_rounds(rules, args.seed, 1, args.count)
    bar = tqdm(shoes, total=args.count, unit="shoe", desc="generate", disable=args.quiet or None, file=sys.stderr)
    with bar:
        count, rounds = write_shoes(out, args.format, bar, comment)
    with saying_what_was_written(f"the shoes are in {out}"):
        print(f"{count} shoes, {rounds} rounds ({rules.name}, seed {args.seed}) -> {out} ({args.format} format)")
    return 0


def check(args: argparse.Namespace) -> int:
    """Validate a shoe file in bounded memory and print its summary."""
    import numpy as np

    from baccarat.shoes.recorded import ShoeScan
    from baccarat.table.dealer import OUTCOMES
    from baccarat.table.rules import load_rules

    rules = load_rules(args.rules)
    scan = ShoeScan(args.file, args.format, rules)
    counts = np.zeros(len(OUTCOMES), dtype=np.int64)
    for table in scan.tables():
        counts += np.bincount(table.outcome, minlength=len(OUTCOMES))
    for warning in scan.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    print(f"{args.file}: valid {args.format} file under {rules.name} ({rules.decks} deck{'s' if rules.decks > 1 else ''})")
    print(f"  shoes   {scan.shoes:>10,}")
    print(f"  rounds  {scan.rounds:>10,}")
    for name, count in zip(OUTCOMES, counts.tolist(), strict=True):
        print(f"  {name:<7} {count:>10,}  {100 * count / scan.rounds:6.2f}%")
    return 0
