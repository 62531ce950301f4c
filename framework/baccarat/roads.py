"""Deprecated (0.1): now :mod:`baccarat.table.roads`; removed in 0.4. Every name of the new module is here under the same name."""

from __future__ import annotations

from typing import Any

import baccarat.table.roads as _home
from baccarat.plugin.legacy import warn_moved

warn_moved("baccarat.roads", "baccarat.table.roads (the view's roads: view.roads)")


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.table.roads`."""
    return getattr(_home, name)
