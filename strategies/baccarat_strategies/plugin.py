"""The entry point of the built-in strategies (group ``baccarat``)."""

from __future__ import annotations

from collections.abc import Callable

from baccarat.hookspecs import hookimpl
from baccarat_strategies.progressions import BUILT_IN


@hookimpl
def register_strategies(register: Callable[[type], None]) -> None:
    """Register the built-in strategies."""
    for cls in BUILT_IN:
        register(cls)
