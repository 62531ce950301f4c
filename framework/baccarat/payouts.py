"""What every bet pays when a round ends: the one definition of each bet's result.

A bet's result is a *multiplier* in whole basis points of its stake (+9500
for a Banker win at 5% commission, -10000 for a loss, 0 for a push). The
functions here take numpy arrays describing how rounds ended (totals, whether
a hand took a third card, pairs) and return each bet's multipliers. Settlement
(:mod:`baccarat.bets`) applies them to dealt rounds; exact odds
(:mod:`baccarat.odds`) apply them to every way a round can end, so the house
edge is computed from exactly the rules that settle the ledger.

Bets:

- ``banker``: 1:1 less the commission; a tie pushes. Super 6 (``banker_six_pays``)
  pays a Banker win with a total of 6 at that rate instead; EZ Baccarat
  (``banker_three_card_seven_pushes``) pushes a Banker win with a three-card 7.
- ``player``: 1:1; a tie pushes. ``tie``: ``tie_pays`` to 1.
- ``player_pair`` / ``banker_pair``: that hand's first two cards are of equal rank.
- ``dragon7``: Banker wins with a three-card 7. ``panda8``: Player wins with a three-card 8.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from baccarat.errors import RulesError
from baccarat.rules import BASIS_POINTS, CARD_LEVEL_BETS, Rules

LOSE = -BASIS_POINTS
"""Multiplier of a lost bet."""

PUSH = 0
"""Multiplier of a push (the stake is returned)."""

PAIR_BETS: tuple[str, ...] = ("player_pair", "banker_pair")
"""Side bets decided by the ranks of a hand's first two cards."""


def bp(ratio: Fraction) -> int:
    """Return a payout ratio in whole basis points of a stake."""
    value = ratio * BASIS_POINTS
    if value.denominator != 1:
        raise RulesError(f"payout {ratio} is not a whole number of basis points")
    return int(value)


def banker_needs_cards(rules: Rules) -> bool:
    """Tell whether the Banker bet's result depends on the cards, not only on the winner (EZ, Super 6)."""
    return rules.banker_six_pays is not None or rules.banker_three_card_seven_pushes


def needs_cards(rules: Rules, bet: str) -> bool:
    """Tell whether settling ``bet`` under ``rules`` needs the cards (so outcome-only shoes cannot)."""
    return bet in CARD_LEVEL_BETS or (bet == "banker" and banker_needs_cards(rules))


def _side(wins: np.ndarray, pays: Fraction) -> np.ndarray:
    return np.where(wins, bp(pays), LOSE).astype(np.int64)


def winner_multipliers(rules: Rules, banker_wins: np.ndarray, player_wins: np.ndarray) -> dict[str, np.ndarray]:
    """Return the Banker, Player and Tie multipliers when only the winner is known (no variant rule applied)."""
    ties = ~(banker_wins | player_wins)
    return {
        "banker": np.where(banker_wins, bp(1 - rules.commission), np.where(ties, PUSH, LOSE)).astype(np.int64),
        "player": np.where(player_wins, BASIS_POINTS, np.where(ties, PUSH, LOSE)).astype(np.int64),
        "tie": _side(ties, rules.tie_pays),
    }


def end_multipliers(rules: Rules, player_total: np.ndarray, banker_total: np.ndarray,
                    player_three: np.ndarray, banker_three: np.ndarray) -> dict[str, np.ndarray]:
    """Return the multipliers of every bet decided by how a round ended, for the bets ``rules`` offer.

    That is Banker, Player and Tie (with the EZ and Super 6 rules applied) and the
    offered ``dragon7`` / ``panda8``; pair bets are settled by :func:`pair_multipliers`.
    Arguments broadcast against each other: totals 0-9 and whether each hand took a
    third card.
    """
    player_total = np.asarray(player_total)
    banker_total = np.asarray(banker_total)
    player_three = np.asarray(player_three, dtype=bool)
    banker_three = np.asarray(banker_three, dtype=bool)
    banker_wins = banker_total > player_total
    player_wins = player_total > banker_total
    result = winner_multipliers(rules, banker_wins, player_wins)
    banker = result["banker"]
    if rules.banker_six_pays is not None:
        banker = np.where(banker_wins & (banker_total == 6), bp(rules.banker_six_pays), banker)
    if rules.banker_three_card_seven_pushes:
        banker = np.where(banker_wins & (banker_total == 7) & banker_three, PUSH, banker)
    result["banker"] = banker.astype(np.int64)
    events = {
        "dragon7": banker_wins & (banker_total == 7) & banker_three,
        "panda8": player_wins & (player_total == 8) & player_three,
    }
    for bet, wins in events.items():
        if bet in rules.side_bets:
            result[bet] = _side(wins, rules.side_bets[bet])
    return result


def pair_multipliers(rules: Rules, player_pair: np.ndarray, banker_pair: np.ndarray) -> dict[str, np.ndarray]:
    """Return the multipliers of the pair bets ``rules`` offer, from whether each hand opened with a pair."""
    pairs = {"player_pair": np.asarray(player_pair, dtype=bool), "banker_pair": np.asarray(banker_pair, dtype=bool)}
    return {bet: _side(pairs[bet], rules.side_bets[bet]) for bet in PAIR_BETS if bet in rules.side_bets}
