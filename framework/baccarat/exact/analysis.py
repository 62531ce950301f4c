"""Exact session analysis: what can be analysed, and the analysis of an experiment's strategies.

For rounds that are independent, a session of a composed strategy is a
Markov chain on (bankroll, progression state): before each round the engine's
rules decide what is bet, and the round's result is drawn from the exact
off-the-top distribution of the bet's multipliers (:func:`baccarat.odds.exact_odds.bet_distribution`).
The dynamic programs (:mod:`baccarat.exact.dense`, :mod:`baccarat.exact.sparse`)
carry the whole distribution round by round, in exact money (integer
micro-units, the ledger's own scale), applying exactly what the engine and
:class:`baccarat.plugin.compose.Composed` apply:

1. a bankroll below the table minimum is ruin: no more bets;
2. a stop rule that holds (profit and round limits) ends the betting;
3. the selector's side (a fixed bet, or a coin: the chance of each side);
4. a stake above the table maximum restarts the progression;
5. the stake, cut to the table maximum and to the bankroll rounded down to the
   cent, not placed when that leaves less than the table minimum;
6. the progression moves on a win or a loss (its own ``won``/``lost``), not on a push.

This module finds each strategy's exact forms (or why it has none), the
round's outcomes and the stop limits, and hands them to the dense program,
or to the sparse one when the progression has too many states. For the
``single-deck`` rules (one deck reshuffled after every round) the rounds are
independent and the figures are exact; for shoes of several rounds they are
the independent-rounds approximation. ``docs/exact.md`` describes the method.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from baccarat.engine.reference import SessionConfig
from baccarat.errors import InputError, StrategyError, code_homes, raised_at
from baccarat.exact import bounds
from baccarat.exact.bounds import ExactLimitError, ExactWorkError, TooDense, Unplayable
from baccarat.exact.dense import DenseSession
from baccarat.exact.results import ExactAnalysis, ExactResult, Skipped
from baccarat.exact.ruin_bankroll import smallest_bankroll
from baccarat.exact.sparse import SparseSession
from baccarat.money import cents_to_decimal
from baccarat.odds.exact_odds import bet_distribution
from baccarat.plugin.compose import Composed
from baccarat.plugin.exact_forms import ExactProgression, StopLimits
from baccarat.plugin.manager import registry
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.vector import is_vector
from baccarat.plugin.view import SessionInfo
from baccarat.shoes.seeded import seeded_table
from baccarat.streams import strategy_rng
from baccarat.table.rules import Rules


def rounds_independent(rules: Rules) -> bool:
    """Tell whether the rounds dealt under ``rules`` are independent (a fresh shoe every round)."""
    return rules.reshuffle_every_round


def session_rounds(rules: Rules, config: SessionConfig, rounds: int | None) -> int:
    """Return the rounds of a session: ``rounds`` when given, else the session's ``rounds`` (``session.rounds``),
    else ``shoes_per_session`` for one-round shoes.

    Shoes of several rounds hold a varying number of rounds, so without
    ``session.rounds`` the rounds must be given for them; raise :class:`InputError` when they are not.
    """
    if rounds is None:
        rounds = config.rounds
    if rounds is not None:
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise InputError(f"the number of rounds must be a whole number of at least 1, not {rounds!r}")
    elif rules.reshuffle_every_round:
        rounds = config.shoes_per_session
    if rounds is not None:
        if rounds > bounds.MAX_ROUNDS:
            raise InputError(
                f"an exact analysis follows at most {bounds.MAX_ROUNDS:,} rounds of a session, not {rounds:,} "
                "(its arrays and its time grow with every round); analyse fewer rounds"
            )
        return rounds
    raise InputError(f"the rules {rules.name!r} deal shoes of many rounds, so a session's length in rounds varies; give it with --rounds N")


def analyse_experiment(experiment: Any, rounds: int | None = None, bands: bool = False, max_states: int | None = None) -> ExactAnalysis:
    """Analyse every strategy of ``experiment`` (an :class:`baccarat.experiment.model.Experiment`) exactly.

    Strategies without an exact form, or whose analysis would hold more
    states than the bound allows (:class:`baccarat.exact.bounds.ExactLimitError`),
    are listed in ``skipped`` with the reason; the others are analysed. When
    none could be analysed and one was beyond the bound, that error is raised.
    With ``bands``, each result also holds the bankroll quantiles after every
    round (for the report).
    """

    found = registry(experiment.plugins_dirs)
    forms = found.exact_forms()
    n = session_rounds(experiment.rules, experiment.session, rounds)
    analysis = ExactAnalysis(experiment.rules.name, n, rounds_independent(experiment.rules) and experiment.shoes.get("source") == "seeded")
    beyond: ExactLimitError | None = None
    for entry in experiment.strategies:
        cls, params = found.configure(entry.use, entry.params)
        try:
            outcome = analyse_strategy(
                entry.name,
                cls,
                params,
                experiment.rules,
                experiment.session,
                n,
                forms,
                seed=experiment.seed,
                bands=bands,
                max_states=max_states,
            )
        except ExactLimitError as exc:  # the others are still analysed
            beyond = beyond or exc
            limit = "work" if isinstance(exc, ExactWorkError) else "state"
            outcome = Skipped(entry.name, f"beyond the {limit} limit: {exc}")
        (analysis.results if isinstance(outcome, ExactResult) else analysis.skipped).append(outcome)
    if beyond is not None and not analysis.results:
        raise beyond
    return analysis


def analyse_strategy(
    label: str,
    cls: type[Strategy],
    params: Mapping[str, Any],
    rules: Rules,
    config: SessionConfig,
    rounds: int,
    forms: Mapping[type, Any],
    seed: int = 0,
    bands: bool = False,
    max_states: int | None = None,
) -> ExactResult | Skipped:
    """Return the exact distribution of a session of strategy ``cls`` with ``params``, or why it cannot be had.

    ``forms`` maps piece classes to their exact forms (:meth:`baccarat.plugin.registry.Registry.exact_forms`).
    Raise :class:`baccarat.exact.bounds.ExactLimitError` when the analysis would hold more than ``max_states``
    states (default :data:`baccarat.exact.bounds.MAX_STATES`).
    """
    max_states = max_states or bounds.MAX_STATES
    if is_vector(cls):
        return Skipped(
            label,
            "a vectorised strategy: its bets are its own code, which has no exact form (only a progression on a side can be analysed)",
        )
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return Skipped(
            label, "a free-form strategy: its bets are its own code, which has no exact form (only a progression on a side can be analysed)"
        )
    info = SessionInfo(
        1,
        rules,
        cents_to_decimal(config.bankroll_cents),
        cents_to_decimal(config.table_min_cents),
        cents_to_decimal(config.table_max_cents),
        strategy_rng(seed, label, 1),
    )
    strategy = cls(info, **params)
    progression_form = forms.get(cls.progression)
    if not isinstance(progression_form, ExactProgression):
        return Skipped(
            label, f"progression {cls.progression.name!r} has no exact form (its plugin registers none with register_exact_forms)"
        )
    selector = strategy.chooser
    selector_form = forms.get(type(selector))
    if selector_form is None:
        return Skipped(
            label,
            f"side {params.get('side')!r} has no exact form: it chooses its bet from the rounds "
            "already dealt (or its plugin registers none), and the analysis needs a side whose "
            "chances do not depend on them",
        )
    limits = []
    for rule in strategy.stops:
        rule_form = forms.get(type(rule))
        if rule_form is None:
            return Skipped(label, f"stop rule {type(rule).name!r} has no exact form (its plugin registers none with register_exact_forms)")
        limits.append(form_answer(f"stop rule {type(rule).name!r}", rule, functools.partial(rule_form.limits, rule)))
    limits.append(session_limits(config))
    sides = form_answer(f"side {params.get('side')!r}", selector, lambda: selector_form.sides(selector))
    outcomes = round_outcomes(rules, checked_chances(sides, f"side {params.get('side')!r}", selector))
    try:
        try:
            session = DenseSession(
                label, copy.copy(strategy.stakes), progression_form, outcomes, config, combined_limits(limits), max_states
            )
            refuse_beyond_the_work_bound(session, rounds)
            return session.run(rounds, bands)
        except TooDense:  # many progression states (Labouchere's lines, Oscar's Grind's series): held sparse
            return SparseSession(label, strategy.stakes, progression_form, outcomes, config, combined_limits(limits), max_states).run(
                rounds, bands
            )
    except Unplayable as exc:
        return Skipped(label, str(exc))


def analyse_session(
    use: str,
    params: Mapping[str, Any],
    rules: Rules,
    config: SessionConfig,
    rounds: int | None = None,
    label: str | None = None,
    plugins_dirs: Sequence[str] = (),
    max_states: int | None = None,
) -> ExactResult | Skipped:
    """Return the exact distribution of a session of the registered strategy ``use`` with ``params``, or why it cannot be had.

    The session is ``config``: its bankroll, table limits, length
    (``config.rounds``, unless ``rounds`` is given: :func:`session_rounds`)
    and session rules (``config.win_goal_cents``, ``config.stop_loss_cents``).
    The strategies are those of the plugins of ``plugins_dirs`` and the
    built-in ones. Raise :class:`InputError` for a session without a length,
    :class:`ExactLimitError` beyond the bounds.
    """

    found = registry(tuple(plugins_dirs))
    cls, full = found.configure(use, dict(params))
    n = session_rounds(rules, config, rounds)
    return analyse_strategy(label or use, cls, full, rules, config, n, found.exact_forms(), max_states=max_states)


def refuse_beyond_the_work_bound(session: SparseSession, rounds: int) -> None:
    """Raise :class:`ExactLimitError` when ``rounds`` rounds would take more updates than :data:`bounds.MAX_UPDATES`,
    with the estimate and the time it implies in the message."""
    updates = session.estimated_updates(rounds)
    if updates > bounds.MAX_UPDATES:
        minutes = updates * bounds.SECONDS_PER_UPDATE / 60
        took = f"{minutes:,.0f} minutes" if minutes < 120 else f"{minutes / 60:,.1f} hours"
        most = max(1, _rounds_within(session, bounds.MAX_UPDATES, rounds))
        raise ExactWorkError(
            f"{rounds:,} rounds would take about {updates:.1e} updates (about {took}), over the "
            f"{bounds.MAX_UPDATES:.0e} an analysis may take: at most about {most:,} rounds with this bankroll, "
            "table maximum and unit (--rounds)"
        )


def _rounds_within(session: SparseSession, budget: int, rounds: int) -> int:
    """The most rounds whose estimated updates stay within ``budget`` (the estimate grows with the rounds)."""
    low, high = 0, rounds
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if session.estimated_updates(middle) <= budget else (low, middle - 1)
    return low


def form_answer(what: str, piece: Any, ask: Callable[[], Any]) -> Any:
    """Return what an exact form answers; one that raises is a StrategyError naming the piece and the line of its code."""
    try:
        return ask()
    except Exception as exc:
        raise StrategyError(
            f"the exact form of {what} raised {type(exc).__name__}: {str(exc).strip() or '-'}{raised_at(exc, code_homes([type(piece)]))}"
        ) from None


def checked_chances(sides: Any, what: str, piece: Any) -> dict[str, Fraction]:
    """Return an exact selector's ``{side: probability}`` as fractions; refuse any that is not a probability, or a sum other than 1."""
    where = "".join(f" (in {home.rstrip('/')})" for home in code_homes([type(piece)])[:1])
    if not isinstance(sides, Mapping) or not sides:
        raise StrategyError(f"the exact form of {what} must give {{side: probability}}, not {sides!r}{where}")
    chances: dict[str, Fraction] = {}
    for side, chance in sides.items():
        try:
            value = Fraction(chance)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            raise StrategyError(
                f"the exact form of {what} gives side {side!r} the chance {chance!r}, which is not a number{where}"
            ) from None
        if not 0 <= value <= 1:
            raise StrategyError(f"the exact form of {what} gives side {side!r} the chance {value}, outside 0 to 1{where}")
        chances[str(side)] = value
    total = sum(chances.values(), Fraction(0))
    if total != 1:
        raise StrategyError(f"the exact form of {what} gives chances that add up to {total}, not 1{where}")
    return chances


def round_outcomes(rules: Rules, sides: Mapping[str, Fraction]) -> list[tuple[int, float]]:
    """Return the results of one round's bet as ``(multiplier in basis points, probability)``, from the chance of each side."""
    total: dict[int, Fraction] = {}
    for side, weight in sides.items():
        for multiplier, chance in bet_distribution(rules, side).items():
            total[multiplier] = total.get(multiplier, Fraction(0)) + Fraction(weight) * chance
    return [(m, float(p)) for m, p in sorted(total.items(), reverse=True) if p]


def session_limits(config: SessionConfig) -> StopLimits:
    """Return the session rules (``session.win_goal``, ``session.stop_loss``) as stop limits: what ends betting.

    The dealer checks them once each round is settled, a stop rule before the
    next round's bet: the same bets either way, so the dynamic program takes
    them as it takes a stop rule's limits.
    """
    win_goal, stop_loss = config.session_rules()
    return StopLimits(stop_loss, win_goal, None)


def combined_limits(limits: Sequence[StopLimits]) -> StopLimits:
    """Return the tightest of each limit: any rule's limit that is reached stops the betting."""

    def tightest(values: list[int | None]) -> int | None:
        present = [v for v in values if v is not None]
        return min(present) if present else None

    return StopLimits(
        tightest([x.loss_micros for x in limits]), tightest([x.win_micros for x in limits]), tightest([x.rounds for x in limits])
    )


AVERAGE_SHOES = 100
"""Seeded shoes dealt to measure an average session's rounds (:func:`average_session_rounds`)."""


def average_session_rounds(experiment: Any, shoes: int = AVERAGE_SHOES) -> int | None:
    """Return the rounds of an average session of ``experiment``'s seeded shoes (its first ``shoes`` shoes), or None.

    None for recorded shoes (their rounds are in the file, not dealt here).
    """
    if experiment.shoes.get("source") != "seeded":
        return None

    count = max(1, min(shoes, int(experiment.shoes["count"])))
    table = seeded_table(experiment.rules, experiment.seed, 1, count)
    return max(1, round(len(table) / count * experiment.session.shoes_per_session))


def default_session_rounds(experiment: Any, run_average: float | None = None) -> tuple[int | None, str | None]:
    """Return the rounds of a session to analyse when none is given, and where they come from.

    One-round shoes: ``(None, None)``, the session being ``shoes_per_session``
    rounds (:func:`session_rounds`). Shoes of many rounds: an average
    session, of the experiment's seeded shoes (:func:`average_session_rounds`)
    or, for recorded shoes, of a run whose sessions were ``run_average``
    rounds long on average; ``(None, None)`` when neither is known.
    """
    if experiment.session.rounds is not None:
        return experiment.session.rounds, "session.rounds"
    if experiment.rules.reshuffle_every_round:
        return None, None
    rounds = average_session_rounds(experiment)
    if rounds is not None:
        return rounds, "an average session of the experiment's shoes"
    if run_average is not None:
        return max(1, round(run_average)), "an average session of the run"
    return None, None


def ruin_bankrolls(experiment: Any, target: float, rounds: int | None = None, max_states: int | None = None) -> ExactAnalysis:
    """Return, for every strategy of ``experiment`` with an exact form, the smallest bankroll whose risk of ruin is at most ``target``.

    The bankrolls tried are whole numbers of table minimums
    (:func:`baccarat.exact.ruin_bankroll.smallest_bankroll`); the analysis's
    ``results`` hold :class:`baccarat.exact.ruin_bankroll.RuinBankroll` figures.
    """

    found = registry(experiment.plugins_dirs)
    forms = found.exact_forms()
    n = session_rounds(experiment.rules, experiment.session, rounds)
    analysis = ExactAnalysis(experiment.rules.name, n, rounds_independent(experiment.rules) and experiment.shoes.get("source") == "seeded")
    step = experiment.session.table_min_cents
    for entry in experiment.strategies:
        cls, params = found.configure(entry.use, entry.params)

        def analyse(bankroll_cents: int, cls: Any = cls, params: Any = params, label: str = entry.name) -> ExactResult | Skipped:
            config = dataclasses.replace(experiment.session, bankroll_cents=bankroll_cents)
            return analyse_strategy(label, cls, params, experiment.rules, config, n, forms, seed=experiment.seed, max_states=max_states)

        outcome = smallest_bankroll(entry.name, analyse, step, target)
        (analysis.skipped if isinstance(outcome, Skipped) else analysis.results).append(outcome)  # type: ignore[arg-type]
    return analysis
