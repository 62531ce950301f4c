"""A strategy's dense ledger columns, built from the log of the bets it placed (one row per round of every session)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from baccarat.shoes.rounds import RoundTable
from baccarat.table.bet_registry import net_column, stake_column


def session_rows(table: RoundTable, sessions: Sequence[tuple[int, int, int]] | np.ndarray) -> dict[str, np.ndarray]:
    """Return the ledger's round columns (session, shoe, hand, round, outcome) for ``sessions``, session after session.

    Also ``first`` and ``length``: each session's first ledger row and its number of rows. ``sessions`` may be
    given as an array of ``(session, start, stop)`` rows. Each column is an array of its own.
    """
    bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
    lengths = bounds[:, 2] - bounds[:, 1]
    n = int(lengths.sum())
    rows: slice | np.ndarray
    if len(bounds) and (bounds[1:, 1] == bounds[:-1, 2]).all() and 0 <= bounds[0, 1] <= bounds[-1, 2] <= len(table):
        rows = slice(int(bounds[0, 1]), int(bounds[-1, 2]))  # sessions follow each other: one range of rows
    else:
        rows = (
            np.concatenate([np.arange(start, stop, dtype=np.int64) for _, start, stop in bounds.tolist()])
            if len(bounds)
            else np.zeros(0, dtype=np.int64)
        )
    first_out = np.cumsum(lengths) - lengths
    return {
        "session": np.repeat(bounds[:, 0], lengths),
        "shoe": table.shoe[rows].astype(np.int64),
        "hand": table.hand[rows].astype(np.int64),
        "round": np.arange(n, dtype=np.int64) - np.repeat(first_out, lengths) + 1,
        "outcome": table.outcome[rows].astype(np.int64),
        "first": first_out,
        "length": lengths,
    }


def ledger_columns(
    table: RoundTable,
    sessions: Sequence[tuple[int, int, int]],
    bets: tuple[str, ...],
    initial: int,
    placed: Sequence[tuple[int, int, int, int]] | Sequence[int],
    capped: Sequence[tuple[int, int]],
    stops: Sequence[tuple[int, int]] = (),
    priced: Sequence[tuple[int, int, int, float]] = (),
) -> dict[str, np.ndarray]:
    """Return the dense ledger columns of a strategy from the log of its bets.

    ``placed`` holds ``(ledger row, bet index, cents, net micro-units)`` for
    every bet placed (as tuples, or the four numbers of each bet one after the other); ``capped`` holds ``(ledger row, bets capped)``;
    ``stops`` holds ``(ledger row, stop rule)`` for the round in which a stop
    rule ended the session's betting (the rule's position in
    :func:`baccarat.plugin.compose.stop_rule_names`, from 1). Ledger rows are
    the sessions' table rows, session after session. ``stopped_by`` is not a
    column of the ledger file: it becomes the ``stopped_by`` of the session table.

    ``priced`` holds ``(ledger row, bet index, cents, EV per unit)`` for each
    bet placed by a strategy that read the cards dealt: the exact EV the view
    gave it for that bet in that round, NaN when it did not ask. When there
    are any, they are the array ``priced`` (one row each; ``priced_bets``
    names its bet indexes), which
    :func:`baccarat.results.ledger.expected_net` uses in place of the
    off-the-top EV; it is not a column of the ledger file.
    """
    out = session_rows(table, sessions)
    lengths, first_out = out.pop("length"), out.pop("first")
    n = int(lengths.sum())
    log = np.asarray(placed, dtype=np.int64).reshape(-1, 4)
    # Each bet's stakes and nets, a row per bet: a round holds at most one bet on each side.
    bet_stakes = np.zeros((len(bets), n), dtype=np.int64)
    bet_nets = np.zeros((len(bets), n), dtype=np.int64)
    bet_stakes[log[:, 1], log[:, 0]] = log[:, 2]
    bet_nets[log[:, 1], log[:, 0]] = log[:, 3]
    for k, bet in enumerate(bets):
        out[stake_column(bet)] = bet_stakes[k]
        out[net_column(bet)] = bet_nets[k]
    stake = bet_stakes.sum(axis=0)
    net = bet_nets.sum(axis=0)
    running = np.cumsum(net)
    before = running[first_out] - net[first_out] if n else np.zeros(0, dtype=np.int64)
    capped_column = np.zeros(n, dtype=np.int64)
    if len(capped):
        capped_log = np.asarray(capped, dtype=np.int64)
        capped_column[capped_log[:, 0]] = capped_log[:, 1]
    stopped_by = np.zeros(n, dtype=np.int64)
    if len(stops):
        stop_log = np.asarray(stops, dtype=np.int64)
        stopped_by[stop_log[:, 0]] = stop_log[:, 1]
    if len(priced):
        out["priced"] = np.asarray(priced, dtype=np.float64).reshape(-1, 4)
        out["priced_bets"] = np.array(bets)  # the names of the bet indexes of ``priced``
    out.update(stake=stake, net=net, bankroll=initial + running - np.repeat(before, lengths), capped=capped_column, stopped_by=stopped_by)
    return out
