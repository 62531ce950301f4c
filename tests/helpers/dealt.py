"""The cards of dealt rounds in dealing order: what a recorded shoe file lists (for tests that write one)."""

from __future__ import annotations

from collections.abc import Sequence

from baccarat.table.dealer import Round


def dealt_cards(rounds: Sequence[Round]) -> list[int]:
    """Return the cards of ``rounds`` in dealing order (P, B, P, B, then thirds)."""
    out: list[int] = []
    for rnd in rounds:
        out.extend((rnd.player[0], rnd.banker[0], rnd.player[1], rnd.banker[1]))
        out.extend(rnd.player[2:])
        out.extend(rnd.banker[2:])
    return out
