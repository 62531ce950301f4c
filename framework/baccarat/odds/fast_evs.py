"""Expected values of every bet from a composition, fast enough to call every round.

Speed: :func:`bet_evs` takes well under 5 ms for a full 8-deck composition
(``tests/benchmarks/bench_odds.py`` prints the figures), so a strategy may
call it every round with the cards still in the shoe.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import numpy as np

from baccarat.money import BASIS_POINTS
from baccarat.odds.compositions import check_counts, falling, rank_counts, shoe_counts
from baccarat.odds.enumeration import CELLS, bet_grid, card_weights, end_weights
from baccarat.odds.exact_odds import STANDARD_PAIR_PAYS
from baccarat.table.payouts import PAIR_BETS
from baccarat.table.rules import Rules

# --- fast expected values ---------------------------------------------------------------


def _payout_key(rules: Rules) -> tuple:
    """What the payout matrices depend on: the paying rules and the bets' definitions (the registry the rules carry).

    Two registries that define a bet of one name differently are two keys, so
    one plugin folder's bet is never priced with another's definition.
    """
    sides = tuple(sorted((bet, tuple(p.items()) if isinstance(p, Mapping) else p) for bet, p in rules.side_bets.items()))
    return (rules.commission, rules.tie_pays, rules.banker_three_card_seven_pushes, rules.banker_six_pays, sides, rules.bet_registry)


@lru_cache(maxsize=64)
def _payout_matrix(key: tuple) -> tuple[tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray]:
    """Return each kind of bet and its multipliers as a float matrix.

    End bets over the 400 ends (k, 400); single-hand pair bets over (pair, no
    pair) (k, 2); other bets of the first two cards over their 16 patterns (k, 16).
    """
    rules = _rules_from_key(key)
    end_bets, end_rows, pair_bets, pair_rows, card_bets, card_rows = [], [], [], [], [], []
    for bet in rules.bets:
        first_cards, grid = bet_grid(rules, bet)
        if bet in PAIR_BETS:
            hand = grid.reshape(2, 2, 2, 2)
            pair_bets.append(bet)
            pair_rows.append([hand[1, 0, 0, 0], hand[0, 0, 0, 0]] if bet == "player_pair" else [hand[0, 0, 1, 0], hand[0, 0, 0, 0]])
        elif first_cards:
            card_bets.append(bet)
            card_rows.append(grid)
        else:
            end_bets.append(bet)
            end_rows.append(grid)
    end_matrix = np.array(end_rows, dtype=np.float64).reshape(-1, CELLS) / BASIS_POINTS
    pair_matrix = np.array(pair_rows, dtype=np.float64).reshape(-1, 2) / BASIS_POINTS
    card_matrix = np.array(card_rows, dtype=np.float64).reshape(-1, 16) / BASIS_POINTS
    return tuple(end_bets), end_matrix, tuple(pair_bets), pair_matrix, tuple(card_bets), card_matrix


def bet_evs(rules: Rules, counts: Sequence[int] | np.ndarray) -> dict[str, float]:
    """Return the exact expected value per unit staked of every bet ``rules`` offer, from composition ``counts``.

    Fast enough to call every round with the cards left in the shoe (see
    :func:`remove_cards`). Values are floats of the exact fractions (to about
    1e-16). ``counts`` is by rank (13) or suited (52); bets that read suits
    take the suits of a composition by rank from ``rules.decks`` full decks.
    """
    full = check_counts(counts)
    c = rank_counts(full)
    n = int(c.sum())
    end_bets, end_matrix, pair_bets, pair_matrix, card_bets, card_matrix = _payout_matrix(_payout_key(rules))
    values = end_matrix @ end_weights(c) / falling(n, 6)
    pair = float((c * (c - 1)).sum()) / falling(n, 2)
    pair_values = pair_matrix @ np.array([pair, 1.0 - pair])
    out = dict(zip(end_bets, values.tolist(), strict=True))
    out.update(zip(pair_bets, pair_values.tolist(), strict=True))
    if card_bets:
        weights = card_weights(full, rules.decks)
        total = falling(n, 4)
        cards = np.array([float(w / total) for w in weights])
        out.update(zip(card_bets, (card_matrix @ cards).tolist(), strict=True))
    return {bet: out[bet] for bet in rules.bets}


def expected_values(rules: Rules) -> dict[str, float]:
    """Return the exact expected value per unit staked of every bet ``rules`` offer, off the top of a full shoe."""
    return dict(_off_the_top(rules.decks, _payout_key(rules)))


@lru_cache(maxsize=64)
def _off_the_top(decks: int, key: tuple) -> tuple[tuple[str, float], ...]:
    return tuple(bet_evs(dataclasses.replace(_rules_from_key(key), decks=decks), shoe_counts(decks)).items())


def _rules_from_key(key: tuple) -> Rules:
    commission, tie_pays, seven_pushes, six_pays, side_bets, bets = key
    return Rules(
        name="payouts",
        commission=commission,
        tie_pays=tie_pays,
        banker_three_card_seven_pushes=seven_pushes,
        banker_six_pays=six_pays,
        side_bets={bet: dict(p) if isinstance(p, tuple) else p for bet, p in side_bets},
        bet_registry=bets,
    )


def priced_rules(rules: Rules) -> Rules:
    """Return ``rules`` with the pair bets added at 11:1 where they are not offered, to price them for reference."""
    side_bets: Mapping[str, Fraction] = {bet: STANDARD_PAIR_PAYS for bet in PAIR_BETS if bet not in rules.side_bets}
    return dataclasses.replace(rules, side_bets={**side_bets, **rules.side_bets})
