"""The plugin manager: finds and loads the plugins, built-in and third-party alike, and keeps their registry.

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

The hooks are called once, when :func:`registry` builds the registry
(:mod:`baccarat.plugin.registry` holds it and the rules of registering; cached
per plugins folders and disabled names), never once per round; the
``register_twins`` hook (compiled twins, :mod:`baccarat.plugin.twins`) and the
``register_exact_forms`` hook (exact forms, :mod:`baccarat.plugin.exact_forms`) are
called the first time a command asks for them, so that listing strategies loads no
compiler.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from baccarat import interrupts
from baccarat.errors import InputError, did_you_mean
from baccarat.files.inputfile import MAX_PLUGIN_BYTES, open_regular
from baccarat.plugin import hookspecs
from baccarat.plugin.notices import import_noting_deprecations, unmarked_hooks
from baccarat.plugin.registry import (
    EXACT_HOOK,
    KINDS,
    TWIN_HOOK,
    TWIN_HOOK_0_2,
    Plugin,
    Registry,
    check_parameter_names,
    collect_bets,
    collect_pieces,
    failure,
    running_plugin_code,
)
from baccarat.table.bet_registry import BetRegistry

ENTRY_POINT_GROUP = "baccarat"
"""Entry-point group that installed packages register their plugin modules in."""

DISABLE_ENV = "BACCARAT_DISABLE_PLUGINS"
"""Environment variable: comma-separated names of plugins not to load."""

BUILT_IN_BETS = "baccarat.plugin.builtin_bets"
"""Name of the host's default plugin: the built-in bets (:mod:`baccarat.plugin.builtin_bets`)."""

HOOK_NAMES = tuple(name for name in vars(hookspecs) if hasattr(getattr(hookspecs, name), "baccarat_spec"))
"""The names of the hooks a plugin may implement."""

BUILT_IN_DISTRIBUTION = "baccarat-backtest"
"""The distribution whose entry points are the built-in plugins."""


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
    """Import a plugin file as module ``baccarat_plugin_<name>``: a regular file of at most :data:`MAX_PLUGIN_BYTES`."""
    try:
        open_regular(path, "a plugin file", MAX_PLUGIN_BYTES).close()  # never a device read without end, nor a pipe that blocks
    except InputError as exc:
        raise ImportError(f"the file {exc.message}") from None
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


def load_plugins(
    pm: pluggy.PluginManager, plugins_dirs: Iterable[str | Path] = (), disabled: frozenset[str] = frozenset()
) -> tuple[list[Plugin], list[str]]:
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
            raise InputError(
                f"two plugins are named {plugin.name!r}: {names[plugin.name]} and {plugin}; rename one or disable it with {DISABLE_ENV}"
            )
        try:
            with running_plugin_code():
                module, deprecated = import_noting_deprecations(load, plugin)
        except BaseException as exc:  # SystemExit, a KeyboardInterrupt it raises, its own BaseException subclass
            if interrupts.is_stop(exc):
                raise
            warnings.append(f"{plugin} failed to import and is left out: {failure(exc)}")
            continue
        try:
            pm.register(module, name=plugin.name)
        except Exception as exc:
            if pm.get_plugin(plugin.name) is not None:
                pm.unregister(name=plugin.name)
            warnings.append(f"{plugin} is invalid and is left out: {failure(exc)}")
            continue
        names[plugin.name] = plugin
        plugins.append(plugin)
        warnings.extend(_unknown_hooks(pm, plugin))
        warnings.extend(deprecated + unmarked_hooks(module, plugin, HOOK_NAMES))
    known = {p.name for p, _ in candidates}
    for name in sorted(disabled - known):
        warnings.append(f"{DISABLE_ENV} names {name!r}, which is not a plugin{did_you_mean(name, known)}")
    return plugins, warnings


def compiled_twin(cls: type) -> Any | None:
    """Return the compiled twin a plugin registered for piece class ``cls``, or None.

    Looked up in the registries built in this process (the one that
    registered ``cls`` has it).
    """
    return _companion(cls, "twins")


def _companion(cls: type, which: str) -> Any | None:
    """The companion (``twins``, ``exact_forms``) registered for ``cls`` in a registry built in this process, or None."""
    for found in _CACHE.values():
        companion = getattr(found, which)().get(cls)
        if companion is not None:
            return companion
    return None


def _unknown_hooks(pm: pluggy.PluginManager, plugin: Plugin) -> list[str]:
    hooks = [hook for hook, _ in KINDS.values()] + [TWIN_HOOK, EXACT_HOOK, "register_bets"]
    out = []
    for caller in pm.get_hookcallers(pm.get_plugin(plugin.name)) or []:
        if caller.name == TWIN_HOOK_0_2:
            out.append(f"{plugin} implements {TWIN_HOOK_0_2!r}, deprecated and removed in baccarat 0.5: name it {TWIN_HOOK!r}")
        elif not caller.has_spec():
            out.append(f"{plugin} implements {caller.name!r}, which is not a baccarat hook{did_you_mean(caller.name, hooks)}")
    return out


_CACHE: dict[tuple[tuple[str, ...], frozenset[str]], Registry] = {}


def registry(plugins_dirs: Iterable[str | Path] = ()) -> Registry:
    """Return what the plugins provide: entry points plus ``plugins_dirs`` files, minus disabled plugins.

    Built once per process for each set of folders and disabled names; call
    :func:`clear_registry` after installing or changing plugins in a process.
    Its bets (:attr:`Registry.bet_registry`) are what rules parsed against
    them carry (``load_rules(spec, found.bet_registry)``), and through the
    rules, what settlement and odds read; nothing is put in use process-wide.
    """
    dirs = tuple(dict.fromkeys(plugins_folder(d) for d in plugins_dirs))  # a folder named twice is one folder
    return _registry(dirs, disabled_plugins())


def _registry(dirs: tuple[str, ...], disabled: frozenset[str]) -> Registry:
    """The registry of the plugin folders ``dirs`` (resolved) without the ``disabled`` plugins, built once per process."""
    key = (dirs, disabled)
    if key not in _CACHE:
        pm = get_plugin_manager()
        plugins, warnings = load_plugins(pm, dirs, disabled)
        found = Registry(plugins=plugins, warnings=warnings, manager=pm)
        collect_pieces(pm, plugins, found)
        collect_bets(pm, plugins, found)
        check_parameter_names(found)
        found.bet_registry.rebuilt_by(registered_bets, dirs, disabled)  # rules sent to a worker bring its bets, loaded there
        _CACHE[key] = found
    return _CACHE[key]


def registered_bets(dirs: tuple[str, ...], disabled: frozenset[str]) -> BetRegistry:
    """Return the bets of the plugin registry of ``dirs`` without the ``disabled`` plugins (how a pickled registry is rebuilt)."""
    return _registry(dirs, disabled).bet_registry


def left_out() -> list[str]:
    """Return the warnings of the registries built in this process about plugins (or hooks of them) left out."""
    said = [w for found in _CACHE.values() for w in found.warnings if "left out" in w]
    return list(dict.fromkeys(said))


def clear_registry() -> None:
    """Forget every registry built so far (the next :func:`registry` call loads the plugins again)."""
    _CACHE.clear()
