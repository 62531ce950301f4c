"""The dynamic program of one session with each progression state's probabilities dense over the bankroll grid."""

from __future__ import annotations

import numpy as np

from baccarat.exact import bounds
from baccarat.exact.bounds import TooDense, Unplayable
from baccarat.exact.grid import lower_quantiles, merge_values, snap
from baccarat.exact.results import QUANTILES, ExactResult
from baccarat.exact.sparse import SparseSession
from baccarat.money import CENTS_PER_UNIT, MICROS_PER_CENT, MICROS_PER_UNIT, cents_to_decimal


class DenseSession(SparseSession):
    """The same dynamic program with each progression state's probabilities in a dense array over the grid.

    A row of probabilities moves by whole slices: every grid point from which
    the stake is not cut by the bankroll wins or loses the same amount, so it
    shifts by the same number of points (split between two neighbouring
    shifts when the amount is off the grid, as :func:`baccarat.exact.grid.snap` splits a
    bankroll). The few points where the bankroll cuts the stake are played
    one by one. Raises :class:`TooDense` when the progression states times
    the grid points exceed :data:`baccarat.exact.bounds.DENSE_CELLS`.
    """

    def run(self, rounds: int, bands: bool) -> ExactResult:
        """Carry the distribution through ``rounds`` rounds; with ``bands``, keep the bankroll quantiles of every round."""
        config, grid, states = self.config, self.grid, self.states
        initial = config.bankroll_cents * MICROS_PER_CENT
        minimum = config.table_min_cents * MICROS_PER_CENT
        table_min, table_max = config.table_min_cents, config.table_max_cents
        base = -(-(minimum - initial) // grid) - 1  # the lowest cell held: bankrolls below the minimum end at once
        if initial < minimum:
            base = 0
        prob = np.zeros((1, 1 - base))
        prob[0, -base] = 1.0  # cell 0 (the initial bankroll) is at index -base
        stopped = np.zeros(0)  # stopped sessions, by cell index, on the grid
        ended_bank = np.zeros(0, dtype=np.int64)  # ruined sessions: exact bankroll
        ended_prob = np.zeros(0)
        ruin = np.zeros(rounds + 1)
        band_rows = [[0, *[initial / MICROS_PER_UNIT] * len(QUANTILES)]] if bands else []
        wagered = interpolated = 0.0
        most = 1
        limits = self.limits
        moves: dict[tuple[int, int, int], int] = {}  # (state, multiplier, stake placed) -> state after, uncapped bets
        for t in range(0, rounds + 1):
            width = prob.shape[1]
            bank = initial + (base + np.arange(width, dtype=np.int64)) * grid
            # Sessions that bet no more from this round: the ruined and those a stop-loss stops (a prefix of the
            # cells), those a win goal stops (a suffix), everyone after max_rounds.
            ruined_end = int(np.searchsorted(bank, minimum))
            low_end, high_start = ruined_end, width
            if t < rounds:
                if limits.rounds is not None and t + 1 > limits.rounds:
                    low_end = width
                if limits.loss_micros is not None:
                    low_end = max(low_end, int(np.searchsorted(bank, initial - limits.loss_micros, side="right")))
                if limits.win_micros is not None:
                    high_start = int(np.searchsorted(bank, initial + limits.win_micros))
            high_start = max(high_start, low_end)
            if len(stopped) < width:
                stopped = np.concatenate([stopped, np.zeros(width - len(stopped))])
            for lo, hi in ((0, low_end), (high_start, width)):
                if hi > lo and prob[:, lo:hi].any():
                    column = prob[:, lo:hi].sum(axis=0)
                    cut = max(0, min(ruined_end, hi) - lo)  # the ruined part: below the table minimum
                    if cut:
                        ended_bank = np.concatenate([ended_bank, bank[lo:lo + cut]])
                        ended_prob = np.concatenate([ended_prob, column[:cut]])
                    stopped[lo + cut:hi] += column[cut:]
                    prob[:, lo:hi] = 0.0
                    ended_bank, ended_prob = merge_values(ended_bank, ended_prob)
            ruin[t] = ended_prob[ended_bank < minimum].sum()
            if bands and t:
                band_rows.append([t, *self._quantiles(bank, prob, stopped, ended_bank, ended_prob)])
            if t == rounds:
                break
            live = np.flatnonzero(prob.any(axis=1))
            if not len(live):
                continue
            pieces: list[tuple[int, int, np.ndarray]] = []  # (state, first cell index, probabilities)
            sparse: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
            scatter: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (states, cell indexes, probabilities)
            for source in live.tolist():
                row = prob[source]
                number = source
                if states.stake_list[number] > table_max:
                    number = int(states.restart(np.array([number]))[0])
                stake = states.stake_list[number]
                if stake < table_min:
                    raise Unplayable(f"its progression asks for {cents_to_decimal(stake)}, below the table minimum "
                                      f"{cents_to_decimal(table_min)}, and a run stops with an error there")
                asked = min(stake, table_max)
                first = min(max(-(-(asked * MICROS_PER_CENT - initial) // grid) - base, 0), width)
                if first > 0 and row[:first].any():  # the bankroll cuts the stake here: played point by point
                    cells = np.flatnonzero(row[:first])
                    sparse.append((cells, np.full(len(cells), number, dtype=np.int64), row[cells]))
                segment = row[first:]
                mass = float(segment.sum())
                if mass == 0:
                    continue
                wagered += mass * asked / CENTS_PER_UNIT
                stake_array, placed_array = np.array([stake]), np.array([asked])
                for multiplier, chance in self.outcomes:
                    net = asked * multiplier
                    key = (number, multiplier, asked)
                    target = number if multiplier == 0 else moves.get(key, -1)
                    if target < 0:
                        target = moves[key] = int(states.move(np.array([number]), stake_array, placed_array,
                                                              multiplier)[0])
                    shift, rest = divmod(net, grid)
                    # cells whose bankroll after the bet is below the minimum end ruined, exactly
                    cut = min(max(-(-(minimum - initial - net) // grid) - base - first, 0), len(segment))
                    if cut:
                        ruined = np.flatnonzero(segment[:cut])
                        ended_bank = np.concatenate([ended_bank, bank[first + ruined] + net])
                        ended_prob = np.concatenate([ended_prob, segment[ruined] * chance])
                    part = segment[cut:] * chance
                    start = first + cut + shift
                    if rest:
                        share = rest / grid
                        pieces.append((target, start, part * (1 - share)))
                        pieces.append((target, start + 1, part * share))
                        interpolated += float(part.sum())
                    else:
                        pieces.append((target, start, part))
            if sparse:
                cells = np.concatenate([c for c, _, _ in sparse])
                numbers = np.concatenate([n for _, n, _ in sparse])
                probs = np.concatenate([p for _, _, p in sparse])
                stake = states.stakes[numbers]
                placed = np.minimum(np.minimum(stake, table_max), bank[cells] // MICROS_PER_CENT)
                bet = placed >= table_min
                wagered += float((probs[bet] * placed[bet]).sum()) / CENTS_PER_UNIT
                scatter.append((numbers[~bet], cells[~bet], probs[~bet]))
                b, n, p, stake, placed = bank[cells][bet], numbers[bet], probs[bet], stake[bet], placed[bet]
                for multiplier, chance in self.outcomes:
                    after = b + placed * multiplier
                    moved = n if multiplier == 0 else states.move(n, stake, placed, multiplier)
                    ruined = after < minimum
                    ended_bank = np.concatenate([ended_bank, after[ruined]])
                    ended_prob = np.concatenate([ended_prob, p[ruined] * chance])
                    c, ms, mp, split = snap(after[~ruined], moved[~ruined], p[~ruined] * chance, initial, grid)
                    interpolated += split
                    scatter.append((ms, c - base, mp))
            count = len(states.snapshots)
            top = max([start + len(part) for _, start, part in pieces]
                      + [int(i.max()) + 1 for _, i, _ in scatter if len(i)] + [1])
            if count * top > min(bounds.DENSE_CELLS, self.max_states):
                raise TooDense
            prob = np.zeros((count, top))
            for target, start, part in pieces:
                prob[target, start:start + len(part)] += part
            for numbers, cells, probs in scatter:
                np.add.at(prob, (numbers, cells), probs)
            nonzero = np.flatnonzero(prob.any(axis=0))
            prob = prob[:, : (nonzero[-1] + 1 if len(nonzero) else 1)]
            ended_bank, ended_prob = merge_values(ended_bank, ended_prob)
            most = max(most, int(np.count_nonzero(prob)))
        width = prob.shape[1]
        bank = initial + (base + np.arange(width, dtype=np.int64)) * grid
        column = prob.sum(axis=0)
        if len(stopped) < width:
            stopped = np.concatenate([stopped, np.zeros(width - len(stopped))])
        held = np.concatenate([column, np.zeros(len(stopped) - width)]) + stopped
        all_bank = np.concatenate([ended_bank, initial + (base + np.arange(len(held), dtype=np.int64)) * grid])
        all_prob = np.concatenate([ended_prob, held])
        expected_final = float((all_prob * all_bank).sum()) / MICROS_PER_UNIT
        keep = all_prob > 0
        return ExactResult(
            strategy=self.label, rounds=rounds, risk_of_ruin=float(ruin[-1]),
            p_profit=float(all_prob[all_bank > initial].sum()), expected_net=expected_final - initial / MICROS_PER_UNIT,
            expected_wagered=wagered,
            final_bankroll_quantiles={str(q): v for q, v in zip(
                QUANTILES, lower_quantiles(all_bank[keep], all_prob[keep], QUANTILES), strict=True)},
            ruin_curve=ruin, states=most, interpolated=interpolated,
            bands=np.asarray(band_rows, dtype=np.float64) if bands else None)

    def _quantiles(self, bank: np.ndarray, prob: np.ndarray, stopped: np.ndarray, ended_bank: np.ndarray,
                   ended_prob: np.ndarray) -> list[float]:
        column = prob.sum(axis=0)
        held = np.zeros(max(len(column), len(stopped)))
        held[:len(column)] += column
        held[:len(stopped)] += stopped
        cells = bank[0] + np.arange(len(held), dtype=np.int64) * self.grid
        values, weights = np.concatenate([ended_bank, cells]), np.concatenate([ended_prob, held])
        keep = weights > 0
        return lower_quantiles(values[keep], weights[keep], QUANTILES)
