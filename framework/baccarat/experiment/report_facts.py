"""What the report states about a run, taken from its experiment: :class:`~baccarat.results.report.run_facts.RunFacts`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from baccarat.engine.reference import SessionConfig
from baccarat.experiment.model import Experiment
from baccarat.money import MICROS_PER_CENT, cents_to_decimal
from baccarat.plugin.compose import fixed_bet
from baccarat.plugin.manager import registry
from baccarat.results.formatting import fmt_count
from baccarat.results.report.run_facts import RunFacts
from baccarat.results.statistics.ledger_stats import Pricing


def experiment_yaml_text(experiment: Experiment) -> str:
    """Return the experiment as YAML, its rules resolved: running it again gives the same results."""
    return yaml.safe_dump(experiment.to_mapping(), sort_keys=False, allow_unicode=True)


def shoes_text(experiment: Experiment) -> str:
    """Describe the experiment's shoes in a few words, as the report's setup table shows them."""
    shoes = experiment.shoes
    if shoes.get("source") == "recorded":
        return f"recorded shoes from {shoes.get('path')} ({shoes.get('format')} format)"
    seeds = experiment.seeds
    which = f"seed {seeds[0]}" if len(seeds) == 1 else f"for each of the seeds {', '.join(map(str, seeds))}"
    return f"{fmt_count(int(shoes.get('count', 0)))} seeded shoes, {which}"


def fixed_bets(experiment: Experiment) -> dict[str, str | None]:
    """Return each strategy's label mapped to the one bet it backs whenever it bets, or None (:func:`baccarat.plugin.compose.fixed_bet`).

    A strategy whose plugin cannot be loaded here is None: its expected edge is then treated as an estimate.
    """

    found: dict[str, str | None] = {}
    for entry in experiment.strategies:
        try:
            cls, params = registry(experiment.plugins_dirs).configure(entry.use, entry.params)
        except Exception:  # noqa: BLE001 - what cannot be resolved is not known to be fixed
            cls, params = None, {}
        found[entry.name] = None if cls is None else fixed_bet(cls, params)
    return found


def run_facts(experiment: Experiment, engines: Mapping[str, str] | None = None) -> RunFacts:
    """Return the facts the report states about a run of ``experiment``; ``engines``: which engine played each strategy, and why."""
    session = experiment.session
    return RunFacts(
        name=experiment.name,
        rules=experiment.rules.name,
        decks=experiment.rules.decks,
        one_round_shoes=experiment.rules.reshuffle_every_round,
        shoes=shoes_text(experiment),
        bankroll=cents_to_decimal(session.bankroll_cents),
        table_min=cents_to_decimal(session.table_min_cents),
        table_max=cents_to_decimal(session.table_max_cents),
        shoes_per_session=session.shoes_per_session,
        experiment_yaml=experiment_yaml_text(experiment),
        fixed_bets=fixed_bets(experiment),
        session_length=session_length_text(session),
        session_rules=session_rules_text(session),
        engines=played_engines(engines),
    )


def pricing_of(experiment: Experiment) -> Pricing:
    """The rebates of the experiment's rules and its table's pace, for the summary's rebates and loss per hour."""
    session = experiment.session
    return Pricing(
        session.bankroll_cents * MICROS_PER_CENT,
        experiment.rules.rolling_rebate,
        experiment.rules.loss_rebate,
        session.hands_per_hour,
    )


def session_length_text(session: SessionConfig) -> str:
    """Say how long a session of ``session.rounds`` rounds is (empty for whole shoes)."""
    if session.rounds is None:
        return ""
    return f"{session.rounds:,} rounds per session" + (", each on a new shoe" if session.new_shoe else "")


def session_rules_text(session: SessionConfig) -> str:
    """Say the dealer's session rules (empty when there are none)."""
    parts = []
    if session.win_goal_cents is not None:
        parts.append(f"win goal {cents_to_decimal(session.win_goal_cents):,}")
    if session.stop_loss_cents is not None:
        parts.append(f"stop-loss {cents_to_decimal(session.stop_loss_cents):,}")
    return ", ".join(parts)


def played_engines(engines: Any) -> dict[str, str]:
    """The engines a run recorded (its result's, or its manifest's ``engines``), as text by strategy; anything else is none."""
    if not isinstance(engines, Mapping):
        return {}
    return {str(label): str(engine) for label, engine in engines.items()}


def exact_analysis(experiment: Experiment) -> Callable[..., Any]:
    """Return the exact analysis of the experiment's strategies, to be called with ``run_average=``.

    The session is as long as :func:`baccarat.exact.analysis.default_session_rounds`
    says, as for ``baccarat exact`` without ``--rounds``: ``run_average`` (the
    run's mean rounds per session) serves recorded shoes. The analysis's
    ``rounds_from`` says where its rounds came from.
    """

    def analyse(run_average: float | None = None) -> Any:
        # Imported here: the exact analysis loads numba (about 1 s), which a small run never needs.
        from baccarat.exact.analysis import analyse_experiment, default_session_rounds

        rounds, source = default_session_rounds(experiment, run_average)
        return dataclasses.replace(analyse_experiment(experiment, rounds=rounds, bands=True), rounds_from=source)

    return analyse
