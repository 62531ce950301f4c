"""What a plugin author is told about a plugin that loaded: deprecated imports, and hooks that baccarat will not call.

Both become warnings naming the plugin, shown where the plugins' other
warnings are (``baccarat strategies``, the start of a run).
"""

from __future__ import annotations

import inspect
import sys
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from baccarat.plugin.legacy import DEPRECATED_MODULES


def import_noting_deprecations(load: Callable[[], ModuleType], plugin: Any) -> tuple[ModuleType, list[str]]:
    """Import a plugin with ``load()``; return the module and a warning for each ``DeprecationWarning`` of baccarat it raised."""
    for name in DEPRECATED_MODULES:  # imported afresh, so that each plugin importing one is told
        sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        module = load()
    notes = [
        f"{plugin}: {caught_warning.message} ({caught_warning.filename}, line {caught_warning.lineno})"
        for caught_warning in caught
        if issubclass(caught_warning.category, DeprecationWarning) and "baccarat" in str(caught_warning.message)
    ]
    for caught_warning in caught:  # anything else goes on as it would have
        if not (issubclass(caught_warning.category, DeprecationWarning) and "baccarat" in str(caught_warning.message)):
            warnings.warn_explicit(caught_warning.message, caught_warning.category, caught_warning.filename, caught_warning.lineno)
    return module, notes


def unmarked_hooks(module: ModuleType, plugin: Any, hooks: Iterable[str]) -> list[str]:
    """A warning for each function of ``module`` named like a baccarat hook but lacking ``@hookimpl`` (never called)."""
    notes = []
    for hook in hooks:
        function = getattr(module, hook, None)
        if not inspect.isfunction(function) or hasattr(function, "baccarat_impl"):
            continue
        where = f"{inspect.getsourcefile(function) or module.__name__}, line {function.__code__.co_firstlineno}"
        notes.append(
            f"{plugin}: {hook}() has no @hookimpl, so baccarat never calls it ({where}); "
            "put `@hookimpl` (from baccarat.plugin import hookimpl) on the line above it"
        )
    return notes
