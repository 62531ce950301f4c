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
from collections.abc import Iterator
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
    seen = {object}
    for part in parts:
        for klass in getattr(part, "__mro__", ()):
            if klass not in seen:
                seen.add(klass)
                if not klass.__module__.startswith("baccarat."):
                    found.append(klass)
    return found


_NOT_VALUES = (staticmethod, classmethod, property, type)
"""What a class holds that is not a plain value (besides callables)."""

_ATOMS = frozenset({type(None), bool, int, float, complex, str, bytes})
"""Types whose values ``copy.deepcopy`` returns as they are (immutable, holding nothing mutable)."""


def _copy(value: Any) -> Any:
    """``copy.deepcopy(value)``, without its cost for the plain values classes mostly hold.

    Text, numbers and tuples of them are returned as they are (deepcopy
    returns them so); a list or a dict of them is copied one level deep,
    which is all of it.
    """
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple or kind is list:
        if all(type(item) in _ATOMS for item in value):
            return value if kind is tuple else list(value)
    elif kind is dict and all(type(key) in _ATOMS and type(item) in _ATOMS for key, item in value.items()):
        return dict(value)
    return copy.deepcopy(value)


def class_state(cls: type) -> dict[tuple[type, str], tuple[Any, Any]]:
    """Return every plain value held by the classes of a strategy (methods, properties and classes aside), with a copy.

    The copy is kept only when it compares equal to the value (a list, a
    number): a value compared by identity is followed by its rebinding only.
    """
    state: dict[tuple[type, str], Any] = {}
    for key, value in _plain_values(cls):
        try:
            copied = _copy(value)
        except Exception:  # a value that cannot be copied: only its rebinding is seen
            copied = _MISSING
        state[key] = (value, copied if copied is not _MISSING and _same(copied, value) else _MISSING)
    return state


def changed_attribute(cls: type, before: dict[tuple[type, str], tuple[Any, Any]]) -> str | None:
    """Return ``Class.name`` of the first class attribute that changed (or appeared) since ``before``, else None."""
    after = dict(_plain_values(cls))  # compared with the copies taken before: copied again, they would serve nothing
    for key in [*before, *(k for k in after if k not in before)]:
        if key not in before or key not in after or before[key][0] is not after[key]:  # set, removed or rebound
            return f"{key[0].__qualname__}.{key[1]}"
        copied = before[key][1]
        if copied is not _MISSING and not _same(copied, after[key]):  # a value changed in place (a list appended to)
            return f"{key[0].__qualname__}.{key[1]}"
    return None


def _plain_values(cls: type) -> Iterator[tuple[tuple[type, str], Any]]:
    """Each plain value of the classes of a strategy, keyed by ``(class, name)``: methods, properties and classes aside."""
    for klass in strategy_classes(cls):
        for name, value in vars(klass).items():
            if name.startswith("__") or callable(value) or isinstance(value, _NOT_VALUES):
                continue
            yield (klass, name), value


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
