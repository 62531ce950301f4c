"""The registry of bets: each bet defined once, by the plugin that registers it.

A bet is a :class:`BetDefinition`: its name, the facts of a round it reads,
its standard pay table (named lines, each paying some ratio to one) and two
functions of a round's facts: which line wins (the first line that holds
pays) and when the bet pushes. Everything else loses. Settlement
(:mod:`baccarat.odds.settlement`), the ledger's per-bet columns, exact odds
(:mod:`baccarat.odds.exact_odds`) and ``view.exact_ev`` all apply that one definition.

The facts a bet may read (:data:`FACTS`), as numpy arrays over rounds:

- always, unless the bet reads ``ranks`` or ``suits``: ``banker_wins``,
  ``player_wins``, ``tie`` (the winner; outcome-only shoes know nothing more);
- ``totals``: ``player_total``, ``banker_total`` (0-9, at the end of the round);
- ``cards``: ``player_cards``, ``banker_cards`` (how many cards each hand took: 2 or 3);
- ``natural``: the round ended on a natural (8 or 9 on two cards);
- ``ranks``: ``player_pair``, ``banker_pair`` (that hand's first two cards are of equal rank);
- ``suits``: ``player_suited``, ``banker_suited`` (that hand's first two cards are of one suit).

A bet reads either how the round ended (winner, totals, cards, natural) or
the first two cards of each hand (ranks, suits), not both: exact odds
enumerate the two separately (:mod:`baccarat.odds.exact_odds`). ``facts.rules`` gives
the table's rules to bets whose pay depends on them (Banker's commission).

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
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from baccarat.table.rules import Rules

FACTS: dict[str, tuple[str, ...]] = {
    "totals": ("player_total", "banker_total"),
    "cards": ("player_cards", "banker_cards"),
    "natural": ("natural",),
    "ranks": ("player_pair", "banker_pair"),
    "suits": ("player_suited", "banker_suited"),
}
"""What a bet may need to know of a round -> the facts (attributes of :class:`RoundFacts`) it then reads."""

WINNER_FACTS: tuple[str, ...] = ("banker_wins", "player_wins", "tie")
"""Facts every bet that reads how the round ended may use, even on outcome-only shoes."""

END_NEEDS = frozenset({"totals", "cards", "natural"})
"""Needs decided by how the round ended (priced over the ways a round ends)."""

CARD_NEEDS = frozenset({"ranks", "suits"})
"""Needs decided by the first two cards of each hand (priced over those four cards)."""

LINE_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


class RoundFacts:
    """Facts of rounds (numpy arrays, one entry per round), limited to what a bet declared it needs.

    Reading a fact the bet did not declare raises AttributeError naming the
    need to declare, so a definition cannot silently read what its odds ignore.
    """

    def __init__(self, rules: Rules | None, facts: Mapping[str, np.ndarray], allowed: frozenset[str]) -> None:
        self.rules = rules
        self._facts = facts
        self._allowed = allowed

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._allowed:
            need = next((need for need, names in FACTS.items() if name in names), None)
            if need is not None:
                raise AttributeError(f"the fact {name!r} needs {need!r} among the bet's needs")
            if name in WINNER_FACTS:
                raise AttributeError(f"the fact {name!r} is not known to a bet that reads ranks or suits")
            raise AttributeError(
                f"a round has no fact {name!r}; facts are {', '.join(WINNER_FACTS + tuple(n for names in FACTS.values() for n in names))}"
            )
        return self._facts[name]


def allowed_facts(needs: frozenset[str]) -> frozenset[str]:
    """Return the facts a bet with ``needs`` may read."""
    names = {name for need in needs for name in FACTS[need]}
    if not needs & CARD_NEEDS:
        names |= set(WINNER_FACTS)
    return frozenset(names)


Lines = Callable[[RoundFacts], Mapping[str, np.ndarray]]
Pushes = Callable[[RoundFacts], np.ndarray]


@dataclasses.dataclass(frozen=True, eq=False)
class BetDefinition:
    """One bet, defined once: what it reads, what it pays, when it wins, pushes or loses.

    ``pays`` is the standard pay table: line name -> payout to one, in the
    order lines are tried (a push first, then the first line that holds pays). ``wins(facts)``
    returns, for each line, a boolean array of the rounds where that line
    holds; ``pushes(facts)`` (optional) a boolean array of the rounds that
    push. ``needs`` are keys of :data:`FACTS`; ``main`` marks the three main
    bets (always offered, pays set by the rules' own fields: ``pay_table``).
    """

    name: str
    label: str
    needs: frozenset[str] | Callable[[Rules], frozenset[str]]
    pays: Mapping[str, Fraction]
    wins: Lines
    pushes: Pushes | None = None
    description: str = ""
    main: bool = False
    pay_table: Callable[[Rules], Mapping[str, Fraction]] | None = None
    """Main bets: the pay table under given rules (side bets take theirs from ``rules.side_bets``)."""
    line_labels: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Words for each pay line (``docs`` and ``baccarat odds`` show them)."""

    def needs_under(self, rules: Rules) -> frozenset[str]:
        """Return what this bet reads of a round under ``rules``."""
        return frozenset(self.needs(rules) if callable(self.needs) else self.needs)

    def table_under(self, rules: Rules) -> dict[str, Fraction]:
        """Return this bet's pay table under ``rules`` (line -> payout to one)."""
        if self.pay_table is not None:
            return dict(self.pay_table(rules))
        offered = rules.side_bets.get(self.name)
        if offered is None:
            return dict(self.pays)
        return pay_table_of(self, offered)

    @property
    def single_line(self) -> bool:
        """Tell whether the bet has one pay line (its payout is then written as one ratio)."""
        return len(self.pays) == 1


def pay_table_of(bet: BetDefinition, value: Fraction | Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Return the full pay table of ``bet`` from a rules value: one ratio (one-line bets) or line -> ratio."""
    if isinstance(value, Mapping):
        return {line: Fraction(value.get(line, pays)) for line, pays in bet.pays.items()}
    (line,) = bet.pays
    return {line: Fraction(value)}


def multipliers(bet: BetDefinition, facts: RoundFacts, table: Mapping[str, int], size: int) -> np.ndarray:
    """Return the bet's result on each round, in basis points of the stake (int64).

    ``table`` maps each pay line to its payout in basis points. A round that
    pushes gives 0; otherwise the first line that holds pays; anything else
    loses the stake (-10000).
    """
    from baccarat.table.rules import BASIS_POINTS

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

    def add(self, bet: Any, origin: str) -> None:
        """Add a bet (checked); a name registered twice is an error naming both origins."""
        checked = check_definition(bet)
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


def check_definition(bet: Any) -> BetDefinition:
    """Return ``bet`` when it is a well-formed :class:`BetDefinition`; raise TypeError or ValueError saying why not.

    Its functions are tried later, by :func:`baccarat.odds.exact_odds.try_definition`.
    """
    from baccarat.table.rules import MAX_PAYS

    if not isinstance(bet, BetDefinition):
        raise TypeError(f"register() takes a baccarat.table.bet_registry.BetDefinition, not {bet!r}")
    if not isinstance(bet.name, str) or not bet.name or set(bet.name) - LINE_NAME_CHARS or not bet.name[0].isalpha():
        raise ValueError(f"a bet's name must be lower-case letters, digits and _, starting with a letter, not {bet.name!r}")
    if not bet.pays:
        raise ValueError(f"bet {bet.name!r} has an empty pay table")
    for line, pays in bet.pays.items():
        if not isinstance(line, str) or not line or set(line) - LINE_NAME_CHARS:
            raise ValueError(f"bet {bet.name!r}: a pay line's name must be lower-case letters, digits and _, not {line!r}")
        if not isinstance(pays, Fraction) or not 0 < pays <= MAX_PAYS or (pays * 10_000).denominator != 1:
            raise ValueError(
                f"bet {bet.name!r}: line {line!r} must pay a Fraction above 0 and at most "
                f"{int(MAX_PAYS)}:1 in whole basis points, not {pays!r}"
            )
    if not bet.main:
        needs = bet.needs_under(_any_rules()) if callable(bet.needs) else frozenset(bet.needs)
        unknown = needs - set(FACTS)
        if unknown:
            raise ValueError(f"bet {bet.name!r} needs {sorted(unknown)[0]!r}; needs are {', '.join(FACTS)}")
        if needs & CARD_NEEDS and needs & END_NEEDS:
            raise ValueError(
                f"bet {bet.name!r} reads both the end of the round ({', '.join(sorted(needs & END_NEEDS))}) "
                f"and the first two cards ({', '.join(sorted(needs & CARD_NEEDS))}); a bet reads one or the other"
            )
    return bet


def _any_rules() -> Rules:
    from baccarat.table.rules import Rules

    return Rules(name="registry", bet_registry=BetRegistry())  # no side bets: needs no registry (and may be building the built-ins')
