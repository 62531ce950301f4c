"""Ledger frames: engine columns to polars, exact Decimal money, Parquet on disk.

Money columns are ``Decimal(38, 6)``: exact, never binary floats. ``outcome``
is a polars ``Enum``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from baccarat.dealer import OUTCOMES

MONEY = pl.Decimal(38, 6)
"""Polars type of every money column."""

OUTCOME = pl.Enum(OUTCOMES)
"""Polars type of the ``outcome`` column."""


def micros(values: np.ndarray) -> pl.Expr:
    """Return an expression turning integer micro-units into exact Decimal amounts."""
    return pl.lit(pl.Series(values, dtype=pl.Int64)).cast(MONEY) / 1_000_000


def expected_net(columns: Mapping[str, np.ndarray], bets: tuple[str, ...], expected: Mapping[str, float]) -> np.ndarray:
    """Return each round's theoretical result: the sum over bets of stake times the bet's expected value per unit.

    ``expected`` maps each bet to its exact expected value off the top
    (:func:`baccarat.odds.expected_values`); stakes are the ``stake_<bet>`` cents.
    """
    total = np.zeros(len(columns["stake"]), dtype=np.float64)
    for bet in bets:
        total += columns[f"stake_{bet}"] * (expected[bet] / 100)
    return total


def ledger_frame(label: str, columns: Mapping[str, np.ndarray], bets: tuple[str, ...],
                 expected: Mapping[str, float] | None = None) -> pl.DataFrame:
    """Return one strategy's ledger as a frame with the columns of the ``ledger`` contract.

    ``columns`` come from :func:`baccarat.engine.run_strategy` (cents and micro-units).
    ``expected`` (bet -> expected value per unit staked) gives the Float64 column
    ``expected_net``, the theoretical result of the round's bets; it is null without it.
    """
    n = len(columns["stake"])
    outcome_codes = pl.Series(columns["outcome"], dtype=pl.UInt8)
    frame = pl.DataFrame({
        "strategy": pl.Series([label], dtype=pl.String).new_from_index(0, n) if n else pl.Series([], dtype=pl.String),
        "session": pl.Series(columns["session"], dtype=pl.Int64),
        "shoe": pl.Series(columns["shoe"], dtype=pl.Int64),
        "hand": pl.Series(columns["hand"], dtype=pl.Int32),
        "round": pl.Series(columns["round"], dtype=pl.Int32),
        "outcome": outcome_codes.replace_strict(list(range(len(OUTCOMES))), list(OUTCOMES), return_dtype=OUTCOME),
    })
    money: dict[str, np.ndarray] = {
        "stake": columns["stake"] * 10_000,
        "net": columns["net"],
        "bankroll": columns["bankroll"],
    }
    for bet in bets:
        money[f"stake_{bet}"] = columns[f"stake_{bet}"] * 10_000
        money[f"net_{bet}"] = columns[f"net_{bet}"]
    frame = frame.with_columns(micros(values).alias(name) for name, values in money.items())
    frame = frame.with_columns(
        pl.Series("capped", columns["capped"], dtype=pl.Int32),
        pl.Series("expected_net", expected_net(columns, bets, expected) if expected is not None else [None] * n,
                  dtype=pl.Float64),
    )
    ordered = ["strategy", "session", "shoe", "hand", "round", "outcome", "stake", "net", "expected_net", "bankroll", "capped"]
    for bet in bets:
        ordered += [f"stake_{bet}", f"net_{bet}"]
    return frame.select(ordered)
