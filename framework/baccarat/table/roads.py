"""Scoreboard roads of one shoe: bead plate, big road and the three derived roads.

Pure functions of a shoe's outcome sequence (``"banker"``, ``"player"``,
``"tie"``, or the letters ``B P T``), computed incrementally by
:class:`Roads`, so a strategy can read them every round at little cost.

Conventions, as on casino scoreboards (6 rows, columns added to the right):

- **Bead plate**: one cell per round, ties included, filled top to bottom,
  then the next column to the right.
- **Big road**: Banker and Player wins only. A *logical column* is a streak
  of one side; a change of winner starts the next logical column at row 0 of
  the drawn column right of the previous streak's first cell. A streak goes
  down; when it reaches the bottom row, or the cell below is already
  occupied, it turns right and goes on in that row (a *dragon tail*). A tie
  is marked on the cell of the last decided round; ties before the first
  decision are marked on the first cell. (If the top cell where a streak
  should start is taken by an earlier tail, the streak starts in the first
  free top cell further right.)
- **Derived roads** (big eye boy, small road, cockroach pig, with offset
  ``k`` = 1, 2, 3) read the big road's *logical* columns (streak lengths),
  not its drawn cells: a dragon of 8 is a column of length 8. Every big-road
  entry at logical column ``c``, depth ``r`` (both from 0) adds one mark:

  * ``r == 0`` (a new column): red when columns ``c-1`` and ``c-1-k`` have
    equal lengths ("even"), blue otherwise;
  * ``r >= 1``: look at column ``c-k``. Red when it has an entry at depth
    ``r`` ("match"), blue when its last entry is at depth ``r-1`` (no match),
    red when it ends before depth ``r-1`` (both the cell at ``r`` and the
    one above are empty: "straight drop").

  A mark exists only when the columns it compares exist, so the roads start
  at the big-road entry in column 2 row 2 (or, if there is none, column 3
  row 1) for big eye boy, column 3 row 2 / column 4 row 1 for small road,
  column 4 row 2 / column 5 row 1 for cockroach pig (counted from 1).
  Each derived road is drawn like the big road: a colour streak goes down a
  column, turns right at the bottom, a change of colour starts a new column.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

ROWS = 6
"""Rows of every road on a standard scoreboard."""

BANKER, PLAYER, TIE = "banker", "player", "tie"
RED, BLUE = "red", "blue"

DERIVED_ROADS: tuple[tuple[str, int], ...] = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))
"""Name and column offset of each derived road."""

_OUTCOME_NAMES = {"banker": BANKER, "b": BANKER, "player": PLAYER, "p": PLAYER, "tie": TIE, "t": TIE}


def outcome_name(outcome: str | int) -> str:
    """Return ``'banker'``, ``'player'`` or ``'tie'`` for an outcome name, letter or code (0, 1, 2)."""
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        if 0 <= outcome <= 2:
            return (BANKER, PLAYER, TIE)[outcome]
    elif isinstance(outcome, str):
        name = _OUTCOME_NAMES.get(outcome.lower())
        if name is not None:
            return name
    raise ValueError(f"{outcome!r} is not an outcome (banker, player, tie or B, P, T)")


def parse_outcomes(text: str) -> list[str]:
    """Return outcome names from a string of ``B P T`` letters (spaces, commas and dashes ignored)."""
    return [outcome_name(ch) for ch in text if ch not in " ,-\t\n"]


@dataclasses.dataclass(frozen=True, slots=True)
class BeadCell:
    """One round on the bead plate."""

    col: int
    row: int
    outcome: str
    hand: int
    """Round number in the shoe, from 1."""


@dataclasses.dataclass(frozen=True, slots=True)
class Cell:
    """One mark on the big road or a derived road.

    ``col``/``row`` is where it is drawn (dragon tails included);
    ``column``/``depth`` is its logical place: which streak (from 0) and
    where in that streak (from 0).
    """

    col: int
    row: int
    column: int
    depth: int
    mark: str
    """``'banker'``/``'player'`` on the big road, ``'red'``/``'blue'`` on a derived road."""
    hand: int
    """Round number in the shoe (from 1) of the decided round that made the mark."""
    ties: int = 0
    """Ties marked on this cell (big road only)."""


def derived_colour(lengths: Sequence[int], column: int, depth: int, offset: int) -> str | None:
    """Return the colour a derived road records for the big-road entry at logical ``column``, ``depth``.

    ``lengths`` holds the lengths of the big road's logical columns (at least
    those before ``column``); ``offset`` is 1 (big eye boy), 2 (small road) or
    3 (cockroach pig). Returns None when the columns to compare do not exist
    yet (the road has not started).
    """
    if depth == 0:
        if column - 1 - offset < 0:
            return None
        return RED if lengths[column - 1] == lengths[column - 1 - offset] else BLUE
    if column - offset < 0:
        return None
    return BLUE if lengths[column - offset] == depth else RED


class _Layout:
    """Places marks on a grid of ``rows`` rows: a streak goes down, turns right at the bottom or when blocked."""

    __slots__ = ("rows", "occupied", "lengths", "starts", "col", "row", "turned", "last")

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.occupied: set[tuple[int, int]] = set()
        self.lengths: list[int] = []
        self.starts: list[int] = []
        self.col = -1
        self.row = 0
        self.turned = False
        self.last: str | None = None

    def place(self, mark: str) -> tuple[int, int, int, int]:
        """Place ``mark``; return its drawn ``(col, row)`` and logical ``(column, depth)``."""
        occupied = self.occupied
        if mark == self.last:
            col, row = self.col, self.row
            if not self.turned and row + 1 < self.rows and (col, row + 1) not in occupied:
                row += 1
            else:
                self.turned = True
                col += 1
                while (col, row) in occupied:
                    col += 1
            self.lengths[-1] += 1
        else:
            col = self.starts[-1] + 1 if self.starts else 0
            while (col, 0) in occupied:
                col += 1
            row = 0
            self.turned = False
            self.starts.append(col)
            self.lengths.append(1)
            self.last = mark
        occupied.add((col, row))
        self.col, self.row = col, row
        return col, row, len(self.lengths) - 1, self.lengths[-1] - 1


class Roads:
    """Every road of one shoe, built incrementally from its outcomes.

    Build one with :func:`roads`. The properties return tuples: reading them
    never changes the roads (only the owner adds rounds, through ``_push``).
    """

    def __init__(self, rows: int = ROWS) -> None:
        if rows < 1:
            raise ValueError("a road needs at least one row")
        self.rows = rows
        self._outcomes: list[str] = []
        self._bead: list[BeadCell] = []
        self._big = _Layout(rows)
        self._big_cells: list[Cell] = []
        self._leading_ties = 0
        self._derived_layouts = {name: _Layout(rows) for name, _ in DERIVED_ROADS}
        self._derived_cells: dict[str, list[Cell]] = {name: [] for name, _ in DERIVED_ROADS}

    def _push(self, outcome: str) -> None:
        """Add one round (``outcome`` already a name)."""
        hand = len(self._outcomes) + 1
        self._outcomes.append(outcome)
        n = hand - 1
        self._bead.append(BeadCell(n // self.rows, n % self.rows, outcome, hand))
        cells = self._big_cells
        if outcome == TIE:
            if cells:
                cells[-1] = dataclasses.replace(cells[-1], ties=cells[-1].ties + 1)
            else:
                self._leading_ties += 1
            return
        col, row, column, depth = self._big.place(outcome)
        ties = self._leading_ties if not cells else 0
        cells.append(Cell(col, row, column, depth, outcome, hand, ties))
        lengths = self._big.lengths
        for name, offset in DERIVED_ROADS:
            colour = derived_colour(lengths, column, depth, offset)
            if colour is not None:
                dcol, drow, dcolumn, ddepth = self._derived_layouts[name].place(colour)
                self._derived_cells[name].append(Cell(dcol, drow, dcolumn, ddepth, colour, hand))

    # Reading ----------------------------------------------------------------
    def __len__(self) -> int:
        """Number of rounds (ties included) the roads hold."""
        return len(self._outcomes)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Outcomes of the shoe so far, ties included."""
        return tuple(self._outcomes)

    @property
    def bead_plate(self) -> tuple[BeadCell, ...]:
        """One cell per round, ties included."""
        return tuple(self._bead)

    @property
    def big_road(self) -> tuple[Cell, ...]:
        """Big-road cells of the decided rounds, in order, with the ties marked on them."""
        return tuple(self._big_cells)

    @property
    def leading_ties(self) -> int:
        """Ties before the first decided round (marked on the first big-road cell once there is one)."""
        return self._leading_ties

    @property
    def columns(self) -> tuple[int, ...]:
        """Lengths of the big road's logical columns (streaks), oldest first."""
        return tuple(self._big.lengths)

    @property
    def last_side(self) -> str | None:
        """Side of the current big-road streak, or None before the first decision."""
        return self._big.last

    @property
    def big_eye_boy(self) -> tuple[Cell, ...]:
        """Big eye boy marks (offset 1), in order."""
        return tuple(self._derived_cells["big_eye_boy"])

    @property
    def small_road(self) -> tuple[Cell, ...]:
        """Small road marks (offset 2), in order."""
        return tuple(self._derived_cells["small_road"])

    @property
    def cockroach_pig(self) -> tuple[Cell, ...]:
        """Cockroach pig marks (offset 3), in order."""
        return tuple(self._derived_cells["cockroach_pig"])

    def derived(self, name: str) -> tuple[Cell, ...]:
        """Marks of the derived road ``name`` (``big_eye_boy``, ``small_road``, ``cockroach_pig``)."""
        try:
            return tuple(self._derived_cells[name])
        except KeyError:
            raise ValueError(f"unknown road {name!r}; derived roads are {', '.join(n for n, _ in DERIVED_ROADS)}") from None

    def last_mark(self, road: str) -> str | None:
        """Colour of the last mark on derived road ``road``, or None while it is empty."""
        cells = self._derived_cells.get(road)
        if cells is None:
            raise ValueError(f"unknown road {road!r}; derived roads are {', '.join(n for n, _ in DERIVED_ROADS)}")
        return cells[-1].mark if cells else None

    def next_colour(self, road: str, side: str) -> str | None:
        """Colour road ``road`` would record if ``side`` won the next decided round (None: no mark yet).

        The two sides always give opposite colours once a road has started:
        this is the "ask Banker / ask Player" of a scoreboard.
        """
        offset = dict(DERIVED_ROADS).get(road)
        if offset is None:
            raise ValueError(f"unknown road {road!r}; derived roads are {', '.join(n for n, _ in DERIVED_ROADS)}")
        side = outcome_name(side)
        if side == TIE:
            raise ValueError("a tie adds nothing to the derived roads")
        lengths = self._big.lengths
        if not lengths:
            return None
        if side == self._big.last:
            return derived_colour(lengths, len(lengths) - 1, lengths[-1], offset)
        return derived_colour(lengths, len(lengths), 0, offset)

    def next_colours(self, side: str) -> dict[str, str | None]:
        """Colour each derived road would record if ``side`` won the next decided round."""
        return {name: self.next_colour(name, side) for name, _ in DERIVED_ROADS}

    def to_dict(self) -> dict[str, object]:
        """Return every road as plain data (lists of dicts), e.g. for JSON."""
        return {
            "outcomes": list(self._outcomes),
            "bead_plate": [dataclasses.asdict(c) for c in self._bead],
            "big_road": [dataclasses.asdict(c) for c in self._big_cells],
            "leading_ties": self._leading_ties,
            **{name: [dataclasses.asdict(c) for c in cells] for name, cells in self._derived_cells.items()},
        }


def roads(outcomes: Iterable[str | int], rows: int = ROWS) -> Roads:
    """Return every road of one shoe from its outcomes (names, letters or codes), oldest first."""
    road = Roads(rows)
    for outcome in outcomes:
        road._push(outcome_name(outcome))
    return road


def text_grid(cells: Iterable[BeadCell | Cell], symbols: dict[str, str], rows: int = ROWS) -> str:
    """Return cells drawn as text: one line per row, one character per column, ``.`` for empty."""
    grid: dict[tuple[int, int], str] = {}
    width = 0
    for cell in cells:
        mark = cell.outcome if isinstance(cell, BeadCell) else cell.mark
        grid[(cell.col, cell.row)] = symbols[mark]
        width = max(width, cell.col + 1)
    return "\n".join("".join(grid.get((c, r), ".") for c in range(width)) for r in range(rows))
