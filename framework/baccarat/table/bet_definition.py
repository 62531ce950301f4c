"""A bet, defined once: what it reads of a round, what it pays, when it wins or pushes.

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

The registry of bets (:mod:`baccarat.table.bet_registry`) holds these definitions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

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
