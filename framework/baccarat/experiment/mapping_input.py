"""An experiment given to the Python API as a mapping: made the plain data a YAML file holds, or refused in one sentence.

A YAML file can hold only text, numbers, true/false, dates, nothing, lists
and mappings with text keys. A mapping built in Python may hold anything:
numpy's numbers (``np.int64(20)``, ``np.float64``, ``np.bool_``) are taken
as the Python numbers they are, tuples as lists; anything else (an integer
key, a generator, an object, nesting deeper than :data:`MAX_DEPTH`) is an
:class:`~baccarat.errors.ExperimentError` naming where it is.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from baccarat.errors import ExperimentError
from baccarat.files.yamlfile import KeyPath, show_path

MAX_DEPTH = 32
"""Deepest nesting of mappings and lists in an experiment (a real one is six levels deep)."""

MAX_VALUES = 50_000
"""Most values in an experiment given as a mapping, as in an experiment file."""

_PLAIN = (str, bool, int, float, Decimal, Fraction, datetime.date, type(None))


def plain_experiment(source: Mapping[Any, Any]) -> dict[str, Any]:
    """Return a copy of ``source`` made of plain values only; raise ExperimentError naming the first value that cannot be."""
    count = 0

    def where(path: KeyPath) -> str:
        return f"at {show_path(path)}" if path else "at the top"

    def plain(value: Any, path: KeyPath) -> Any:
        nonlocal count
        count += 1
        if count > MAX_VALUES:
            raise ExperimentError(f"the experiment holds more than {MAX_VALUES:,} values, more than any experiment needs")
        if len(path) > MAX_DEPTH:
            raise ExperimentError(f"the experiment is nested more than {MAX_DEPTH} levels deep ({where(path[:3])}...)")
        if isinstance(value, np.generic):
            value = value.item()  # numpy's numbers, booleans and text as Python's
        if isinstance(value, _PLAIN):
            return value
        if isinstance(value, Mapping):
            copy: dict[str, Any] = {}
            for key, item in value.items():
                if isinstance(key, np.str_):
                    key = str(key)
                if not isinstance(key, str):
                    raise ExperimentError(f"the key {key!r} {where(path)} is not text; every key of an experiment is text")
                copy[key] = plain(item, (*path, key))
            return copy
        if isinstance(value, list | tuple):
            return [plain(item, (*path, k)) for k, item in enumerate(value)]
        kind = type(value).__name__
        hint = " (make it a list)" if hasattr(value, "__next__") or isinstance(value, set | frozenset | range) else ""
        raise ExperimentError(
            f"the experiment holds a {kind} {where(path)}, which an experiment cannot hold: give text, numbers, "
            f"true/false, lists and mappings{hint}"
        )

    return plain(source, ())


__all__ = ["MAX_DEPTH", "plain_experiment"]
