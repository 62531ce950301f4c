"""``baccarat roads FILE|RUN_DIR --shoe N``: draw one shoe's scoreboard roads."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from baccarat.commands import number_argument


def _shoe(text: str) -> int:
    return number_argument(text, int, lambda value: value >= 1, "expected a shoe id from 1")


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat roads``."""
    parser.add_argument("source", metavar="FILE|RUN_DIR", help="a recorded shoe file (with --format) or a run folder (rounds.parquet)")
    parser.add_argument("--shoe", type=_shoe, default=1, metavar="N", help="shoe id to draw (default 1)")
    parser.add_argument("--format", dest="fmt", metavar="FORMAT", help="format of a shoe file: cards, outcomes or rounds")
    parser.add_argument(
        "--rules", default="punto-banco-8", metavar="PRESET|FILE", help="rules a shoe file is checked against (default punto-banco-8)"
    )
    parser.add_argument(
        "--out", metavar="PNG|SVG", help="image file to write, SVG when it ends in .svg (default roads-shoe-N.png in the current folder)"
    )
    parser.add_argument("--force", action="store_true", help="replace the image file if it exists")
    parser.add_argument("--json", action="store_true", help="print the roads as JSON instead of text")


def render_text(road) -> str:
    """Return the big road and derived roads of ``road`` as text, with the asks."""
    from baccarat.table.roads import DERIVED_ROADS, text_grid

    sides = {"banker": "B", "player": "P"}
    colours = {"red": "R", "blue": "b"}

    def drawn(cells, symbols) -> str:
        return text_grid(cells, symbols, road.rows) if cells else "(no mark yet)"

    parts = ["Big road (B banker, P player):", drawn(road.big_road, sides)]
    for name, _ in DERIVED_ROADS:
        parts += [f"{name.replace('_', ' ').capitalize()} (R red, b blue):", drawn(road.derived(name), colours)]
    for side in ("banker", "player"):
        asks = road.next_colours(side)
        parts.append(f"if {side} wins next: " + ", ".join(f"{n.replace('_', ' ')} {asks[n] or '-'}" for n, _ in DERIVED_ROADS))
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    """Compute the roads of one shoe, draw them as PNG (or SVG) and print them."""
    from baccarat.commands import print_json, saying_what_was_written
    from baccarat.errors import InputError
    from baccarat.files.outfolder import atomic_file
    from baccarat.results.charts.scoreboard import load_shoe, save_roads
    from baccarat.table.roads import roads

    out = Path(args.out) if args.out else Path(f"roads-shoe-{args.shoe}.png")
    if (out.is_file() or out.is_symlink()) and not args.force:  # a ledger or an experiment must not be lost to a typo
        raise InputError("exists already; give another --out, or --force to replace it", path=str(out))
    if Path(args.source).is_dir():  # a run folder: its rounds are read only when they are the ones the run wrote
        from baccarat.execution.manifest import MANIFEST_FILE, check_data, read_manifest

        manifest = read_manifest(Path(args.source) / MANIFEST_FILE)
        if manifest is not None:
            check_data(Path(args.source), manifest)
    outcomes, pairs = load_shoe(args.source, args.shoe, args.fmt, args.rules)
    road = roads(outcomes)
    with atomic_file(out, "the roads", suffix=out.suffix or ".png") as tmp:
        save_roads(road, tmp, title=f"{Path(args.source).name}, shoe {args.shoe}", pairs=pairs)
    with saying_what_was_written(f"the roads are drawn in {out}"):
        if args.json:
            print_json(json.dumps({"shoe": args.shoe, "png": str(out), **road.to_dict()}))
        else:
            print(f"shoe {args.shoe}: {len(outcomes)} rounds")
            print(render_text(road))
            print(f"roads drawn -> {out}")
    return 0
