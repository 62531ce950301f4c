"""The reference engine: strategies walk a round table session by session.

Per-round Python, simple on purpose: it is the definition of a correct
ledger. A session is ``shoes_per_session`` consecutive shoes; every strategy
gets a fresh instance per session and starts with the full bankroll. Before
each round: a bankroll below the table minimum is ruin (the session stops
betting); otherwise the strategy's bets are checked, cut to the table
maximum and to the bankroll (counted as capped), and settled exactly.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np

from baccarat.bets import MICROS_PER_CENT
from baccarat.errors import StrategyError
from baccarat.rounds import RoundTable
from baccarat.rules import Rules
from baccarat.strategy import SessionInfo, Strategy, TableView, cents_to_decimal


@dataclasses.dataclass(frozen=True)
class SessionConfig:
    """Money and length of every session, in exact cents."""

    bankroll_cents: int
    table_min_cents: int
    table_max_cents: int
    shoes_per_session: int = 1


@dataclasses.dataclass(frozen=True)
class StrategyRun:
    """One strategy of an experiment: its ledger label, class and parameters."""

    label: str
    cls: type[Strategy]
    params: Mapping[str, Any]


LEDGER_INT_COLUMNS = ("session", "shoe", "hand", "round", "outcome", "stake", "net", "bankroll", "capped")


def session_bounds(table: RoundTable, shoes_per_session: int) -> list[tuple[int, int, int]]:
    """Return ``(session, start_row, stop_row)`` for each session, sessions numbered from 1.

    Session ``k`` holds shoes ``(k-1)*shoes_per_session+1 .. k*shoes_per_session``
    counted in the table's order; a last session may hold fewer shoes.
    """
    bounds = table.shoe_bounds()
    out = []
    for k in range(0, len(bounds), shoes_per_session):
        group = bounds[k: k + shoes_per_session]
        out.append((k // shoes_per_session + 1, group[0][0], group[-1][1]))
    return out


def strategy_rng(seed: int, label: str, session: int) -> np.random.Generator:
    """Return the random stream of strategy ``label`` in ``session`` under experiment ``seed``."""
    key = (0, zlib.crc32(label.encode("utf-8")), session)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def amount_to_cents(amount: Any) -> int:
    """Return a bet amount in currency units as whole cents; raise ValueError when it is not one."""
    if type(amount) is int:
        return amount * 100
    if isinstance(amount, bool):
        raise ValueError(f"{amount!r} is not an amount")
    if isinstance(amount, float):
        if not math.isfinite(amount):
            raise ValueError(f"{amount!r} is not an amount")
        amount = Decimal(repr(amount))
    try:
        cents = Decimal(amount) * 100
    except (InvalidOperation, TypeError, ValueError):
        raise ValueError(f"{amount!r} is not an amount") from None
    if not cents.is_finite() or cents != cents.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of cents")
    return int(cents)


class _Columns:
    """Growing ledger columns of one strategy."""

    def __init__(self, bets: Sequence[str]) -> None:
        self.ints: dict[str, list[int]] = {name: [] for name in LEDGER_INT_COLUMNS}
        self.bet_stakes: dict[str, list[int]] = {b: [] for b in bets}
        self.bet_nets: dict[str, list[int]] = {b: [] for b in bets}

    def arrays(self) -> dict[str, np.ndarray]:
        out = {name: np.asarray(values, dtype=np.int64) for name, values in self.ints.items()}
        for bet, values in self.bet_stakes.items():
            out[f"stake_{bet}"] = np.asarray(values, dtype=np.int64)
            out[f"net_{bet}"] = np.asarray(self.bet_nets[bet], dtype=np.int64)
        return out


def run_strategy(run: StrategyRun, table: RoundTable, multipliers: Mapping[str, np.ndarray],
                 rules: Rules, config: SessionConfig, seed: int,
                 sessions: Sequence[tuple[int, int, int]] | None = None) -> dict[str, np.ndarray]:
    """Play one strategy over every session of ``table``; return its ledger columns.

    Money columns are integers: ``stake`` and ``stake_<bet>`` in cents,
    ``net``, ``net_<bet>`` and ``bankroll`` in micro-units.
    """
    bets_offered = tuple(multipliers)
    mult = {bet: arr.tolist() for bet, arr in multipliers.items()}
    outcomes = table.outcome.tolist()
    shoes = table.shoe.tolist()
    hands = table.hand.tolist()
    cols = _Columns(bets_offered)
    c_session, c_shoe, c_hand, c_round = (cols.ints[k] for k in ("session", "shoe", "hand", "round"))
    c_outcome, c_stake, c_net, c_bank, c_capped = (cols.ints[k] for k in ("outcome", "stake", "net", "bankroll", "capped"))
    min_micros = config.table_min_cents * MICROS_PER_CENT
    table_max = config.table_max_cents
    initial = config.bankroll_cents * MICROS_PER_CENT
    if sessions is None:
        sessions = session_bounds(table, config.shoes_per_session)
    for session, start, stop in sessions:
        info = SessionInfo(session, rules, cents_to_decimal(config.bankroll_cents),
                           cents_to_decimal(config.table_min_cents), cents_to_decimal(config.table_max_cents),
                           strategy_rng(seed, run.label, session))
        try:
            strategy = run.cls(info, **run.params)
        except Exception as exc:
            raise StrategyError(f"strategy {run.label!r} could not start session {session}: {exc}") from None
        view = TableView(table, session, initial, config.table_min_cents, table_max)
        bankroll = initial
        previous_shoe = None
        for row in range(start, stop):
            shoe = shoes[row]
            view._enter(row, shoe != previous_shoe)
            previous_shoe = shoe
            placed: dict[str, int] = {}
            capped = 0
            if bankroll >= min_micros:
                try:
                    wanted = strategy.bets(view)
                except Exception as exc:
                    raise _misbehaved(run, view, f"raised {type(exc).__name__}: {exc}") from None
                if wanted:
                    placed, capped = _check_bets(run, view, wanted, bets_offered, bankroll, config)
            net = 0
            nets: dict[str, int] = {}
            for bet, cents in placed.items():
                won = cents * mult[bet][row]
                nets[bet] = won
                net += won
            bankroll += net
            stake = sum(placed.values())
            c_session.append(session)
            c_shoe.append(shoe)
            c_hand.append(hands[row])
            c_round.append(view.round)
            c_outcome.append(outcomes[row])
            c_stake.append(stake)
            c_net.append(net)
            c_bank.append(bankroll)
            c_capped.append(capped)
            for bet in bets_offered:
                cols.bet_stakes[bet].append(placed.get(bet, 0))
                cols.bet_nets[bet].append(nets.get(bet, 0))
            view._record(outcomes[row], bankroll)
            if placed:
                try:
                    strategy.settle(view, nets)
                except Exception as exc:
                    raise _misbehaved(run, view, f"raised {type(exc).__name__}: {exc}") from None
    return cols.arrays()


def _misbehaved(run: StrategyRun, view: TableView, what: str) -> StrategyError:
    return StrategyError(f"strategy {run.label!r} {what} (session {view.session}, shoe {view.shoe}, "
                         f"hand {view.hand}, round {view.round})")


def _check_bets(run: StrategyRun, view: TableView, wanted: Mapping[str, Any], offered: Sequence[str],
                bankroll_micros: int, config: SessionConfig) -> tuple[dict[str, int], int]:
    """Validate a strategy's bets; cut them to the table maximum and the bankroll."""
    if not isinstance(wanted, Mapping):
        raise _misbehaved(run, view, f"returned {type(wanted).__name__}, not a mapping of side to amount")
    placed: dict[str, int] = {}
    capped = 0
    available = bankroll_micros // MICROS_PER_CENT
    for side, amount in wanted.items():
        if side not in offered:
            raise _misbehaved(run, view, f"bet on {side!r}, which the table does not offer here ({', '.join(offered)})")
        try:
            cents = amount_to_cents(amount)
        except ValueError as exc:
            raise _misbehaved(run, view, f"bet an invalid amount on {side}: {exc}") from None
        if cents == 0:
            continue
        if cents < 0:
            raise _misbehaved(run, view, f"bet a negative amount ({amount}) on {side}")
        if cents < config.table_min_cents:
            raise _misbehaved(run, view, f"bet {cents_to_decimal(cents)} on {side}, below the table minimum "
                                         f"{cents_to_decimal(config.table_min_cents)}")
        asked = cents
        cents = min(cents, config.table_max_cents, available)
        if cents != asked:
            capped += 1
        if cents <= 0:
            continue
        available -= cents
        placed[side] = cents
    return placed, capped
