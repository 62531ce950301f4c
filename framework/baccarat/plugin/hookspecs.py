"""Hook specifications: what a plugin can provide.

Every hook is called once per command, when the registry of strategies is
built, never once per round. Each receives a ``register`` callback: call it
once for every class (or, for bets, every definition) the plugin provides. Implement hooks with
``@baccarat.hookimpl`` (no default argument values); a plugin implements
only the hooks it needs. ``docs/plugins.md`` documents each hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("baccarat")
hookimpl = pluggy.HookimplMarker("baccarat")


@hookspec
def register_strategies(register: Callable[[type], None]) -> None:
    """Register free-form strategy classes: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.plugin.Strategy`; its ``name`` is
    what an experiment's ``use:`` names, its ``params`` maps parameter names
    to defaults. Strategy and progression names share one namespace.
    """


@hookspec
def register_progressions(register: Callable[[type], None]) -> None:
    """Register staking progressions: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.plugin.Progression`; its ``name`` is
    what an experiment's ``use:`` names, and it is combined with any selector
    (the ``side`` parameter) and the stop rules.
    """


@hookspec
def register_selectors(register: Callable[[type], None]) -> None:
    """Register side selectors: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.plugin.Selector`; its ``name`` is a
    value of a composed strategy's ``side`` parameter.
    """


@hookspec
def register_stop_rules(register: Callable[[type], None]) -> None:
    """Register stop rules: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.plugin.StopRule`; every parameter
    defaults to ``None`` and becomes a parameter of every composed strategy
    (a rule is active when one of its parameters is given).
    """


@hookspec
def register_twins(register: Callable[[type, Any], None]) -> None:
    """Register compiled twins of pieces this plugin registers: call ``register(cls, twin)`` for each.

    ``cls`` is a progression, selector or stop rule the same plugin registers
    with the hooks above; ``twin`` is its compiled twin, a
    :class:`baccarat.plugin.twins.ProgressionTwin`, ``SelectorTwin`` or
    ``StopRuleTwin``. A composed strategy whose pieces all have a twin,
    and whose twin passes the parity check against the reference, runs
    compiled. Called once per process, the first time a run needs twins
    (not when strategies are only listed).
    """


@hookspec
def register_kernels(register: Callable[[type, Any], None]) -> None:
    """Deprecated (0.3): the 0.2 name of :func:`register_twins`, still called as ``register(cls, twin)``; removed in 0.5.

    A plugin that implements it is named among the plugin warnings (``baccarat strategies``, ``baccarat run``).
    """


@hookspec
def register_exact_forms(register: Callable[[type, Any], None]) -> None:
    """Register exact forms of pieces this plugin registers: call ``register(cls, form)`` for each.

    ``cls`` is a progression, selector or stop rule the same plugin registers
    with the hooks above; ``form`` is its exact form, a
    :class:`baccarat.plugin.exact_forms.ExactProgression`, ``ExactSelector`` or
    ``ExactStopRule``. ``baccarat exact`` analyses a composed strategy whose
    pieces all have one (``docs/exact.md``). Called once per process, the
    first time a command needs exact forms.
    """


@hookspec
def register_bets(register: Callable[[object], None]) -> None:
    """Register bets: call ``register(bet)`` for each.

    ``bet`` is a :class:`baccarat.table.bet_registry.BetDefinition`: its name, the
    facts of a round it reads, its pay table and when it wins or pushes.
    Settlement, the ledger's ``stake_<bet>``/``net_<bet>`` columns, exact odds
    (``baccarat odds``) and ``view.exact_ev`` all follow from it; a rule set
    offers it with ``side_bets: {NAME: PAYOUT}``, and a composed strategy
    backs it with ``side: NAME``. The built-in bets are registered here too.
    """


@hookspec
def register_predictors(register: Callable[[type], None]) -> None:
    """Register predictors of the next round: call ``register(cls)`` for each.

    ``cls`` subclasses :class:`baccarat.plugin.Predictor`: its ``name`` is
    what ``baccarat predict --predictors`` names, and its ``predict(dealt)``
    returns the chances of Banker, Player and Tie from what has been dealt in
    the shoe (:class:`baccarat.plugin.Dealt`). Called once per process, the
    first time a command needs predictors.
    """
