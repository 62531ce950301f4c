"""The host's default plugin: the built-in bets (:mod:`baccarat.table.builtin_bets`) through the ``register_bets`` hook."""

from __future__ import annotations

from collections.abc import Callable

from baccarat.plugin.hookspecs import hookimpl
from baccarat.table.bet_registry import BetDefinition
from baccarat.table.builtin_bets import BUILT_IN


@hookimpl
def register_bets(register: Callable[[BetDefinition], None]) -> None:
    """Register the built-in bets."""
    for bet in BUILT_IN:
        register(bet)
