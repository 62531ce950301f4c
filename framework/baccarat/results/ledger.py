"""Ledger frames: engine columns to Arrow and polars, exact Decimal money, Parquet on disk.

Money columns are ``Decimal(18, 6)``: exact, never binary floats, the
narrowest decimal that holds every amount a session can reach
(:data:`baccarat.engine.reference.MAX_MICROS` micro-units in 64 bits, stored
in Parquet as INT64); statistics that add them up are ``Decimal(38, 6)``.
``outcome`` is a polars ``Enum``. The Arrow table (:func:`ledger_table`) is the one
builder; the polars frame and the Parquet parts of a run come from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np
import polars as pl
import pyarrow as pa

from baccarat.money import MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.shoes import columnar
from baccarat.shoes.columnar import arrow_schema
from baccarat.table.bet_registry import net_column, stake_column
from baccarat.table.dealer import OUTCOMES

MONEY = pl.Decimal(38, 6)
"""Polars type of money in statistics (sums of ledger amounts)."""

LEDGER_DIGITS = 18
LEDGER_MONEY = pl.Decimal(LEDGER_DIGITS, 6)
"""Polars type of the ledger's money columns."""

OUTCOME = pl.Enum(OUTCOMES)
"""Polars type of the ``outcome`` column."""


def micros(values: np.ndarray) -> pl.Expr:
    """Return an expression turning integer micro-units into exact Decimal amounts."""
    return pl.lit(pl.Series(values, dtype=pl.Int64)).cast(MONEY) / MICROS_PER_UNIT


def ledger_columns(bets: tuple[str, ...]) -> dict[str, pl.DataType]:
    """Return the ledger's columns and polars types, in order, for a table offering ``bets``."""
    columns: dict[str, pl.DataType] = {
        "strategy": pl.String(),
        "session": pl.Int64(),
        "shoe": pl.Int64(),
        "hand": pl.Int32(),
        "round": pl.Int32(),
        "outcome": OUTCOME,
        "stake": LEDGER_MONEY,
        "net": LEDGER_MONEY,
        "expected_net": pl.Float64(),
        "bankroll": LEDGER_MONEY,
        "capped": pl.Int32(),
    }
    for bet in bets:
        columns[stake_column(bet)] = LEDGER_MONEY
        columns[net_column(bet)] = LEDGER_MONEY
    return columns


@cache
def ledger_schema(bets: tuple[str, ...]):  # -> pyarrow.Schema
    """Return the Arrow schema of the ledger (as polars writes and reads it, money as ``decimal64(18, 6)``).

    polars gives its decimals as ``decimal128``; the ledger's money, 18
    digits at most, is ``decimal64``, whose buffer is the engine's int64
    micro-units as they are (:func:`baccarat.shoes.columnar.decimal64_micros`).
    """

    schema = arrow_schema(ledger_columns(bets))
    money = pa.decimal64(LEDGER_DIGITS, 6)
    fields = [field.with_type(money) if pa.types.is_decimal(field.type) else field for field in schema]
    return pa.schema(fields, metadata=schema.metadata)


def expected_net(columns: Mapping[str, np.ndarray], bets: tuple[str, ...], expected: Mapping[str, float]) -> np.ndarray:
    """Return each round's theoretical result: the sum over bets of stake times the bet's expected value per unit.

    ``expected`` maps each bet to its exact expected value off the top
    (:func:`baccarat.odds.exact_odds.expected_values`); stakes are the ``stake_<bet>`` cents.

    A strategy that read the cards dealt bets on what it saw: for each bet it
    placed, the engine records in ``columns["priced"]`` (rows ``ledger row,
    bet index, cents, EV``) the exact EV the view gave it for that bet in that
    round (``columns["priced_bets"]`` names the bet indexes), which replaces the off-the-top value. A bet it placed without
    asking the view is NaN: its expected value is not known (the round's
    ``expected_net``, and every sum over it, is NaN).

    A bet never staked adds nothing and is skipped: adding ``0 * EV`` (zero, of either sign) to a sum that
    starts at +0.0 leaves it unchanged, so the values are those of summing every bet from zero.
    """
    total = None
    for bet in bets:
        stakes = columns[stake_column(bet)]
        if not stakes.any():
            continue
        if total is None:
            total = stakes * (expected[bet] / 100)
            total += 0.0  # -0.0 (no stake, a negative EV) becomes +0.0, as in a sum that starts at +0.0
        else:
            total += stakes * (expected[bet] / 100)
    if total is None:
        total = np.zeros(len(columns["stake"]), dtype=np.float64)
    priced = columns.get("priced")
    if priced is not None and len(priced):
        rows, kinds = priced[:, 0].astype(np.int64), priced[:, 1].astype(np.int64)
        off_top = np.array([expected[str(bet)] for bet in columns["priced_bets"]], dtype=np.float64)[kinds]
        np.add.at(total, rows, priced[:, 2] * (priced[:, 3] - off_top) / 100)
    return total


def ledger_table(
    label: str, columns: Mapping[str, np.ndarray], bets: tuple[str, ...], expected: Mapping[str, float] | None = None
):  # -> pyarrow.Table
    """Return one strategy's ledger as an Arrow table with the columns of the ``ledger`` contract.

    ``columns`` come from :func:`baccarat.engine.reference.run_strategy` (cents and micro-units).
    ``expected`` (bet -> expected value per unit staked) gives the Float64 column
    ``expected_net``, the theoretical result of the round's bets; it is null without it
    (``columns`` may carry it already computed, as ``expected_net``).
    """

    n = len(columns["stake"])
    data = {
        "strategy": columnar.repeated_string(label, n),
        "session": pa.array(np.asarray(columns["session"], dtype=np.int64)),
        "shoe": pa.array(np.asarray(columns["shoe"], dtype=np.int64)),
        "hand": pa.array(np.asarray(columns["hand"], dtype=np.int32)),
        "round": pa.array(np.asarray(columns["round"], dtype=np.int32)),
        "outcome": columnar.enum_array(columns["outcome"], OUTCOMES),
        "stake": columnar.decimal64_micros(columns["stake"], MICROS_PER_CENT),
        "net": columnar.decimal64_micros(columns["net"]),
        "expected_net": (
            pa.array(columns["expected_net"])
            if "expected_net" in columns
            else pa.array(expected_net(columns, bets, expected))
            if expected is not None
            else pa.nulls(n, pa.float64())
        ),
        "bankroll": columnar.decimal64_micros(columns["bankroll"]),
        "capped": pa.array(np.asarray(columns["capped"], dtype=np.int32)),
    }
    for bet in bets:
        data[stake_column(bet)] = columnar.decimal64_micros(columns[stake_column(bet)], MICROS_PER_CENT)
        data[net_column(bet)] = columnar.decimal64_micros(columns[net_column(bet)])
    return columnar.table(data, ledger_schema(bets))


READ_ERRORS: tuple[type[BaseException], ...] = (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError)
"""What reading a damaged Parquet file may raise (polars panics on some malformed files)."""


def read_error_reason(exc: BaseException) -> str:
    """Say in one line why a Parquet file could not be read."""
    if isinstance(exc, pl.exceptions.PanicException):
        return "its contents are malformed"
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def money_micros(column: pl.Series, missing: int = -1) -> np.ndarray:
    """Return a money column as integer micro-units (int64), exactly; ``missing`` where it is null."""
    array = column.cast(MONEY).to_arrow()
    array = array.combine_chunks() if hasattr(array, "combine_chunks") else array
    words = np.frombuffer(array.buffers()[1], dtype=np.int64)[2 * array.offset : 2 * (array.offset + len(array))].reshape(-1, 2)
    if not np.array_equal(words[:, 1], words[:, 0] >> 63):
        raise ValueError(f"{column.name}: an amount beyond 9.2 million million units")
    micros = words[:, 0].copy()
    if column.null_count():
        micros[column.is_null().to_numpy()] = missing
    return micros
