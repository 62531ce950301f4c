"""The compiled step of the dense dynamic program: one round of bets, moved row by row (numba, cached on disk).

In a round, every grid point of a progression state from which the bankroll
does not cut the stake bets the same amount, so each outcome shifts that
part of the state's row by the same number of grid points (split between two
neighbouring shifts when the amount won or lost is off the grid), and the
points it takes below the table minimum end ruined with their exact
bankroll. The few points where the bankroll cuts the stake (the capped bets)
are played one by one, each bankroll after the bet split between its two
neighbouring grid points so that its mean is kept.
:class:`baccarat.exact.dense.DenseSession` plans the round (which state,
what stake, the state after each outcome) and :func:`play_round` does the
arithmetic, in the order the figures are summed in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from baccarat.money import CENTS_PER_UNIT


@njit(cache=True)
def _ruin_cell(net: int, grid: int, initial: int, base: int, minimum: int) -> int:
    """The first cell whose bankroll stays at or above ``minimum`` after a bet that ends with ``net`` micro-units."""
    return -((net + initial - minimum) // grid) - base


@njit(cache=True)
def _total(row: np.ndarray, start: int, end: int) -> float:
    """The sum of ``row[start:end]``, in four interleaved partial sums (so that the additions overlap)."""
    a = b = c = d = 0.0
    i = start
    while i + 4 <= end:
        a += row[i]
        b += row[i + 1]
        c += row[i + 2]
        d += row[i + 3]
        i += 4
    while i < end:
        a += row[i]
        i += 1
    return (a + b) + (c + d)


@njit(cache=True)
def _shift_add(source: np.ndarray, chance: float, share: float, target: np.ndarray) -> float:
    """Add ``source * chance * share`` to ``target`` (of the same length); return the sum of ``source * chance``."""
    total = 0.0
    if share == 1.0:
        for i in range(len(source)):
            target[i] += source[i] * chance
    else:
        for i in range(len(source)):
            value = source[i] * chance
            target[i] += value * share
            total += value
    return total


@njit(cache=True)
def _count_nonzero(values: np.ndarray) -> int:
    """The number of nonzero entries of ``values``."""
    count = 0
    for i in range(len(values)):
        count += values[i] != 0.0
    return count


@njit(cache=True)
def _reach(reach_lo: np.ndarray, reach_hi: np.ndarray, row: int, cell: int) -> None:
    """Widen row ``row``'s range of cells that may hold probability to cell ``cell``."""
    reach_lo[row] = min(reach_lo[row], cell)
    reach_hi[row] = max(reach_hi[row], cell + 1)


@njit(cache=True)
def _ruined_count(
    prob: np.ndarray,
    sources: np.ndarray,
    asked: np.ndarray,
    first: np.ndarray,
    row_lo: np.ndarray,
    row_hi: np.ndarray,
    multipliers: np.ndarray,
    capped_bank: np.ndarray,
    capped_placed: np.ndarray,
    capped_bet: np.ndarray,
    grid: int,
    initial: int,
    base: int,
    minimum: int,
) -> int:
    count = 0
    for r in range(len(sources)):
        row, start, end = prob[sources[r]], max(first[r], row_lo[sources[r]]), row_hi[sources[r]]
        for k in range(len(multipliers)):
            for i in range(start, min(_ruin_cell(asked[r] * multipliers[k], grid, initial, base, minimum), end)):
                if row[i] != 0.0:
                    count += 1
    for j in range(len(capped_bank)):
        if capped_bet[j]:
            for k in range(len(multipliers)):
                if capped_bank[j] + capped_placed[j] * multipliers[k] < minimum:
                    count += 1
    return count


@njit(cache=True)
def play_round(  # noqa: C901 - the tableau as one compiled kernel, read side by side with docs/game.md
    prob: np.ndarray,
    sources: np.ndarray,
    asked: np.ndarray,
    first: np.ndarray,
    targets: np.ndarray,
    row_lo: np.ndarray,
    row_hi: np.ndarray,
    capped_number: np.ndarray,
    capped_cell: np.ndarray,
    capped_prob: np.ndarray,
    capped_placed: np.ndarray,
    capped_bet: np.ndarray,
    capped_targets: np.ndarray,
    multipliers: np.ndarray,
    chances: np.ndarray,
    grid: int,
    initial: int,
    base: int,
    minimum: int,
    out: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, float, float, int, np.ndarray, np.ndarray]:
    """Add one round's bets of the rows ``sources`` of ``prob`` into ``out`` (zeros, one row per state).

    Cell ``i`` is the bankroll ``initial + (base + i) * grid`` micro-units;
    row ``s`` of ``prob`` is zero outside cells ``row_lo[s]`` to
    ``row_hi[s] - 1``. Row ``sources[r]`` bets ``asked[r]`` cents from its
    cell ``first[r]`` on, and outcome ``k`` (``multipliers[k]`` basis points,
    chance ``chances[k]``) moves it to row ``targets[r, k]``. The capped bets
    are listed cell by cell: state ``capped_number[j]`` at cell
    ``capped_cell[j]`` with probability ``capped_prob[j]`` places
    ``capped_placed[j]`` cents when ``capped_bet[j]`` (else it stays), moving
    to ``capped_targets[j, k]``.

    Return the exact bankrolls and probabilities of the bets that end below
    ``minimum`` (ruined), the amount wagered (probability times currency
    units), the probability split between two grid points, the number of
    nonzero cells of ``out``, and the first and one past the last nonzero
    cell of each row of ``out`` (0 and 0 for a row of zeros).
    """
    capped_bank = initial + (base + capped_cell) * grid
    count = _ruined_count(
        prob, sources, asked, first, row_lo, row_hi, multipliers, capped_bank, capped_placed, capped_bet, grid, initial, base, minimum
    )
    ended_bank = np.empty(count, dtype=np.int64)
    ended_prob = np.empty(count, dtype=np.float64)
    count = 0
    wagered = 0.0
    interpolated = 0.0
    reach_lo = np.full(out.shape[0], out.shape[1], dtype=np.int64)  # each row of out is zero outside these cells
    reach_hi = np.zeros(out.shape[0], dtype=np.int64)
    for r in range(len(sources)):  # the uncapped bets: whole slices of each row
        row, start, end = prob[sources[r]], max(first[r], row_lo[sources[r]]), row_hi[sources[r]]
        if end <= start:
            continue
        mass = _total(row, start, end)
        for k in range(len(multipliers)):
            net = asked[r] * multipliers[k]
            chance = chances[k]
            shift = net // grid
            rest = net - shift * grid
            safe = min(max(_ruin_cell(net, grid, initial, base, minimum), start), end)
            for i in range(start, safe):
                if row[i] != 0.0:
                    ended_bank[count] = initial + (base + i) * grid + net
                    ended_prob[count] = row[i] * chance
                    count += 1
            target = out[targets[r, k]]
            if safe < end:
                reach_lo[targets[r, k]] = min(reach_lo[targets[r, k]], safe + shift)
                reach_hi[targets[r, k]] = max(reach_hi[targets[r, k]], end + shift + (1 if rest else 0))
            if safe < end:
                source = row[safe:end]
                if rest:
                    share = rest / grid
                    interpolated += _shift_add(source, chance * 1.0, 1 - share, target[safe + shift : end + shift])
                    _shift_add(source, chance * 1.0, share, target[safe + shift + 1 : end + shift + 1])
                else:
                    _shift_add(source, chance * 1.0, 1.0, target[safe + shift : end + shift])
        wagered += mass * asked[r] / CENTS_PER_UNIT
    capped_wagered = 0.0
    for j in range(len(capped_cell)):  # the capped bets, cell by cell
        if capped_bet[j]:
            capped_wagered += capped_prob[j] * capped_placed[j]
        else:
            out[capped_number[j], capped_cell[j]] += capped_prob[j]
            _reach(reach_lo, reach_hi, capped_number[j], capped_cell[j])
    wagered += capped_wagered / CENTS_PER_UNIT
    for k in range(len(multipliers)):
        chance = chances[k]
        for j in range(len(capped_cell)):
            if capped_bet[j]:
                after = capped_bank[j] + capped_placed[j] * multipliers[k]
                if after < minimum:
                    ended_bank[count] = after
                    ended_prob[count] = capped_prob[j] * chance
                    count += 1
        for upper in range(2):  # each bankroll's lower grid point first, then the upper one of those between two
            for j in range(len(capped_cell)):
                if capped_bet[j]:
                    after = capped_bank[j] + capped_placed[j] * multipliers[k]
                    if after >= minimum:
                        cell = (after - initial) // grid
                        offset = after - initial - cell * grid
                        value = capped_prob[j] * chance
                        share = offset / grid
                        if upper == 0:
                            out[capped_targets[j, k], cell - base] += value - value * share if offset else value
                            _reach(reach_lo, reach_hi, capped_targets[j, k], cell - base)
                            if offset:
                                interpolated += value
                        elif offset:
                            out[capped_targets[j, k], cell - base + 1] += value * share
                            _reach(reach_lo, reach_hi, capped_targets[j, k], cell - base + 1)
    nonzero = 0
    out_lo = np.zeros(out.shape[0], dtype=np.int64)
    out_hi = np.zeros(out.shape[0], dtype=np.int64)
    for t in range(out.shape[0]):
        lo, hi = reach_lo[t], reach_hi[t]
        while lo < hi and out[t, lo] == 0.0:
            lo += 1
        while hi > lo and out[t, hi - 1] == 0.0:
            hi -= 1
        if hi > lo:
            out_lo[t], out_hi[t] = lo, hi
            nonzero += _count_nonzero(out[t, lo:hi])
    return ended_bank, ended_prob, wagered, interpolated, nonzero, out_lo, out_hi
