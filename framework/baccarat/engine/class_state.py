"""State a strategy keeps on its classes instead of on ``self``: found by comparing the classes before and after play.

An attribute set on a class (``history = []`` at class level, then
``self.history.append(...)``) is shared by every session and every strategy
of a process: a session's play then depends on the sessions the process
played before it, so results change with ``--workers``. :func:`class_state`
takes the plain values of the classes whose code a strategy runs (its own,
a composed strategy's pieces, their bases outside baccarat itself), and
:func:`changed_attribute` names the first that changed since.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

_MISSING = object()


def strategy_classes(cls: type) -> list[type]:
    """The classes whose code a strategy runs and their bases, baccarat's own framework classes left out."""
    parts: list[Any] = [cls]
    for name in ("progression", "inner"):
        if isinstance(getattr(cls, name, None), type):
            parts.append(getattr(cls, name))
    parts += list(getattr(cls, "selectors", {}).values()) + list(getattr(cls, "stop_rules", ()))
    found: list[type] = []
    for part in parts:
        for klass in getattr(part, "__mro__", ()):
            if klass not in found and klass is not object and not klass.__module__.startswith("baccarat."):
                found.append(klass)
    return found


def class_state(cls: type) -> dict[tuple[type, str], tuple[Any, Any]]:
    """Return every plain value held by the classes of a strategy (methods, properties and classes aside), with a copy.

    The copy is kept only when it compares equal to the value (a list, a
    number): a value compared by identity is followed by its rebinding only.
    """
    state: dict[tuple[type, str], Any] = {}
    for klass in strategy_classes(cls):
        for name, value in vars(klass).items():
            if name.startswith("__") or callable(value) or isinstance(value, staticmethod | classmethod | property | type):
                continue
            try:
                copied = copy.deepcopy(value)
            except Exception:  # a value that cannot be copied: only its rebinding is seen
                copied = _MISSING
            state[(klass, name)] = (value, copied if copied is not _MISSING and _same(copied, value) else _MISSING)
    return state


def changed_attribute(cls: type, before: dict[tuple[type, str], tuple[Any, Any]]) -> str | None:
    """Return ``Class.name`` of the first class attribute that changed (or appeared) since ``before``, else None."""
    after = class_state(cls)
    for key in [*before, *(k for k in after if k not in before)]:
        was, now = before.get(key), after.get(key)
        if was is None or now is None or was[0] is not now[0]:  # set, removed or rebound
            return f"{key[0].__qualname__}.{key[1]}"
        if was[1] is not _MISSING and not _same(was[1], now[0]):  # a value changed in place (a list appended to)
            return f"{key[0].__qualname__}.{key[1]}"
    return None


def _same(a: Any, b: Any) -> bool:
    if a is _MISSING or b is _MISSING:
        return a is b
    try:
        return bool(a == b)
    except Exception:  # an array, or a value whose == does not answer yes or no
        try:
            return bool(np.array_equal(a, b))
        except Exception:
            return repr(a) == repr(b)


__all__ = ["changed_attribute", "class_state", "strategy_classes"]
