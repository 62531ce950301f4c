"""The experiment ``baccarat plan`` analyses, from its options: strategies by name with parameters, or an experiment file.

A strategy is given as one string, its registered name then ``key=value``
parameters (``"paroli wins=2"``, ``"labouchere line=[1,1,2]"``; values read as
YAML); that string is its label. The bankroll, unit, table limits and rules
given as options replace the experiment's. A win goal and a stop-loss are the
session rules ``session.win_goal`` and ``session.stop_loss``, as ``baccarat
run`` plays them (the dealer ends the session's betting at either, whatever the
strategy); a strategy's own stop rules named :data:`WIN_GOAL_RULE` and
:data:`STOP_LOSS_RULE` stay, and give its goal and stop-loss where the session
has none.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from baccarat.errors import InputError, StrategyError
from baccarat.experiment.model import DEFAULT_RULES, DEFAULT_SESSION, Experiment
from baccarat.experiment.resolution import load_experiment
from baccarat.files.yamlfile import parse_yaml, read_yaml
from baccarat.plugin.manager import registry

WIN_GOAL_RULE = "stop_win"
"""The registered stop rule of a strategy's own win goal: its betting stops once the session has won this much."""
STOP_LOSS_RULE = "stop_loss"
"""The registered stop rule of a strategy's own stop-loss: its betting stops once the session has lost this much."""
MAPPING_SOURCE = "<experiment>"
"""What an experiment given as a mapping is called in its errors (:func:`baccarat.experiment.load_experiment`)."""
SESSION_OPTIONS = ("bankroll", "table_min", "table_max", "win_goal", "stop_loss")
"""The options of ``baccarat plan`` that are values of the experiment's ``session:`` section, of the same names."""
PLAN_SEED = 1
"""The seed of the experiment made from options (the exact analysis deals no shoe; a random side's coin reads it)."""


@dataclass(frozen=True)
class PlanInput:
    """What ``baccarat plan`` was given: strategies or an experiment file, and the settings that replace the experiment's."""

    strategies: Sequence[str] = ()
    experiment: str | None = None
    rules: str | None = None
    bankroll: Decimal | None = None
    unit: Decimal | None = None
    table_min: Decimal | None = None
    table_max: Decimal | None = None
    win_goal: Decimal | None = None
    stop_loss: Decimal | None = None
    plugins_dirs: Sequence[str] = ()


def parse_strategy(text: str) -> tuple[str, dict[str, Any]]:
    """Return the registered name and parameters of ``--strategy "NAME key=value ..."``; raise :class:`InputError`."""
    where = f"--strategy {text!r}"
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise InputError(f'{where}: {exc}; write NAME key=value ..., such as "paroli wins=2"') from None
    if not words:
        raise InputError(f'{where}: give a strategy\'s name, then its parameters as key=value, such as "paroli wins=2"')
    name, params = words[0], {}
    for word in words[1:]:
        key, sep, raw = word.partition("=")
        if not sep or not key or not raw:
            raise InputError(f'{where}: {word!r} is not key=value; write NAME key=value ..., such as "paroli wins=2"')
        if key in params:
            raise InputError(f"{where}: the parameter {key!r} is given twice")
        try:
            params[key] = parse_yaml(raw, where).data
        except InputError as exc:
            raise InputError(f"{where}: the value of {key}: {exc.message}") from None
    return name, params


def stop_rule_param(found: Any, rule_name: str, option: str) -> str:
    """Return the parameter of the stop rule registered as ``rule_name`` (its one amount); raise when none is registered."""
    for rule in found.stop_rules:
        if rule.name == rule_name and len(rule.params) == 1:
            return next(iter(rule.params))
    raise StrategyError(
        f"{option} needs the stop rule {rule_name!r}, and no plugin registers it; `baccarat strategies` lists the stop rules"
    )


def planned_experiment(given: PlanInput) -> tuple[Experiment, dict[str, tuple[Decimal | None, Decimal | None]]]:
    """Return the experiment to plan, and each strategy's (win goal, stop-loss) by label.

    The options given replace the experiment's values; without ``--experiment``
    the experiment is made from the strategies given and the defaults of
    ``session:`` (docs/experiments.md). ``--win-goal`` and ``--stop-loss`` are
    the session's rules (``session.win_goal``, ``session.stop_loss``); a
    strategy's goal is the session's, else its own stop rule's amount.
    """

    found = registry(tuple(given.plugins_dirs))
    if given.experiment is None:
        try:
            experiment = load_experiment(_mapping(given, found), plugins_dirs=given.plugins_dirs)
        except InputError as exc:  # an experiment made from the options: no file, line or column to name
            if exc.path not in (None, MAPPING_SOURCE):
                raise
            raise InputError(exc.message) from None
    else:
        experiment = load_experiment(given.experiment, overrides=_overrides(given), plugins_dirs=given.plugins_dirs, shoe_file_needed=False)
    session = experiment.session
    goal_key = _param_of(found, WIN_GOAL_RULE)
    loss_key = _param_of(found, STOP_LOSS_RULE)
    amounts = {
        entry.name: (
            _either(_cents(session.win_goal_cents), _own(entry, goal_key)),
            _either(_cents(session.stop_loss_cents), _own(entry, loss_key)),
        )
        for entry in experiment.strategies
    }
    return experiment, amounts


def _cents(cents: int | None) -> Decimal | None:
    return None if cents is None else Decimal(cents) / 100


def _either(first: Decimal | None, second: Decimal | None) -> Decimal | None:
    return second if first is None else first


def _own(entry: Any, key: str | None) -> Decimal | None:
    """The amount of the strategy's own stop rule ``key`` (None without it)."""
    return _amount(entry.params.get(key)) if key else None


def _param_of(found: Any, rule_name: str) -> str | None:
    try:
        return stop_rule_param(found, rule_name, "")
    except StrategyError:
        return None


def _amount(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def _plain(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _mapping(given: PlanInput, found: Any) -> dict[str, Any]:
    """The experiment of the strategies given as options, each checked by the plugin registry first."""
    if not given.strategies:
        raise InputError(
            "give the strategies to plan: --strategy NAME (repeatable, e.g. --strategy flat --strategy martingale), "
            "or an experiment with --experiment FILE"
        )
    session = dict(DEFAULT_SESSION)
    for key in SESSION_OPTIONS:
        if getattr(given, key) is not None:
            session[key] = _plain(getattr(given, key))
    strategies, labels = [], set()
    for text in given.strategies:
        name, params = parse_strategy(text)
        label = " ".join(text.split())
        if label in labels:
            raise InputError(f"--strategy {text!r} is given twice; give each strategy once")
        labels.add(label)
        if given.unit is not None and "unit" not in params:
            params["unit"] = _plain(given.unit)
        try:
            found.configure(name, params)
        except StrategyError as exc:
            raise StrategyError(f"--strategy {text!r}: {exc.message}") from None
        strategies.append({"name": label, "use": name, "params": params})
    rules = given.rules or DEFAULT_RULES
    if Path(rules).suffix in (".yaml", ".yml"):
        rules = str(Path(rules).resolve())
    return {
        "name": "plan",
        "rules": rules,
        "shoes": {"source": "seeded", "seed": PLAN_SEED, "count": 1},
        "session": session,
        "strategies": strategies,
    }


def _overrides(given: PlanInput) -> list[str]:
    """The ``--set`` overrides that put the options given into the experiment file's values."""
    if given.strategies:
        raise InputError("give the strategies with --strategy or in the experiment of --experiment, not both")
    overrides = [f"session.{key}={getattr(given, key)}" for key in SESSION_OPTIONS if getattr(given, key) is not None]
    if given.rules is not None:
        overrides.append(f"rules={given.rules}")
    data = read_yaml(Path(given.experiment or "")).data
    items = data.get("strategies") if isinstance(data, dict) else None
    if given.unit is not None:
        overrides.extend(f"strategies.{k}.params.unit={given.unit}" for k in range(len(items) if isinstance(items, list) else 0))
    return overrides
