"""The plugin manager: built-in and third-party strategies, loaded the same way.

Built-in strategies live in the ``baccarat_strategies`` package and are
registered through the ``baccarat`` entry-point group, exactly as a
third-party package's would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pluggy

from baccarat import hookspecs
from baccarat.errors import ParameterError, StrategyError, did_you_mean
from baccarat.strategy import Strategy

ENTRY_POINT_GROUP = "baccarat"


@dataclass
class Registry:
    """Everything the plugins registered, by name."""

    strategies: dict[str, type[Strategy]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)

    def strategy(self, name: str) -> type[Strategy]:
        """Return the strategy class registered as ``name``, or raise with a suggestion."""
        try:
            return self.strategies[name]
        except KeyError:
            raise StrategyError(f"unknown strategy {name!r}{did_you_mean(name, self.strategies)}; "
                                "`baccarat strategies` lists them") from None

    def configure(self, name: str, params: Mapping[str, Any]) -> tuple[type[Strategy], dict[str, Any]]:
        """Return the strategy class registered as ``name`` and its full parameters (defaults plus ``params``).

        An unknown parameter raises :class:`ParameterError` naming it, with a suggestion.
        """
        cls = self.strategy(name)
        accepted = cls.accepted_params(params)
        for key in params:
            if key not in accepted:
                raise ParameterError(f"strategy {name!r} has no parameter {key!r}{did_you_mean(str(key), accepted)}; "
                                     f"its parameters are {', '.join(accepted) or 'none'}", param=str(key))
        return cls, {**accepted, **params}


def get_plugin_manager() -> pluggy.PluginManager:
    """Return a plugin manager with the hook specs and every ``baccarat`` entry point loaded."""
    pm = pluggy.PluginManager("baccarat")
    pm.add_hookspecs(hookspecs)
    pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    return pm


@cache
def registry() -> Registry:
    """Collect what the plugins provide (once per process)."""
    pm = get_plugin_manager()
    found = Registry()

    def register_strategy(cls: Any) -> None:
        origin = getattr(cls, "__module__", "?")
        if cls.name in found.strategies:
            raise StrategyError(f"strategy {cls.name!r} is registered twice: by {found.origins[cls.name]} and by {origin}")
        found.strategies[cls.name] = cls
        found.origins[cls.name] = origin

    pm.hook.register_strategies(register=register_strategy)
    return found
