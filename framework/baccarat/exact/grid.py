"""The bankroll grid of an analysis, and the sums over it: merging equal pairs, splitting off-grid bankrolls, quantiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal

import numpy as np

from baccarat.engine.reference import SessionConfig
from baccarat.exact import bounds
from baccarat.money import MICROS_PER_UNIT, decimal_to_cents
from baccarat.plugin.pieces import Progression

_SLACK = 1e-12  # a cumulative probability this close below a quantile level reaches it (rounding of sums)


def merge_pairs(cell: np.ndarray, state: np.ndarray, prob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Add up the probabilities of equal (state, grid point) pairs; drop pairs whose probability is 0."""
    keep = prob > 0
    cell, state, prob = cell[keep], state[keep], prob[keep]
    if not len(cell):
        return cell, state, prob
    low = int(cell.min())
    span = int(cell.max()) - low + 1
    width = int(state.max()) + 1
    keys = state * span + (cell - low)
    if width * span <= bounds.DENSE_CELLS:
        total = np.bincount(keys, weights=prob, minlength=width * span)
        keys = np.flatnonzero(total)
        merged = total[keys]
    else:
        keys, inverse = np.unique(keys, return_inverse=True)
        merged = np.bincount(inverse.ravel(), weights=prob)
    return keys % span + low, keys // span, merged


def merge_values(value: np.ndarray, prob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Add up the probabilities of equal values (the bankrolls of sessions that no longer bet)."""
    values, inverse = np.unique(value, return_inverse=True)
    return values, np.bincount(inverse.ravel(), weights=prob)


def bankroll_grid(proto: Progression, outcomes: Sequence[tuple[int, float]], config: SessionConfig) -> int:
    """Return the bankroll grid step in micro-units: what every stake made of the session's amounts wins or loses has in common.

    The amounts are the unit, the bankroll, the table limits and the money a
    progression starts with (such as a Labouchere line of 1.5 units), in
    cents; the step is their greatest common divisor times that of the bet's
    multipliers: 0.50 for a unit of 10 at 5% commission with round limits and
    bankroll (1/20 of a unit), 10 without commission. Stakes of such amounts,
    and bets capped to a bankroll on the grid without commission, stay on it.
    """
    cents = math.gcd(decimal_to_cents(proto.unit), config.bankroll_cents, config.table_min_cents, config.table_max_cents)
    for value in vars(proto).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Decimal) and item >= 1:  # an amount of money (counts are ints) of a unit or more
                cents = math.gcd(cents, decimal_to_cents(item))
    step = 0
    for multiplier, _ in outcomes:
        step = math.gcd(step, abs(multiplier))
    return cents * max(step, 1)


def snap(bank: np.ndarray, state: np.ndarray, prob: np.ndarray, origin: int, grid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Return the grid points (``origin + cell * grid``) of the bankrolls, with their states and probabilities.

    A bankroll between two points is split between them so that its mean is
    kept. Also return the probability that was split.
    """
    cell, offset = np.divmod(bank - origin, grid)
    off = offset != 0
    if not off.any():
        return cell, state, prob, 0.0
    share = offset[off] / grid
    split = float(prob[off].sum())
    upper = prob[off] * share
    prob = prob.copy()
    prob[off] -= upper
    return (np.concatenate([cell, cell[off] + 1]), np.concatenate([state, state[off]]), np.concatenate([prob, upper]), split)


def lower_quantiles(bank: np.ndarray, prob: np.ndarray, levels: Sequence[float]) -> list[float]:
    """Return the lower quantiles of a discrete distribution of bankrolls (micro-units), in currency units."""
    order = np.argsort(bank, kind="stable")
    values, cumulative = bank[order], np.cumsum(prob[order])
    total = cumulative[-1]
    picks = np.searchsorted(cumulative, np.asarray(levels) * total - _SLACK)
    return [int(values[min(k, len(values) - 1)]) / MICROS_PER_UNIT for k in picks.tolist()]


def session_rule_chances(
    bank: np.ndarray, prob: np.ndarray, initial: int, minimum: int, win_goal: int | None, stop_loss: int | None
) -> tuple[float | None, float | None]:
    """Return the chances that the win goal and the stop-loss ended a session, from its final bankrolls (micro-units).

    The dealer checks them once every round is settled, so a session ends at
    the goal exactly when its final bankroll is at least ``initial + win_goal``,
    and at the stop-loss when it is at most ``initial - stop_loss`` but not
    ruined (below ``minimum``). None for a rule not set.
    """
    goal = None if win_goal is None else float(prob[bank >= initial + win_goal].sum())
    loss = None if stop_loss is None else float(prob[(bank <= initial - stop_loss) & (bank >= minimum)].sum())
    return goal, loss
