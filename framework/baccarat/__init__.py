"""Backtest betting strategies at Punto Banco baccarat on an exact dealer."""

from __future__ import annotations

from baccarat.plugin.hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = ["__version__", "hookimpl", "run", "load", "Result"]

_API = ("run", "load", "Result")


def __getattr__(name: str):
    """Give ``baccarat.run``, ``baccarat.load`` and ``baccarat.Result`` without importing polars at ``import baccarat``."""
    if name in _API:
        from baccarat import api

        return getattr(api, name)
    raise AttributeError(f"module 'baccarat' has no attribute {name!r}")
