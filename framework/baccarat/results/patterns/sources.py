"""The shoes ``baccarat patterns`` tests: a recorded shoe file, a run folder's rounds, or seeded shoes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from baccarat.errors import InputError
from baccarat.results.ledger import read_error_reason
from baccarat.results.patterns.shoe_counts import counts_of, shoe_counts
from baccarat.shoes.recorded import read_shoes
from baccarat.shoes.rounds import OUTCOME_CODE
from baccarat.table.rules import Rules


@dataclass(frozen=True)
class Sample:
    """The shoes to test: their counts (one row per shoe), whether they have cards, and what they are, in words."""

    counts: np.ndarray
    has_cards: bool
    described: str


def recorded_sample(path: str | Path, fmt: str, rules: Rules) -> Sample:
    """The shoes of a recorded shoe file in format ``fmt`` (cards, outcomes or rounds), checked against ``rules``."""
    recorded = read_shoes(path, fmt, rules)
    for warning in recorded.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    return Sample(shoe_counts(recorded.table), recorded.table.has_cards, f"{Path(path).name} ({fmt})")


def run_sample(folder: str | Path) -> Sample:
    """The shoes of a run folder's ``rounds.parquet``."""
    frame = _read_rounds(folder, lambda rounds: rounds.select("shoe", "hand", "outcome", "player_pair", "banker_pair").sort("shoe", "hand"))
    if frame.height == 0:
        raise InputError(f"{Path(folder) / 'rounds.parquet'} holds no round")
    codes = frame["outcome"].cast(pl.String).replace_strict(OUTCOME_CODE, return_dtype=pl.Int8).to_numpy()
    has_cards = frame["player_pair"].null_count() == 0
    pairs = (frame["player_pair"].to_numpy(), frame["banker_pair"].to_numpy()) if has_cards else None
    return Sample(counts_of(frame["shoe"].to_numpy(), codes, pairs), has_cards, f"the rounds of {Path(folder).name}")


def run_shoes(folder: str | Path) -> int:
    """The number of shoes in a run folder's ``rounds.parquet`` (its ``shoe`` column alone is read)."""
    return int(_read_rounds(folder, lambda rounds: rounds.select(pl.col("shoe").n_unique())).item())


def _read_rounds(folder: str | Path, query: Callable[[pl.LazyFrame], pl.LazyFrame]) -> pl.DataFrame:
    """``query`` on a scan of the run folder's ``rounds.parquet``, collected; a folder without it or unreadable is bad input."""
    rounds_file = Path(folder) / "rounds.parquet"
    if not rounds_file.exists():
        raise InputError(f"{folder} is not a run folder: it has no rounds.parquet")
    try:
        return query(pl.scan_parquet(rounds_file)).collect()
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as exc:
        raise InputError(f"cannot read {rounds_file}: {read_error_reason(exc)}") from None


def seeded_sample(rules: Rules, count: int, seed: int) -> Sample:
    """``count`` seeded shoes under ``rules`` with seed ``seed`` (the shoes of a run with that seed)."""
    from baccarat.shoes.compiled_deal import seeded_table_compiled  # here: it loads numba, which a run's report may not need

    return Sample(shoe_counts(seeded_table_compiled(rules, seed, 1, count)), True, f"{count} seeded shoes (seed {seed})")
