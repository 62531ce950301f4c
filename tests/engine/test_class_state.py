"""Class attributes a strategy changes while it plays (:mod:`baccarat.engine.class_state`): every change is named."""

from __future__ import annotations

import copy
import math

import pytest

from baccarat.engine.class_state import _copy, changed_attribute, class_state


def _strategy() -> type:
    class Base:
        seen: list[int] = []
        params = {"wins": 3, "side": "banker"}

    class Piece(Base):
        name = "piece"
        line = (1, 2, 3)
        nested = {"line": [1, 2]}
        limit = math.nan
        nothing = None

        def bets(self, view):
            return None

    return Piece


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda cls: cls.seen.append(1), "Base.seen"),  # a list of the base changed in place
        (lambda cls: cls.params.update(wins=4), "Base.params"),  # a dict changed in place
        (lambda cls: cls.nested["line"].append(3), "Piece.nested"),  # a list within a dict
        (lambda cls: setattr(cls, "line", tuple([1, 2, 3])), "Piece.line"),  # rebound to an equal tuple
        (lambda cls: setattr(cls, "limit", float("nan")), "Piece.limit"),  # rebound (NaN equals nothing: only its rebinding shows)
        (lambda cls: setattr(cls, "name", "other"), "Piece.name"),
        (lambda cls: delattr(cls, "nothing"), "Piece.nothing"),  # removed (a value of None)
        (lambda cls: setattr(cls, "added", 1), "Piece.added"),  # appeared
    ],
)
def test_a_change_to_a_class_attribute_is_named(change, named: str) -> None:
    cls = _strategy()
    before = class_state(cls)
    change(cls)
    assert changed_attribute(cls, before) == f"_strategy.<locals>.{named}"


def test_classes_left_alone_are_unchanged() -> None:
    cls = _strategy()
    before = class_state(cls)
    cls().bets(None)
    assert changed_attribute(cls, before) is None


@pytest.mark.parametrize(
    "value", [None, True, 3, 2.5, math.nan, 1j, "text", b"bytes", (1, "a", None), [1, 2.5, "a"], {"a": 1, 2: None}, [[1]], {"a": [1]}]
)
def test_the_copy_is_what_deepcopy_makes(value: object) -> None:
    copied = _copy(value)
    assert type(copied) is type(value)
    assert repr(copied) == repr(copy.deepcopy(value))
    if isinstance(value, list | dict):  # a mutable value is copied: a change to it shows against the copy
        assert copied is not value
