"""The dynamic program of one session with its (bankroll, progression state) pairs held sparse.

Sessions still betting are (grid point, progression state, probability)
triples, merged after every round; sessions that bet no more (ruined, or
stopped by a stop rule) are (exact bankroll, probability) pairs that never
move again. This holds any number of progression states (Labouchere's lines,
Oscar's Grind's series); :mod:`baccarat.exact.dense` is the faster form for
progressions with few states.
"""

from __future__ import annotations

import numpy as np

from baccarat.engine.reference import SessionConfig
from baccarat.exact.bounds import ExactLimitError, Unplayable
from baccarat.exact.grid import bankroll_grid, lower_quantiles, merge_pairs, merge_values, session_rule_chances, snap
from baccarat.exact.results import QUANTILES, ExactResult
from baccarat.exact.states import ProgressionStates
from baccarat.money import CENTS_PER_UNIT, MICROS_PER_CENT, MICROS_PER_UNIT, cents_to_decimal
from baccarat.plugin.exact_forms import ExactProgression, StopLimits
from baccarat.plugin.pieces import Progression


class SparseSession:
    """The dynamic program of one strategy's session.

    Sessions still betting are held as (grid point, progression state,
    probability); sessions that no longer bet (ruined, or stopped by a stop
    rule) as (exact bankroll, probability): they never move again.
    """

    def __init__(
        self,
        label: str,
        proto: Progression,
        form: ExactProgression,
        outcomes: list[tuple[int, float]],
        config: SessionConfig,
        limits: StopLimits,
        max_states: int,
    ) -> None:
        self.label = label
        self.states = ProgressionStates(proto, form, max_states)
        self.outcomes = outcomes
        self.config = config
        self.limits = limits
        self.max_states = max_states
        self.grid = bankroll_grid(proto, outcomes, config)

    def estimated_updates(self, rounds: int) -> int:
        """Return an estimate of the cell updates ``rounds`` rounds take, before any is played (one progression state).

        Each round updates every grid cell a session may then hold: from the table minimum up to the bankroll at
        the start (``below``), and above it as far as the largest win a round can add (the table maximum times the
        largest multiplier) has carried it, until a win goal stops the climb or the bound on states holds the
        width. Summed over the rounds in closed form; it grows as the square of the rounds until the width stops.
        """
        config, grid = self.config, self.grid
        initial, minimum = config.bankroll_cents * MICROS_PER_CENT, config.table_min_cents * MICROS_PER_CENT
        below = max(0, (initial - minimum) // grid) + 1
        step = max(1, -(-config.table_max_cents * max(0, max(m for m, _ in self.outcomes)) // grid))
        widest = self.max_states
        if self.limits.win_micros is not None:
            widest = min(widest, below + -(-self.limits.win_micros // grid) + step)
        if self.limits.rounds is not None:
            rounds = min(rounds, self.limits.rounds + 1)
        if below >= widest:
            return rounds * widest
        climbing = min(rounds, (widest - below) // step)  # rounds whose width is still below the widest
        return climbing * below + step * climbing * (climbing + 1) // 2 + (rounds - climbing) * widest

    def _stopped(self, bank: np.ndarray, initial: int, round_number: int) -> np.ndarray:
        limits = self.limits
        stop = np.zeros(len(bank), dtype=bool)
        if limits.rounds is not None and round_number > limits.rounds:
            stop[:] = True
            return stop
        if limits.loss_micros is not None:
            stop |= initial - bank >= limits.loss_micros
        if limits.win_micros is not None:
            stop |= bank - initial >= limits.win_micros
        return stop

    def run(self, rounds: int, bands: bool) -> ExactResult:
        """Carry the distribution through ``rounds`` rounds; with ``bands``, keep the bankroll quantiles of every round."""
        config, grid, states = self.config, self.grid, self.states
        initial = config.bankroll_cents * MICROS_PER_CENT
        minimum = config.table_min_cents * MICROS_PER_CENT
        table_min, table_max = config.table_min_cents, config.table_max_cents
        cell = np.zeros(1, dtype=np.int64)  # sessions still betting: bankroll = initial + cell * grid
        state = np.zeros(1, dtype=np.int64)
        prob = np.ones(1)
        ended_bank = np.zeros(0, dtype=np.int64)  # sessions that no longer bet: exact bankroll
        ended_prob = np.zeros(0)
        ruin = np.zeros(rounds + 1)
        band_rows = [[0, *[initial / MICROS_PER_UNIT] * len(QUANTILES)]] if bands else []
        wagered = interpolated = played = 0.0
        most = 1
        for t in range(0, rounds + 1):
            bank = initial + cell * grid
            done = (bank < minimum) | (self._stopped(bank, initial, t + 1) if t < rounds else False)
            if done.any():
                ended_bank, ended_prob = merge_values(np.concatenate([ended_bank, bank[done]]), np.concatenate([ended_prob, prob[done]]))
                cell, state, prob, bank = cell[~done], state[~done], prob[~done], bank[~done]
            ruin[t] = ended_prob[ended_bank < minimum].sum()
            if bands and t:
                band_rows.append([t, *lower_quantiles(np.concatenate([ended_bank, bank]), np.concatenate([ended_prob, prob]), QUANTILES)])
            if t == rounds or not len(cell):
                continue
            stake = states.stakes[state]
            over = stake > table_max
            if over.any():
                state = state.copy()
                state[over] = states.restart(state[over])
                stake = states.stakes[state]
            low = stake < table_min
            if low.any():
                raise Unplayable(
                    f"its progression asks for {cents_to_decimal(int(stake[low][0]))}, below the table "
                    f"minimum {cents_to_decimal(table_min)}, and a run stops with an error there"
                )
            placed = np.minimum(np.minimum(stake, table_max), bank // MICROS_PER_CENT)
            bet = placed >= table_min
            wagered += float((prob[bet] * placed[bet]).sum()) / CENTS_PER_UNIT
            played += float(prob[bet].sum())
            parts_c, parts_s, parts_p = [cell[~bet]], [state[~bet]], [prob[~bet]]
            s, b, p, stake, placed = state[bet], bank[bet], prob[bet], stake[bet], placed[bet]
            for multiplier, chance in self.outcomes:
                after = b + placed * multiplier
                moved = s if multiplier == 0 else states.move(s, stake, placed, multiplier)
                ruined = after < minimum  # ends here with its exact bankroll
                if ruined.any():
                    ended_bank = np.concatenate([ended_bank, after[ruined]])
                    ended_prob = np.concatenate([ended_prob, p[ruined] * chance])
                c, ms, mp, split = snap(after[~ruined], moved[~ruined], p[~ruined] * chance, initial, grid)
                interpolated += split
                parts_c.append(c)
                parts_s.append(ms)
                parts_p.append(mp)
            held = sum(len(x) for x in parts_c)
            if held > self.max_states:
                raise ExactLimitError(
                    f"the exact analysis of strategy {self.label!r} needs more than "
                    f"{self.max_states:,} states (bankroll x progression state) by round {t + 1}; "
                    "analyse fewer rounds (--rounds) or a smaller bankroll"
                )
            cell, state, prob = merge_pairs(np.concatenate(parts_c), np.concatenate(parts_s), np.concatenate(parts_p))
            ended_bank, ended_prob = merge_values(ended_bank, ended_prob)
            most = max(most, len(cell))
        bank = np.concatenate([ended_bank, initial + cell * grid])
        prob = np.concatenate([ended_prob, prob])
        return self._result(rounds, bank, prob, slice(None), ruin, wagered, most, interpolated, band_rows if bands else None, played)

    def _result(
        self,
        rounds: int,
        bank: np.ndarray,
        prob: np.ndarray,
        kept: np.ndarray | slice,
        ruin: np.ndarray,
        wagered: float,
        states: int,
        interpolated: float,
        band_rows: list[list[float]] | None,
        played: float,
    ) -> ExactResult:
        """The figures of ``rounds`` rounds from every session's final bankroll ``bank`` and its chance ``prob``.

        ``kept`` selects the finals listed and read for the quantiles (the others have no chance); ``band_rows`` are
        the bands of every round, when kept; the other arguments are carried as they are.
        """
        config = self.config
        initial = config.bankroll_cents * MICROS_PER_CENT
        expected_final = float((prob * bank).sum()) / MICROS_PER_UNIT
        p_goal, p_loss = session_rule_chances(bank, prob, initial, config.table_min_cents * MICROS_PER_CENT, *config.session_rules())
        finals, chances = bank[kept], prob[kept]
        return ExactResult(
            strategy=self.label,
            rounds=rounds,
            risk_of_ruin=float(ruin[-1]),
            p_profit=float(prob[bank > initial].sum()),
            expected_net=expected_final - initial / MICROS_PER_UNIT,
            expected_wagered=wagered,
            final_bankroll_quantiles={str(q): v for q, v in zip(QUANTILES, lower_quantiles(finals, chances, QUANTILES), strict=True)},
            ruin_curve=ruin,
            states=states,
            interpolated=interpolated,
            bands=None if band_rows is None else np.asarray(band_rows, dtype=np.float64),
            expected_rounds=played,
            p_win_goal=p_goal,
            p_stop_loss=p_loss,
            final_bankrolls=finals,
            final_chances=chances,
        )
