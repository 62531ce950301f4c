"""The figures of ``baccarat plan`` for the strategies the exact analysis cannot analyse: simulated sessions.

A strategy whose side is chosen from the rounds already dealt (``follow-last``,
the roads), a free-form strategy, or one beyond the exact analysis's limits is
played by the run's own engines over seeded shoes: each session holds enough
shoes for the plan's hands (one round a shoe for ``single-deck``; for shoes
of many rounds, as many as the fewest rounds a shoe can hold requires), and
the registered stop rule ``max_rounds`` ends its betting after them. Every
figure is then a mean or a share of the sessions, with its 95% interval; the
bankroll a target risk needs is the sessions' estimate
(:func:`baccarat.results.statistics.ledger_stats.bankroll_for_ruin`), which
replays each session from smaller bankrolls only, so a target that needs more
than the session's bankroll is said to.
"""

from __future__ import annotations

import dataclasses
import math
import tempfile
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from baccarat.errors import BaccaratError
from baccarat.exact.plan import SIMULATION, Plan, StrategyPlan
from baccarat.exact.results import Skipped
from baccarat.exact.ruin_bankroll import RuinBankroll
from baccarat.execution.runner import run_to_folder
from baccarat.experiment.model import Experiment, StrategyEntry
from baccarat.odds.rebates import session_rebate
from baccarat.plugin.manager import registry
from baccarat.plugin.vector import is_vector
from baccarat.results.statistics.ledger_stats import bankroll_for_ruin, wilson_of

SIMULATED_SESSIONS = 10_000
"""Sessions simulated for a strategy the exact analysis cannot analyse (``baccarat plan --simulate N``)."""
MOST_ROUNDS = 20_000_000
"""Most rounds the simulations of one plan may deal per strategy (sessions times the shoes' rounds): beyond, the strategy
stays skipped, with the sessions that would fit (a few seconds a million rounds for the built-in pieces here)."""
ROUNDS_RULE = "max_rounds"
"""The registered stop rule that ends a simulated session's betting after the plan's hands."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def fewest_rounds(rules: Any) -> int:
    """Return the fewest rounds a shoe dealt under ``rules`` can hold (a round takes at most 6 cards)."""
    if rules.reshuffle_every_round:
        return 1
    burned = 11 if rules.burn else 0  # the first card turned, then at most ten more
    return max(1, (52 * rules.decks - rules.cut_card - burned) // 6)


def simulate_skipped(
    experiment: Experiment,
    plan: Plan,
    stop_amounts: Mapping[str, tuple[Decimal | None, Decimal | None]],
    sessions: int = SIMULATED_SESSIONS,
) -> Plan:
    """Simulate every strategy of ``plan.skipped`` over ``sessions`` sessions of the plan's hands; return the plan with them.

    A strategy whose simulation fails as well stays in ``skipped``, with both reasons.
    """
    found = registry(experiment.plugins_dirs)
    rounds_key = next((next(iter(r.params)) for r in found.stop_rules if r.name == ROUNDS_RULE and len(r.params) == 1), None)
    by_label = {entry.name: entry for entry in experiment.strategies}
    still: list[Skipped] = []
    for skipped in plan.skipped:
        entry = by_label.get(skipped.strategy)
        if entry is None or rounds_key is None:
            still.append(skipped)
            continue
        if is_vector(found.strategy(entry.use)):  # the stop rule that ends a session at the plan's hands cannot wrap it
            reason = f"{skipped.reason}; nor can it be simulated (it takes no stop rule to end its sessions at the plan's hands)"
            still.append(Skipped(skipped.strategy, reason))
            continue
        dealt = sessions * math.ceil(plan.rounds / fewest_rounds(experiment.rules)) * (1 if experiment.rules.reshuffle_every_round else 80)
        if dealt > MOST_ROUNDS:
            fit = max(0, sessions * MOST_ROUNDS // dealt)
            still.append(
                Skipped(
                    skipped.strategy,
                    f"{skipped.reason}; nor was it simulated: {sessions:,} sessions of {plan.rounds:,} hands would deal about "
                    f"{dealt:,} rounds, over the {MOST_ROUNDS:,} a plan simulates (about {fit:,} sessions fit: --simulate)",
                )
            )
            continue
        try:
            figures = simulate_strategy(experiment, entry, rounds_key, plan, stop_amounts.get(entry.name, (None, None)), sessions)
        except BaccaratError as exc:
            still.append(Skipped(skipped.strategy, f"{skipped.reason}; nor could it be simulated: {exc}"))
            continue
        plan.strategies.append(dataclasses.replace(figures, note=f"simulated, the exact analysis cannot analyse it: {skipped.reason}"))
    plan.skipped = still
    return plan


def simulate_strategy(
    experiment: Experiment,
    entry: StrategyEntry,
    rounds_key: str,
    plan: Plan,
    amounts: tuple[Decimal | None, Decimal | None],
    sessions: int,
) -> StrategyPlan:
    """Play ``sessions`` sessions of ``entry`` over the plan's hands and return its plan figures, each with its 95% interval."""
    per_session = math.ceil(plan.rounds / fewest_rounds(experiment.rules))
    limit = entry.params.get(rounds_key)
    params = {**entry.params, rounds_key: plan.rounds if limit is None else min(int(limit), plan.rounds)}
    played = dataclasses.replace(
        experiment,
        name="plan",
        shoes={"source": "seeded", "seed": experiment.seed, "count": sessions * per_session},
        seeds=(experiment.seed,),
        session=dataclasses.replace(experiment.session, shoes_per_session=per_session),
        strategies=(dataclasses.replace(entry, params=params),),
        exact=False,
        report=False,
        chart_formats=(),
    )
    with tempfile.TemporaryDirectory(prefix="baccarat-plan-") as folder:
        result = run_to_folder(played, Path(folder) / "run", report=False)
        table = result.analysis.sessions.filter(pl.col("strategy") == entry.name)
        need = table.select(bankroll_for_ruin(plan.ruin_at_most)).row(0)
    return _figures(entry.name, table, need, plan, amounts, experiment.rules)


def _figures(
    label: str, table: pl.DataFrame, need: tuple[Any, ...], plan: Plan, amounts: tuple[Decimal | None, Decimal | None], rules: Any
) -> StrategyPlan:
    n = table.height
    net = table["net"].cast(pl.Float64).to_numpy()
    wagered = table["wagered"].cast(pl.Float64).to_numpy()
    ruined = int(table["ruined"].sum())
    goal, loss = amounts
    intervals: dict[str, tuple[float | None, float | None]] = {"risk_of_ruin": wilson_of(ruined, n)}
    p_goal = p_stop = None
    if goal is not None:
        reached = int((net >= float(goal)).sum())
        p_goal, intervals["p_goal_first"] = reached / n, wilson_of(reached, n)
    if loss is not None:
        stopped = int((net <= -float(loss)).sum())
        p_stop, intervals["p_stop_loss"] = stopped / n, wilson_of(stopped, n)
    shortfall = np.maximum(-net, 0.0)
    rolling, on_losses = session_rebate(rules, float(wagered.mean()), float(shortfall.mean()))
    loss_each = -net - float(rules.rolling_rebate) * wagered - float(rules.loss_rebate) * shortfall
    intervals["expected_net"] = _mean_interval(net)
    intervals["expected_wagered"] = _mean_interval(wagered)
    intervals["expected_loss"] = _mean_interval(loss_each)
    estimate, low, high = (None if v is None else float(v) for v in need)
    if estimate is not None:
        bankroll: RuinBankroll | Skipped = RuinBankroll(label, plan.ruin_at_most, estimate, None, None)
        intervals["bankroll_for_ruin"] = (low, high)
    else:
        bankroll = RuinBankroll(
            label,
            plan.ruin_at_most,
            None,
            None,
            None,
            f"more than the session's bankroll of {plan.bankroll:,.2f}, or too few sessions: the simulation replays each "
            "session from smaller bankrolls only; plan with a larger --bankroll",
        )
    return StrategyPlan(
        strategy=label,
        risk_of_ruin=ruined / n,
        p_profit=float((net > 0).mean()),
        p_goal=p_goal,
        p_stop_loss=p_stop,
        expected_net=float(net.mean()),
        expected_wagered=float(wagered.mean()),
        rolling_rebate=rolling,
        loss_rebate=on_losses,
        bankroll=bankroll,
        hours=plan.hours,
        win_goal=None if goal is None else float(goal),
        stop_loss=None if loss is None else float(loss),
        method=SIMULATION,
        simulated_sessions=n,
        intervals=intervals,
    )


def _mean_interval(values: np.ndarray) -> tuple[float, float]:
    """The 95% interval of the mean of ``values`` (normal, from their standard deviation)."""
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    mean = float(values.mean())
    return mean - half, mean + half
