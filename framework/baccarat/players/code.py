"""Which code is a plugin's: it plays in a player process; baccarat's own code and its built-in library play in the dealer."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def built_in_packages() -> tuple[str, ...]:
    """The top-level packages of baccarat and of its built-in plugin library (the framework's own code)."""
    from importlib.metadata import entry_points

    from baccarat.plugin.manager import BUILT_IN_DISTRIBUTION, ENTRY_POINT_GROUP

    found = {"baccarat"}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.dist is not None and ep.dist.metadata["Name"] == BUILT_IN_DISTRIBUTION:
            found.add(ep.module.split(".")[0])
    return tuple(sorted(found))


def from_plugin(code: Any) -> bool:
    """Tell whether a function or class comes from a plugin, not from baccarat or its built-in plugin library."""
    return str(getattr(code, "__module__", "")).split(".")[0] not in built_in_packages()


def strategy_classes(cls: type) -> list[type]:
    """The classes whose code a strategy runs, and their bases: a composed strategy's pieces, a wrapped strategy's inner one."""
    parts: list[Any] = [cls]
    for name in ("progression", "inner"):
        if isinstance(getattr(cls, name, None), type):
            parts.append(getattr(cls, name))
    parts += list(getattr(cls, "selectors", {}).values()) + list(getattr(cls, "stop_rules", ()))
    found: list[type] = []
    seen = {object}
    for part in parts:
        for klass in getattr(part, "__mro__", ()):
            if klass not in seen:
                seen.add(klass)
                found.append(klass)
    return found


def plays_in_player(cls: type) -> bool:
    """Tell whether a strategy runs a plugin's code (then it plays in a player process, never in the dealer)."""
    return any(from_plugin(klass) for klass in strategy_classes(cls))
