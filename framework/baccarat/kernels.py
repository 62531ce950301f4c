"""Deprecated (0.1): now :mod:`baccarat.plugin.twins`; removed in 0.4. Every name of the new module is here under the same name."""

from __future__ import annotations

from typing import Any

import baccarat.plugin.twins as _home
from baccarat.plugin.legacy import warn_moved

warn_moved("baccarat.kernels", "baccarat.plugin.twins")


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.plugin.twins`."""
    return getattr(_home, name)
