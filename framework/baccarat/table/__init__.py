"""The table: cards, the rules, the dealer's tableau, the bets and what they pay, the scoreboard roads."""
