"""The dynamic program of one session with each progression state's probabilities dense over the bankroll grid."""

from __future__ import annotations

import math

import numpy as np

from baccarat.exact import bounds
from baccarat.exact.bounds import TooDense, Unplayable
from baccarat.exact.dense_step import play_round
from baccarat.exact.grid import lower_quantiles, merge_values
from baccarat.exact.results import QUANTILES, ExactResult
from baccarat.exact.sparse import SparseSession
from baccarat.money import MICROS_PER_CENT, MICROS_PER_UNIT, cents_to_decimal


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

    def run(self, rounds: int, bands: bool) -> ExactResult:  # noqa: C901 - hot compiled loop of the exact analysis
        """Carry the distribution through ``rounds`` rounds; with ``bands``, keep the bankroll quantiles of every round."""
        config, grid, states = self.config, self.grid, self.states
        initial = config.bankroll_cents * MICROS_PER_CENT
        minimum = config.table_min_cents * MICROS_PER_CENT
        base = -(-(minimum - initial) // grid) - 1  # the lowest cell held: bankrolls below the minimum end at once
        if initial < minimum:
            base = 0
        if 1 - base > min(bounds.DENSE_CELLS, self.max_states):  # a fine grid under a large bankroll: held sparse, as reached
            raise TooDense
        prob = np.zeros((1, 1 - base))
        prob[0, -base] = 1.0  # cell 0 (the initial bankroll) is at index -base
        row_lo, row_hi = np.array([-base]), np.array([1 - base])  # each row is zero outside cells row_lo to row_hi - 1
        merged = 0  # ended sessions whose equal bankrolls were last added up
        ruined: list[float] = []  # the chance of ruin in each round (every ended session is ruined; stopped: ``stopped``)
        stopped = np.zeros(0)  # stopped sessions, by cell index, on the grid
        ended_bank = np.zeros(0, dtype=np.int64)  # ruined sessions: exact bankroll
        ended_prob = np.zeros(0)
        ruin = np.zeros(rounds + 1)
        band_rows = [[0, *[initial / MICROS_PER_UNIT] * len(QUANTILES)]] if bands else []
        wagered = interpolated = played = 0.0
        most = 1
        limits = self.limits
        self._multipliers = np.array([m for m, _ in self.outcomes], dtype=np.int64)
        self._chances = np.array([c for _, c in self.outcomes], dtype=np.float64)
        self._largest = max(0, int(self._multipliers.max()))
        self._plans: dict[int, tuple[int, int, int, list[int]]] = {}
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
                        ended_bank = np.concatenate([ended_bank, bank[lo : lo + cut]])
                        ended_prob = np.concatenate([ended_prob, column[:cut]])
                        ruined.append(float(column[:cut].sum()))
                    stopped[lo + cut : hi] += column[cut:]
                    prob[:, lo:hi] = 0.0
                    row_lo, row_hi = _extents(prob)
            ruin[t] = math.fsum(ruined)
            if bands and t:
                band_rows.append([t, *self._quantiles(bank, prob, stopped, ended_bank, ended_prob)])
            if t == rounds:
                break
            live = np.flatnonzero(row_hi > row_lo)
            if not len(live):
                continue
            played += float(prob.sum())  # every session still betting bets this round
            plan = [self._plan(source, initial, base) for source in live.tolist()]
            number = np.array([p[0] for p in plan], dtype=np.int64)
            asked = np.array([p[1] for p in plan], dtype=np.int64)
            first = np.minimum(np.array([p[2] for p in plan], dtype=np.int64), width)
            targets = np.array([p[3] for p in plan], dtype=np.int64).reshape(len(plan), len(self.outcomes))
            capped = self._capped(prob, live, number, asked, first, targets, bank)
            count = len(states.snapshots)
            top = width + int(asked.max()) * self._largest // grid + 2  # past the highest cell a bet can reach
            if count * top > min(bounds.DENSE_CELLS, self.max_states):
                raise TooDense
            after = np.zeros((count, top))
            ruined_bank, ruined_prob, bet, split, nonzero, row_lo, row_hi = play_round(
                prob,
                live,
                asked,
                first,
                targets,
                row_lo,
                row_hi,
                *capped,
                self._multipliers,
                self._chances,
                grid,
                initial,
                base,
                minimum,
                after,
            )
            wagered += bet
            interpolated += split
            prob = after[:, : max(int(row_hi.max()), 1)]
            ended_bank = np.concatenate([ended_bank, ruined_bank])
            ended_prob = np.concatenate([ended_prob, ruined_prob])
            ruined.append(float(ruined_prob.sum()))
            if len(ended_bank) > 2 * merged + 20_000:  # keep the ended sessions few: add up equal bankrolls
                ended_bank, ended_prob = merge_values(ended_bank, ended_prob)
                merged = len(ended_bank)
            most = max(most, nonzero)
        width = prob.shape[1]
        bank = initial + (base + np.arange(width, dtype=np.int64)) * grid
        column = prob.sum(axis=0)
        if len(stopped) < width:
            stopped = np.concatenate([stopped, np.zeros(width - len(stopped))])
        held = np.concatenate([column, np.zeros(len(stopped) - width)]) + stopped
        all_bank = np.concatenate([ended_bank, initial + (base + np.arange(len(held), dtype=np.int64)) * grid])
        all_prob = np.concatenate([ended_prob, held])
        return self._result(
            rounds, all_bank, all_prob, all_prob > 0, ruin, wagered, most, interpolated, band_rows if bands else None, played
        )

    def _plan(self, source: int, initial: int, base: int) -> tuple[int, int, int, list[int]]:
        """Return what state ``source`` bets: its state after a table-maximum restart, the stake placed (cents),
        the first cell whose bankroll does not cut it, and the state after each outcome of an uncapped bet."""
        plan = self._plans.get(source)
        if plan is not None:
            return plan
        states, table_min, table_max = self.states, self.config.table_min_cents, self.config.table_max_cents
        number = source
        if states.stake_list[number] > table_max:
            number = int(states.restart(np.array([number]))[0])
        stake = states.stake_list[number]
        if stake < table_min:
            raise Unplayable(
                f"its progression asks for {cents_to_decimal(stake)}, below the table minimum "
                f"{cents_to_decimal(table_min)}, and a run stops with an error there"
            )
        asked = min(stake, table_max)
        first = max(-(-(asked * MICROS_PER_CENT - initial) // self.grid) - base, 0)
        targets = [
            number if multiplier == 0 else int(states.move(np.array([number]), np.array([stake]), np.array([asked]), multiplier)[0])
            for multiplier, _ in self.outcomes
        ]
        plan = self._plans[source] = (number, asked, first, targets)
        return plan

    def _capped(
        self,
        prob: np.ndarray,
        live: np.ndarray,
        number: np.ndarray,
        asked: np.ndarray,
        first: np.ndarray,
        row_targets: np.ndarray,
        bank: np.ndarray,
    ) -> tuple[np.ndarray, ...]:
        """Return the cells of the rows ``live`` where the bankroll cuts the stake, for :func:`play_round`.

        They are (state, cell, probability, stake placed, whether it is
        placed, state after each outcome), in the order of the rows and cells.
        A progression whose moves do not read the amount moves as after an
        uncapped bet (``row_targets``).
        """
        reach = int(first.max())
        rows, cells = np.nonzero((prob[live, :reach] != 0) & (np.arange(reach) < first[:, None]))
        numbers = number[rows]
        placed = np.minimum(asked[rows], bank[cells] // MICROS_PER_CENT)
        bet = placed >= self.config.table_min_cents
        if not self.states.reads_net:
            return numbers, cells, prob[live[rows], cells], placed, bet, row_targets[rows]
        targets = np.empty((len(rows), len(self.outcomes)), dtype=np.int64)
        stake = self.states.stakes[numbers[bet]]
        for k, (multiplier, _) in enumerate(self.outcomes):
            targets[:, k] = numbers
            if multiplier and bet.any():
                targets[bet, k] = self.states.move(numbers[bet], stake, placed[bet], multiplier)
        return numbers, cells, prob[live[rows], cells], placed, bet, targets

    def _quantiles(
        self, bank: np.ndarray, prob: np.ndarray, stopped: np.ndarray, ended_bank: np.ndarray, ended_prob: np.ndarray
    ) -> list[float]:
        column = prob.sum(axis=0)
        held = np.zeros(max(len(column), len(stopped)))
        held[: len(column)] += column
        held[: len(stopped)] += stopped
        cells = bank[0] + np.arange(len(held), dtype=np.int64) * self.grid
        values, weights = np.concatenate([ended_bank, cells]), np.concatenate([ended_prob, held])
        keep = weights > 0
        return lower_quantiles(values[keep], weights[keep], QUANTILES)


def _extents(prob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the first and one past the last nonzero cell of each row (0 and 0 for a row of zeros)."""
    nonzero = prob != 0
    held = nonzero.any(axis=1)
    lo = np.where(held, nonzero.argmax(axis=1), 0)
    hi = np.where(held, prob.shape[1] - nonzero[:, ::-1].argmax(axis=1), 0)
    return lo.astype(np.int64), hi.astype(np.int64)
