"""The entry point of the built-in strategies (group ``baccarat``, name ``builtin``).

Registered exactly as a third-party plugin is: a module with hook
implementations, named in the project's ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baccarat.plugin import hookimpl
from baccarat_strategies import ev_counter, predicted, predictors, progressions, road_selectors, selectors, stop_rules


@hookimpl
def register_progressions(register: Callable[[type], None]) -> None:
    """Register the built-in progressions."""
    for cls in progressions.BUILT_IN:
        register(cls)


@hookimpl
def register_selectors(register: Callable[[type], None]) -> None:
    """Register the built-in selectors, fixed sides first, then those that read the roads, then a predictor's side."""
    for cls in (*selectors.BUILT_IN, *road_selectors.BUILT_IN, predicted.Predicted):
        register(cls)


@hookimpl
def register_stop_rules(register: Callable[[type], None]) -> None:
    """Register the built-in stop rules."""
    for cls in stop_rules.BUILT_IN:
        register(cls)


@hookimpl
def register_predictors(register: Callable[[type], None]) -> None:
    """Register the built-in predictors of the next round."""
    for cls in predictors.BUILT_IN:
        register(cls)


@hookimpl
def register_strategies(register: Callable[[type], None]) -> None:
    """Register the built-in free-form strategies."""
    register(ev_counter.EvCounter)


@hookimpl
def register_twins(register: Callable[[type, Any], None]) -> None:
    """Register the compiled twins of the built-in pieces (imported only when a run asks for them)."""
    from baccarat_strategies import piece_twins

    for cls, twin in piece_twins.TWINS.items():
        register(cls, twin)


@hookimpl
def register_exact_forms(register: Callable[[type, Any], None]) -> None:
    """Register the exact forms of the built-in pieces (used by ``baccarat exact``)."""
    from baccarat_strategies import piece_exact_forms

    for cls, form in piece_exact_forms.FORMS.items():
        register(cls, form)
