"""What a run's numbers mean, in plain words: the first thing the report and ``baccarat run`` say.

A betting system (a progression, a selector, a stop rule) changes how much
is wagered and how the results spread, never the house edge of the bets it
places; only the choice of bet, or betting on what was seen (a counter),
can. The conclusion says which of the two the run shows, from the
comparison's verdicts (:mod:`baccarat.results.comparisons.verdict`).
"""

from __future__ import annotations

import polars as pl

from baccarat.results.comparisons.verdict import EXACT, verdict_direction

NO_CHANGE = "No strategy here changes the house edge: they differ in how much they wager and how they spread the results."
"""The conclusion of a run whose every strategy has the baseline's house edge (or none differs beyond chance)."""


def _edge(value: float) -> str:
    return f"{100 * value:.3f}%"


def conclusion(summary: pl.DataFrame, comparison: pl.DataFrame) -> str:
    """Return the run's conclusion in one or two plain sentences (see the module docstring).

    With one strategy: its expected loss per unit wagered (the house edge of
    its bets), which no way of staking changes. With several: :data:`NO_CHANGE`
    when no verdict is ``better`` or ``worse``; else which strategies change
    the edge, against the baseline, by how much and on what basis.
    """
    if not comparison.height:
        if not summary.height:
            return ""
        row = summary.row(0, named=True)
        edge = row.get("expected_edge")
        if edge is None:
            return f"{row['strategy']}: its expected edge is not known (it read the cards without asking for exact odds)."
        return (
            f"{row['strategy']} is expected to lose {_edge(edge)} of what it wagers (the house edge of its bets); "
            "no way of staking changes that, only how much is wagered and how the results spread."
        )
    changed = []
    for row in comparison.iter_rows(named=True):
        direction = verdict_direction(row["verdict"])
        if not direction:
            continue
        exact = row["verdict_basis"] == EXACT
        difference = row["expected_edge_diff"] if row["verdict_basis"] != "realised" else row["edge_diff"]
        how = "exactly" if exact else "beyond chance, estimated from this sample"
        which = "expected" if row["verdict_basis"] != "realised" else "realised"
        changed.append(
            f"{row['strategy']} has a {'lower' if direction == 'better' else 'higher'} {which} house edge than "
            f"{row['baseline']}, by {_edge(abs(difference))} of what it wagers ({how})"
        )
    if not changed:
        return NO_CHANGE
    rest = comparison.height - len(changed)
    tail = " The others differ in how much they wager and how they spread the results." if rest else ""
    return "; ".join(changed) + "." + tail
