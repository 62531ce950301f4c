"""Backtest betting strategies at Punto Banco baccarat on an exact dealer.

One sub-package per layer, from the ground up (``docs/architecture.md`` is the map):
``table`` (cards, rules, the dealer, bets, roads), ``shoes`` (seeded and recorded shoes, the round table),
``odds`` (exact odds, counting, settlement), ``plugin`` (the plugin API), ``players`` (where a plugin's
strategy code runs: player processes that see only what has been dealt), ``engine`` (the reference and the
compiled path), ``exact`` (exact session analysis), ``results`` (the ledger, statistics, comparisons, charts,
the report), ``experiment`` (experiment files), ``execution`` (running an experiment), ``commands`` (one module
per subcommand), and ``files`` (input and output files) on the ground.

The ground's modules: ``errors`` (one-sentence errors), ``money`` (units and conversions), ``streams`` (every
random stream), ``interrupts`` (clean stops on signals), ``compiling`` (when a run is worth compiling).
The interfaces: ``api`` (``baccarat.run``, ``baccarat.load``), ``cli`` (the ``baccarat`` command) and
``__main__`` (``python -m baccarat``). Deprecated aliases of the 0.1 modules, removed in 0.4: ``strategy``,
``kernels``, ``bet_registry``, ``cards``, ``rules``, ``exact_forms``, ``roads``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from baccarat.api import Result, load, run
    from baccarat.plugin.hookspecs import hookimpl

__version__ = "0.3.0"

__all__ = ["__version__", "hookimpl", "run", "load", "Result"]

_HOMES = {"run": "baccarat.api", "load": "baccarat.api", "Result": "baccarat.api", "hookimpl": "baccarat.plugin.hookspecs"}


def __getattr__(name: str):
    """Give ``baccarat.run``, ``load``, ``Result`` and ``hookimpl`` when first used, so that ``import baccarat`` stays light.

    ``baccarat --help`` imports this package: importing the plugin API or polars here would slow every command's start.
    """
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'baccarat' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)
