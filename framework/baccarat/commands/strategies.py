"""``baccarat strategies [--json] [--plugins-dir DIR]``: everything the plugins provide."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

KIND_ORDER = ("progression", "selector", "stop-rule", "strategy")


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat strategies``."""
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    add_plugins_dir_option(parser)


def add_plugins_dir_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--plugins-dir DIR`` (repeatable) on a command that loads plugins."""
    parser.add_argument("--plugins-dir", metavar="DIR", action="append", default=[],
                        help="also load every plugin file (*.py) of this folder (repeatable)")


def listing(plugins_dirs: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Return one record per registered name (name, kind, params, origin, plugin, source, description) and the warnings."""
    from baccarat.plugins import registry

    reg = registry(plugins_dirs)
    records = []
    for kind in KIND_ORDER:
        for entry in reg.entries[kind].values():
            records.append({
                "name": entry.name,
                "kind": entry.kind,
                "params": entry.params,
                "origin": entry.plugin.origin,
                "plugin": entry.plugin.name,
                "source": entry.plugin.source,
                "description": _describe(entry.cls),
            })
    return records, reg.warnings


def _describe(cls: type) -> str:
    text = getattr(cls, "description", "") or (cls.__doc__ or "").strip()
    return text.splitlines()[0] if text else ""


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
    """Print every strategy, progression, selector and stop rule with parameters and origin."""
    records, warnings = listing(args.plugins_dir)
    for warning in warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(records, indent=2, default=str))
    else:
        print(_table(records))
    return 0
