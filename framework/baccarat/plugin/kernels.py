"""Deprecated (0.3): now :mod:`baccarat.plugin.twins`; removed in 0.5. Every name of the new module is here under the same name.

The 0.2 class names ``CompiledProgression``, ``CompiledSelector`` and ``CompiledStopRule`` still answer, as
``ProgressionTwin``, ``SelectorTwin`` and ``StopRuleTwin`` (CHANGELOG.md, 0.3.0).
"""

from __future__ import annotations

import warnings
from typing import Any

import baccarat.plugin.twins as _home

warnings.warn(
    "baccarat.plugin.kernels is deprecated and will be removed in baccarat 0.5: "
    "import from baccarat.plugin.twins instead (CHANGELOG.md, 0.3.0)",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> Any:
    """Every name of :mod:`baccarat.plugin.twins`, the 0.2 class names included."""
    if name in _home.RENAMED:
        return getattr(_home, _home.RENAMED[name])
    return getattr(_home, name)
