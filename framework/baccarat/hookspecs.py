"""Hook specifications: what a plugin can provide.

Hooks are called once per command to collect things, never once per round.
Implement them with ``@baccarat.hookimpl`` and call nothing yourself: the
host passes a ``register`` callback.
"""

from __future__ import annotations

from collections.abc import Callable

import pluggy

hookspec = pluggy.HookspecMarker("baccarat")
hookimpl = pluggy.HookimplMarker("baccarat")


@hookspec
def register_strategies(register: Callable[[type], None]) -> None:
    """Register strategy classes: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.strategy.Strategy` and has a unique
    ``name`` and a ``params`` mapping of parameter names to defaults.
    """
