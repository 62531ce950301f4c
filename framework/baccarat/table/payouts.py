"""What every bet pays when a round ends, from the one definition of each bet (:mod:`baccarat.table.bet_registry`).

A bet's result is a *multiplier* in whole basis points of its stake (+9500
for a Banker win at 5% commission, -10000 for a loss, 0 for a push). The
functions here take the facts of rounds as numpy arrays (winner, totals,
number of cards, naturals, pairs, suited pairs) and return each bet's
multipliers. Settlement (:mod:`baccarat.odds.settlement`) applies them to dealt rounds;
exact odds (:mod:`baccarat.odds.exact_odds`) apply them to every way a round can end, so
the house edge is computed from exactly the rules that settle the ledger.

The bets themselves, built-in or from plugins, are defined in
:mod:`baccarat.table.builtin_bets` and registered through the ``register_bets`` hook;
each function here reads a bet's definition from the rules it is given
(:attr:`baccarat.table.rules.Rules.bet_registry`, the bets they were parsed against).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from baccarat.errors import RulesError, StrategyError, raised_at
from baccarat.money import BASIS_POINTS
from baccarat.table.bet_definition import CARD_NEEDS, BetDefinition, RoundFacts, allowed_facts
from baccarat.table.bet_registry import multipliers
from baccarat.table.rules import Rules

LOSE = -BASIS_POINTS
"""Multiplier of a lost bet."""

PUSH = 0
"""Multiplier of a push (the stake is returned)."""

PAIR_BETS: tuple[str, ...] = ("player_pair", "banker_pair")
"""Side bets decided by the ranks of one hand's first two cards (their odds have a closed form)."""


def bp(ratio: Fraction) -> int:
    """Return a payout ratio in whole basis points of a stake."""
    value = Fraction(ratio) * BASIS_POINTS
    if value.denominator != 1:
        raise RulesError(f"payout {ratio} is not a whole number of basis points")
    return int(value)


def bet_definition(rules: Rules, bet: str) -> BetDefinition:
    """Return the definition of ``bet`` in the bets ``rules`` were parsed against (:attr:`Rules.bet_registry`)."""
    return rules.bet_registry.definition(bet)


def needs(rules: Rules, bet: str) -> frozenset[str]:
    """Return what settling ``bet`` under ``rules`` reads of a round (keys of :data:`baccarat.table.bet_definition.FACTS`)."""
    return bet_definition(rules, bet).needs_under(rules)


def needs_cards(rules: Rules, bet: str) -> bool:
    """Tell whether settling ``bet`` under ``rules`` needs the cards, not only the winner (so outcome-only shoes cannot)."""
    return bool(needs(rules, bet))


def needs_suits(rules: Rules, bet: str) -> bool:
    """Tell whether settling ``bet`` under ``rules`` needs the cards' suits (so shoes recorded by rank only cannot)."""
    return "suits" in needs(rules, bet)


def reads_first_cards(rules: Rules, bet: str) -> bool:
    """Tell whether ``bet`` is decided by the first two cards of each hand (ranks, suits), not by how the round ended."""
    return bool(needs(rules, bet) & CARD_NEEDS)


def pay_table_bp(rules: Rules, bet: str) -> dict[str, int]:
    """Return ``bet``'s pay table under ``rules``: line -> payout in basis points."""
    return {line: bp(pays) for line, pays in bet_definition(rules, bet).table_under(rules).items()}


def bet_multipliers(rules: Rules, bet: str, facts: Mapping[str, np.ndarray], size: int) -> np.ndarray:
    """Return ``bet``'s multiplier (basis points, int64) on each of ``size`` rounds described by ``facts``."""
    definition = bet_definition(rules, bet)
    allowed = allowed_facts(definition.needs_under(rules))
    table = pay_table_bp(rules, bet)
    try:
        return multipliers(definition, RoundFacts(rules, facts, allowed), table, size)
    except Exception as exc:  # the bet's own code (a plugin's): one line naming the bet and its line, never a traceback
        homes = [h for w in (definition.wins, definition.pushes) if w is not None for h in _homes(w)]
        said = f"{type(exc).__name__}: {str(exc).strip()}" if str(exc).strip() else type(exc).__name__
        said += raised_at(exc, homes)
        if isinstance(exc, ValueError) and "broadcast" in str(exc):
            said = f"it gave an array whose length is not the number of rounds ({size:,})"
        raise StrategyError(f"bet {bet!r} failed to settle {size:,} rounds: {said}") from None


def _homes(function: object) -> list[str]:
    """The file a bet's function is defined in (to name the line of the bet's code in an error)."""
    code = getattr(function, "__code__", None)
    return [code.co_filename] if code is not None else []


def offered_multipliers(rules: Rules, names: tuple[str, ...], facts: Mapping[str, np.ndarray], size: int) -> dict[str, np.ndarray]:
    """Return the multipliers of each bet of ``names`` (offered by ``rules``) on rounds described by ``facts``."""
    return {bet: bet_multipliers(rules, bet, facts, size) for bet in names}
