"""Deprecated (0.1): now :mod:`baccarat.table.bet_registry`; removed in 0.4. Every name of the new module is here under the same name."""

from __future__ import annotations

from typing import Any

import baccarat.table.bet_registry as _home
from baccarat.plugin.legacy import warn_moved

warn_moved("baccarat.bet_registry", "baccarat.plugin (BetDefinition; a table's bets are rules.bet_registry)")


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.table.bet_registry`."""
    return getattr(_home, name)
