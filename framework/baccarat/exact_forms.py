"""Deprecated (0.1): now :mod:`baccarat.plugin.exact_forms`; removed in 0.4. Every name of the new module is here under the same name."""

from __future__ import annotations

from typing import Any

import baccarat.plugin.exact_forms as _home
from baccarat.plugin.legacy import warn_moved

warn_moved("baccarat.exact_forms", "baccarat.plugin (ExactProgression, ExactSelector, ExactStopRule, StopLimits)")


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.plugin.exact_forms`."""
    return getattr(_home, name)
