"""The registry: what the plugins registered, by kind and name, and the rules of registering.

:class:`Registry` holds every registered class (:class:`Entry`, with the
:class:`Plugin` it came from), the plugins' bets, and, asked for the first
time, their compiled twins and exact forms. The ``collect_*`` functions call
a loaded plugin manager's hooks once per plugin and fill a registry, refusing
what breaks the rules: a name registered twice in one namespace, a class of
the wrong kind, parameters that would clash in one composed strategy.
Finding and loading the plugins is :mod:`baccarat.plugin.manager`'s job.
"""

from __future__ import annotations

import contextlib
import decimal
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pluggy

from baccarat import interrupts
from baccarat.errors import ParameterError, StrategyError, did_you_mean
from baccarat.money import cents_to_decimal
from baccarat.odds.enumeration import try_definition
from baccarat.plugin.compose import COMPOSED_PARAMS, compose, with_stop_rules
from baccarat.plugin.exact_forms import EXACT_FORM_KINDS, ExactSelector
from baccarat.plugin.pieces import Progression, Selector, StopRule, fixed_side_selector
from baccarat.plugin.predictors import Predictor
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.twins import TWIN_KINDS
from baccarat.plugin.vector import ChunkFacts, VectorStrategy, is_vector
from baccarat.plugin.view import SessionInfo
from baccarat.table.bet_checks import check_definition
from baccarat.table.bet_registry import BUILT_IN_ORIGIN, BetRegistry
from baccarat.table.rules import Rules

KINDS: dict[str, tuple[str, type | tuple[type, ...]]] = {
    "strategy": ("register_strategies", (Strategy, VectorStrategy)),
    "progression": ("register_progressions", Progression),
    "selector": ("register_selectors", Selector),
    "stop-rule": ("register_stop_rules", StopRule),
}
"""Kind of registered class -> (hook that registers it, base class it must subclass, or the base classes it may).

A strategy is per session (:class:`Strategy`) or vectorised (:class:`VectorStrategy`): both are used by name alike."""

TWIN_HOOK = "register_twins"
"""The hook that registers compiled twins of registered pieces (called lazily, see :meth:`Registry.twins`)."""

TWIN_HOOK_0_2 = "register_kernels"
"""The 0.2 name of :data:`TWIN_HOOK` (deprecated, removed in 0.5): still called, before it."""

PREDICTOR_HOOK = "register_predictors"
"""The hook that registers predictors (called lazily, see :meth:`Registry.predictors`)."""

EXACT_HOOK = "register_exact_forms"
"""The hook that registers exact forms of registered pieces (called lazily, see :meth:`Registry.exact_forms`)."""


PLUGIN_HINT = " (a plugin's needs its plugin loaded: --plugins-dir FOLDER, or plugins_dir: in the experiment)"
"""Said after an unknown strategy or side: where a plugin's strategy comes from."""


@dataclass(frozen=True)
class Plugin:
    """Where a plugin came from: ``origin`` is ``built-in``, ``package`` or ``file``."""

    name: str
    origin: str
    source: str
    """The distribution and its version, or the file's path."""

    def __str__(self) -> str:
        return f"plugin {self.name!r} ({self.origin}: {self.source})"


@dataclass(frozen=True)
class Entry:
    """One registered class: its name, kind and the plugin that registered it."""

    name: str
    kind: str
    cls: type
    plugin: Plugin

    @property
    def params(self) -> dict[str, Any]:
        """Parameters with their defaults, as a user writes them (progressions show ``side`` and ``unit`` too)."""
        if self.kind == "progression":
            return {**COMPOSED_PARAMS, **self.cls.params}
        return dict(self.cls.params)


@dataclass
class Registry:
    """Everything the plugins registered, by kind and name, and what went wrong loading them."""

    entries: dict[str, dict[str, Entry]] = field(default_factory=lambda: {kind: {} for kind in KINDS})
    plugins: list[Plugin] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    bets: dict[str, Plugin] = field(default_factory=dict)
    """The plugin that registered each plugin's bet, by bet name (the built-ins are not here)."""
    bet_registry: BetRegistry = field(default_factory=BetRegistry)
    """Every bet, by name: the built-ins, then the plugins'; rules read against it carry it (``load_rules(spec, found.bet_registry)``)."""
    bet_sides: dict[type, str] = field(default_factory=dict, repr=False, compare=False)
    """The fixed sides made for plugins' bets (:func:`collect_bets`): selector class -> the bet it backs."""
    manager: pluggy.PluginManager | None = field(default=None, repr=False, compare=False)
    _twins: dict[type, Any] | None = field(default=None, repr=False, compare=False)
    _exact_forms: dict[type, Any] | None = field(default=None, repr=False, compare=False)
    _predictors: dict[str, Entry] | None = field(default=None, repr=False, compare=False)

    def predictors(self) -> dict[str, type]:
        """Predictor classes by name, from the ``register_predictors`` hook (called the first time they are asked for)."""
        return {name: entry.cls for name, entry in self.predictor_entries().items()}

    def predictor_entries(self) -> dict[str, Entry]:
        """The registered predictors by name, each with the plugin that registered it (kind ``predictor``)."""
        if self._predictors is None:
            self._predictors = {} if self.manager is None else collect_predictors(self.manager, self)
        return self._predictors

    def twins(self) -> dict[type, Any]:
        """Compiled twins by piece class, from the ``register_twins`` hook (called the first time they are asked for)."""
        if self._twins is None:
            self._twins = {} if self.manager is None else collect_twins(self.manager, self)
        return self._twins

    def exact_forms(self) -> dict[type, Any]:
        """Exact forms by piece class, from the ``register_exact_forms`` hook (called the first time they are asked for).

        The fixed side made for a plugin's bet has one too: it backs its bet
        every round, so ``baccarat exact`` prices it by the bet's definition.
        """
        if self._exact_forms is None:
            forms = {} if self.manager is None else collect_exact_forms(self.manager, self)
            made = {cls: ExactSelector(_backs_its_bet) for cls in self.bet_sides if cls not in forms}
            self._exact_forms = {**forms, **made}
        return self._exact_forms

    @property
    def strategies(self) -> dict[str, type[Strategy]]:
        """Free-form strategy classes by name."""
        return {name: e.cls for name, e in self.entries["strategy"].items()}

    @property
    def progressions(self) -> dict[str, type[Progression]]:
        """Progression classes by name."""
        return {name: e.cls for name, e in self.entries["progression"].items()}

    @property
    def selectors(self) -> dict[str, type[Selector]]:
        """Selector classes by name (the values of ``side``)."""
        return {name: e.cls for name, e in self.entries["selector"].items()}

    @property
    def stop_rules(self) -> tuple[type[StopRule], ...]:
        """Stop-rule classes in registration order."""
        return tuple(e.cls for e in self.entries["stop-rule"].values())

    def usable(self) -> list[str]:
        """Every name an experiment's ``use:`` may give."""
        return [*self.entries["progression"], *self.entries["strategy"]]

    def strategy(self, name: str) -> type[Strategy]:
        """Return the strategy class that ``use: name`` runs, or raise :class:`StrategyError` with a suggestion.

        A progression gives its composed class (any selector, chosen by the
        ``side`` parameter, and every stop rule); a free-form strategy gives
        its class, wrapped so that the stop rules' parameters work on it too.
        """
        if name in self.entries["progression"]:
            return compose(self.entries["progression"][name].cls, tuple(self.selectors.values()), self.stop_rules)
        if name in self.entries["strategy"] and is_vector(self.entries["strategy"][name].cls):
            return self.entries["strategy"][name].cls  # made once per chunk: the per-session stop rules cannot wrap it
        if name in self.entries["strategy"]:
            return with_stop_rules(self.entries["strategy"][name].cls, self.stop_rules)
        known = did_you_mean(str(name), self.usable())
        raise StrategyError(f"unknown strategy {name!r}{known}; `baccarat strategies` lists them{PLUGIN_HINT}")

    def configure(self, name: str, params: Mapping[str, Any]) -> tuple[type[Strategy], dict[str, Any]]:
        """Return the strategy class of ``use: name`` and its full parameters (defaults, then ``params``).

        An unknown side or parameter raises :class:`ParameterError` naming it, with a "did you mean".
        """
        cls = self.strategy(name)
        if not isinstance(params, Mapping):
            raise StrategyError(f"the parameters of strategy {name!r} must be a mapping, not {params!r}")
        if name in self.entries["progression"]:
            side = params.get("side", COMPOSED_PARAMS["side"])
            selectors = self.entries["selector"]
            if not isinstance(side, str) or side not in selectors:
                known = did_you_mean(str(side), selectors)
                error = ParameterError(
                    f"unknown side {side!r} for strategy {name!r}{known}; sides are {', '.join(selectors)}{PLUGIN_HINT}",
                    param="side",
                )
                error.at_value = True  # the value is wrong, not the key
                raise error
        accepted = cls.accepted_params(params)
        for key in params:
            if key not in accepted:
                raise ParameterError(
                    f"strategy {name!r} has no parameter {key!r}{self._hint(str(key), accepted)}; "
                    f"its parameters are {', '.join(accepted) or 'none'}",
                    param=str(key),
                )
        off = {key for rule in self.stop_rules for key in rule.params}
        return cls, {**{k: v for k, v in accepted.items() if k not in off}, **params}

    def resolve(
        self, name: str, params: Mapping[str, Any], session: SessionInfo | None = None, check: bool = True
    ) -> tuple[type[Strategy], dict[str, Any]]:
        """Like :meth:`configure`; with ``check``, also make the strategy once for ``session`` so bad values fail now.

        ``session`` defaults to :func:`default_session`.
        """
        cls, full = self.configure(name, params)
        if check:
            try:
                if is_vector(cls):  # made once per chunk: a chunk of the one session
                    facts = session or default_session()
                    cls(default_chunk(facts), **full)
                else:
                    cls(session or default_session(), **full)
            except StrategyError:
                raise
            except Exception as exc:
                raise StrategyError(f"strategy {name!r}: {exc}") from None
        return cls, full

    def _hint(self, key: str, params: Mapping[str, Any]) -> str:
        hint = did_you_mean(key, list(params))
        if hint:
            return hint
        owners = [name for name, e in self.entries["selector"].items() if key in e.cls.params]
        return f" (it is a parameter of side {owners[0]!r})" if owners else ""


def _backs_its_bet(selector: Any) -> dict[str, Fraction]:
    """The exact form of a fixed side made for a plugin's bet: that bet, every round."""
    return {selector.side: Fraction(1)}


def default_session(
    rules: Rules | None = None, bankroll_cents: int = 100_000, table_min_cents: int = 1_000, table_max_cents: int = 100_000
) -> SessionInfo:
    """Return session facts to check a strategy's parameters with before a run (session number 0)."""
    return SessionInfo(
        0,
        rules or Rules(),
        cents_to_decimal(bankroll_cents),
        cents_to_decimal(table_min_cents),
        cents_to_decimal(table_max_cents),
        np.random.default_rng(0),
    )


def default_chunk(session: SessionInfo) -> ChunkFacts:
    """Return the facts of a chunk of the one session ``session``, to check a vectorised strategy's parameters with."""
    sessions = np.asarray([session.number], dtype=np.int64)
    sessions.flags.writeable = False
    offered = tuple(session.rules.bets)
    rng = np.random.default_rng(0)
    return ChunkFacts(sessions, session.rules, session.bankroll, session.table_min, session.table_max, offered, True, rng)


@contextlib.contextmanager
def running_plugin_code() -> Any:
    """Run plugin code so that it cannot spoil the command: its prints go to stderr; its decimal context, working folder
    and handlers of the stop signals (Ctrl-C, SIGTERM, SIGHUP) are undone.

    A plugin that changes the working folder (``os.chdir``) at import would
    otherwise move every relative path the command was given (``--out``).
    """
    here = os.getcwd()
    try:
        with decimal.localcontext(), contextlib.redirect_stdout(sys.stderr), interrupts.handlers_kept():
            yield
    finally:
        if os.getcwd() != here:
            os.chdir(here)


def failure(exc: BaseException) -> str:
    """Say what a plugin's exception was, in one line."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def called(impl: Any, register: Any, plugin: Plugin, hook: str, found: Registry) -> bool:
    """Call one plugin's implementation of ``hook`` with ``register`` as plugin code; tell whether it succeeded.

    Any exception it raises but a stop (Ctrl-C, SIGTERM) becomes a warning
    naming the plugin, which is left out of that hook.
    """
    try:
        with running_plugin_code():
            impl.function(register=register)
    except BaseException as exc:  # GeneratorExit, SystemExit, its own BaseException subclass
        if interrupts.is_stop(exc):
            raise
        found.warnings.append(f"{plugin} failed in {hook} and is left out of it: {failure(exc)}")
        return False
    return True


def collect_bets(pm: pluggy.PluginManager, plugins: list[Plugin], found: Registry) -> None:
    """Register every bet through the ``register_bets`` hook into ``found.bet_registry``: the host's built-ins, then the plugins'.

    A plugin's bet is tried on every way a round can end; one whose definition
    fails is reported and left out, with the rest of its plugin's bets. Every
    plugin's bet gets a fixed side of its name (``side: NAME``) unless a plugin
    registers a selector of that name.
    """

    by_name = {p.name: p for p in plugins}
    impls = pm.hook.register_bets.get_hookimpls()
    for impl in sorted(impls, key=lambda impl: impl.plugin_name in by_name):  # the host's built-ins first
        plugin = by_name.get(impl.plugin_name)
        if plugin is None:  # the host's own plugin: the built-in bets, tested with the project
            impl.function(register=lambda bet: found.bet_registry.add(check_definition(bet), BUILT_IN_ORIGIN))
            continue
        batch = _plugin_bets(impl, plugin, found)
        for bet in batch:
            try:
                found.bet_registry.add(bet, str(plugin))
            except ValueError as exc:
                raise StrategyError(str(exc)) from None
            found.bets[bet.name] = plugin
    for name, entry in found.bet_registry.items():
        plugin = found.bets.get(name)
        if plugin is not None and name not in found.entries["selector"]:
            cls = fixed_side_selector(name, entry.definition.label)
            _add(found, Entry(name, "selector", cls, plugin))
            found.bet_sides[cls] = name


def _plugin_bets(impl: Any, plugin: Plugin, found: Registry) -> list[Any]:
    """Return the bets one plugin's ``register_bets`` registers, each checked and tried; none when it fails."""

    batch: list[Any] = []

    def register(bet: Any) -> None:
        checked = check_definition(bet)
        try_definition(checked)
        batch.append(checked)

    return batch if called(impl, register, plugin, "register_bets", found) else []


def collect_pieces(pm: pluggy.PluginManager, plugins: list[Plugin], found: Registry) -> None:
    """Call each hook once per plugin that implements it, recording who registered what."""
    by_name = {p.name: p for p in plugins}
    for kind, (hook_name, base) in KINDS.items():
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            plugin = by_name[impl.plugin_name]
            batch: list[type] = []

            def register(cls: Any, kind: str = kind, base: type | tuple[type, ...] = base, batch: list[type] = batch) -> None:
                batch.append(_checked(cls, kind, base))

            if not called(impl, register, plugin, hook_name, found):
                continue
            for cls in batch:
                _add(found, Entry(cls.name, kind, cls, plugin))


def collect_twins(pm: pluggy.PluginManager, found: Registry) -> dict[type, Any]:
    """Call ``register_twins`` once per plugin that implements it; keep each twin of a piece the same plugin registered."""

    twins = collect_piece_companions(pm, found, TWIN_HOOK_0_2, TWIN_KINDS, "compiled twin", "baccarat.plugin.twins")
    twins.update(collect_piece_companions(pm, found, TWIN_HOOK, TWIN_KINDS, "compiled twin", "baccarat.plugin.twins"))
    return twins


def collect_exact_forms(pm: pluggy.PluginManager, found: Registry) -> dict[type, Any]:
    """Call ``register_exact_forms`` once per plugin that implements it; keep each form of a piece the same plugin registered."""

    return collect_piece_companions(pm, found, EXACT_HOOK, EXACT_FORM_KINDS, "exact form", "baccarat.plugin.exact_forms")


def collect_predictors(pm: pluggy.PluginManager, found: Registry) -> dict[str, Entry]:
    """Call ``register_predictors`` once per plugin that implements it; a name registered twice is an error naming both."""

    by_name = {p.name: p for p in found.plugins}
    predictors: dict[str, Entry] = {}
    for impl in getattr(pm.hook, PREDICTOR_HOOK).get_hookimpls():
        plugin = by_name[impl.plugin_name]
        batch: list[type] = []

        def register(cls: Any, batch: list[type] = batch) -> None:
            if not isinstance(cls, type) or not issubclass(cls, Predictor):
                raise TypeError(f"register() takes a subclass of baccarat.plugin.Predictor here, not {cls!r}")
            if not isinstance(cls.name, str) or not cls.name:
                raise TypeError(f"{cls.__qualname__} has no name")
            batch.append(cls)

        if not called(impl, register, plugin, PREDICTOR_HOOK, found):
            continue
        for cls in batch:
            if cls.name in predictors:
                raise StrategyError(f"predictor name {cls.name!r} is registered twice: by {predictors[cls.name].plugin} and by {plugin}")
            predictors[cls.name] = Entry(cls.name, "predictor", cls, plugin)
    return predictors


def collect_piece_companions(
    pm: pluggy.PluginManager, found: Registry, hook: str, kinds: Mapping[str, type], noun: str, module: str
) -> dict[type, Any]:
    """Call ``hook`` once per plugin that implements it; keep what each registers for a piece of its own (``kinds`` checks it)."""
    by_name = {p.name: p for p in found.plugins}
    owners = {entry.cls: entry for table in found.entries.values() for entry in table.values()}
    companions: dict[type, Any] = {}
    for impl in getattr(pm.hook, hook).get_hookimpls():
        plugin = by_name[impl.plugin_name]
        batch: list[tuple[type, Any]] = []

        def register(cls: Any, companion: Any, plugin: Plugin = plugin, batch: list[tuple[type, Any]] = batch) -> None:
            entry = owners.get(cls) if isinstance(cls, type) else None
            if entry is None or entry.plugin != plugin:
                raise TypeError(f"register() takes a piece this plugin registers and its {noun}, not {cls!r}")
            expected = kinds.get(entry.kind)
            if expected is None:
                raise TypeError(f"{entry.kind} {entry.name!r} cannot have a {noun}; progressions, selectors and stop rules can")
            if not isinstance(companion, expected):
                raise TypeError(f"the {noun} of {entry.kind} {entry.name!r} must be a {module}.{expected.__name__}, not {companion!r}")
            batch.append((cls, companion))

        if not called(impl, register, plugin, hook, found):
            continue
        companions.update(batch)
    return companions


def _checked(cls: Any, kind: str, base: type | tuple[type, ...]) -> type:
    if not isinstance(cls, type) or not issubclass(cls, base):
        named = " or ".join(f"{b.__module__}.{b.__qualname__}" for b in (base if isinstance(base, tuple) else (base,)))
        raise TypeError(f"register() takes a subclass of {named} here, not {cls!r}")
    if not isinstance(cls.name, str) or not cls.name:
        raise TypeError(f"{cls.__qualname__} has no name")
    if not isinstance(cls.params, dict):
        raise TypeError(f"{cls.__qualname__}.params must be a dict of parameter names to defaults")
    if kind == "stop-rule" and (not cls.params or any(v is not None for v in cls.params.values())):
        raise TypeError(f"stop rule {cls.name!r} must have parameters, each defaulting to None")
    return cls


_NAMESPACE = {"strategy": "strategy", "progression": "strategy", "selector": "selector", "stop-rule": "stop-rule"}


def _add(found: Registry, entry: Entry) -> None:
    space = _NAMESPACE[entry.kind]
    for kind, table in found.entries.items():
        other = table.get(entry.name)
        if other is not None and _NAMESPACE[kind] == space:
            raise StrategyError(
                f"{space} name {entry.name!r} is registered twice: as a {other.kind} by {other.plugin} "
                f"and as a {entry.kind} by {entry.plugin}"
            )
    if entry.kind == "stop-rule":
        for other in found.entries["stop-rule"].values():
            shared = set(other.cls.params) & set(entry.cls.params)
            if shared:
                raise StrategyError(
                    f"stop-rule parameter {sorted(shared)[0]!r} is registered twice: by stop rule "
                    f"{other.name!r} of {other.plugin} and by stop rule {entry.name!r} of {entry.plugin}"
                )
    found.entries[entry.kind][entry.name] = entry


def check_parameter_names(found: Registry) -> None:
    """Refuse pieces whose parameters would clash in one composed strategy's flat namespace."""
    stops = {key: e for e in found.entries["stop-rule"].values() for key in e.cls.params}
    common = {key: None for key in COMPOSED_PARAMS} | stops
    progressions = list(found.entries["progression"].values())
    for piece in progressions + list(found.entries["selector"].values()):
        for key in piece.cls.params:
            if key in common:
                owner = common[key]
                whose = f"stop rule {owner.name!r} of {owner.plugin}" if owner else "every composed strategy"
                raise StrategyError(
                    f"parameter {key!r} of {piece.kind} {piece.name!r} of {piece.plugin} is already a parameter of {whose}; rename it"
                )
    for selector in found.entries["selector"].values():
        for progression in progressions:
            shared = set(selector.cls.params) & set(progression.cls.params)
            if shared:
                raise StrategyError(
                    f"parameter {sorted(shared)[0]!r} belongs to both selector {selector.name!r} of "
                    f"{selector.plugin} and progression {progression.name!r} of {progression.plugin}; "
                    "rename one"
                )
