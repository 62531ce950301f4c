"""Odds: exact odds of every bet, counting from the cards seen, settlement of bets in exact money."""
