"""Bet settlement in exact money, and the check of which bets a run may place.

Money is integer *micro-units* (1e-6 of the currency); stakes are whole
cents. A bet's result on a round is its stake times a *multiplier* kept in
basis points of the stake (+9500 for a Banker win at 5% commission, -10000
for a loss, 0 for a push), so ``net_micros = stake_cents * multiplier``
exactly: a 5% commission on 0.05 is 0.0025, kept, not rounded. What each bet
pays is defined once, in :mod:`baccarat.table.payouts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import numpy as np

from baccarat.errors import RulesError, did_you_mean
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.cards import SUIT_SHIFT
from baccarat.table.payouts import LOSE, PUSH, bp, needs_cards, needs_suits, offered_multipliers
from baccarat.table.rules import Rules

__all__ = ["LOSE", "PUSH", "bp", "check_bets_offered", "round_facts", "settleable_bets", "settlement_table"]


def settleable(rules: Rules, bet: str, has_cards: bool = True, has_suits: bool = True) -> bool:
    """Tell whether ``bet`` can be settled on shoes with (or without) their cards and the cards' suits."""
    if not has_cards:
        return not needs_cards(rules, bet)
    return has_suits or not needs_suits(rules, bet)


def settleable_bets(rules: Rules, has_cards: bool = True, has_suits: bool = True) -> tuple[str, ...]:
    """Return the bets ``rules`` offer that can be settled on shoes with (or without) their cards and suits."""
    return tuple(bet for bet in rules.bets if settleable(rules, bet, has_cards, has_suits))


def check_bets_offered(bets: set[str], rules: Rules, has_cards: bool = True, has_suits: bool = True) -> None:
    """Refuse, before a run, bets that ``rules`` do not offer, or that the shoes cannot settle.

    Outcome-only shoes settle only bets decided by the winner; shoes recorded
    by rank only cannot settle a bet that reads the cards' suits.
    """
    for bet in sorted(bets):
        if not rules.offers(bet):
            raise RulesError(
                f"the bet {bet!r} is not offered by the rules {rules.name!r}"
                f"{did_you_mean(bet, rules.bets)}; they offer {', '.join(rules.bets)}"
            )
        if not has_cards and needs_cards(rules, bet):
            why = "the cards" if bet != "banker" else f"the cards under the rules {rules.name!r} (its pay depends on Banker's hand)"
            raise RulesError(f"the bet {bet!r} needs {why}, but these shoes record outcomes only")
        if has_cards and not has_suits and needs_suits(rules, bet):
            raise RulesError(f"the bet {bet!r} needs the cards' suits, but these shoes record cards by rank only")


def bets_settled(rules: Rules, has_cards: bool = True, has_suits: bool = True) -> tuple[str, ...]:
    """Return the bets :func:`settlement_table` settles under ``rules`` (the ledger's bet columns, in their order)."""
    if not has_cards:
        return ("banker", "player", "tie")
    return ("banker", "player", "tie") + tuple(bet for bet in rules.side_bets if has_suits or not needs_suits(rules, bet))


class _TableFacts(Mapping):
    """The facts of a round table's rounds (:data:`baccarat.table.bet_definition.FACTS`), each computed when first read."""

    def __init__(self, table: RoundTable) -> None:
        self._table = table
        self._done: dict[str, np.ndarray] = {}
        t = table
        self._make: dict[str, Callable[[], np.ndarray]] = {
            "banker_wins": lambda: t.outcome == OUTCOME_CODE["banker"],
            "player_wins": lambda: t.outcome == OUTCOME_CODE["player"],
            "tie": lambda: t.outcome == OUTCOME_CODE["tie"],
        }
        if table.has_cards:
            self._make.update(
                {
                    "player_total": lambda: t.player_total,
                    "banker_total": lambda: t.banker_total,
                    "player_cards": lambda: 2 + (t.player_cards[:, 2] != 0).astype(np.int8),
                    "banker_cards": lambda: 2 + (t.banker_cards[:, 2] != 0).astype(np.int8),
                    "natural": lambda: t.natural,
                    "player_pair": lambda: t.player_cards[:, 0] % SUIT_SHIFT == t.player_cards[:, 1] % SUIT_SHIFT,
                    "banker_pair": lambda: t.banker_cards[:, 0] % SUIT_SHIFT == t.banker_cards[:, 1] % SUIT_SHIFT,
                    "player_suited": lambda: t.player_cards[:, 0] // SUIT_SHIFT == t.player_cards[:, 1] // SUIT_SHIFT,
                    "banker_suited": lambda: t.banker_cards[:, 0] // SUIT_SHIFT == t.banker_cards[:, 1] // SUIT_SHIFT,
                }
            )

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._done:
            self._done[name] = self._make[name]()
        return self._done[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._make)

    def __len__(self) -> int:
        return len(self._make)


def round_facts(table: RoundTable) -> Mapping[str, np.ndarray]:
    """Return the facts of ``table``'s rounds that bets read (winner; with cards, totals, cards, naturals, pairs, suits)."""
    return _TableFacts(table)


def settlement_table(table: RoundTable, rules: Rules) -> dict[str, np.ndarray]:
    """Return, for every bet the rules offer that the table can settle, each round's multiplier in basis points (int64).

    Outcome-only tables settle only the bets decided by the winner alone
    (:func:`settleable_bets`): Banker is left out when its pay depends on the
    cards; tables recorded by rank only leave out bets that read suits. Each
    bet settles by its definition in the rules' registry (:attr:`Rules.bet_registry`:
    the bets of the plugin registry the run loaded).
    """
    names = settleable_bets(rules, table.has_cards, table.has_suits())
    return offered_multipliers(rules, names, round_facts(table), len(table))
