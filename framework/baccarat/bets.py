"""Bet settlement in exact money, and the check of which bets a run may place.

Money is integer *micro-units* (1e-6 of the currency); stakes are whole
cents. A bet's result on a round is its stake times a *multiplier* kept in
basis points of the stake (+9500 for a Banker win at 5% commission, -10000
for a loss, 0 for a push), so ``net_micros = stake_cents * multiplier``
exactly: a 5% commission on 0.05 is 0.0025, kept, not rounded. What each bet
pays is defined once, in :mod:`baccarat.payouts`.
"""

from __future__ import annotations

import numpy as np

from baccarat.cards import SUIT_SHIFT
from baccarat.errors import RulesError, did_you_mean
from baccarat.payouts import LOSE, PUSH, bp, end_multipliers, needs_cards, pair_multipliers, winner_multipliers
from baccarat.rounds import OUTCOME_CODE, RoundTable
from baccarat.rules import Rules

__all__ = ["LOSE", "MICROS_PER_CENT", "MICROS_PER_UNIT", "PUSH", "bp", "check_bets_offered", "settleable_bets",
           "settlement_table"]

MICROS_PER_UNIT = 1_000_000
"""Micro-units per currency unit: the ledger's exact money scale."""

MICROS_PER_CENT = 10_000
"""Micro-units per cent; also ``stake_cents * multiplier_bp`` gives micro-units."""


def settleable_bets(rules: Rules, has_cards: bool = True) -> tuple[str, ...]:
    """Return the bets ``rules`` offer that can be settled on shoes with (or without) their cards."""
    return tuple(bet for bet in rules.bets if has_cards or not needs_cards(rules, bet))


def check_bets_offered(bets: set[str], rules: Rules, has_cards: bool = True) -> None:
    """Refuse, before a run, bets that ``rules`` do not offer or that outcome-only shoes cannot settle."""
    for bet in sorted(bets):
        if not rules.offers(bet):
            raise RulesError(f"the bet {bet!r} is not offered by the rules {rules.name!r}"
                             f"{did_you_mean(bet, rules.bets)}; they offer {', '.join(rules.bets)}")
        if not has_cards and needs_cards(rules, bet):
            why = "the cards" if bet != "banker" else f"the cards under the rules {rules.name!r} (its pay depends on Banker's hand)"
            raise RulesError(f"the bet {bet!r} needs {why}, but these shoes record outcomes only")


def bets_settled(rules: Rules, has_cards: bool = True) -> tuple[str, ...]:
    """Return the bets :func:`settlement_table` settles under ``rules``, in its order (the ledger's bet columns)."""
    return ("banker", "player", "tie") + (tuple(rules.side_bets) if has_cards else ())


def settlement_table(table: RoundTable, rules: Rules) -> dict[str, np.ndarray]:
    """Return, for every bet the rules offer, each round's multiplier in basis points (int64).

    Outcome-only tables settle only the bets decided by the winner alone
    (:func:`settleable_bets`): Banker is left out when its pay depends on the cards.
    """
    banker_wins = table.outcome == OUTCOME_CODE["banker"]
    player_wins = table.outcome == OUTCOME_CODE["player"]
    if not table.has_cards:
        by_winner = winner_multipliers(rules, banker_wins, player_wins)
        return {bet: by_winner[bet] for bet in settleable_bets(rules, has_cards=False)}
    result = end_multipliers(rules, table.player_total, table.banker_total,
                             table.player_cards[:, 2] != 0, table.banker_cards[:, 2] != 0)
    ranks_p = table.player_cards[:, :2] % SUIT_SHIFT
    ranks_b = table.banker_cards[:, :2] % SUIT_SHIFT
    result.update(pair_multipliers(rules, ranks_p[:, 0] == ranks_p[:, 1], ranks_b[:, 0] == ranks_b[:, 1]))
    return {bet: result[bet] for bet in rules.bets}
