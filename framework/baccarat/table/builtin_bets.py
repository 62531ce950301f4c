"""The built-in bets: one definition each, registered through the ``register_bets`` hook as any plugin's bets are
(:mod:`baccarat.plugin.builtin_bets` is that hook).

Main bets (always offered; their pay set by the rules' own fields):

- ``banker``: 1:1 less the commission; a tie pushes. Super 6 (``banker_six_pays``)
  pays a Banker win with a total of 6 at that rate instead; EZ Baccarat
  (``banker_three_card_seven_pushes``) pushes a Banker win with a three-card 7.
- ``player``: 1:1; a tie pushes. ``tie``: ``tie_pays`` to 1.

Side bets (offered by a rule set's ``side_bets``; pay tables in ``docs/side-bets.md``):
the pairs, EZ Baccarat's Dragon 7 and Panda 8, Dragon Bonus on either hand,
Either Pair, Perfect Pair, Big and Small, Lucky 6 and the Super Six side bet.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from baccarat.table.bet_definition import BetDefinition, RoundFacts


def _banker_needs(rules) -> frozenset[str]:
    if rules.banker_three_card_seven_pushes:
        return frozenset({"totals", "cards"})
    return frozenset({"totals"}) if rules.banker_six_pays is not None else frozenset()


def _banker_table(rules) -> dict[str, Fraction]:
    six = {} if rules.banker_six_pays is None else {"six": rules.banker_six_pays}
    return {**six, "win": 1 - rules.commission}


def _banker_wins(r: RoundFacts) -> dict[str, np.ndarray]:
    lines = {"win": r.banker_wins}
    if r.rules.banker_six_pays is not None:
        lines = {"six": r.banker_wins & (r.banker_total == 6), **lines}
    return lines


def _banker_pushes(r: RoundFacts) -> np.ndarray:
    if r.rules.banker_three_card_seven_pushes:
        return r.tie | (r.banker_wins & (r.banker_total == 7) & (r.banker_cards == 3))
    return r.tie


BANKER = BetDefinition(
    name="banker",
    label="Banker",
    needs=_banker_needs,
    pays={"win": Fraction(19, 20)},
    main=True,
    wins=_banker_wins,
    pushes=_banker_pushes,
    pay_table=_banker_table,
    description="Banker wins: 1:1 less the commission; a tie pushes",
    line_labels={"six": "Banker wins with 6 (Super 6)", "win": "Banker wins"},
)
PLAYER = BetDefinition(
    name="player",
    label="Player",
    needs=frozenset(),
    pays={"win": Fraction(1)},
    main=True,
    wins=lambda r: {"win": r.player_wins},
    pushes=lambda r: r.tie,
    pay_table=lambda rules: {"win": Fraction(1)},
    description="Player wins: 1:1; a tie pushes",
    line_labels={"win": "Player wins"},
)
TIE = BetDefinition(
    name="tie",
    label="Tie",
    needs=frozenset(),
    pays={"win": Fraction(8)},
    main=True,
    wins=lambda r: {"win": r.tie},
    pay_table=lambda rules: {"win": rules.tie_pays},
    description="the hands tie",
    line_labels={"win": "a tie"},
)


def _one_line(
    name: str, label: str, needs: set[str], pays: int | Fraction, wins: Callable[[RoundFacts], np.ndarray], description: str
) -> BetDefinition:
    return BetDefinition(
        name=name,
        label=label,
        needs=frozenset(needs),
        pays={"win": Fraction(pays)},
        wins=lambda r: {"win": wins(r)},
        description=description,
        line_labels={"win": description},
    )


PLAYER_PAIR = _one_line("player_pair", "Player Pair", {"ranks"}, 11, lambda r: r.player_pair, "Player's first two cards are of equal rank")
BANKER_PAIR = _one_line("banker_pair", "Banker Pair", {"ranks"}, 11, lambda r: r.banker_pair, "Banker's first two cards are of equal rank")
DRAGON_7 = _one_line(
    "dragon7",
    "Dragon 7",
    {"totals", "cards"},
    40,
    lambda r: r.banker_wins & (r.banker_total == 7) & (r.banker_cards == 3),
    "Banker wins with a three-card 7",
)
PANDA_8 = _one_line(
    "panda8",
    "Panda 8",
    {"totals", "cards"},
    25,
    lambda r: r.player_wins & (r.player_total == 8) & (r.player_cards == 3),
    "Player wins with a three-card 8",
)

DRAGON_BONUS_PAYS: dict[str, Fraction] = {
    "natural": Fraction(1),
    "by_9": Fraction(30),
    "by_8": Fraction(10),
    "by_7": Fraction(6),
    "by_6": Fraction(4),
    "by_5": Fraction(2),
    "by_4": Fraction(1),
}
"""Dragon Bonus, the standard table: a natural win 1:1, a win without a natural by 9 points 30:1 ... by 4 1:1."""


def _dragon_bonus(hand: str) -> BetDefinition:
    sign = 1 if hand == "player" else -1

    def wins(r: RoundFacts) -> dict[str, np.ndarray]:
        margin = sign * (r.player_total.astype(np.int64) - r.banker_total)
        lines = {"natural": r.natural & (margin > 0)}
        for points in (9, 8, 7, 6, 5, 4):
            lines[f"by_{points}"] = ~r.natural & (margin == points)
        return lines

    labels = {"natural": f"{hand.capitalize()} wins with a natural"}
    labels.update({f"by_{p}": f"{hand.capitalize()} wins by {p} points without a natural" for p in (9, 8, 7, 6, 5, 4)})
    return BetDefinition(
        name=f"dragon_bonus_{hand}",
        label=f"Dragon Bonus {hand.capitalize()}",
        needs=frozenset({"totals", "natural"}),
        pays=dict(DRAGON_BONUS_PAYS),
        wins=wins,
        pushes=lambda r: r.natural & (r.player_total == r.banker_total),
        description=f"{hand.capitalize()} wins with a natural, or by 4 to 9 points; a natural tie pushes",
        line_labels=labels,
    )


DRAGON_BONUS_PLAYER = _dragon_bonus("player")
DRAGON_BONUS_BANKER = _dragon_bonus("banker")
EITHER_PAIR = _one_line(
    "either_pair", "Either Pair", {"ranks"}, 5, lambda r: r.player_pair | r.banker_pair, "either hand's first two cards are of equal rank"
)
PERFECT_PAIR = _one_line(
    "perfect_pair",
    "Perfect Pair",
    {"ranks", "suits"},
    25,
    lambda r: (r.player_pair & r.player_suited) | (r.banker_pair & r.banker_suited),
    "either hand's first two cards are of equal rank and suit",
)
BIG = _one_line("big", "Big", {"cards"}, Fraction(54, 100), lambda r: r.player_cards + r.banker_cards >= 5, "the round uses 5 or 6 cards")
SMALL = _one_line("small", "Small", {"cards"}, Fraction(3, 2), lambda r: r.player_cards + r.banker_cards == 4, "the round uses 4 cards")
LUCKY_6 = BetDefinition(
    name="lucky_6",
    label="Lucky 6",
    needs=frozenset({"totals", "cards"}),
    pays={"two_cards": Fraction(12), "three_cards": Fraction(20)},
    wins=lambda r: {
        "two_cards": r.banker_wins & (r.banker_total == 6) & (r.banker_cards == 2),
        "three_cards": r.banker_wins & (r.banker_total == 6) & (r.banker_cards == 3),
    },
    description="Banker wins with 6: on two cards 12:1, on three cards 20:1",
    line_labels={"two_cards": "Banker wins with a two-card 6", "three_cards": "Banker wins with a three-card 6"},
)
SUPER_SIX = _one_line("super_six", "Super Six", {"totals"}, 12, lambda r: r.banker_wins & (r.banker_total == 6), "Banker wins with 6")

BUILT_IN: tuple[BetDefinition, ...] = (
    BANKER,
    PLAYER,
    TIE,
    PLAYER_PAIR,
    BANKER_PAIR,
    DRAGON_7,
    PANDA_8,
    DRAGON_BONUS_PLAYER,
    DRAGON_BONUS_BANKER,
    EITHER_PAIR,
    PERFECT_PAIR,
    BIG,
    SMALL,
    LUCKY_6,
    SUPER_SIX,
)
"""Every built-in bet, main bets first, in the order tables and the ledger list them."""
