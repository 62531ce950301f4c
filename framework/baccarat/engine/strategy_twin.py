"""A composed strategy's compiled twin: its pieces' twins found, their parameters read, their functions compiled.

Plugins give compiled twins of their pieces through the ``register_twins``
hook (:mod:`baccarat.plugin.twins`; the built-in plugin registers its own
the same way).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numba
import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from baccarat.engine.reference import SessionConfig, StrategyRun
from baccarat.engine.session_loop import MAX_STOPS
from baccarat.errors import BaccaratError
from baccarat.money import cents_to_decimal, decimal_to_cents
from baccarat.plugin.compose import Composed
from baccarat.plugin.manager import compiled_twin
from baccarat.plugin.view import SessionInfo
from baccarat.streams import strategy_rng
from baccarat.table.rules import Rules


class TwinError(BaccaratError):
    """A plugin's compiled twin could not be compiled or used."""


_COMPILED: dict[tuple[int, types.Type], Any] = {}


def compile_twin_function(function: Any, signature: types.Type) -> Any:
    """Return ``function`` (plain or ``@njit``) compiled for ``signature``, its machine code cached on disk.

    Raise :class:`TwinError` naming the function when numba cannot compile it.
    """
    key = (id(function), signature)
    if key not in _COMPILED:
        try:
            try:
                compiled = _compile(function, signature)
            except ImportError:  # machine code cached under the plugin's former module name
                _forget_cached_code(function)
                compiled = _compile(function, signature)
        except Exception as exc:
            name = getattr(function, "__qualname__", repr(function))
            text = str(exc).strip().splitlines()
            raise TwinError(f"{name} does not compile: {text[0] if text else type(exc).__name__}") from None
        _COMPILED[key] = (function, compiled)  # the function is kept so that its id is not reused
    return _COMPILED[key][1]


def _compile(function: Any, signature: types.Type) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        if isinstance(function, numba.core.registry.CPUDispatcher):
            function.compile(signature.args)
            return function
        # a plain function is compiled with bounds checks: a wrong index is an error, never a stray write
        return njit(signature, cache=True, boundscheck=True)(function)


def _forget_cached_code(function: Any) -> None:
    """Drop the on-disk machine code of ``function``, compiled when its module had another name.

    numba caches a function's machine code beside its file, keyed by the file and the function's code, and the
    code it caches refers to the module by name. A plugin file loaded from a plugins folder is the module
    ``baccarat_plugin_<name>``; once the same file is installed as a package, it is imported under its own
    name, and the cached code would look for the old module. Its cache is emptied so that it compiles afresh.
    """
    # Imported here: numba costs about a second to import, and a run too small to compile never loads it
    # (baccarat.compiling); this is reached only once a twin is compiled.
    from numba.core.caching import FunctionCache

    py_func = getattr(function, "py_func", function)
    cache = getattr(function, "_cache", None) or FunctionCache(py_func)
    cache.flush()


@dataclass
class Twin:
    """The compiled pieces of one composed strategy, and their parameters, for one run."""

    progression: Any
    selector: Any
    stops: list[Any]
    prog_params: np.ndarray
    sel_params: np.ndarray
    stop_params: np.ndarray
    stop_codes: np.ndarray
    """Each active stop rule's position in :func:`baccarat.plugin.compose.stop_rule_names`, from 1."""
    pieces: tuple[Any, Any, list[Any]]
    """The reference pieces the parameters were read from (progression, selector, stop rules)."""
    unit: int
    largest_cents: int


def twin_of(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int) -> Twin | None:
    """Return the compiled pieces of ``run``, or None when one of its pieces has no compiled twin.

    The strategy is made once, as the reference makes it for a session, so
    its parameters are read and checked by the pieces themselves; each twin
    reads its parameters from its reference piece.
    """
    cls = run.cls
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return None
    if (
        cls.bets is not Composed.bets
        or cls.settle is not Composed.settle
        or cls.__init__ is not Composed.__init__
        or cls.__new__ is not Composed.__new__
    ):
        return None
    info = SessionInfo(
        1,
        rules,
        cents_to_decimal(config.bankroll_cents),
        cents_to_decimal(config.table_min_cents),
        cents_to_decimal(config.table_max_cents),
        strategy_rng(seed, run.label, 1),
    )
    try:
        strategy = cls(info, **run.params)
    except Exception:
        return None  # the reference reports it
    progression = compiled_twin(type(strategy.stakes))
    selector = compiled_twin(type(strategy.chooser))
    stops = [compiled_twin(type(rule)) for rule in strategy.stops]
    if progression is None or selector is None or None in stops or len(stops) > MAX_STOPS:
        return None
    try:
        prog_params = _int64(progression.params(strategy.stakes))
        sel_params = _int64(selector.params(strategy.chooser))
        each = [_int64(twin.params(rule)) for twin, rule in zip(stops, strategy.stops, strict=True)]
    except Exception as exc:
        raise TwinError(f"a compiled twin's params() failed: {type(exc).__name__}: {exc}") from None
    stop_params = np.zeros((MAX_STOPS, max([1] + [len(p) for p in each])), dtype=np.int64)
    for k, params in enumerate(each):
        stop_params[k, : len(params)] = params
    unit = decimal_to_cents(strategy.unit)
    largest = max([config.table_max_cents, unit, config.bankroll_cents, *np.abs(prog_params).tolist()])
    codes = np.zeros(MAX_STOPS, dtype=np.int64)
    codes[: len(stops)] = [cls.stop_rules.index(type(rule)) + 1 for rule in strategy.stops]
    return Twin(
        progression,
        selector,
        stops,
        prog_params,
        sel_params,
        stop_params,
        codes,
        (strategy.stakes, strategy.chooser, list(strategy.stops)),
        unit,
        largest,
    )


def _int64(values: Any) -> np.ndarray:
    values = list(values)
    if any(isinstance(value, Decimal) for value in values):
        raise ValueError("params() must give integers: an amount goes in as cents(amount) or micros(amount) (from baccarat.plugin.twins)")
    array = np.asarray(values, dtype=np.int64)
    if array.ndim != 1:
        raise ValueError("params() must give a sequence of integers")
    return np.ascontiguousarray(array)
