"""The registry of bets: each bet defined once, by the plugin that registers it.

What a bet is -- :class:`~baccarat.table.bet_definition.BetDefinition`, the
facts of a round it may read -- is defined in :mod:`baccarat.table.bet_definition`.

The built-in bets (:mod:`baccarat.table.builtin_bets`) and every plugin's are
registered through the ``register_bets`` hook, into the :class:`BetRegistry`
of the plugin registry (:func:`baccarat.plugin.manager.registry`). There is no
process-wide set of bets: the rules carry the registry they were parsed
against (:attr:`baccarat.table.rules.Rules.bet_registry`; the built-in bets
alone, :func:`built_in_bets`, unless a registry is given), and settlement,
exact odds, fast expected values and counting read the bets from the rules
they are given. Two plugin registries in one process (two plugin folders
each defining a bet of the same name) each get their own answers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from baccarat.money import BASIS_POINTS
from baccarat.table.bet_definition import (
    BetDefinition,
    RoundFacts,
)


def multipliers(bet: BetDefinition, facts: RoundFacts, table: Mapping[str, int], size: int) -> np.ndarray:
    """Return the bet's result on each round, in basis points of the stake (int64).

    ``table`` maps each pay line to its payout in basis points. A round that
    pushes gives 0; otherwise the first line that holds pays; anything else
    loses the stake (-10000).
    """
    out = np.full(size, -BASIS_POINTS, dtype=np.int64)
    lines = bet.wins(facts)
    unknown = set(lines) - set(table)
    if unknown:
        raise ValueError(f"bet {bet.name!r} returned the line {sorted(unknown)[0]!r}, which its pay table lacks")
    settled = np.zeros(size, dtype=bool)
    for line in table:
        if line not in lines:
            continue
        holds = _mask(bet, line, lines[line], size) & ~settled
        out[holds] = table[line]
        settled |= holds
    if bet.pushes is not None:
        out[_mask(bet, "pushes", bet.pushes(facts), size)] = 0
    return out


def _mask(bet: BetDefinition, what: str, value: Any, size: int) -> np.ndarray:
    mask = np.broadcast_to(np.asarray(value), (size,))
    if mask.dtype != np.bool_:
        raise TypeError(f"bet {bet.name!r}: {what} must give true/false per round, not {mask.dtype}")
    return mask


def stake_column(bet: str) -> str:
    """Return the name of the ledger column holding the stake on ``bet`` (cents)."""
    return f"stake_{bet}"


def net_column(bet: str) -> str:
    """Return the name of the ledger column holding the result of ``bet``."""
    return f"net_{bet}"


# --- the registry -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RegisteredBet:
    """A bet and who registered it (``origin`` is ``built-in`` or a plugin's description)."""

    definition: BetDefinition
    origin: str


BUILT_IN_ORIGIN = "built-in"


class BetRegistry(Mapping[str, RegisteredBet]):
    """The bets of one plugin registry, by name, in registration order: the built-ins (the host's ``register_bets``), then the plugins'.

    Built by the plugin layer (:func:`baccarat.plugin.manager.registry`) and
    carried by the rules parsed against it (:attr:`baccarat.table.rules.Rules.bet_registry`).
    Two registries are equal when they hold the same definitions under the
    same names. A copy of it is itself (rules copied for a strategy share their
    bets). Pickled (to a worker process or a Ray task), it travels as the call
    :meth:`rebuilt_by` names, made the first time it is read there: the bets'
    code is loaded in the process that runs it, when it is first needed.
    """

    def __init__(self) -> None:
        self._bets: dict[str, RegisteredBet] = {}
        self._key: tuple[tuple[str, int, str], ...] = ()
        self._hash = hash(self._key)
        self._rebuild: tuple[Callable[..., BetRegistry], tuple[Any, ...]] | None = None
        self._pending: tuple[Callable[..., BetRegistry], tuple[Any, ...]] | None = None
        """For a registry unpickled: the call that makes it, not made yet."""

    def _entries(self) -> dict[str, RegisteredBet]:
        """The bets, made first if this registry was unpickled and not read since."""
        if self._pending is not None:
            function, args = self._pending
            found = function(*args)
            self._bets, self._key, self._hash = dict(found._entries()), found._key, found._hash
            self._pending = None
        return self._bets

    def __getitem__(self, name: str) -> RegisteredBet:
        return self._entries()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BetRegistry):
            return NotImplemented
        self._entries(), other._entries()
        return self._key == other._key

    def __hash__(self) -> int:
        self._entries()
        return self._hash

    def __repr__(self) -> str:
        return f"BetRegistry({', '.join(self._entries())})"

    def __copy__(self) -> BetRegistry:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> BetRegistry:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if self._rebuild is not None:
            return (_made_when_read, self._rebuild)
        return (_registry_of, (tuple((entry.definition, entry.origin) for entry in self._entries().values()),))

    def rebuilt_by(self, function: Callable[..., BetRegistry], *args: Any) -> None:
        """Pickle this registry as the call ``function(*args)`` (a module-level function that returns it again where it runs)."""
        self._rebuild = (function, args)

    def add(self, checked: BetDefinition, origin: str) -> None:
        """Add a bet, checked where it came in (:func:`baccarat.table.bet_checks.check_definition`); a name registered
        twice is an error naming both origins."""
        other = self._entries().get(checked.name)
        if other is not None and other.definition is not checked and other.origin != origin:
            raise ValueError(f"bet name {checked.name!r} is registered twice: by {other.origin} and by {origin}")
        self._bets[checked.name] = RegisteredBet(checked, origin)
        self._key = tuple((name, id(entry.definition), entry.origin) for name, entry in self._bets.items())
        self._hash = hash(self._key)

    def definition(self, name: str) -> BetDefinition:
        """Return the definition of the bet called ``name``; KeyError when no plugin registered it."""
        return self._entries()[name].definition

    def bet_names(self) -> tuple[str, ...]:
        """Return the names of every bet, main bets first."""
        return tuple(self._entries())

    def side_bet_names(self) -> tuple[str, ...]:
        """Return the names of every side bet (not Banker, Player, Tie), in registration order."""
        return tuple(name for name, entry in self._entries().items() if not entry.definition.main)


def _made_when_read(function: Callable[..., BetRegistry], args: tuple[Any, ...]) -> BetRegistry:
    """A registry unpickled: ``function(*args)`` makes it the first time it is read (in the process that reads it)."""
    found = BetRegistry()
    found._pending = found._rebuild = (function, args)
    return found


def _registry_of(entries: tuple[tuple[BetDefinition, str], ...]) -> BetRegistry:
    """A registry of ``(definition, origin)`` pairs (how a registry built by hand is pickled)."""
    found = BetRegistry()
    for bet, origin in entries:
        found.add(bet, origin)
    return found


_BUILT_IN: list[BetRegistry] = []


def built_in_bets() -> BetRegistry:
    """Return the registry of the built-in bets alone (:mod:`baccarat.table.builtin_bets`): the bets of rules given no registry.

    Built once per process; the same definitions the host's ``register_bets``
    gives every plugin registry, so it equals the registry of a run without
    plugin bets.
    """
    if not _BUILT_IN:
        from baccarat.table.builtin_bets import BUILT_IN

        found = BetRegistry()
        for bet in BUILT_IN:
            found.add(bet, BUILT_IN_ORIGIN)
        found.rebuilt_by(built_in_bets)
        _BUILT_IN.append(found)
    return _BUILT_IN[0]


def known_bets() -> BetRegistry:
    """Deprecated: the registry of the built-in bets (:func:`built_in_bets`); a table's bets are ``rules.bet_registry``."""
    _deprecated("known_bets()", "rules.bet_registry")
    return built_in_bets()


def bet_names() -> tuple[str, ...]:
    """Deprecated: the names of the built-in bets, main bets first.

    The bets a table knows are those of its rules: ``rules.bet_registry.bet_names()``
    (a strategy reads ``session.rules``); those it offers, ``rules.bets``.
    """
    _deprecated("bet_names()", "rules.bet_registry.bet_names() (a strategy's session.rules), or rules.bets for the bets offered")
    return built_in_bets().bet_names()


def side_bet_names() -> tuple[str, ...]:
    """Deprecated: the names of the built-in side bets, in registration order (``rules.bet_registry.side_bet_names()``)."""
    _deprecated("side_bet_names()", "rules.bet_registry.side_bet_names()")
    return built_in_bets().side_bet_names()


def definition(name: str) -> BetDefinition:
    """Deprecated: the definition of the built-in bet called ``name`` (``rules.bet_registry.definition(name)``)."""
    _deprecated("definition(name)", "rules.bet_registry.definition(name)")
    return built_in_bets().definition(name)


def _deprecated(old: str, new: str) -> None:
    import warnings

    warnings.warn(
        f"baccarat's module-level {old} answers for the built-in bets only and is deprecated (removed in 0.4); "
        f"a plugin's bets live in the rules' registry: use {new}",
        DeprecationWarning,
        stacklevel=3,
    )
