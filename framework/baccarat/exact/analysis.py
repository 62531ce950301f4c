"""Exact session analysis: the distribution of a session's bankroll, by a dynamic program over its states.

For rounds that are independent, a session of a composed strategy is a
Markov chain on (bankroll, progression state): before each round the engine's
rules decide what is bet, and the round's result is drawn from the exact
off-the-top distribution of the bet's multipliers (:func:`baccarat.odds.bet_odds.bet_distribution`).
This module carries the whole distribution round by round, in exact money
(integer micro-units, the ledger's own scale), applying exactly what the
engine and :class:`baccarat.plugin.compose.Composed` apply:

1. a bankroll below the table minimum is ruin: no more bets;
2. a stop rule that holds (profit and round limits) ends the betting;
3. the selector's side (a fixed bet, or a coin: the chance of each side);
4. a stake above the table maximum restarts the progression;
5. the stake, cut to the table maximum and to the bankroll rounded down to the
   cent, not placed when that leaves less than the table minimum;
6. the progression moves on a win or a loss (its own ``won``/``lost``), not on a push.

States are kept sparse: only the (bankroll, state) pairs that can occur, each
with its probability (double precision). For the ``single-deck`` rules (one
deck reshuffled after every round) the rounds are independent and the
figures are exact; for shoes of several rounds they are the
independent-rounds approximation. ``docs/exact.md`` describes the method.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from baccarat.engine.reference import SessionConfig, strategy_rng
from baccarat.errors import InputError
from baccarat.odds.bet_odds import bet_distribution
from baccarat.odds.settlement import MICROS_PER_CENT, MICROS_PER_UNIT
from baccarat.plugin.compose import Composed
from baccarat.plugin.exact_forms import ExactProgression, StopLimits
from baccarat.plugin.strategy import Progression, SessionInfo, Strategy, cents_to_decimal
from baccarat.table.rules import Rules

MAX_STATES = 3_000_000
"""Most (bankroll, progression state) pairs one analysis may hold at once (about 100 bytes each at the peak of a round)."""

QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
"""Quantiles of the final bankroll reported (the same as the report's bankroll bands)."""

_SLACK = 1e-12  # a cumulative probability this close below a quantile level reaches it (rounding of sums)


class ExactLimitError(InputError):
    """An exact analysis would hold more states than :data:`MAX_STATES` allows."""


@dataclass(frozen=True)
class Skipped:
    """A strategy the exact analysis cannot handle, and why."""

    strategy: str
    reason: str


@dataclass(frozen=True)
class ExactResult:
    """The exact distribution of one strategy's session: figures, ruin curve and (when asked) bankroll quantiles."""

    strategy: str
    rounds: int
    risk_of_ruin: float
    """Chance that the bankroll falls below the table minimum during the session."""
    p_profit: float
    """Chance that the session ends above the initial bankroll."""
    expected_net: float
    expected_wagered: float
    final_bankroll_quantiles: dict[str, float]
    ruin_curve: np.ndarray
    """Chance of ruin by the end of each round, round 0 (the start) first."""
    states: int
    """The most (bankroll, progression state) pairs held at once."""
    interpolated: float = 0.0
    """Probability moved between two neighbouring grid points, summed over rounds (0 when every bankroll stayed on the grid)."""
    bands: np.ndarray | None = None
    """With ``bands``: rows (round, 5%, 25%, 50%, 75%, 95% bankroll quantiles), round 0 first."""

    def to_json(self) -> dict[str, Any]:
        """Return the figures as plain JSON data (``ruin_curve`` as a list, round 0 first)."""
        return {"strategy": self.strategy, "risk_of_ruin": self.risk_of_ruin, "p_profit": self.p_profit,
                "expected_net": self.expected_net, "expected_wagered": self.expected_wagered,
                "final_bankroll_quantiles": dict(self.final_bankroll_quantiles),
                "interpolated": self.interpolated, "ruin_curve": [float(x) for x in self.ruin_curve]}


@dataclass(frozen=True)
class ExactAnalysis:
    """The exact analysis of an experiment's strategies."""

    rules: str
    rounds: int
    exact: bool
    """True when the rounds are truly independent (one deck reshuffled after every round)."""
    results: list[ExactResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return the analysis as the object ``baccarat exact --json`` prints."""
        return {"rules": self.rules, "rounds": self.rounds, "exact": self.exact,
                "strategies": [r.to_json() for r in self.results],
                "skipped": [{"strategy": s.strategy, "reason": s.reason} for s in self.skipped]}


def rounds_independent(rules: Rules) -> bool:
    """Tell whether the rounds dealt under ``rules`` are independent (a fresh shoe every round)."""
    return rules.reshuffle_every_round


def session_rounds(rules: Rules, config: SessionConfig, rounds: int | None) -> int:
    """Return the rounds of a session: ``rounds`` when given, else ``shoes_per_session`` for one-round shoes.

    Shoes of several rounds hold a varying number of rounds, so ``rounds``
    must be given for them; raise :class:`InputError` when it is not.
    """
    if rounds is not None:
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise InputError(f"the number of rounds must be a whole number of at least 1, not {rounds!r}")
        return rounds
    if rules.reshuffle_every_round:
        return config.shoes_per_session
    raise InputError(f"the rules {rules.name!r} deal shoes of many rounds, so a session's length in rounds varies; "
                     "give it with --rounds N")


def analyse_experiment(experiment: Any, rounds: int | None = None, bands: bool = False,
                       max_states: int | None = None) -> ExactAnalysis:
    """Analyse every strategy of ``experiment`` (an :class:`baccarat.experiment.model.Experiment`) exactly.

    Strategies without an exact form are listed in ``skipped`` with the
    reason. With ``bands``, each result also holds the bankroll quantiles
    after every round (for the report).
    """
    from baccarat.plugin.manager import registry

    found = registry(experiment.plugins_dirs)
    forms = found.exact_forms()
    n = session_rounds(experiment.rules, experiment.session, rounds)
    analysis = ExactAnalysis(experiment.rules.name, n, rounds_independent(experiment.rules)
                             and experiment.shoes.get("source") == "seeded")
    for entry in experiment.strategies:
        cls, params = found.configure(entry.use, entry.params)
        outcome = analyse_strategy(entry.name, cls, params, experiment.rules, experiment.session, n, forms,
                                   seed=experiment.seed, bands=bands, max_states=max_states or MAX_STATES)
        (analysis.results if isinstance(outcome, ExactResult) else analysis.skipped).append(outcome)
    return analysis


def analyse_strategy(label: str, cls: type[Strategy], params: Mapping[str, Any], rules: Rules, config: SessionConfig,
                     rounds: int, forms: Mapping[type, Any], seed: int = 0, bands: bool = False,
                     max_states: int = MAX_STATES) -> ExactResult | Skipped:
    """Return the exact distribution of a session of strategy ``cls`` with ``params``, or why it cannot be had.

    ``forms`` maps piece classes to their exact forms (:meth:`baccarat.plugin.manager.Registry.exact_forms`).
    Raise :class:`ExactLimitError` when the analysis would hold more than ``max_states`` states.
    """
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return Skipped(label, "a free-form strategy: its bets are its own code, which has no exact form "
                              "(only a progression on a side can be analysed)")
    info = SessionInfo(1, rules, cents_to_decimal(config.bankroll_cents), cents_to_decimal(config.table_min_cents),
                       cents_to_decimal(config.table_max_cents), strategy_rng(seed, label, 1))
    strategy = cls(info, **params)
    progression_form = forms.get(cls.progression)
    if not isinstance(progression_form, ExactProgression):
        return Skipped(label, f"progression {cls.progression.name!r} has no exact form "
                              "(its plugin registers none with register_exact_forms)")
    selector = strategy.chooser
    selector_form = forms.get(type(selector))
    if selector_form is None:
        return Skipped(label, f"side {params.get('side')!r} has no exact form: it chooses its bet from the rounds "
                              "already dealt (or its plugin registers none), and the analysis needs a side whose "
                              "chances do not depend on them")
    limits = []
    for rule in strategy.stops:
        rule_form = forms.get(type(rule))
        if rule_form is None:
            return Skipped(label, f"stop rule {type(rule).name!r} has no exact form "
                                  "(its plugin registers none with register_exact_forms)")
        limits.append(rule_form.limits(rule))
    outcomes = round_outcomes(rules, selector_form.sides(selector))
    try:
        try:
            return _DenseSession(label, copy.copy(strategy.stakes), progression_form, outcomes, config,
                                 combined_limits(limits), max_states).run(rounds, bands)
        except _TooDense:  # many progression states (Labouchere's lines, Oscar's Grind's series): held sparse
            return _Session(label, strategy.stakes, progression_form, outcomes, config, combined_limits(limits),
                            max_states).run(rounds, bands)
    except _Unplayable as exc:
        return Skipped(label, str(exc))


def round_outcomes(rules: Rules, sides: Mapping[str, Fraction]) -> list[tuple[int, float]]:
    """Return the results of one round's bet as ``(multiplier in basis points, probability)``, from the chance of each side."""
    total: dict[int, Fraction] = {}
    for side, weight in sides.items():
        for multiplier, chance in bet_distribution(rules, side).items():
            total[multiplier] = total.get(multiplier, Fraction(0)) + Fraction(weight) * chance
    return [(m, float(p)) for m, p in sorted(total.items(), reverse=True) if p]


def combined_limits(limits: Sequence[StopLimits]) -> StopLimits:
    """Return the tightest of each limit: any rule's limit that is reached stops the betting."""
    def tightest(values: list[int | None]) -> int | None:
        present = [v for v in values if v is not None]
        return min(present) if present else None

    return StopLimits(tightest([x.loss_micros for x in limits]), tightest([x.win_micros for x in limits]),
                      tightest([x.rounds for x in limits]))


class _Unplayable(Exception):
    """The strategy cannot be analysed under these settings (the reason is the message)."""


class _TooDense(Exception):
    """The progression has too many states for the dense arrays of :class:`_DenseSession`."""


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def _thaw(value: Any) -> Any:
    return [_thaw(v) for v in value] if isinstance(value, tuple) else value


class _ProgressionStates:
    """The states of one progression met so far, numbered from 0, and its moves between them, found as needed."""

    def __init__(self, proto: Progression, form: ExactProgression, max_states: int) -> None:
        self.proto = proto
        self.attrs = form.state
        self.lists = tuple(isinstance(getattr(proto, a, None), list) for a in self.attrs)
        self.reads_net = form.reads_net
        self.max_states = max_states
        self.numbers: dict[tuple, int] = {}
        self.snapshots: list[tuple] = []
        self.stake_list: list[int] = []
        self.restart_of = np.zeros(0, dtype=np.int64)
        self.moves: dict[Any, np.ndarray] = {}  # (won, multiplier) or won -> next state per state (-1 unknown)
        self.by_net: dict[tuple[int, bool, int], int] = {}
        self.add(proto)

    @property
    def stakes(self) -> np.ndarray:
        return np.asarray(self.stake_list, dtype=np.int64)

    def add(self, prog: Progression) -> int:
        try:
            snapshot = tuple(_freeze(getattr(prog, a)) for a in self.attrs)
            number = self.numbers.get(snapshot)
        except (AttributeError, TypeError) as exc:
            raise _Unplayable(f"progression {self.proto.name!r}: its exact form names a state it does not hold "
                              f"({exc})") from None
        if number is None:
            if len(self.snapshots) >= self.max_states:
                raise ExactLimitError(f"progression {self.proto.name!r} reaches more than {self.max_states:,} states")
            number = self.numbers[snapshot] = len(self.snapshots)
            self.snapshots.append(snapshot)
            self.stake_list.append(int(prog.stake))
        return number

    def instance(self, number: int) -> Progression:
        prog = copy.copy(self.proto)
        for attr, value, is_list in zip(self.attrs, self.snapshots[number], self.lists, strict=True):
            setattr(prog, attr, _thaw(value) if is_list else value)
        return prog

    def step(self, number: int, action: Callable[[Progression], None]) -> int:
        prog = self.instance(number)
        try:
            action(prog)
        except Exception as exc:
            raise _Unplayable(f"progression {self.proto.name!r} raised {type(exc).__name__}: {exc}") from None
        return self.add(prog)

    def _lookup(self, table: np.ndarray, states: np.ndarray, fill: Callable[[int], int]) -> tuple[np.ndarray, np.ndarray]:
        """Return ``table`` grown to every state, with the entries of ``states`` filled by ``fill``, and their values."""
        if len(table) < len(self.snapshots):
            table = np.concatenate([table, np.full(len(self.snapshots) - len(table), -1, dtype=np.int64)])
        values = table[states]
        if (values < 0).any():
            for number in np.unique(states[values < 0]).tolist():
                target = fill(number)
                if len(table) < len(self.snapshots):
                    table = np.concatenate([table, np.full(len(self.snapshots) - len(table), -1, dtype=np.int64)])
                table[number] = target
            values = table[states]
        return table, values

    def restart(self, states: np.ndarray) -> np.ndarray:
        """Return the state each of ``states`` restarts to."""
        self.restart_of, values = self._lookup(self.restart_of, states, lambda n: self.step(n, lambda p: p.restart()))
        return values

    def move(self, states: np.ndarray, stake: np.ndarray, placed: np.ndarray, multiplier: int) -> np.ndarray:
        """Return the states after bets of ``placed`` cents (``stake`` asked) that ended with ``multiplier``."""
        won = multiplier > 0
        nets = placed * multiplier
        if not self.reads_net:
            key: Any = won
        else:
            key = (won, multiplier)
        table = self.moves.get(key, np.zeros(0, dtype=np.int64))

        def fill(number: int) -> int:
            net = self.stake_list[number] * multiplier
            return self.step(number, (lambda p: p.won(net)) if won else (lambda p: p.lost(net)))

        uncapped = placed == stake if self.reads_net else np.ones(len(states), dtype=bool)
        if uncapped.all():
            table, values = self._lookup(table, states, fill)
            self.moves[key] = table
            return values
        values = np.empty(len(states), dtype=np.int64)
        table, values[uncapped] = self._lookup(table, states[uncapped], fill)
        self.moves[key] = table
        for row in np.flatnonzero(~uncapped).tolist():  # a capped bet: the move reads the amount actually won or lost
            number, net = int(states[row]), int(nets[row])
            target = self.by_net.get((number, won, net))
            if target is None:
                target = self.by_net[(number, won, net)] = self.step(
                    number, (lambda p, net=net: p.won(net)) if won else (lambda p, net=net: p.lost(net)))
            values[row] = target
        return values


DENSE_CELLS = 4_000_000
"""Largest (progression state x grid point) space merged by counting into a dense array; larger ones are sorted."""


def _merge(cell: np.ndarray, state: np.ndarray, prob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Add up the probabilities of equal (state, grid point) pairs; drop pairs whose probability is 0."""
    keep = prob > 0
    cell, state, prob = cell[keep], state[keep], prob[keep]
    if not len(cell):
        return cell, state, prob
    low = int(cell.min())
    span = int(cell.max()) - low + 1
    width = int(state.max()) + 1
    keys = state * span + (cell - low)
    if width * span <= DENSE_CELLS:
        total = np.bincount(keys, weights=prob, minlength=width * span)
        keys = np.flatnonzero(total)
        merged = total[keys]
    else:
        keys, inverse = np.unique(keys, return_inverse=True)
        merged = np.bincount(inverse.ravel(), weights=prob)
    return keys % span + low, keys // span, merged


def _merge_values(value: np.ndarray, prob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
    cents = math.gcd(int(proto.unit), config.bankroll_cents, config.table_min_cents, config.table_max_cents)
    for value in vars(proto).values():
        for item in (value if isinstance(value, list) else [value]):
            if type(item) is int and item >= 100:  # an amount of money in cents, not a count
                cents = math.gcd(cents, item)
    step = 0
    for multiplier, _ in outcomes:
        step = math.gcd(step, abs(multiplier))
    return cents * max(step, 1)


def _snap(bank: np.ndarray, state: np.ndarray, prob: np.ndarray, origin: int,
          grid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
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
    return (np.concatenate([cell, cell[off] + 1]), np.concatenate([state, state[off]]),
            np.concatenate([prob, upper]), split)


def _quantiles(bank: np.ndarray, prob: np.ndarray, levels: Sequence[float]) -> list[float]:
    """Return the lower quantiles of a discrete distribution of bankrolls (micro-units), in currency units."""
    order = np.argsort(bank, kind="stable")
    values, cumulative = bank[order], np.cumsum(prob[order])
    total = cumulative[-1]
    picks = np.searchsorted(cumulative, np.asarray(levels) * total - _SLACK)
    return [int(values[min(k, len(values) - 1)]) / MICROS_PER_UNIT for k in picks.tolist()]


class _Session:
    """The dynamic program of one strategy's session.

    Sessions still betting are held as (grid point, progression state,
    probability); sessions that no longer bet (ruined, or stopped by a stop
    rule) as (exact bankroll, probability): they never move again.
    """

    def __init__(self, label: str, proto: Progression, form: ExactProgression, outcomes: list[tuple[int, float]],
                 config: SessionConfig, limits: StopLimits, max_states: int) -> None:
        self.label = label
        self.states = _ProgressionStates(proto, form, max_states)
        self.outcomes = outcomes
        self.config = config
        self.limits = limits
        self.max_states = max_states
        self.grid = bankroll_grid(proto, outcomes, config)

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
        wagered = interpolated = 0.0
        most = 1
        for t in range(0, rounds + 1):
            bank = initial + cell * grid
            done = (bank < minimum) | (self._stopped(bank, initial, t + 1) if t < rounds else False)
            if done.any():
                ended_bank, ended_prob = _merge_values(np.concatenate([ended_bank, bank[done]]),
                                                       np.concatenate([ended_prob, prob[done]]))
                cell, state, prob, bank = cell[~done], state[~done], prob[~done], bank[~done]
            ruin[t] = ended_prob[ended_bank < minimum].sum()
            if bands and t:
                band_rows.append([t, *_quantiles(np.concatenate([ended_bank, bank]),
                                                 np.concatenate([ended_prob, prob]), QUANTILES)])
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
                raise _Unplayable(f"its progression asks for {cents_to_decimal(int(stake[low][0]))}, below the table "
                                  f"minimum {cents_to_decimal(table_min)}, and a run stops with an error there")
            placed = np.minimum(np.minimum(stake, table_max), bank // MICROS_PER_CENT)
            bet = placed >= table_min
            wagered += float((prob[bet] * placed[bet]).sum()) / 100
            parts_c, parts_s, parts_p = [cell[~bet]], [state[~bet]], [prob[~bet]]
            s, b, p, stake, placed = state[bet], bank[bet], prob[bet], stake[bet], placed[bet]
            for multiplier, chance in self.outcomes:
                after = b + placed * multiplier
                moved = s if multiplier == 0 else states.move(s, stake, placed, multiplier)
                ruined = after < minimum  # ends here with its exact bankroll
                if ruined.any():
                    ended_bank = np.concatenate([ended_bank, after[ruined]])
                    ended_prob = np.concatenate([ended_prob, p[ruined] * chance])
                c, ms, mp, split = _snap(after[~ruined], moved[~ruined], p[~ruined] * chance, initial, grid)
                interpolated += split
                parts_c.append(c)
                parts_s.append(ms)
                parts_p.append(mp)
            held = sum(len(x) for x in parts_c)
            if held > self.max_states:
                raise ExactLimitError(f"the exact analysis of strategy {self.label!r} needs more than "
                                      f"{self.max_states:,} states (bankroll x progression state) by round {t + 1}; "
                                      "analyse fewer rounds (--rounds) or a smaller bankroll")
            cell, state, prob = _merge(np.concatenate(parts_c), np.concatenate(parts_s), np.concatenate(parts_p))
            ended_bank, ended_prob = _merge_values(ended_bank, ended_prob)
            most = max(most, len(cell))
        bank = np.concatenate([ended_bank, initial + cell * grid])
        prob = np.concatenate([ended_prob, prob])
        expected_final = float((prob * bank).sum()) / MICROS_PER_UNIT
        return ExactResult(
            strategy=self.label, rounds=rounds, risk_of_ruin=float(ruin[-1]),
            p_profit=float(prob[bank > initial].sum()), expected_net=expected_final - initial / MICROS_PER_UNIT,
            expected_wagered=wagered,
            final_bankroll_quantiles={str(q): v for q, v in zip(QUANTILES, _quantiles(bank, prob, QUANTILES), strict=True)},
            ruin_curve=ruin, states=most, interpolated=interpolated,
            bands=np.asarray(band_rows, dtype=np.float64) if bands else None)


class _DenseSession(_Session):
    """The same dynamic program with each progression state's probabilities in a dense array over the grid.

    A row of probabilities moves by whole slices: every grid point from which
    the stake is not cut by the bankroll wins or loses the same amount, so it
    shifts by the same number of points (split between two neighbouring
    shifts when the amount is off the grid, as :func:`_snap` splits a
    bankroll). The few points where the bankroll cuts the stake are played
    one by one. Raises :class:`_TooDense` when the progression states times
    the grid points exceed :data:`DENSE_CELLS`.
    """

    def run(self, rounds: int, bands: bool) -> ExactResult:
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
                    ended_bank, ended_prob = _merge_values(ended_bank, ended_prob)
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
                    raise _Unplayable(f"its progression asks for {cents_to_decimal(stake)}, below the table minimum "
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
                wagered += mass * asked / 100
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
                wagered += float((probs[bet] * placed[bet]).sum()) / 100
                scatter.append((numbers[~bet], cells[~bet], probs[~bet]))
                b, n, p, stake, placed = bank[cells][bet], numbers[bet], probs[bet], stake[bet], placed[bet]
                for multiplier, chance in self.outcomes:
                    after = b + placed * multiplier
                    moved = n if multiplier == 0 else states.move(n, stake, placed, multiplier)
                    ruined = after < minimum
                    ended_bank = np.concatenate([ended_bank, after[ruined]])
                    ended_prob = np.concatenate([ended_prob, p[ruined] * chance])
                    c, ms, mp, split = _snap(after[~ruined], moved[~ruined], p[~ruined] * chance, initial, grid)
                    interpolated += split
                    scatter.append((ms, c - base, mp))
            count = len(states.snapshots)
            top = max([start + len(part) for _, start, part in pieces]
                      + [int(i.max()) + 1 for _, i, _ in scatter if len(i)] + [1])
            if count * top > min(DENSE_CELLS, self.max_states):
                raise _TooDense
            prob = np.zeros((count, top))
            for target, start, part in pieces:
                prob[target, start:start + len(part)] += part
            for numbers, cells, probs in scatter:
                np.add.at(prob, (numbers, cells), probs)
            nonzero = np.flatnonzero(prob.any(axis=0))
            prob = prob[:, : (nonzero[-1] + 1 if len(nonzero) else 1)]
            ended_bank, ended_prob = _merge_values(ended_bank, ended_prob)
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
                QUANTILES, _quantiles(all_bank[keep], all_prob[keep], QUANTILES), strict=True)},
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
        return _quantiles(values[keep], weights[keep], QUANTILES)
