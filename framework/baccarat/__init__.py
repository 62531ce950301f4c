"""Backtest betting strategies at Punto Banco baccarat on an exact dealer."""

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
