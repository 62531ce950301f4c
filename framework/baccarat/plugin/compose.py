"""Composition: a selector, a progression and stop rules make one strategy.

``use: martingale`` is the strategy class ``compose(Martingale, selectors,
stop_rules)``; with ``params: {side: follow-last, unit: 10, stop_loss: 200}``
the progression sets the stake, the selector named by ``side`` chooses the
bet, the stop rules end the session's betting early. Its parameters are one flat
namespace: ``side`` and ``unit``, the progression's, the selector's and every
stop rule's (stop rules default to ``None``, which leaves them off).

Each round, a composed strategy does exactly this (the definition any fast
path must reproduce):

1. If its betting has stopped earlier in the session, sit out.
2. For each active stop rule, in registration order: if ``rule.stop(view)``,
   betting stops for the rest of the session; sit out. That rule, the first
   that held, is the one reported (``stopped_by``, its name).
3. ``side = selector.choose(view)``; ``None`` sits out (nothing else changes).
4. If ``progression.stake`` exceeds the table maximum, ``progression.restart()``:
   the series is abandoned and starts over at its first stake.
5. Bet ``progression.stake`` (currency units) on ``side``. The engine may still cut it
   to the table maximum or to the bankroll (counted as capped).

After the round, when the bet was placed, the bet's net decides: ``> 0``
calls ``progression.won(net)``, ``< 0`` calls ``progression.lost(net)``, a
push (``0``) changes nothing. A progression's state moves only on settled
bets; rounds sat out, stopped or ruined leave it as it was. The progression
carries on across the shoes of a multi-shoe session; selectors that read the
shoe start again with each new shoe.

Composed classes are made once per progression (and set of selectors and
stop rules) in each process; worker processes make their own from the
strategies' names. A compiled path recognises a composed strategy by
``issubclass(cls, Composed)``, its pieces by ``cls.progression``,
``cls.selector_for(params["side"])`` and the stop rules whose parameters are
set; it must fall back to this reference for any piece it does not know
(a plugin's). The built-in pieces keep their amounts as exact Decimals and their counts as ints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from typing import Any, ClassVar

from baccarat.errors import StrategyError
from baccarat.plugin.legacy import progression_maker
from baccarat.plugin.params import positive_amount
from baccarat.plugin.pieces import FixedSideSelector, Progression, Selector, StopRule
from baccarat.plugin.strategy import Bets, Strategy
from baccarat.plugin.vector import VectorStrategy
from baccarat.plugin.view import SessionInfo, TableView
from baccarat.table.rules import Rules

_ZERO = Decimal(0)

COMPOSED_PARAMS: dict[str, Any] = {"side": "banker", "unit": 10}
"""Parameters of every composed strategy, with defaults: the side (a fixed bet or a selector) and the unit stake."""


def _pick(params: Mapping[str, Any], names: Mapping[str, Any]) -> dict[str, Any]:
    return {key: params[key] for key in names}


def _active(rule: type[StopRule], params: Mapping[str, Any]) -> bool:
    return any(params.get(key) is not None for key in rule.params)


def _stop_params(stop_rules: tuple[type[StopRule], ...]) -> dict[str, Any]:
    return {key: None for rule in stop_rules for key in rule.params}


class _StopsFirst:
    """The stop rules of a strategy, asked before each bet; once one holds, it bets no more in the session."""

    stops: list[StopRule]
    stopped_by: str | None = None
    """Name of the stop rule that ended betting (the first in order that held), None while betting goes on."""

    @property
    def stopped(self) -> bool:
        """Whether a stop rule has ended betting in this session."""
        return self.stopped_by is not None

    def _stops_hold(self, view: TableView) -> bool:
        """Ask the stop rules in order (none once one has held); tell whether betting has stopped."""
        if self.stopped_by is None:
            for rule in self.stops:
                if rule.stop(view):
                    self.stopped_by = rule.name
                    break
        return self.stopped_by is not None


class Composed(_StopsFirst, Strategy):
    """A progression backing the side a selector chooses, under stop rules; made by :func:`compose`, never directly."""

    progression: ClassVar[type[Progression]]
    selectors: ClassVar[dict[str, type[Selector]]] = {}
    stop_rules: ClassVar[tuple[type[StopRule], ...]] = ()

    @classmethod
    def selector_for(cls, side: Any) -> type[Selector]:
        """Return the selector class named by ``side``, or raise ValueError."""
        try:
            return cls.selectors[side]
        except (KeyError, TypeError):
            raise ValueError(f"unknown side {side!r}; sides are {', '.join(cls.selectors)}") from None

    @classmethod
    def accepted_params(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """``side`` and ``unit``, the progression's, the chosen selector's and the stop rules' parameters, with defaults."""
        selector = cls.selectors.get(given.get("side", COMPOSED_PARAMS["side"]))
        return {**COMPOSED_PARAMS, **cls.progression.params, **(selector.params if selector else {}), **_stop_params(cls.stop_rules)}

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Return the sides the chosen selector may back."""
        params = {**cls.accepted_params(params), **params}
        return cls.selector_for(params["side"]).sides(params)

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        cls = type(self)
        params = {**cls.accepted_params(params), **params}
        selector = cls.selector_for(params["side"])
        self.session = session
        self.unit = positive_amount(params["unit"], "unit")
        self.chooser = selector(session, **_pick(params, selector.params))
        self.stakes = progression_maker(cls.progression)(session, self.unit, **_pick(params, cls.progression.params))
        self.stops = [rule(session, **_pick(params, rule.params)) for rule in cls.stop_rules if _active(rule, params)]
        self.side: str | None = None

    def bets(self, view: TableView) -> Bets:
        """Stop rules, then the selector's side, then the progression's stake (see the module docstring)."""
        if self._stops_hold(view):
            return None
        side = self.chooser.choose(view)
        if side is None:
            return None
        stakes = self.stakes
        if stakes.stake > view.table_max:
            stakes.restart()
        self.side = side
        return {side: stakes.stake}

    def settle(self, view: TableView, nets: Mapping[str, Decimal]) -> None:
        """Win moves the progression on, loss too, a push leaves it."""
        net = nets.get(self.side, _ZERO)
        if net > _ZERO:
            self.stakes.won(net)
        elif net < _ZERO:
            self.stakes.lost(net)


class StopRuled(_StopsFirst, Strategy):
    """A free-form strategy with stop rules around it; made by :func:`with_stop_rules`.

    When no stop-rule parameter is given, making it makes the free-form
    strategy itself: nothing stands between it and the engine.
    """

    inner: ClassVar[type[Strategy]]
    stop_rules: ClassVar[tuple[type[StopRule], ...]] = ()

    def __new__(cls, session: SessionInfo, **params: Any) -> Any:
        """Make the wrapper when a stop rule is active, else the free-form strategy itself."""
        if not any(_active(rule, params) for rule in cls.stop_rules):
            return cls.inner(session, **cls._inner_params(params))
        return super().__new__(cls)

    @classmethod
    def _inner_params(cls, params: Mapping[str, Any]) -> dict[str, Any]:
        stop_keys = _stop_params(cls.stop_rules)
        return {key: value for key, value in params.items() if key not in stop_keys}

    @classmethod
    def accepted_params(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """The strategy's own parameters, then the stop rules'."""
        return {**cls.inner.accepted_params(cls._inner_params(given)), **_stop_params(cls.stop_rules)}

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Return the inner strategy's sides."""
        return cls.inner.sides(cls._inner_params(params))

    def __init__(self, session: SessionInfo, **params: Any) -> None:
        cls = type(self)
        self.session = session
        self.strategy = cls.inner(session, **cls._inner_params(params))
        self.stops = [
            rule(session, **_pick({**_stop_params(cls.stop_rules), **params}, rule.params))
            for rule in cls.stop_rules
            if _active(rule, params)
        ]

    def bets(self, view: TableView) -> Bets:
        """Stop rules first, then the inner strategy's bets."""
        if self._stops_hold(view):
            return None
        return self.strategy.bets(view)

    def settle(self, view: TableView, nets: Mapping[str, Decimal]) -> None:
        """Pass the result to the inner strategy."""
        self.strategy.settle(view, nets)


def declares_sides(cls: type[Strategy]) -> bool:
    """Tell whether ``cls`` declares the bets it may place: composed, or a strategy overriding :meth:`Strategy.sides`.

    Stop rules around a free-form strategy declare what the strategy declares.
    The default ``sides`` (read from a ``side`` parameter) is a guess, not a promise.
    """
    while issubclass(cls, StopRuled):
        cls = cls.inner
    return getattr(cls.sides, "__func__", None) not in (Strategy.sides.__func__, VectorStrategy.sides.__func__)


def fixed_bet(cls: type[Strategy], params: Mapping[str, Any]) -> str | None:
    """Return the one bet ``cls`` with ``params`` backs whenever it bets, fixed by what it is, or None.

    A composed strategy whose ``side`` is a fixed-side selector (``side:
    banker``) backs that bet and no other, whatever it sees: its expected
    edge is that bet's, exactly, in any sample. Any other strategy (a
    selector whose side varies, a free-form strategy such as a counter)
    places bets that depend on what it saw: None.
    """
    if not (isinstance(cls, type) and issubclass(cls, Composed)):
        return None
    try:
        selector = cls.selector_for({**cls.accepted_params(params), **params}["side"])
    except ValueError:
        return None
    return selector.side if issubclass(selector, FixedSideSelector) and selector.side else None


def sides_under(cls: type[Strategy], params: Mapping[str, Any], rules: Rules) -> set[str]:
    """Return the bets ``cls`` with ``params`` may place at a table of ``rules``, to check against them before a run.

    What it declares (:meth:`Strategy.sides`); the default's guess is kept
    only where the ``side`` parameter names one of the rules' bets (``rules.bet_registry``).
    """
    sides = set(cls.sides(params))
    return sides if declares_sides(cls) else sides & set(rules.bet_registry)


def stop_rule_names(cls: type[Strategy]) -> tuple[str, ...]:
    """Return the names of the stop rules ``cls`` checks, in its order (none for a free-form strategy without any).

    The engines report the rule that stopped a session by its position in
    this tuple, from 1 (0: none stopped it).
    """
    return tuple(rule.name for rule in getattr(cls, "stop_rules", ()))


def _check_disjoint(parts: list[tuple[str, Mapping[str, Any]]]) -> None:
    seen: dict[str, str] = {}
    for owner, params in parts:
        for key in params:
            if key in seen:
                raise StrategyError(f"parameter {key!r} belongs to both {seen[key]} and {owner}; they cannot be combined")
            seen[key] = owner


@cache
def compose(
    progression: type[Progression], selectors: tuple[type[Selector], ...], stop_rules: tuple[type[StopRule], ...] = ()
) -> type[Composed]:
    """Return the strategy class of ``progression`` on any of ``selectors`` (chosen by ``side``), under ``stop_rules``."""
    common = [("every composed strategy", COMPOSED_PARAMS), (f"progression {progression.name!r}", progression.params)]
    common += [(f"stop rule {rule.name!r}", rule.params) for rule in stop_rules]
    _check_disjoint(common)
    for selector in selectors:
        _check_disjoint(common + [(f"side {selector.name!r}", selector.params)])
    namespace = {
        "name": progression.name,
        "description": progression.description,
        "progression": progression,
        "params": {**COMPOSED_PARAMS, **progression.params},
        "selectors": {selector.name: selector for selector in selectors},
        "stop_rules": stop_rules,
        "__module__": __name__,
        "__qualname__": f"Composed[{progression.name}]",
    }
    return type(f"Composed[{progression.name}]", (Composed,), namespace)


@cache
def with_stop_rules(strategy: type[Strategy], stop_rules: tuple[type[StopRule], ...]) -> type[Strategy]:
    """Return ``strategy`` with ``stop_rules`` around it (stop-rule parameters the strategy has itself stay its own)."""
    rules = tuple(rule for rule in stop_rules if not set(rule.params) & set(strategy.params))
    if not rules:
        return strategy
    namespace = {
        "name": strategy.name,
        "description": strategy.description,
        "inner": strategy,
        "params": dict(strategy.params),
        "stop_rules": rules,
        "__module__": __name__,
        "__qualname__": f"StopRuled[{strategy.name}]",
    }
    return type(f"StopRuled[{strategy.name}]", (StopRuled,), namespace)


def strategy_maker(cls: type[Strategy], params: Mapping[str, Any]) -> tuple[Callable[..., Any], dict[str, Any]]:
    """Return what ``cls(session, **params)`` calls to make a strategy, and the parameters it passes, once for many sessions.

    Stop rules around a free-form strategy, none of whose parameters is
    given, make the free-form strategy itself (:class:`StopRuled`): it is
    made directly, without asking every session which rules are active.
    """
    if isinstance(cls, type) and issubclass(cls, StopRuled) and not any(_active(rule, params) for rule in cls.stop_rules):
        return strategy_maker(cls.inner, cls._inner_params(params))
    return cls, dict(params)
