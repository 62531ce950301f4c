"""The plugin API: everything a plugin author imports, in one place.

A plugin module writes ``from baccarat.plugin import Strategy, Progression,
positive_amount, hookimpl`` and registers its classes through the hooks of
:mod:`baccarat.plugin.hookspecs` (``docs/plugins.md``). Money in this API has
one unit: exact ``Decimal`` currency units (:mod:`baccarat.money`).

What it holds, one job a module:

- ``hookspecs``: the hooks a plugin implements, and ``hookimpl``;
- ``strategy``: the :class:`Strategy` base class and what ``bets`` returns;
- ``view``: what a strategy sees, :class:`SessionInfo` and :class:`TableView`;
- ``pieces``: the pieces a composed strategy is made of, :class:`Selector`,
  :class:`Progression`, :class:`StopRule`;
- ``params``: the parameter readers (:func:`positive_amount`, :func:`positive_int`);
- ``compose``: how a progression, a selector and stop rules make one strategy;
- ``exact_forms``: the exact forms of pieces, for ``baccarat exact``;
- ``kernels``: the compiled twins of pieces (imported from there, since it
  loads numba: ``from baccarat.plugin.kernels import CompiledProgression``);
- ``registry`` and ``manager``: what the plugins registered, and how they are found and loaded.

The names below are imported when first used, so that ``import baccarat``
stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "hookimpl": "baccarat.plugin.hookspecs",
    "Strategy": "baccarat.plugin.strategy",
    "Bets": "baccarat.plugin.strategy",
    "FIXED_SIDES": "baccarat.plugin.strategy",
    "OPPOSITE": "baccarat.plugin.strategy",
    "SessionInfo": "baccarat.plugin.view",
    "TableView": "baccarat.plugin.view",
    "Selector": "baccarat.plugin.pieces",
    "FixedSideSelector": "baccarat.plugin.pieces",
    "Progression": "baccarat.plugin.pieces",
    "StopRule": "baccarat.plugin.pieces",
    "positive_amount": "baccarat.plugin.params",
    "positive_int": "baccarat.plugin.params",
    "MAX_AMOUNT": "baccarat.plugin.params",
    "MAX_COUNT": "baccarat.plugin.params",
    "ExactProgression": "baccarat.plugin.exact_forms",
    "ExactSelector": "baccarat.plugin.exact_forms",
    "ExactStopRule": "baccarat.plugin.exact_forms",
    "StopLimits": "baccarat.plugin.exact_forms",
    "BetDefinition": "baccarat.table.bet_registry",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Import a name of the plugin API from the module that defines it, when first used."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'baccarat.plugin' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The plugin API's names."""
    return sorted(set(globals()) | set(__all__))
