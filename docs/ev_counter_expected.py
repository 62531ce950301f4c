"""Exact expected edge of the pair bets a run's strategy placed, from the cards seen before each bet.

A card counter bets when the shoe is rich in pairs, so its bets are worth
more than the off-the-top figure; the ledger's ``expected_net`` records, for
each bet it placed, the exact EV the view gave it. This script recomputes
that independently, from the run folder's cards: for each round, the exact
EV of Player Pair / Banker Pair from the cards seen before it, as the
exact-EV view does: the card turned to start the burn (recomputed from the
experiment's seed; single-seed seeded runs) and the cards dealt earlier in
the shoe, and prints, for one
strategy, the expected edge of the pair bets it placed beside their realised
edge. Run from the project folder:

    python docs/ev_counter_expected.py RUN_DIR ["ev counter"]
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl

from baccarat.experiment import load_experiment
from baccarat.table.cards import RANK_BY_TOKEN


def pair_evs(rounds: pl.DataFrame, decks: int, pays: Fraction, turned: np.ndarray | None = None) -> np.ndarray:
    """Return each round's exact pair-bet EV per unit from the cards seen before it in its shoe.

    ``turned`` gives each round's turned burn card (0: none).
    """
    n = rounds.height
    dealt = np.zeros((n, 13), dtype=np.int32)
    for column in ("player_cards", "banker_cards"):
        cards = rounds.select(pl.int_range(pl.len()).alias("row"), pl.col(column)).explode(column).drop_nulls()
        rank = cards[column].str.slice(0, pl.col(column).str.len_chars() - 1)
        rank = pl.select(pl.when(cards[column].str.contains("^(10|[2-9AJQKT])$")).then(cards[column]).otherwise(rank)).to_series()
        ranks = rank.replace_strict(RANK_BY_TOKEN, return_dtype=pl.Int32).to_numpy() - 1
        np.add.at(dealt, (cards["row"].to_numpy(), ranks), 1)
    shoe = rounds["shoe"].to_numpy()
    seen = np.cumsum(dealt, axis=0) - dealt  # cards of all earlier rounds
    first = np.flatnonzero(np.r_[True, shoe[1:] != shoe[:-1]])
    starts = np.repeat(first, np.diff(np.r_[first, n]))
    seen -= seen[starts]  # only this shoe's earlier rounds
    if turned is not None:
        rows = np.flatnonzero(turned)
        np.add.at(seen, (rows, turned[rows].astype(np.int64) % 16 - 1), 1)
    left = (4 * decks - seen).astype(np.float64)
    total = left.sum(axis=1)
    p = (left * (left - 1)).sum(axis=1) / (total * (total - 1))
    return p * float(pays + 1) - 1.0


def main() -> None:
    """Print expected and realised edge of a strategy's pair bets in a run folder."""
    run = Path(sys.argv[1])
    label = sys.argv[2] if len(sys.argv) > 2 else "ev counter"
    experiment = load_experiment(run / "experiment.yaml")
    rules = experiment.rules
    rounds = pl.read_parquet(run / "rounds.parquet", columns=["shoe", "hand", "player_cards", "banker_cards"])
    turned = None
    if experiment.shoes["source"] == "seeded" and rules.burn and not rules.reshuffle_every_round:
        from baccarat.shoes.compiled_deal import shuffle_shoes

        count = int(rounds["shoe"].max())
        first_cards = shuffle_shoes(rules, experiment.seed, 1, count)[:, 0]
        turned = first_cards[rounds["shoe"].to_numpy() - 1]
    evs = pair_evs(rounds, rules.decks, rules.side_bets["player_pair"], turned)
    ledger = (
        pl.scan_parquet(run / "ledger.parquet")
        .filter(pl.col("strategy") == label)
        .select("shoe", "hand", *(f"{k}_{b}" for b in ("player_pair", "banker_pair") for k in ("stake", "net")))
        .collect()
    )
    keyed = rounds.select("shoe", "hand").with_columns(pl.Series("ev", evs))
    ledger = ledger.join(keyed, on=["shoe", "hand"], how="left")
    for bet in ("player_pair", "banker_pair"):
        placed = ledger.filter(pl.col(f"stake_{bet}") > 0)
        stake = placed[f"stake_{bet}"].cast(pl.Float64)
        expected = float((stake * placed["ev"]).sum() / stake.sum())
        realised = float(placed[f"net_{bet}"].cast(pl.Float64).sum() / stake.sum())
        print(
            f"{label} {bet}: {placed.height:,} bets, exact expected edge {-expected:+.3%}, realised edge {-realised:+.3%} "
            f"(edge = share of the stake lost; negative = player advantage)"
        )


if __name__ == "__main__":
    main()
