"""Small hand-made ledgers for the statistics, plot and report tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

import polars as pl

MONEY = pl.Decimal(38, 6)

SCHEMA = {
    "strategy": pl.String,
    "session": pl.Int64,
    "shoe": pl.Int64,
    "hand": pl.Int32,
    "round": pl.Int32,
    "stake": MONEY,
    "net": MONEY,
    "bankroll": MONEY,
    "capped": pl.Int32,
    "expected_net": pl.Float64,
}

Round = Sequence  # (stake, net) or (stake, net, expected_net) or (stake, net, expected_net, capped)


def make_ledger(sessions: Mapping[tuple[str, int], Sequence[Round]], initial: str | int = 100, expected: bool = True) -> pl.DataFrame:
    """Return a ledger frame: one row per listed round, bankroll accumulated from ``initial``.

    ``expected_net`` defaults to -1% of the stake when a round does not give it.
    """
    rows = []
    for (strategy, session), rounds in sessions.items():
        bankroll = Decimal(str(initial))
        for i, r in enumerate(rounds, start=1):
            stake, net = Decimal(str(r[0])), Decimal(str(r[1]))
            bankroll += net
            rows.append(
                {
                    "strategy": strategy,
                    "session": session,
                    "shoe": session,
                    "hand": i,
                    "round": i,
                    "stake": stake,
                    "net": net,
                    "bankroll": bankroll,
                    "capped": int(r[3]) if len(r) > 3 else 0,
                    "expected_net": float(r[2]) if len(r) > 2 else -0.01 * float(stake),
                }
            )
    frame = pl.DataFrame(rows, schema=SCHEMA, orient="row") if rows else pl.DataFrame(schema=SCHEMA)
    return frame if expected else frame.drop("expected_net")


def flat_ledger(outcomes: Mapping[str, Sequence[str]], unit: int = 10, initial: int = 100) -> pl.DataFrame:
    """Return a ledger of strategies staking ``unit`` per round: ``W`` wins even money, ``L`` loses, ``T`` pushes, ``-`` sits out.

    ``outcomes`` maps a strategy to one string per session.
    """
    nets = {"W": unit, "L": -unit, "T": 0, "-": 0}
    sessions = {}
    for strategy, per_session in outcomes.items():
        for session, text in enumerate(per_session, start=1):
            sessions[(strategy, session)] = [(0 if c == "-" else unit, nets[c]) for c in text]
    return make_ledger(sessions, initial)
