"""Backtest betting strategies at Punto Banco baccarat on an exact dealer."""

from __future__ import annotations

from baccarat.hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = ["__version__", "hookimpl"]
