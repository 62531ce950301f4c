"""``--set key.path=value`` overrides, applied to an experiment's data before it is checked.

A bad override is reported against the override itself (``--set ...``), not
against the file it would have changed.
"""

from __future__ import annotations

from typing import Any

from baccarat.errors import InputError
from baccarat.experiment.values import shown
from baccarat.files.yamlfile import Document, KeyPath, Where, parse_yaml, show_path

MAX_KEY_PARTS = 32
"""Most parts of a ``--set`` key path (an experiment is about six levels deep)."""

MAX_KEY_CHARS = 1_000
"""Most characters of a ``--set`` key path."""


def parse_override(text: str) -> tuple[tuple[str, ...], Any, Where]:
    """Split ``key.path=value`` into key parts, the value read as YAML, and where to report it."""
    where = Where("--set " + "".join(c if c.isprintable() else repr(c)[1:-1] for c in text))  # one line, whatever was typed
    key, sep, raw = text.partition("=")
    parts = tuple(part.strip() for part in key.split("."))
    if not sep or not key.strip():
        raise where.error("an override is KEY.PATH=VALUE, for example session.bankroll=500 or strategies.0.params.unit=5")
    if not raw.strip():
        raise where.error(f"the value of {key.strip()} is empty; give a value (write '' for empty text)")
    if len(parts) > MAX_KEY_PARTS or len(key) > MAX_KEY_CHARS:
        raise where.error(
            f"the key path has {len(parts):,} parts and {len(key):,} characters; a key path has at most {MAX_KEY_PARTS} parts "
            f"and {MAX_KEY_CHARS} characters (no experiment is deeper)"
        )
    if any(not part for part in parts):
        raise where.error(f"the key path {key.strip()!r} has an empty part; parts are separated by single dots")
    try:
        value = parse_yaml(raw, where.source).data
    except InputError as exc:
        raise where.error(exc.message) from None
    return parts, value, where


def apply_override(doc: Document, text: str) -> None:
    """Apply one ``--set key.path=value`` to ``doc``; list items by index (``strategies.0.params.unit=5``)."""
    parts, value, where = parse_override(text)
    if doc.data is None:
        doc.replace((), {}, Where(doc.source))
    if not isinstance(doc.data, dict):
        raise doc.error((), "an experiment must be a mapping of name, rules, shoes, session and strategies")
    node: Any = doc.data
    path: KeyPath = ()
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, dict):
            key: str | int = part
        elif isinstance(node, list):
            if not part.isdigit():
                raise where.error(f"{show_path(path)} is a list: the next part must be an item number from 0, not {part!r}")
            key = int(part)
            if key > len(node):
                raise where.error(
                    f"{show_path(path)} has {len(node)} item(s), numbered from 0; {len(node)} adds one, {key} is out of range"
                )
        else:
            raise where.error(f"cannot set {'.'.join(parts)}: {show_path(path)} holds {shown(node)}, not a mapping or a list")
        path = path + (key,)
        if last:
            doc.replace(path, value, where)
            return
        child = node.get(key) if isinstance(node, dict) else (node[key] if key < len(node) else None)
        if child is None:
            child = {}
            doc.replace(path, child, where)
        elif path == ("rules",) and isinstance(child, str):
            child = {"preset": child}  # --set rules.decks=6 on `rules: punto-banco-8`
            node[key] = child
            doc.values[("rules", "preset")] = doc.values.get(("rules",), where)
            doc.keys[("rules", "preset")] = doc.keys.get(("rules",), where)
        node = child
