"""The columnar table of dealt rounds that every strategy walks.

Deal first, bet afterwards: shoes become a :class:`RoundTable` of numpy
columns (one row per round), then strategies read it. Card columns hold card
codes (0 where a hand has no third card); outcome-only shoes have no cards
(``has_cards`` is false and card-derived columns are meaningless there).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from functools import cache

import numpy as np

from baccarat.table.cards import SUIT_SHIFT
from baccarat.table.dealer import OUTCOMES, Round

OUTCOME_CODE: dict[str, int] = {name: code for code, name in enumerate(OUTCOMES)}
"""Outcome name -> code (banker 0, player 1, tie 2)."""


@dataclasses.dataclass
class RoundTable:
    """Rounds as numpy columns, in dealing order (shoe by shoe, hand by hand)."""

    shoe: np.ndarray  # int64, shoe id from 1
    hand: np.ndarray  # int32, round number in the shoe from 1
    outcome: np.ndarray  # int8, OUTCOME_CODE
    player_cards: np.ndarray  # int8 (n, 3), 0 = no card
    banker_cards: np.ndarray  # int8 (n, 3), 0 = no card
    player_total: np.ndarray  # int8
    banker_total: np.ndarray  # int8
    natural: np.ndarray  # bool
    player_pair: np.ndarray  # bool
    banker_pair: np.ndarray  # bool
    has_cards: bool = True
    turned: np.ndarray | None = None
    """int8: the card the dealer turned to start the burn of this row's shoe (players see it); 0 when the
    shoe had no burn or its burn is unknown (recorded shoes). Zeros when not given."""

    def __post_init__(self) -> None:
        if self.turned is None:
            self.turned = np.zeros(len(self.outcome), dtype=np.int8)

    def __setattr__(self, name: str, value: object) -> None:
        """Set a column, made read-only: the rounds are dealt once, and nothing (no strategy) may rewrite them."""
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        super().__setattr__(name, value)

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickle (in a worker process) as read-only as the table was made."""
        for name, value in state.items():
            setattr(self, name, value)

    def __len__(self) -> int:
        return len(self.outcome)

    def has_suits(self) -> bool:
        """Tell whether every card of the table has its suit (false for outcome-only shoes and cards recorded by rank)."""
        if not self.has_cards:
            return False
        return all(bool(((cards == 0) | (cards >= SUIT_SHIFT)).all()) for cards in (self.player_cards, self.banker_cards))

    @classmethod
    def from_rounds(cls, shoes: Iterable[tuple[int, Sequence[Round]]]) -> RoundTable:
        """Build the table from ``(shoe_id, rounds)`` pairs played by the reference dealer."""
        shoe_ids: list[int] = []
        hands: list[int] = []
        played: list[Round] = []
        for shoe_id, rounds in shoes:
            for hand, rnd in enumerate(rounds, start=1):
                shoe_ids.append(shoe_id)
                hands.append(hand)
                played.append(rnd)
        n = len(played)
        player_cards = np.zeros((n, 3), dtype=np.int8)
        banker_cards = np.zeros((n, 3), dtype=np.int8)
        for i, rnd in enumerate(played):
            player_cards[i, : len(rnd.player)] = rnd.player
            banker_cards[i, : len(rnd.banker)] = rnd.banker
        return cls(
            shoe=np.asarray(shoe_ids, dtype=np.int64),
            hand=np.asarray(hands, dtype=np.int32),
            outcome=np.asarray([OUTCOME_CODE[r.outcome] for r in played], dtype=np.int8),
            player_cards=player_cards,
            banker_cards=banker_cards,
            player_total=np.asarray([r.player_total for r in played], dtype=np.int8),
            banker_total=np.asarray([r.banker_total for r in played], dtype=np.int8),
            natural=np.asarray([r.natural for r in played], dtype=bool),
            player_pair=np.asarray([r.player_pair for r in played], dtype=bool),
            banker_pair=np.asarray([r.banker_pair for r in played], dtype=bool),
        )

    @classmethod
    def from_outcomes(cls, shoes: Iterable[tuple[int, Sequence[int]]]) -> RoundTable:
        """Build an outcome-only table from ``(shoe_id, outcome codes)`` pairs."""
        shoe_ids: list[int] = []
        hands: list[int] = []
        outcomes: list[int] = []
        for shoe_id, codes in shoes:
            shoe_ids.extend([shoe_id] * len(codes))
            hands.extend(range(1, len(codes) + 1))
            outcomes.extend(codes)
        n = len(outcomes)
        zeros = np.zeros(n, dtype=np.int8)
        false = np.zeros(n, dtype=bool)
        return cls(
            shoe=np.asarray(shoe_ids, dtype=np.int64),
            hand=np.asarray(hands, dtype=np.int32),
            outcome=np.asarray(outcomes, dtype=np.int8),
            player_cards=np.zeros((n, 3), dtype=np.int8),
            banker_cards=np.zeros((n, 3), dtype=np.int8),
            player_total=zeros,
            banker_total=zeros.copy(),
            natural=false,
            player_pair=false.copy(),
            banker_pair=false.copy(),
            has_cards=False,
        )

    @classmethod
    def concat(cls, tables: Sequence[RoundTable]) -> RoundTable:
        """Join tables end to end (all must agree on ``has_cards``)."""
        if not tables:
            return cls.from_outcomes([])
        fields = [f.name for f in dataclasses.fields(cls) if f.name != "has_cards"]
        joined = {name: np.concatenate([getattr(t, name) for t in tables]) for name in fields}
        return cls(**joined, has_cards=all(t.has_cards for t in tables))

    def slice(self, start: int, stop: int) -> RoundTable:
        """Return rows ``start:stop`` as a table sharing memory with this one."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return RoundTable(**{k: (v[start:stop] if isinstance(v, np.ndarray) else v) for k, v in fields.items()})

    def take(self, rows: np.ndarray) -> RoundTable:
        """Return the rows ``rows`` (an array of row numbers, in the order given) as a new table."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return RoundTable(**{k: (v[rows] if isinstance(v, np.ndarray) else v) for k, v in fields.items()})

    def shoe_bounds(self) -> list[tuple[int, int]]:
        """Return ``(start, stop)`` row ranges of each shoe, in order."""
        if len(self) == 0:
            return []
        change = np.flatnonzero(np.diff(self.shoe)) + 1
        starts = np.concatenate([[0], change])
        stops = np.concatenate([change, [len(self)]])
        return list(zip(starts.tolist(), stops.tolist(), strict=True))

    def to_arrow(self, compiled_kernel: bool = False):  # -> pyarrow.Table
        """Return the rounds as an Arrow table with the columns of the ``rounds`` contract.

        ``compiled_kernel``: the card lists are built by a compiled kernel (:func:`baccarat.shoes.columnar.card_lists`).
        """
        import pyarrow as pa  # here, not at the top: pyarrow and polars add about 0.4 s to loading any experiment

        from baccarat.shoes import columnar

        n = len(self)
        columns = {"shoe": pa.array(self.shoe), "hand": pa.array(self.hand), "outcome": columnar.enum_array(self.outcome, OUTCOMES)}
        if self.has_cards:
            columns.update(
                player_cards=columnar.card_lists(self.player_cards, compiled_kernel),
                banker_cards=columnar.card_lists(self.banker_cards, compiled_kernel),
                player_total=pa.array(self.player_total),
                banker_total=pa.array(self.banker_total),
                natural=pa.array(self.natural),
                player_pair=pa.array(self.player_pair),
                banker_pair=pa.array(self.banker_pair),
            )
        schema = rounds_schema()
        return columnar.table({name: columns.get(name, pa.nulls(n, schema.field(name).type)) for name in schema.names}, schema)

    def to_frame(self):  # -> polars.DataFrame
        """Return the rounds as a polars frame with the columns of the ``rounds`` contract."""
        import polars as pl

        return pl.from_arrow(self.to_arrow())


@cache
def rounds_schema():  # -> pyarrow.Schema
    """Return the Arrow schema of the ``rounds`` table (as polars writes and reads it)."""
    import polars as pl

    from baccarat.shoes.columnar import arrow_schema

    cards = pl.List(pl.String)
    return arrow_schema(
        {
            "shoe": pl.Int64,
            "hand": pl.Int32,
            "player_cards": cards,
            "banker_cards": cards,
            "player_total": pl.Int8,
            "banker_total": pl.Int8,
            "outcome": pl.Enum(OUTCOMES),
            "natural": pl.Boolean,
            "player_pair": pl.Boolean,
            "banker_pair": pl.Boolean,
        }
    )
