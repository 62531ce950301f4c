"""The table: cards, the rules, the dealer's tableau, the bets and what they pay, the scoreboard roads.

- :mod:`~baccarat.table.bet_checks`: a bet's definition checked where it comes in, through the ``register_bets`` hook.
- :mod:`~baccarat.table.bet_definition`: a bet, defined once: what it reads of a round, what it pays, when it wins.
- :mod:`~baccarat.table.bet_registry`: the registry of bets: each bet defined once, by the plugin that registers it.
- :mod:`~baccarat.table.builtin_bets`: the built-in bets: one definition each, registered through the
  `register_bets` hook as any plugin's bets are.
- :mod:`~baccarat.table.cards`: card codes, ranks, suits and baccarat point values.
- :mod:`~baccarat.table.dealer`: the tableau: one plain reference function that plays a round from cards.
- :mod:`~baccarat.table.pace`: the hands a table deals in an hour (:data:`~baccarat.table.pace.HANDS_PER_HOUR`).
- :mod:`~baccarat.table.payouts`: what every bet pays when a round ends, from the one definition of each bet
  (:mod:`baccarat.table.bet_registry`).
- :mod:`~baccarat.table.roads`: scoreboard roads of one shoe: bead plate, big road and the three derived roads.
- :mod:`~baccarat.table.rules`: the rules of a table as one frozen value, and the named rule presets.
"""

__all__ = ["bet_checks", "bet_definition", "bet_registry", "builtin_bets", "cards", "dealer", "pace", "payouts", "roads", "rules"]
