"""What each shoe shows a player, as integer counts: outcomes, pairs, streaks, chops, derived-road colours.

Every statistic ``baccarat patterns`` tests is a ratio of sums of these
counts over the shoes, so a sample of shoes is summed once and a resample of
fair shoes is a sum of rows. Streaks are read as the big road reads them:
ties are left out, a streak is a logical column of the big road
(:mod:`baccarat.table.roads`), and the derived roads' colours follow
:func:`baccarat.table.roads.derived_colour`, column by column.
"""

from __future__ import annotations

import numpy as np

from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.roads import DERIVED_ROADS

MAX_STREAK = 8
"""Streaks of this length and longer share the last bin of the streak-length histogram; ``k`` of "after a streak of k" runs to it."""

COUNTS: tuple[str, ...] = (
    "shoes",
    "rounds",
    "banker",
    "player",
    "tie",
    "player_pair",
    "banker_pair",
    "decided",
    "runs",
    "chops",
    "chances_to_chop",
    *(f"streaks_{k}" for k in range(1, MAX_STREAK + 1)),
    *(f"goes_on_{k}" for k in range(1, MAX_STREAK + 1)),
    *(f"ends_{k}" for k in range(1, MAX_STREAK + 1)),
    *(f"{name}_red" for name, _ in DERIVED_ROADS),
    *(f"{name}_marks" for name, _ in DERIVED_ROADS),
)
"""The columns of :func:`shoe_counts`, one count per shoe each.

``decided``: rounds won by Banker or Player; ``runs``: streaks (big-road
columns); ``chops``: decided rounds whose winner differs from the previous
decided round's, of ``chances_to_chop`` (decided rounds after the first);
``streaks_b``: streaks of length b (the last, of ``MAX_STREAK`` or more);
``goes_on_k`` / ``ends_k``: times a streak that had reached exactly k went
on / ended with the next decided round (a shoe's last streak never ends:
nothing follows it); ``<road>_red`` of ``<road>_marks``: red marks of each
derived road.
"""

COLUMN: dict[str, int] = {name: i for i, name in enumerate(COUNTS)}
"""Index of each count in a row of :func:`shoe_counts`."""


def shoe_counts(table: RoundTable) -> np.ndarray:
    """Return one row of :data:`COUNTS` per shoe of ``table`` (int64, shoes in the table's order).

    The table lists its rounds shoe by shoe, hand by hand. Pair counts are 0
    for shoes recorded without cards.
    """
    pairs = (table.player_pair, table.banker_pair) if table.has_cards else None
    return counts_of(table.shoe, table.outcome, pairs)


def counts_of(shoe_ids: np.ndarray, outcomes: np.ndarray, pairs: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Return one row of :data:`COUNTS` per shoe from the rounds' shoe ids and outcome codes (shoe by shoe, hand by hand).

    ``pairs``: each round's player pair and banker pair flags, or None when
    the shoes have no cards (pair counts 0).
    """
    n = len(outcomes)
    out = np.zeros((0, len(COUNTS)), dtype=np.int64)
    if n == 0:
        return out
    shoe_ids = np.asarray(shoe_ids)
    starts = np.r_[True, shoe_ids[1:] != shoe_ids[:-1]]
    shoe = np.cumsum(starts) - 1
    shoes = int(shoe[-1]) + 1
    out = np.zeros((shoes, len(COUNTS)), dtype=np.int64)

    def put(name: str, rows: np.ndarray, weights: np.ndarray | None = None) -> None:
        out[:, COLUMN[name]] = np.bincount(rows, weights=weights, minlength=shoes).astype(np.int64)

    outcome = np.asarray(outcomes)
    out[:, COLUMN["shoes"]] = 1
    put("rounds", shoe)
    for name in ("banker", "player", "tie"):
        put(name, shoe, (outcome == OUTCOME_CODE[name]).astype(np.float64))
    if pairs is not None:
        put("player_pair", shoe, np.asarray(pairs[0], dtype=np.float64))
        put("banker_pair", shoe, np.asarray(pairs[1], dtype=np.float64))
    decided = outcome != OUTCOME_CODE["tie"]
    d_shoe, d_out = shoe[decided], outcome[decided]
    if len(d_shoe) == 0:
        return out
    put("decided", d_shoe)
    new_column = np.r_[True, (d_shoe[1:] != d_shoe[:-1]) | (d_out[1:] != d_out[:-1])]
    column_of = np.cumsum(new_column) - 1
    lengths = np.bincount(column_of)
    col_shoe = d_shoe[new_column]
    put("runs", col_shoe)
    first_of_shoe = np.r_[True, col_shoe[1:] != col_shoe[:-1]]
    last_of_shoe = np.r_[col_shoe[1:] != col_shoe[:-1], True]
    has_decided = out[:, COLUMN["decided"]] > 0
    out[:, COLUMN["chops"]] = np.where(has_decided, out[:, COLUMN["runs"]] - 1, 0)
    out[:, COLUMN["chances_to_chop"]] = np.where(has_decided, out[:, COLUMN["decided"]] - 1, 0)
    binned = np.minimum(lengths, MAX_STREAK)
    for k in range(1, MAX_STREAK + 1):
        put(f"streaks_{k}", col_shoe, (binned == k).astype(np.float64))
        put(f"goes_on_{k}", col_shoe, (lengths > k).astype(np.float64))
        put(f"ends_{k}", col_shoe, ((lengths == k) & ~last_of_shoe).astype(np.float64))
    # The logical column of each streak within its shoe, from 0.
    first_index = np.flatnonzero(first_of_shoe)
    index_in_shoe = np.arange(len(lengths)) - np.repeat(first_index, np.diff(np.r_[first_index, len(lengths)]))
    for name, k in DERIVED_ROADS:
        red = np.zeros(len(lengths), dtype=np.float64)
        marks = np.zeros(len(lengths), dtype=np.float64)
        # The column's first entry (depth 0): red when columns c-1 and c-1-k are equally long.
        top = index_in_shoe >= k + 1
        at = np.flatnonzero(top)
        marks[at] += 1
        red[at] += lengths[at - 1] == lengths[at - 1 - k]
        # Its entries at depth 1..L-1: blue only at the depth where column c-k ended (a miss), red elsewhere.
        below = index_in_shoe >= k
        at = np.flatnonzero(below)
        marks[at] += lengths[at] - 1
        red[at] += lengths[at] - 1 - (lengths[at - k] <= lengths[at] - 1)
        put(f"{name}_red", col_shoe, red)
        put(f"{name}_marks", col_shoe, marks)
    return out
