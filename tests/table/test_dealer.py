"""The tableau, cell by cell, against the tableau of docs/game.md written out independently here."""

from __future__ import annotations

import pytest

from baccarat.table.cards import make_card, parse_card
from baccarat.table.dealer import play_round

# Card with a given point value: value 0 -> a king, 1 -> ace, 2..9 pips.
RANK_FOR_VALUE = {0: 13, **{v: v for v in range(1, 10)}}

# docs/game.md, Banker when Player drew: the third-card values on which Banker STANDS.
BANKER_STANDS = {
    0: "",
    1: "",
    2: "",
    3: "8",
    4: "0189",
    5: "012389",
    6: "01234589",
    7: "0123456789",
}


def card(value: int) -> int:
    return make_card(RANK_FOR_VALUE[value])


def two_cards(total: int) -> tuple[int, int]:
    """Two cards making ``total`` (avoiding a pair where possible)."""
    first = (total + 3) % 10 if total != 0 else 3
    second = (total - first) % 10
    return card(first), card(second)


def deal(p: tuple[int, int], b: tuple[int, int], thirds: list[int]) -> list[int]:
    return [p[0], b[0], p[1], b[1], *thirds]


@pytest.mark.parametrize("player_total", range(10))
@pytest.mark.parametrize("banker_total", range(10))
def test_every_pair_of_two_card_totals(player_total: int, banker_total: int) -> None:
    p, b = two_cards(player_total), two_cards(banker_total)
    # Distinct third cards so we can tell who took which.
    p3, b3 = card(4), card(6)
    rnd = play_round(deal(p, b, [p3, b3]))
    natural = player_total >= 8 or banker_total >= 8
    assert rnd.natural == natural
    if natural:
        assert len(rnd.player) == 2 and len(rnd.banker) == 2
        return
    player_draws = player_total <= 5
    assert (len(rnd.player) == 3) == player_draws
    if not player_draws:
        # Player stood: Banker draws on 0-5 and stands on 6-7, taking the next card.
        banker_draws = banker_total <= 5
        assert (len(rnd.banker) == 3) == banker_draws
        if banker_draws:
            assert rnd.banker[2] == p3  # the fifth card goes to Banker when Player stood
    expected_p = (player_total + (4 if player_draws else 0)) % 10
    assert rnd.player_total == expected_p


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third_value", range(10))
def test_banker_rule_when_player_drew(banker_total: int, third_value: int) -> None:
    p = two_cards(2)  # Player draws on 2
    b = two_cards(banker_total)
    rnd = play_round(deal(p, b, [card(third_value), card(5)]))
    assert len(rnd.player) == 3
    stands = str(third_value) in BANKER_STANDS[banker_total]
    assert (len(rnd.banker) == 2) == stands
    expected_banker = banker_total if stands else (banker_total + 5) % 10
    assert rnd.banker_total == expected_banker
    assert rnd.player_total == (2 + third_value) % 10


@pytest.mark.parametrize(
    ("cards", "player", "banker", "outcome", "natural"),
    [
        # Natural 9 for Player beats Banker's 7; nobody draws.
        ("4 3 5 4", (9, 2), (7, 2), "player", True),
        # Banker natural 8 against Player's 5: Player does not draw.
        ("2 K 3 8", (5, 2), (8, 2), "banker", True),
        # Both naturals, 8 v 8: a tie.
        ("8 8 K Q", (8, 2), (8, 2), "tie", True),
        # Seed 000's example: 4 + 10 + 9 = 13 -> 3 (Player draws a 9 on 4).
        ("4 2 10 4 9 5", (3, 3), (6, 2), "banker", False),
        # Banker 3 stands on Player's third 8.
        ("A 2 4 A 8 9", (3, 3), (3, 2), "tie", False),
        # Banker 6 draws on Player's third 7: 6 + 4 = 10 -> 0.
        ("2 3 3 3 7 4", (2, 3), (0, 3), "player", False),
        # Player stands on 6; Banker 5 draws when Player stood.
        ("3 2 3 3 9", (6, 2), (4, 3), "player", False),
        # Player stands on 7; Banker 6 stands when Player stood.
        ("3 3 4 3", (7, 2), (6, 2), "player", False),
    ],
)
def test_known_hands(cards: str, player: tuple[int, int], banker: tuple[int, int], outcome: str, natural: bool) -> None:
    rnd = play_round([parse_card(t) for t in cards.split()])
    assert (rnd.player_total, len(rnd.player)) == player
    assert (rnd.banker_total, len(rnd.banker)) == banker
    assert rnd.outcome == outcome
    assert rnd.natural is natural
    assert rnd.cards_used == player[1] + banker[1]


def test_pairs_are_by_rank_not_value() -> None:
    rnd = play_round([parse_card(t) for t in "KS 10H KD QC 5 5".split()])
    assert rnd.player_pair  # K-K
    assert not rnd.banker_pair  # 10-Q: same value, different ranks


def test_round_running_out_of_cards_raises() -> None:
    with pytest.raises(IndexError):
        play_round([card(1), card(2), card(3), card(1)])  # Player 4 must draw
