"""``baccarat strategies [--json] [--plugins-dir DIR]``: everything the plugins provide.

``baccarat strategies check NAME [--shoes N] [--plugins-dir DIR]`` plays a
piece's reference and compiled twins on seeded shoes and compares them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from baccarat.commands import number_argument, print_json

KIND_ORDER = ("progression", "selector", "stop-rule", "strategy")


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat strategies``."""
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    add_plugins_dir_option(parser)
    sub = parser.add_subparsers(dest="action", metavar="check", required=False)
    check = sub.add_parser(
        "check",
        help="play a piece's reference and compiled twins on seeded shoes and compare them",
        description="Play a progression, selector or stop rule on the reference engine and as its "
        "compiled twin over seeded shoes; say that their ledgers are identical, or "
        "where they first differ. Exit status 1 when they differ.",
    )
    check.add_argument("name", help="a progression, selector or stop rule")
    check.add_argument("--shoes", metavar="N", type=_count, default=200, help="seeded shoes to play (default: 200)")
    check.add_argument(
        "--param",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="a parameter of the composed strategy, e.g. --param length=4 (repeatable)",
    )
    check.add_argument(
        "--plugins-dir",
        metavar="DIR",
        action="append",
        default=argparse.SUPPRESS,
        help="also load every plugin file (*.py) of this folder (repeatable)",
    )


def _count(text: str) -> int:
    return number_argument(text, int, lambda value: 1 <= value <= 1_000_000, "expected a number of shoes from 1 to 1,000,000")


def _params(pairs: list[str]) -> dict[str, Any]:
    import yaml

    from baccarat.errors import InputError

    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--param takes KEY=VALUE, not {pair!r}")
        try:
            out[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise InputError(f"--param {key.strip()}: {value!r} is not a value") from None
    return out


def add_plugins_dir_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--plugins-dir DIR`` (repeatable) on a command that loads plugins."""
    parser.add_argument(
        "--plugins-dir", metavar="DIR", action="append", default=[], help="also load every plugin file (*.py) of this folder (repeatable)"
    )


def listing(plugins_dirs: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Return one record per registered name (name, kind, params, origin, plugin, source, description) and the warnings.

    The predictors (kind ``predictor``, for ``baccarat predict``) come last.
    """
    from baccarat.plugin.manager import registry

    reg = registry(plugins_dirs)
    records = []
    predictors = list(reg.predictor_entries().values())
    for kind in KIND_ORDER:
        for entry in reg.entries[kind].values():
            records.append(
                {
                    "name": entry.name,
                    "kind": entry.kind,
                    "params": entry.params,
                    "origin": entry.plugin.origin,
                    "plugin": entry.plugin.name,
                    "source": entry.plugin.source,
                    "description": _describe(entry.cls),
                }
            )
    for entry in predictors:
        records.append(
            {
                "name": entry.name,
                "kind": entry.kind,
                "params": {},
                "origin": entry.plugin.origin,
                "plugin": entry.plugin.name,
                "source": entry.plugin.source,
                "description": _describe(entry.cls),
            }
        )
    return records, reg.warnings


def _describe(cls: type) -> str:
    """A class's one-line description; a vectorised strategy's says so first (it decides for every session of a chunk at once)."""
    from baccarat.plugin.vector import is_vector

    text = getattr(cls, "description", "") or (cls.__doc__ or "").strip()
    line = text.splitlines()[0] if text else ""
    return f"(vectorised) {line}".rstrip() if is_vector(cls) else line


def _value(value: Any) -> str:
    if value is None:
        return "none"
    return value if isinstance(value, str) else json.dumps(value, default=str)


def _table(records: list[dict[str, Any]]) -> str:
    rows = [("NAME", "KIND", "PARAMETERS", "ORIGIN", "DESCRIPTION")]
    for r in records:
        params = " ".join(f"{k}={_value(v)}" for k, v in r["params"].items()) or "-"
        origin = r["origin"] if r["origin"] == "built-in" else f"{r['origin']} {r['source']}"
        rows.append((r["name"], r["kind"], params, origin, r["description"]))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  " + row[4] for row in rows]
    lines.append("")
    lines.append("Compose in an experiment: `use: PROGRESSION` with `params: {side: SELECTOR, unit: 10, ...}`,")
    lines.append("plus the selector's and the stop rules' parameters; `use: STRATEGY` runs a free-form strategy.")
    return "\n".join(line.rstrip() for line in lines)


def run(args: argparse.Namespace) -> int:
    """Print every strategy, progression, selector and stop rule with parameters and origin; or check a piece."""
    if getattr(args, "action", None) == "check":
        return _check(args)
    records, warnings = listing(args.plugins_dir)
    for warning in warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    if args.json:
        print_json(json.dumps(records, indent=2, default=str))
    else:
        print(_table(records))
    return 0


def _check(args: argparse.Namespace) -> int:
    """Check a piece's compiled twin against its reference; 0 when the ledgers are identical, 1 when not."""
    from baccarat.execution.twin_check import check_piece
    from baccarat.plugin.manager import registry

    params = _params(args.param)
    found = registry(args.plugins_dir)
    found.twins()
    for warning in found.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    result = check_piece(args.name, args.plugins_dir, args.shoes, params)
    print("\n".join(result.lines))
    return 0 if result.identical else 1
