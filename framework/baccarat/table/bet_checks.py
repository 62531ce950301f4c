"""A bet's definition checked where it comes in, through the ``register_bets`` hook: names, pay lines, payouts, needs.

Here, above the rules (:mod:`baccarat.table.rules`), because a bet whose needs
depend on the rules is asked them under rules with no side bets; the registry
(:mod:`baccarat.table.bet_registry`), below the rules, takes bets already checked.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from baccarat.table.bet_definition import CARD_NEEDS, END_NEEDS, FACTS, LINE_NAME_CHARS, BetDefinition
from baccarat.table.bet_registry import BetRegistry
from baccarat.table.rules import MAX_PAYS, Rules


def check_definition(bet: Any) -> BetDefinition:
    """Return ``bet`` when it is a well-formed :class:`BetDefinition`; raise TypeError or ValueError saying why not.

    Its functions are tried later, by :func:`baccarat.odds.exact_odds.try_definition`.
    """
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
    return Rules(name="registry", bet_registry=BetRegistry())  # no side bets: needs no registry (and may be building the built-ins')
