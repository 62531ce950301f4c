"""The plugin manager: built-in and third-party strategies, loaded the same way.

Plugins come from two places:

- the ``baccarat`` entry-point group of installed packages; the built-in
  strategies (the project's ``strategies/`` package) are registered there
  exactly as a third-party package's would be;
- loose ``*.py`` files in a plugins folder the user names (``--plugins-dir``,
  or ``plugins_dir:`` in an experiment); files whose name starts with ``_``
  are skipped.

``BACCARAT_DISABLE_PLUGINS`` (comma-separated plugin names: entry-point names
or file names without ``.py``) keeps named plugins from loading. A plugin
that fails to import, or whose hook raises, is reported by name as a warning
and left out; two plugins registering one name is an error naming both.

The hooks are called once, when :func:`registry` builds the registry (cached
per plugins folders and disabled names), never once per round; the
``register_kernels`` hook (compiled twins, :mod:`baccarat.plugin.kernels`) and the
``register_exact_forms`` hook (exact forms, :mod:`baccarat.plugin.exact_forms`) are
called the first time a command asks for them, so that listing strategies loads no
compiler.
"""

from __future__ import annotations

import contextlib
import decimal
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pluggy

from baccarat import interrupts
from baccarat.errors import InputError, ParameterError, StrategyError, did_you_mean
from baccarat.money import cents_to_decimal
from baccarat.plugin import hookspecs
from baccarat.plugin.compose import COMPOSED_PARAMS, compose, with_stop_rules
from baccarat.plugin.strategy import (
    Progression,
    Selector,
    SessionInfo,
    StopRule,
    Strategy,
    fixed_side_selector,
)
from baccarat.table.rules import Rules

ENTRY_POINT_GROUP = "baccarat"
"""Entry-point group that installed packages register their plugin modules in."""

DISABLE_ENV = "BACCARAT_DISABLE_PLUGINS"
"""Environment variable: comma-separated names of plugins not to load."""

BUILT_IN_BETS = "baccarat.plugin.builtin_bets"
"""Name of the host's default plugin: the built-in bets (:mod:`baccarat.plugin.builtin_bets`)."""

BUILT_IN_DISTRIBUTION = "baccarat-backtest"
"""The distribution whose entry points are the built-in plugins."""

KINDS: dict[str, tuple[str, type]] = {
    "strategy": ("register_strategies", Strategy),
    "progression": ("register_progressions", Progression),
    "selector": ("register_selectors", Selector),
    "stop-rule": ("register_stop_rules", StopRule),
}
"""Kind of registered class -> (hook that registers it, base class it must subclass)."""

KERNEL_HOOK = "register_kernels"
"""The hook that registers compiled twins of registered pieces (called lazily, see :meth:`Registry.kernels`)."""

EXACT_HOOK = "register_exact_forms"
"""The hook that registers exact forms of registered pieces (called lazily, see :meth:`Registry.exact_forms`)."""


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
    """The bets plugins registered (the built-in bets are always known), by name."""
    manager: pluggy.PluginManager | None = field(default=None, repr=False, compare=False)
    _kernels: dict[type, Any] | None = field(default=None, repr=False, compare=False)
    _exact_forms: dict[type, Any] | None = field(default=None, repr=False, compare=False)

    def kernels(self) -> dict[type, Any]:
        """Compiled twins by piece class, from the ``register_kernels`` hook (called the first time they are asked for)."""
        if self._kernels is None:
            self._kernels = {} if self.manager is None else _collect_kernels(self.manager, self)
        return self._kernels

    def exact_forms(self) -> dict[type, Any]:
        """Exact forms by piece class, from the ``register_exact_forms`` hook (called the first time they are asked for)."""
        if self._exact_forms is None:
            self._exact_forms = {} if self.manager is None else _collect_exact_forms(self.manager, self)
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
        if name in self.entries["strategy"]:
            return with_stop_rules(self.entries["strategy"][name].cls, self.stop_rules)
        raise StrategyError(f"unknown strategy {name!r}{did_you_mean(str(name), self.usable())}; "
                            "`baccarat strategies` lists them")

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
                error = ParameterError(f"unknown side {side!r} for strategy {name!r}{did_you_mean(str(side), selectors)}; "
                                       f"sides are {', '.join(selectors)}", param="side")
                error.at_value = True  # the value is wrong, not the key
                raise error
        accepted = cls.accepted_params(params)
        for key in params:
            if key not in accepted:
                raise ParameterError(f"strategy {name!r} has no parameter {key!r}{self._hint(str(key), accepted)}; "
                                     f"its parameters are {', '.join(accepted) or 'none'}", param=str(key))
        off = {key for rule in self.stop_rules for key in rule.params}
        return cls, {**{k: v for k, v in accepted.items() if k not in off}, **params}

    def resolve(self, name: str, params: Mapping[str, Any], session: SessionInfo | None = None,
                check: bool = True) -> tuple[type[Strategy], dict[str, Any]]:
        """Like :meth:`configure`; with ``check``, also make the strategy once for ``session`` so bad values fail now.

        ``session`` defaults to :func:`default_session`.
        """
        cls, full = self.configure(name, params)
        if check:
            try:
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


def default_session(rules: Rules | None = None, bankroll_cents: int = 100_000, table_min_cents: int = 1_000,
                    table_max_cents: int = 100_000) -> SessionInfo:
    """Return session facts to check a strategy's parameters with before a run (session number 0)."""
    return SessionInfo(0, rules or Rules(), cents_to_decimal(bankroll_cents), cents_to_decimal(table_min_cents),
                       cents_to_decimal(table_max_cents), np.random.default_rng(0))


def disabled_plugins(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """Return the plugin names that ``BACCARAT_DISABLE_PLUGINS`` keeps from loading."""
    value = (os.environ if environ is None else environ).get(DISABLE_ENV, "")
    return frozenset(name.strip() for name in value.split(",") if name.strip())


def get_plugin_manager() -> pluggy.PluginManager:
    """Return a plugin manager that knows the ``baccarat`` hook specifications, holding the built-in bets."""
    from baccarat.plugin import builtin_bets

    pm = pluggy.PluginManager("baccarat")
    pm.add_hookspecs(hookspecs)
    pm.register(builtin_bets, name=BUILT_IN_BETS)  # the host's defaults: the built-in bets
    return pm


def _entry_points() -> list[EntryPoint]:
    """Installed entry points of the group, each once, built-in first."""
    seen: set[tuple[str, str]] = set()
    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if (ep.name, ep.value) not in seen:
            seen.add((ep.name, ep.value))
            found.append(ep)
    return sorted(found, key=lambda ep: (_distribution(ep)[0] != BUILT_IN_DISTRIBUTION, ep.name))


def _distribution(ep: EntryPoint) -> tuple[str, str]:
    dist = ep.dist
    if dist is None:
        return "?", "?"
    return dist.metadata["Name"] or dist.name, dist.version


def _load_file(path: Path) -> ModuleType:
    """Import a plugin file as module ``baccarat_plugin_<name>``."""
    module_name = "baccarat_plugin_" + re.sub(r"\W", "_", path.stem)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module


def plugins_folder(folder: str | Path) -> str:
    """Return the absolute path of a plugins folder; :class:`InputError` when it cannot be resolved (a symlink loop)."""
    try:
        return str(Path(folder).resolve())
    except (OSError, RuntimeError) as exc:  # Python 3.11 raises RuntimeError for a symlink loop, 3.13 OSError
        reason = "it is a symbolic link that leads back to itself" if "loop" in str(exc).lower() else str(exc)
        raise InputError(f"the plugins folder cannot be used: {reason}", path=str(folder)) from None


def _plugin_files(folder: str | Path) -> list[Path]:
    path = Path(folder)
    try:
        if not path.is_dir():
            raise InputError(f"the plugins folder {path} does not exist" if not path.exists() else f"{path} is not a folder")
        return sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
    except OSError as exc:
        raise InputError(f"the plugins folder cannot be read: {exc.strerror or exc}", path=str(path)) from None


def _failure(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


@contextlib.contextmanager
def plugin_code() -> Any:
    """Run plugin code so that it cannot spoil the command: its prints go to stderr, its decimal context is undone."""
    with decimal.localcontext(), contextlib.redirect_stdout(sys.stderr):
        yield


def load_plugins(pm: pluggy.PluginManager, plugins_dirs: Iterable[str | Path] = (),
                 disabled: frozenset[str] = frozenset()) -> tuple[list[Plugin], list[str]]:
    """Register every entry-point plugin and every file of ``plugins_dirs`` in ``pm``, except ``disabled`` ones.

    Return the plugins registered and a warning for each one that could not be.
    """
    candidates: list[tuple[Plugin, Callable[[], Any]]] = []
    for ep in _entry_points():
        dist, version = _distribution(ep)
        origin = "built-in" if dist == BUILT_IN_DISTRIBUTION else "package"
        candidates.append((Plugin(ep.name, origin, f"{dist} {version}"), ep.load))
    for folder in plugins_dirs:
        for path in _plugin_files(folder):
            candidates.append((Plugin(path.stem, "file", str(path.resolve())), lambda path=path: _load_file(path)))
    plugins: list[Plugin] = []
    warnings: list[str] = []
    names: dict[str, Plugin] = {}
    for plugin, load in candidates:
        if plugin.name in disabled:
            continue
        if plugin.name in names:
            raise InputError(f"two plugins are named {plugin.name!r}: {names[plugin.name]} and {plugin}; "
                             f"rename one or disable it with {DISABLE_ENV}")
        try:
            with plugin_code():
                module = load()
        except BaseException as exc:  # SystemExit, a KeyboardInterrupt it raises, its own BaseException subclass
            if interrupts.is_stop(exc):
                raise
            warnings.append(f"{plugin} failed to import and is left out: {_failure(exc)}")
            continue
        try:
            pm.register(module, name=plugin.name)
        except Exception as exc:
            if pm.get_plugin(plugin.name) is not None:
                pm.unregister(name=plugin.name)
            warnings.append(f"{plugin} is invalid and is left out: {_failure(exc)}")
            continue
        names[plugin.name] = plugin
        plugins.append(plugin)
        warnings.extend(_unknown_hooks(pm, plugin))
    known = {p.name for p, _ in candidates}
    for name in sorted(disabled - known):
        warnings.append(f"{DISABLE_ENV} names {name!r}, which is not a plugin{did_you_mean(name, known)}")
    return plugins, warnings


def _unknown_hooks(pm: pluggy.PluginManager, plugin: Plugin) -> list[str]:
    hooks = [hook for hook, _ in KINDS.values()] + [KERNEL_HOOK, EXACT_HOOK, "register_bets"]
    out = []
    for caller in pm.get_hookcallers(pm.get_plugin(plugin.name)) or []:
        if not caller.has_spec():
            out.append(f"{plugin} implements {caller.name!r}, which is not a baccarat hook"
                       f"{did_you_mean(caller.name, hooks)}")
    return out


def _collect_bets(pm: pluggy.PluginManager, plugins: list[Plugin], found: Registry) -> None:
    """Register the plugins' bets (:mod:`baccarat.table.bet_registry`), each tried on every way a round can end.

    A bet whose definition fails is reported and left out, with the rest of its
    plugin's bets; every registered bet gets a fixed side of its name (``side: NAME``)
    unless a plugin registers a selector of that name.
    """
    from baccarat.odds.enumeration import try_definition
    from baccarat.table.bet_registry import check_definition, known_bets, register_plugin_bet

    by_name = {p.name: p for p in plugins}
    for impl in pm.hook.register_bets.get_hookimpls():
        plugin = by_name.get(impl.plugin_name)
        if plugin is None:  # the host's built-in bets, known already (baccarat.table.bet_registry registers them)
            continue
        batch: list[Any] = []

        def register(bet: Any, batch: list[Any] = batch) -> None:
            checked = check_definition(bet)
            try_definition(checked)
            batch.append(checked)

        try:
            with plugin_code():
                impl.function(register=register)
        except BaseException as exc:  # GeneratorExit, SystemExit, its own BaseException subclass
            if interrupts.is_stop(exc):
                raise
            found.warnings.append(f"{plugin} failed in register_bets and is left out of it: {_failure(exc)}")
            continue
        for bet in batch:
            try:
                register_plugin_bet(bet, str(plugin))
            except ValueError as exc:
                raise StrategyError(str(exc)) from None
            found.bets[bet.name] = plugin
    for name, entry in known_bets().items():
        plugin = found.bets.get(name)
        if plugin is not None and name not in found.entries["selector"]:
            cls = fixed_side_selector(name, entry.definition.label)
            _add(found, Entry(name, "selector", cls, plugin))


def _collect(pm: pluggy.PluginManager, plugins: list[Plugin], found: Registry) -> None:
    """Call each hook once per plugin that implements it, recording who registered what."""
    by_name = {p.name: p for p in plugins}
    for kind, (hook_name, base) in KINDS.items():
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            plugin = by_name[impl.plugin_name]
            batch: list[type] = []
            try:
                with plugin_code():
                    impl.function(register=lambda cls, kind=kind, base=base, batch=batch: batch.append(_checked(cls, kind, base)))
            except BaseException as exc:  # GeneratorExit, SystemExit, its own BaseException subclass
                if interrupts.is_stop(exc):
                    raise
                found.warnings.append(f"{plugin} failed in {hook_name} and is left out of it: {_failure(exc)}")
                continue
            for cls in batch:
                _add(found, Entry(cls.name, kind, cls, plugin))


def _collect_kernels(pm: pluggy.PluginManager, found: Registry) -> dict[type, Any]:
    """Call ``register_kernels`` once per plugin that implements it; keep each twin of a piece the same plugin registered."""
    from baccarat.plugin.kernels import KERNEL_KINDS

    return _collect_piece_companions(pm, found, KERNEL_HOOK, KERNEL_KINDS, "compiled twin", "baccarat.plugin.kernels")


def _collect_exact_forms(pm: pluggy.PluginManager, found: Registry) -> dict[type, Any]:
    """Call ``register_exact_forms`` once per plugin that implements it; keep each form of a piece the same plugin registered."""
    from baccarat.plugin.exact_forms import EXACT_FORM_KINDS

    return _collect_piece_companions(pm, found, EXACT_HOOK, EXACT_FORM_KINDS, "exact form", "baccarat.plugin.exact_forms")


def _collect_piece_companions(pm: pluggy.PluginManager, found: Registry, hook: str, kinds: Mapping[str, type],
                              noun: str, module: str) -> dict[type, Any]:
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
                raise TypeError(f"{entry.kind} {entry.name!r} cannot have a {noun}; "
                                "progressions, selectors and stop rules can")
            if not isinstance(companion, expected):
                raise TypeError(f"the {noun} of {entry.kind} {entry.name!r} must be a "
                                f"{module}.{expected.__name__}, not {companion!r}")
            batch.append((cls, companion))

        try:
            with plugin_code():
                impl.function(register=register)
        except BaseException as exc:  # GeneratorExit, SystemExit, its own BaseException subclass
            if interrupts.is_stop(exc):
                raise
            found.warnings.append(f"{plugin} failed in {hook} and is left out of it: {_failure(exc)}")
            continue
        companions.update(batch)
    return companions


def compiled_twin(cls: type) -> Any | None:
    """Return the compiled twin a plugin registered for piece class ``cls``, or None.

    Looked up in the registries built in this process (the one that
    registered ``cls`` has it).
    """
    return _companion(cls, "kernels")


def exact_form(cls: type) -> Any | None:
    """Return the exact form a plugin registered for piece class ``cls`` (:mod:`baccarat.plugin.exact_forms`), or None.

    Looked up in the registries built in this process (the one that
    registered ``cls`` has it).
    """
    return _companion(cls, "exact_forms")


def _companion(cls: type, which: str) -> Any | None:
    """The companion (``kernels`` or ``exact_forms``) registered for ``cls`` in a registry built in this process, or None."""
    for found in _CACHE.values():
        companion = getattr(found, which)().get(cls)
        if companion is not None:
            return companion
    return None


def _checked(cls: Any, kind: str, base: type) -> type:
    if not isinstance(cls, type) or not issubclass(cls, base):
        raise TypeError(f"register() takes a subclass of {base.__module__}.{base.__qualname__} here, not {cls!r}")
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
            raise StrategyError(f"{space} name {entry.name!r} is registered twice: as a {other.kind} by {other.plugin} "
                                f"and as a {entry.kind} by {entry.plugin}")
    if entry.kind == "stop-rule":
        for other in found.entries["stop-rule"].values():
            shared = set(other.cls.params) & set(entry.cls.params)
            if shared:
                raise StrategyError(f"stop-rule parameter {sorted(shared)[0]!r} is registered twice: by stop rule "
                                    f"{other.name!r} of {other.plugin} and by stop rule {entry.name!r} of {entry.plugin}")
    found.entries[entry.kind][entry.name] = entry


def _check_parameter_names(found: Registry) -> None:
    """Refuse pieces whose parameters would clash in one composed strategy's flat namespace."""
    stops = {key: e for e in found.entries["stop-rule"].values() for key in e.cls.params}
    common = {key: None for key in COMPOSED_PARAMS} | stops
    progressions = list(found.entries["progression"].values())
    for piece in progressions + list(found.entries["selector"].values()):
        for key in piece.cls.params:
            if key in common:
                owner = common[key]
                whose = f"stop rule {owner.name!r} of {owner.plugin}" if owner else "every composed strategy"
                raise StrategyError(f"parameter {key!r} of {piece.kind} {piece.name!r} of {piece.plugin} "
                                    f"is already a parameter of {whose}; rename it")
    for selector in found.entries["selector"].values():
        for progression in progressions:
            shared = set(selector.cls.params) & set(progression.cls.params)
            if shared:
                raise StrategyError(f"parameter {sorted(shared)[0]!r} belongs to both selector {selector.name!r} of "
                                    f"{selector.plugin} and progression {progression.name!r} of {progression.plugin}; "
                                    "rename one")


_CACHE: dict[tuple[tuple[str, ...], frozenset[str]], Registry] = {}


def registry(plugins_dirs: Iterable[str | Path] = ()) -> Registry:
    """Return what the plugins provide: entry points plus ``plugins_dirs`` files, minus disabled plugins.

    Built once per process for each set of folders and disabled names; call
    :func:`clear_registry` after installing or changing plugins in a process.
    """
    dirs = tuple(dict.fromkeys(plugins_folder(d) for d in plugins_dirs))  # a folder named twice is one folder
    key = (dirs, disabled_plugins())
    if key not in _CACHE:
        pm = get_plugin_manager()
        plugins, warnings = load_plugins(pm, dirs, key[1])
        found = Registry(plugins=plugins, warnings=warnings, manager=pm)
        _collect(pm, plugins, found)
        _collect_bets(pm, plugins, found)
        _check_parameter_names(found)
        _CACHE[key] = found
    return _CACHE[key]


def clear_registry() -> None:
    """Forget every registry built so far (the next :func:`registry` call loads the plugins again), and plugins' bets."""
    from baccarat.table.bet_registry import forget_plugin_bets

    _CACHE.clear()
    forget_plugin_bets()
