"""Deprecated (0.1): now :mod:`baccarat.table.bet_registry` (with ``bet_definition`` and ``bet_checks``); removed in 0.4.

Every name of the three new modules is here under the same name."""

from __future__ import annotations

from typing import Any

import baccarat.table.bet_checks as _checks
import baccarat.table.bet_definition as _definition
import baccarat.table.bet_registry as _home
from baccarat.plugin.legacy import warn_moved

warn_moved("baccarat.bet_registry", "baccarat.plugin (BetDefinition; a table's bets are rules.bet_registry)")


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.table.bet_registry`, :mod:`baccarat.table.bet_definition` and :mod:`baccarat.table.bet_checks`."""
    home = next((module for module in (_home, _definition, _checks) if hasattr(module, name)), _home)
    return getattr(home, name)
