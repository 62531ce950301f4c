"""The fast path of the built-in strategies (compiled, many sessions at once), bit-identical to the reference engine."""

from __future__ import annotations

from typing import Any


def play_fast(run: Any, table: Any, multipliers: Any, rules: Any, config: Any, seed: int, sessions: Any) -> None:
    """Return the ledger columns of ``run`` from the fast path, or None when the fast path does not cover it."""
    return None
