"""The figures of ``baccarat plan``: for each strategy, its session's exact figures, the bankroll a target risk needs,
what the house gives back and what an hour costs, and one sentence of conclusion.

Every figure comes from the dynamic programs of :mod:`baccarat.exact.analysis`:
the risk of ruin, the chance of reaching the win goal first (a session that
reaches it stops betting, so it ends at or above the goal, and one that does
not ends below it: the chance is that of a final bankroll at or above the
goal), the expected net result and amount wagered, and the smallest bankroll
whose risk of ruin is at most the target (:mod:`baccarat.exact.ruin_bankroll`).
The rebates of the rules (:mod:`baccarat.odds.rebates`) are paid apart from
the bets, at the end of the session: the rolling rebate on the expected amount
wagered, the rebate on losses on the expected net loss (the exact expectation
of ``max(0, bankroll at the start - final bankroll)``); they do not change the
risk of ruin. The loss per hour is the expected loss of a session over the
hours its hands take at the table's pace (:mod:`baccarat.table.pace`): a
session whose betting a stop rule ended sits out its remaining hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from baccarat.exact.analysis import analyse_experiment, ruin_bankrolls
from baccarat.exact.results import ExactResult, Skipped
from baccarat.exact.ruin_bankroll import RuinBankroll
from baccarat.money import MICROS_PER_CENT, decimal_to_micros
from baccarat.odds.rebates import session_rebate
from baccarat.table.pace import hours

SIMULATION = "simulation"
"""The method of a strategy's figures when the dynamic program cannot analyse it: simulated sessions."""


@dataclass(frozen=True)
class StrategyPlan:
    """One strategy's figures in a plan (money in currency units, chances as fractions)."""

    strategy: str
    risk_of_ruin: float
    p_profit: float
    p_goal: float | None
    """Chance of reaching the win goal before the stop-loss, ruin or the end (None without a win goal)."""
    p_stop_loss: float | None
    """Chance of ending the session at or below the stop-loss (None without one)."""
    expected_net: float
    """Expected result of the bets at the table (before rebates)."""
    expected_wagered: float
    rolling_rebate: float
    """Expected rolling rebate: its share of the expected amount wagered."""
    loss_rebate: float
    """Expected rebate on the session's net loss."""
    bankroll: RuinBankroll | Skipped
    """The smallest bankroll whose risk of ruin is at most the target (or why it was not found)."""
    hours: float
    win_goal: float | None = None
    stop_loss: float | None = None
    interpolated: float = 0.0
    method: str = "exact"
    """How the figures were had: ``exact``, ``independent-rounds approximation`` or ``simulation`` (:func:`method`)."""
    simulated_sessions: int | None = None
    """With ``simulation``: the sessions simulated."""
    intervals: dict[str, tuple[float | None, float | None]] | None = None
    """With ``simulation``: the 95% interval of each simulated figure, by its JSON name."""
    note: str = ""
    """With ``simulation``: why the strategy was simulated, and how far its figures may be off."""
    conclusion: str = ""

    @property
    def expected_loss(self) -> float:
        """Expected loss of a session once the rebates are paid (negative: an expected gain)."""
        return -self.expected_net - self.rolling_rebate - self.loss_rebate

    @property
    def loss_per_hour(self) -> float:
        """Expected loss per hour at the table (the session's expected loss over its hours)."""
        return self.expected_loss / self.hours

    @property
    def bankroll_for_ruin(self) -> float | None:
        """The bankroll the target risk of ruin needs, or None when it was not found."""
        return self.bankroll.bankroll if isinstance(self.bankroll, RuinBankroll) else None

    def to_json(self) -> dict[str, Any]:
        """Return the figures as plain JSON data."""
        bankroll = self.bankroll
        return {
            "strategy": self.strategy,
            "risk_of_ruin": self.risk_of_ruin,
            "p_profit": self.p_profit,
            "p_goal_first": self.p_goal,
            "p_stop_loss": self.p_stop_loss,
            "win_goal": self.win_goal,
            "stop_loss": self.stop_loss,
            "expected_net": self.expected_net,
            "expected_wagered": self.expected_wagered,
            "rolling_rebate": self.rolling_rebate,
            "loss_rebate": self.loss_rebate,
            "expected_loss": self.expected_loss,
            "loss_per_session": self.expected_loss,
            "loss_per_hour": self.loss_per_hour,
            "bankroll_for_ruin": self.bankroll_for_ruin,
            "risk_of_ruin_at_that_bankroll": bankroll.risk_of_ruin if isinstance(bankroll, RuinBankroll) else None,
            **({"bankroll_for_ruin_reason": _why_no_bankroll(bankroll)} if self.bankroll_for_ruin is None else {}),
            "interpolated": self.interpolated,
            "method": self.method,
            **(
                {
                    "simulated_sessions": self.simulated_sessions,
                    "ci95": {k: list(v) for k, v in (self.intervals or {}).items()},
                    "note": self.note,
                }
                if self.method == SIMULATION
                else {}
            ),
            "conclusion": self.conclusion,
        }


@dataclass
class Plan:
    """The plan of an experiment's strategies: the session, the table, the target, and each strategy's figures."""

    rules: str
    rounds: int
    exact: bool
    """True when the rounds are independent (one deck reshuffled after every round): the figures are exact."""
    bankroll: float
    table_min: float
    table_max: float
    ruin_at_most: float
    hands_per_hour: float
    rolling_rebate: float
    loss_rebate: float
    strategies: list[StrategyPlan] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    rounds_from: str | None = None

    @property
    def hours(self) -> float:
        """Hours a session's hands take at the table's pace."""
        return hours(self.rounds, self.hands_per_hour)

    def by_risk(self) -> list[StrategyPlan]:
        """The strategies from the lowest risk of ruin to the highest (then by expected loss): the one that lasts longest first."""
        return sorted(self.strategies, key=lambda s: (round(s.risk_of_ruin, 12), s.expected_loss))

    def to_json(self) -> dict[str, Any]:
        """Return the plan as the object ``baccarat plan --json`` prints."""
        return {
            "rules": self.rules,
            "rounds": self.rounds,
            "exact": self.exact,
            "method": method(self.exact),
            "bankroll": self.bankroll,
            "table_min": self.table_min,
            "table_max": self.table_max,
            "ruin_at_most": self.ruin_at_most,
            "hands_per_hour": self.hands_per_hour,
            "hours": self.hours,
            "rebates": {"rolling_rebate": self.rolling_rebate, "loss_rebate": self.loss_rebate},
            **({"rounds_from": self.rounds_from} if self.rounds_from else {}),
            "strategies": [s.to_json() for s in self.strategies],
            "lasts_longest": [s.strategy for s in self.by_risk()],
            "skipped": [{"strategy": s.strategy, "reason": s.reason} for s in self.skipped],
        }


def method(exact: bool) -> str:
    """Name how the figures were had: exact, or the independent-rounds approximation of shoes of many rounds."""
    return "exact" if exact else "independent-rounds approximation"


def plan_experiment(
    experiment: Any,
    rounds: int | None,
    ruin_at_most: float,
    hands_per_hour: float,
    stop_amounts: Mapping[str, tuple[Decimal | None, Decimal | None]],
    max_states: int | None = None,
) -> Plan:
    """Return the plan of every strategy of ``experiment`` (a resolved :class:`baccarat.experiment.model.Experiment`).

    ``stop_amounts`` gives each strategy's (win goal, stop-loss), the amounts
    of its stop rules, by label. Strategies the dynamic program cannot analyse
    are listed in ``skipped`` with the reason.
    """
    analysis = analyse_experiment(experiment, rounds=rounds, max_states=max_states)
    needs = ruin_bankrolls(experiment, ruin_at_most, rounds=analysis.rounds, max_states=max_states)
    bankrolls: dict[str, RuinBankroll | Skipped] = {r.strategy: r for r in [*needs.results, *needs.skipped]}
    rules, session = experiment.rules, experiment.session
    plan = Plan(
        rules=rules.name,
        rounds=analysis.rounds,
        exact=analysis.exact,
        bankroll=session.bankroll_cents / 100,
        table_min=session.table_min_cents / 100,
        table_max=session.table_max_cents / 100,
        ruin_at_most=ruin_at_most,
        hands_per_hour=hands_per_hour,
        rolling_rebate=float(rules.rolling_rebate),
        loss_rebate=float(rules.loss_rebate),
        skipped=list(analysis.skipped),
    )
    initial = session.bankroll_cents * MICROS_PER_CENT
    for result in analysis.results:
        goal, loss = stop_amounts.get(result.strategy, (None, None))
        figures = strategy_plan(result, rules, initial, goal, loss, bankrolls[result.strategy], plan.hours)
        plan.strategies.append(replace(figures, method=plan_method(plan)))
    return conclude(plan)


def plan_method(plan: Plan) -> str:
    """The method of the plan's exact figures (:func:`method`)."""
    return method(plan.exact)


def conclude(plan: Plan) -> Plan:
    """Give every strategy of ``plan`` its sentence of conclusion (each says where its risk of ruin stands among the others)."""
    plan.strategies = [_with_conclusion(figures, plan) for figures in plan.strategies]
    return plan


def strategy_plan(
    result: ExactResult,
    rules: Any,
    initial: int,
    goal: Decimal | None,
    loss: Decimal | None,
    bankroll: RuinBankroll | Skipped,
    session_hours: float,
) -> StrategyPlan:
    """Return one strategy's plan figures from its exact result (``initial``: the bankroll at the start, micro-units)."""
    p_goal = None if goal is None else result.chance_of_final(at_least=initial + decimal_to_micros(goal))
    p_stop = None if loss is None else result.chance_of_final(at_most=initial - decimal_to_micros(loss))
    rolling, on_losses = session_rebate(rules, result.expected_wagered, result.expected_shortfall(initial))
    return StrategyPlan(
        strategy=result.strategy,
        risk_of_ruin=result.risk_of_ruin,
        p_profit=result.p_profit,
        p_goal=p_goal,
        p_stop_loss=p_stop,
        expected_net=result.expected_net,
        expected_wagered=result.expected_wagered,
        rolling_rebate=rolling,
        loss_rebate=on_losses,
        bankroll=bankroll,
        hours=session_hours,
        win_goal=None if goal is None else float(goal),
        stop_loss=None if loss is None else float(loss),
        interpolated=result.interpolated,
    )


def _why_no_bankroll(bankroll: RuinBankroll | Skipped) -> str:
    return bankroll.reason


def _ordinal(k: int) -> str:
    return {1: "lowest", 2: "second lowest", 3: "third lowest"}.get(k, f"{k}th lowest")


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _place(figures: StrategyPlan, plan: Plan) -> str:
    """Where the strategy's risk of ruin stands among the plan's strategies, in words (ties said as such)."""
    count = len(plan.strategies)
    if count == 1:
        return ""
    risk = round(figures.risk_of_ruin, 12)
    others = [round(s.risk_of_ruin, 12) for s in plan.strategies if s is not figures]
    lower, higher = sum(r < risk for r in others), sum(r > risk for r in others)
    tied = ", tied" if risk in others else ""
    if lower == 0:
        return f" (the lowest risk of the {count}{tied})"
    if higher == 0:
        return f" (the highest risk of the {count}{tied})"
    return f" (the {_ordinal(lower + 1)} risk of the {count}{tied})"


def _with_conclusion(figures: StrategyPlan, plan: Plan) -> StrategyPlan:
    """Return ``figures`` with its one sentence of conclusion."""
    place = _place(figures, plan)
    sessions = f"{plan.rounds:,}-hand sessions from {_money(plan.bankroll)}"
    if figures.risk_of_ruin == 0:
        ruin = f"is never ruined in {sessions}{place}"
    elif figures.risk_of_ruin < 0.0001:
        ruin = f"is ruined in less than 0.01% of {sessions}{place}"
    else:
        ruin = f"is ruined in {figures.risk_of_ruin:.2%} of {sessions}{place}"
    goal = "" if figures.p_goal is None else f", reaches its goal of +{_money(figures.win_goal or 0)} first in {figures.p_goal:.2%}"
    loss = (
        f"loses {_money(figures.expected_loss)} a session on average ({_money(figures.loss_per_hour)} an hour)"
        if figures.expected_loss >= 0
        else f"gains {_money(-figures.expected_loss)} a session on average ({_money(-figures.loss_per_hour)} an hour)"
    )
    need = (
        f"a {plan.ruin_at_most:.2%} risk of ruin needs a bankroll of {_money(figures.bankroll_for_ruin)}"
        if figures.bankroll_for_ruin is not None
        else f"the bankroll a {plan.ruin_at_most:.2%} risk of ruin needs was not found ({_why_no_bankroll(figures.bankroll)})"
    )
    simulated = f" (simulated: {figures.simulated_sessions:,} sessions)" if figures.method == SIMULATION else ""
    sentence = f"{figures.strategy}{simulated} {ruin}{goal}; it {loss} on {_money(figures.expected_wagered)} wagered, and {need}."
    return replace(figures, conclusion=sentence)
