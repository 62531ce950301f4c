"""Odds: exact odds of every bet, counting from the cards seen, settlement of bets in exact money.

- :mod:`~baccarat.odds.compositions`: the cards left in a shoe, by rank or by rank and suit;
- :mod:`~baccarat.odds.enumeration`: the exact integer weights of every way a round can end;
- :mod:`~baccarat.odds.exact_odds`: each bet's exact chances, expected value and house edge (:func:`bet_odds`);
- :mod:`~baccarat.odds.chances`: the exact chances of Banker, Player and Tie from the cards left (:func:`outcome_chances`);
- :mod:`~baccarat.odds.fast_evs`: expected values fast enough for every round (:func:`bet_evs`);
- :mod:`~baccarat.odds.counting`: exact expected values from the cards already seen in a shoe;
- :mod:`~baccarat.odds.settlement`: what every bet of a round pays, in exact money;
- :mod:`~baccarat.odds.rebates`: what the house gives back (rolling rebate, rebate on losses), priced exactly.

A strategy that prices bets from the cards left imports what it needs from here:
``from baccarat.odds import bet_evs, remove_cards, shoe_counts``.
"""

from baccarat.odds.compositions import MAX_CARDS, MIN_CARDS, rank_counts, remove_cards, shoe_counts, suited_counts
from baccarat.odds.exact_odds import BetOdds, RoundOdds, bet_distribution, bet_odds, round_odds
from baccarat.odds.fast_evs import bet_evs, expected_values

__all__ = [
    "MAX_CARDS",
    "MIN_CARDS",
    "BetOdds",
    "RoundOdds",
    "bet_distribution",
    "bet_evs",
    "bet_odds",
    "expected_values",
    "rank_counts",
    "remove_cards",
    "round_odds",
    "shoe_counts",
    "suited_counts",
]
