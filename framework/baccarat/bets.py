"""Bet settlement in exact money.

Money is integer *micro-units* (1e-6 of the currency); stakes are whole
cents. A bet's result on a round is its stake times a *multiplier* kept in
basis points of the stake (+9500 for a Banker win at 5% commission, -10000
for a loss, 0 for a push), so ``net_micros = stake_cents * multiplier``
exactly: a 5% commission on 0.05 is 0.0025, kept, not rounded.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from baccarat.cards import SUIT_SHIFT
from baccarat.errors import RulesError, did_you_mean
from baccarat.rounds import OUTCOME_CODE, RoundTable
from baccarat.rules import BASIS_POINTS, CARD_LEVEL_BETS, Rules

MICROS_PER_UNIT = 1_000_000
"""Micro-units per currency unit: the ledger's exact money scale."""

MICROS_PER_CENT = 10_000
"""Micro-units per cent; also ``stake_cents * multiplier_bp`` gives micro-units."""

LOSE = -BASIS_POINTS
PUSH = 0

_BANKER = OUTCOME_CODE["banker"]
_PLAYER = OUTCOME_CODE["player"]
_TIE = OUTCOME_CODE["tie"]


def bp(ratio: Fraction) -> int:
    """Return a payout ratio in whole basis points of a stake."""
    value = ratio * BASIS_POINTS
    if value.denominator != 1:
        raise RulesError(f"payout {ratio} is not a whole number of basis points")
    return int(value)


def check_bets_offered(bets: set[str], rules: Rules, has_cards: bool = True) -> None:
    """Refuse, before a run, bets that ``rules`` do not offer or that outcome-only shoes cannot settle."""
    for bet in sorted(bets):
        if not rules.offers(bet):
            raise RulesError(f"the bet {bet!r} is not offered by the rules {rules.name!r}"
                             f"{did_you_mean(bet, rules.bets)}; they offer {', '.join(rules.bets)}")
        if not has_cards and bet in CARD_LEVEL_BETS:
            raise RulesError(f"the bet {bet!r} needs the cards, but these shoes record outcomes only")


def _three_cards(cards: np.ndarray) -> np.ndarray:
    return cards[:, 2] != 0


def settlement_table(table: RoundTable, rules: Rules) -> dict[str, np.ndarray]:
    """Return, for every bet the rules offer, each round's multiplier in basis points (int64).

    Outcome-only tables settle only the main bets.
    """
    outcome = table.outcome
    banker_wins = outcome == _BANKER
    player_wins = outcome == _PLAYER
    ties = outcome == _TIE

    banker = np.where(banker_wins, bp(1 - rules.commission), np.where(ties, PUSH, LOSE)).astype(np.int64)
    if table.has_cards:
        banker_three = _three_cards(table.banker_cards)
        if rules.banker_six_pays is not None:
            banker[banker_wins & (table.banker_total == 6)] = bp(rules.banker_six_pays)
        if rules.banker_three_card_seven_pushes:
            banker[banker_wins & (table.banker_total == 7) & banker_three] = PUSH
    player = np.where(player_wins, BASIS_POINTS, np.where(ties, PUSH, LOSE)).astype(np.int64)
    tie = np.where(ties, bp(rules.tie_pays), LOSE).astype(np.int64)
    result = {"banker": banker, "player": player, "tie": tie}
    if not table.has_cards:
        return result

    def side(wins: np.ndarray, pays: Fraction) -> np.ndarray:
        return np.where(wins, bp(pays), LOSE).astype(np.int64)

    ranks_p = table.player_cards[:, :2] % SUIT_SHIFT
    ranks_b = table.banker_cards[:, :2] % SUIT_SHIFT
    wins_by_bet = {
        "player_pair": ranks_p[:, 0] == ranks_p[:, 1],
        "banker_pair": ranks_b[:, 0] == ranks_b[:, 1],
        "dragon7": banker_wins & (table.banker_total == 7) & _three_cards(table.banker_cards),
        "panda8": player_wins & (table.player_total == 8) & _three_cards(table.player_cards),
    }
    for bet, pays in rules.side_bets.items():
        result[bet] = side(wins_by_bet[bet], pays)
    return result
