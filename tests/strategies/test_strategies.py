"""The built-in library of docs/strategies.md on scripted outcome sequences, stakes worked out by hand.

Unless a test says otherwise: punto-banco-8 rules (Banker wins pay 0.95), a
bankroll of 1000, table limits 10 to 1000, unit 10, one shoe per session.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers.scripted import money, play, sides, stakes

from baccarat.errors import StrategyError
from baccarat.plugin import Strategy
from baccarat.plugin.compose import StopRuled, with_stop_rules
from baccarat.plugin.manager import registry
from baccarat.plugin.registry import default_session
from baccarat.shoes.seeded import seeded_table
from baccarat.streams import strategy_rng
from baccarat.table.rules import preset

# Progressions ----------------------------------------------------------------


def test_flat_bets_one_unit_whatever_happens() -> None:
    cols = play("flat", "PBTPPB", side="player", unit=25)
    assert stakes(cols) == [25] * 6
    assert money(cols, "net") == [25, -25, 0, 25, 25, -25]


def test_martingale_doubles_until_a_win() -> None:
    cols = play("martingale", "PPPBPB")
    assert stakes(cols) == [10, 20, 40, 80, 10, 20]
    assert money(cols, "net") == [-10, -20, -40, 76, -10, 19]


def test_grand_martingale_doubles_plus_one_unit() -> None:
    assert stakes(play("grand-martingale", "PPPBP")) == [10, 30, 70, 150, 10]
    assert stakes(play("grand-martingale", "PTPB")) == [10, 30, 30, 70]


def test_grand_martingale_restarts_above_the_table_maximum() -> None:
    # 150 would exceed 100: the series is abandoned, the next stake is the first one.
    cols = play("grand-martingale", "PPPPB", table_max=100)
    assert stakes(cols) == [10, 30, 70, 10, 30]
    assert cols["capped"].tolist() == [0] * 5


def test_paroli_doubles_after_wins_and_restarts_after_three() -> None:
    assert stakes(play("paroli", "BBBBPB")) == [10, 20, 40, 10, 20, 10]
    assert stakes(play("paroli", "BTBB")) == [10, 20, 20, 40]
    assert stakes(play("paroli", "BBBB", wins=2)) == [10, 20, 10, 20]


def test_paroli_restarts_above_the_table_maximum() -> None:
    assert stakes(play("paroli", "BBBB", wins=5, table_max=30)) == [10, 20, 10, 20]


def test_fibonacci_one_term_on_after_a_loss_two_back_after_a_win() -> None:
    cols = play("fibonacci", "PPPPPBBBB")
    assert stakes(cols) == [10, 10, 20, 30, 50, 80, 30, 10, 10]
    assert stakes(play("fibonacci", "PPTPB")) == [10, 10, 20, 20, 30]


def test_fibonacci_restarts_above_the_table_maximum() -> None:
    assert stakes(play("fibonacci", "PPPPPP", table_max=60)) == [10, 10, 20, 30, 50, 10]


def test_dalembert_one_unit_up_after_a_loss_down_after_a_win() -> None:
    assert stakes(play("dalembert", "PPPBBBBB")) == [10, 20, 30, 40, 30, 20, 10, 10]


def test_dalembert_restarts_above_the_table_maximum() -> None:
    assert stakes(play("dalembert", "PPPPB", table_max=35)) == [10, 20, 30, 10, 20]


def test_labouchere_crosses_off_on_wins_and_appends_losses() -> None:
    # line 10 20 30 40: bet 50; lose -> append 50, bet 60; lose -> append 60, bet 70;
    # win -> 20 30 40 50, bet 70; win -> 30 40, bet 70; win -> empty, restart: bet 50.
    cols = play("labouchere", "PPBBBP")
    assert stakes(cols) == [50, 60, 70, 70, 70, 50]


def test_labouchere_bets_the_only_number_left() -> None:
    # line 10 20 30: bet 40; win -> 20, bet 20; win -> empty, restart: bet 40.
    assert stakes(play("labouchere", "BBB", line=[1, 2, 3])) == [40, 20, 40]
    assert stakes(play("labouchere", "PB", line=[2], unit=5)) == [10, 20]


def test_labouchere_restarts_above_the_table_maximum() -> None:
    # 10 20 30 40 + 50 + 60 -> 70 > 65: the line starts over at 50.
    assert stakes(play("labouchere", "PPPB", table_max=65)) == [50, 60, 50, 60]


def test_one_three_two_six_in_turn() -> None:
    assert stakes(play("1-3-2-6", "BBBBBPB")) == [10, 30, 20, 60, 10, 30, 10]
    assert stakes(play("1-3-2-6", "BTBP")) == [10, 30, 30, 20]


def test_one_three_two_six_restarts_above_the_table_maximum() -> None:
    assert stakes(play("1-3-2-6", "BBBB", table_max=50)) == [10, 30, 20, 10]


def test_oscars_grind_series_aims_at_one_unit() -> None:
    # Player pays 1:1. Two losses (-20), a win at 10 (-10), then 20 is exactly what is needed.
    assert stakes(play("oscars-grind", "BBPPP", side="player")) == [10, 10, 10, 20, 10]
    # -30; win at 10 -> -20, 20 next; win -> 0, only 10 needed; win -> +10: new series.
    assert stakes(play("oscars-grind", "BBBPPPP", side="player")) == [10, 10, 10, 10, 20, 10, 10]


def test_oscars_grind_needs_are_rounded_up_to_the_cent_and_floored_at_the_table_minimum() -> None:
    # Banker pays 0.95. -10, +9.50 (series -0.50): needs 10.50. +9.975 (series 9.475): needs 0.525,
    # which rounds up to 0.53; the table minimum of 10 is the floor; +9.50 ends the series.
    assert stakes(play("oscars-grind", "PBBBB")) == [10, 10, 10.5, 10, 10]
    # With a minimum of 0.01: 0.53 (+0.5035, series 9.9785), then 0.03 (+0.0285, series 10.007): done.
    assert stakes(play("oscars-grind", "PBBBBB", table_min=0.01)) == [10, 10, 10.5, 0.53, 0.03, 10]


def test_oscars_grind_restarts_above_the_table_maximum() -> None:
    # Five losses (-50); win at 10 (-40) -> 20; win (-20) -> 30 > 20: series abandoned.
    assert stakes(play("oscars-grind", "BBBBBPPP", side="player", table_max=20)) == [10, 10, 10, 10, 10, 10, 20, 10]


@pytest.mark.parametrize(
    "use", ["martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind"]
)
def test_a_push_leaves_stake_and_state_unchanged(use: str) -> None:
    with_ties = play(use, "PTBTTPBTB")
    without = play(use, "PBPBB")
    assert [s for s, o in zip(stakes(with_ties), "PTBTTPBTB", strict=True) if o != "T"] == stakes(without)
    ties = [i for i, o in enumerate("PTBTTPBTB") if o == "T"]
    assert all(stakes(with_ties)[i] == stakes(with_ties)[i + 1] for i in ties)


def test_tie_and_pair_bets_never_push() -> None:
    cols = play("martingale", "BTPT", side="tie")
    assert stakes(cols) == [10, 20, 10, 20]
    assert money(cols, "net") == [-10, 160, -10, 160]


def test_pair_bets_win_or_lose_on_the_cards() -> None:
    rules = preset("punto-banco-8-pairs")
    table = seeded_table(rules, seed=5, first_shoe=1, count=2)
    cols = play("martingale", table, rules="punto-banco-8-pairs", side="player_pair", bankroll=1_000_000, shoes_per_session=2)
    expected, stake = [], 10
    for pair in table.player_pair.tolist():
        expected.append(stake)
        stake = 10 if pair else 2 * stake
        if stake > 1000:
            stake = 10
    assert any(table.player_pair) and cols["capped"].sum() == 0
    assert stakes(cols) == expected
    nets = money(cols, "net_player_pair")
    assert nets == [s * 11 if pair else -s for s, pair in zip(expected, table.player_pair.tolist(), strict=True)]
    cols = play("flat", table, rules="punto-banco-8-pairs", side="banker_pair")
    assert money(cols, "net") == [110 if pair else -10 for pair in table.banker_pair.tolist()]


# Bankroll cap and ruin ---------------------------------------------------------


def test_a_stake_above_the_bankroll_is_cut_and_counted_then_ruin_stops_betting() -> None:
    # 10 lost (40 left), 30 lost (10 left), 70 wanted: cut to 10, lost: ruin.
    cols = play("grand-martingale", "PPPB", bankroll=50)
    assert stakes(cols) == [10, 30, 10, 0]
    assert cols["capped"].tolist() == [0, 0, 1, 0]
    assert money(cols, "bankroll") == [40, 10, 0, 0]


def test_a_capped_stake_does_not_change_the_progression() -> None:
    # D'Alembert from 45: 10 lost (35), 20 lost (15), 30 wanted, cut to 15 and won (29.25);
    # the next stake follows from the 30 asked: 20. It loses: 9.25 left is below the minimum: ruin.
    cols = play("dalembert", "PPBPB", bankroll=45)
    assert stakes(cols) == [10, 20, 15, 20, 0]
    assert cols["capped"].tolist() == [0, 0, 1, 0, 0]
    assert money(cols, "bankroll") == [35, 15, 29.25, 9.25, 9.25]


def test_ruin_below_the_table_minimum_for_every_progression() -> None:
    for use in ("flat", "martingale", "paroli", "labouchere", "oscars-grind"):
        cols = play(use, "P" * 30, bankroll=100)
        bankrolls = money(cols, "bankroll")
        ruined = next(i for i, b in enumerate(bankrolls) if b < 10)
        assert all(s == 0 for s in stakes(cols)[ruined + 1 :]), use


def test_progression_state_is_fresh_every_session_but_carries_across_the_shoes_of_one() -> None:
    cols = play("martingale", "PPPP", shoe_lengths=[2, 2], shoes_per_session=2)
    assert stakes(cols) == [10, 20, 40, 80]
    cols = play("martingale", "PPPP", shoe_lengths=[2, 2], shoes_per_session=1)
    assert stakes(cols) == [10, 20, 10, 20]


# Selectors ---------------------------------------------------------------------


def test_fixed_sides() -> None:
    assert sides(play("flat", "BPT", side="player")) == ["P", "P", "P"]
    assert sides(play("flat", "BPT", side="tie")) == ["T", "T", "T"]
    assert sides(play("flat", "BPT", side="banker")) == ["B", "B", "B"]


def test_follow_last_backs_the_last_decided_winner_and_sits_out_until_there_is_one() -> None:
    cols = play("flat", "TBTPPB", side="follow-last")
    assert sides(cols) == ["-", "-", "B", "B", "P", "P"]
    assert money(cols, "net") == [0, 0, 0, -10, 10, -10]


def test_chop_backs_the_opposite() -> None:
    assert sides(play("flat", "BPTBB", side="chop")) == ["-", "P", "B", "B", "P"]


def test_a_predictor_backs_the_side_it_favours() -> None:
    """``side: predicted``: Banker before any decided round (off the top), then the side the predictor leans to."""
    assert sides(play("flat", "TBTPPB", side="predicted", predictor="follow-streak")) == ["B", "B", "B", "B", "P", "P"]
    assert sides(play("flat", "BPTBB", side="predicted", predictor="follow-chop")) == ["B", "P", "B", "B", "P"]
    assert sides(play("flat", "PPTPP", side="predicted", predictor="off-the-top")) == ["B"] * 5
    # shoe-frequencies: the shoe's counts over 10 rounds of off-the-top chances; one Player win tips it to Player.
    assert sides(play("flat", "PBBPP", side="predicted", predictor="shoe-frequencies")) == ["B", "P", "B", "B", "B"]
    with pytest.raises(StrategyError, match="predictor must be one of exact, off-the-top"):
        play("flat", "BP", side="predicted", predictor="hunch")


def test_a_predictor_reading_the_cards_backs_the_side_the_cards_favour() -> None:
    """``exact``: Banker or Player, whichever the cards not seen yet give the higher chance, before every round of a shoe."""
    from baccarat.plugin import outcome_chances
    from baccarat.results.patterns.predictions import rank_counts_of_shoe
    from baccarat.table.cards import rank_of

    rules = preset("punto-banco-8")
    table = seeded_table(rules, 3, 1, 2)
    chosen = sides(play("flat", table, side="predicted", predictor="exact"))
    expected = []
    for start, stop in table.shoe_bounds():
        remaining = rank_counts_of_shoe(rules.decks)
        if int(table.turned[start]):
            remaining[rank_of(int(table.turned[start])) - 1] -= 1
        for row in range(start, stop):
            banker, player, _ = outcome_chances(tuple(int(n) for n in remaining))
            expected.append("B" if banker >= player else "P")
            for card in (*table.player_cards[row], *table.banker_cards[row]):
                if card:
                    remaining[rank_of(int(card)) - 1] -= 1
    assert chosen == expected  # Banker throughout here: 8 decks seldom make Player the likelier side


def test_streak_backs_a_side_after_length_wins_in_a_row() -> None:
    assert sides(play("flat", "BBBPTPPB", side="streak", length=2)) == ["-", "-", "B", "B", "-", "-", "P", "P"]
    assert sides(play("flat", "BBBBPPP", side="streak")) == ["-", "-", "-", "B", "B", "-", "-"]


def test_pattern_is_indexed_by_the_shoes_decided_rounds() -> None:
    # Letters B B P: round 1 letter 0; a tie does not move on; after three decided rounds it wraps.
    assert sides(play("flat", "PTBPBB", side="pattern", pattern="BBP")) == ["B", "B", "B", "P", "B", "B"]
    assert sides(play("flat", "BBB", side="pattern", pattern="p")) == ["P", "P", "P"]


def test_pattern_selectors_read_the_current_shoe_only() -> None:
    cols = play("flat", "BBPPB", side="follow-last", shoe_lengths=[3, 2], shoes_per_session=2)
    assert sides(cols) == ["-", "B", "B", "-", "P"]
    cols = play("flat", "BPBBP", side="pattern", pattern="PB", shoe_lengths=[3, 2], shoes_per_session=2)
    assert sides(cols) == ["P", "B", "P", "P", "B"]


def test_a_progression_does_not_move_while_its_selector_sits_out() -> None:
    # streak of 2: 10 on B wins; 10 on B loses (20 next); sits out; 20 on P loses (40 next); sits out; 40 on B.
    cols = play("martingale", "BBBPPBBP", side="streak", length=2)
    assert sides(cols) == ["-", "-", "B", "B", "-", "P", "-", "B"]
    assert stakes(cols) == [0, 0, 10, 10, 0, 20, 0, 40]


def test_random_flips_the_sessions_coin_once_per_round() -> None:
    n = 400
    cols = play("flat", "B" * n + "P" * n, side="random", label="coin", seed=42, shoe_lengths=[n, n], shoes_per_session=1)
    for session, rows in ((1, slice(0, n)), (2, slice(n, 2 * n))):
        rng = strategy_rng(42, "coin", session)
        expected = ["B" if rng.random() < 0.5 else "P" for _ in range(n)]
        assert sides(cols)[rows] == expected
    assert sides(cols)[:n] != sides(cols)[n:]
    banker = sides(cols).count("B")
    assert abs(banker - n) < 4 * (2 * n * 0.25) ** 0.5


def test_selectors_declare_their_sides_before_the_run() -> None:
    reg = registry()
    for side, expected in (("follow-last", {"banker", "player"}), ("tie", {"tie"}), ("banker_pair", {"banker_pair"})):
        cls, params = reg.resolve("martingale", {"side": side})
        assert cls.sides(params) == expected


# Stop rules --------------------------------------------------------------------


def test_stop_loss_stops_once_the_session_has_lost_that_much() -> None:
    assert stakes(play("flat", "PPPPB", stop_loss=25)) == [10, 10, 10, 0, 0]
    assert stakes(play("flat", "PPPPB", stop_loss=30)) == [10, 10, 10, 0, 0]
    assert stakes(play("flat", "PPPPB", stop_loss=31)) == [10, 10, 10, 10, 0]


def test_stop_win_stops_once_the_session_has_won_that_much() -> None:
    assert stakes(play("flat", "PPPB", side="player", stop_win=15)) == [10, 10, 0, 0]
    # Banker wins 9.50: 19 is short of 19.01.
    assert stakes(play("flat", "BBBB", stop_win=19.01)) == [10, 10, 10, 0]


def test_max_rounds_counts_the_sessions_rounds_sat_out_included() -> None:
    assert stakes(play("flat", "BBBB", max_rounds=2)) == [10, 10, 0, 0]
    assert stakes(play("flat", "BBBB", side="follow-last", max_rounds=2)) == [0, 10, 0, 0]


def test_stop_is_for_the_rest_of_the_session_only() -> None:
    cols = play("flat", "PPPPPP", stop_loss=20, shoe_lengths=[3, 3], shoes_per_session=1)
    assert stakes(cols) == [10, 10, 0, 10, 10, 0]


def test_stop_rules_combine() -> None:
    assert stakes(play("martingale", "PPBBBBBB", stop_loss=100, stop_win=20, max_rounds=7)) == [10, 20, 40, 10, 10, 0, 0, 0]


# Parameters and errors -----------------------------------------------------------


def test_unknown_strategy_suggests_the_closest_name() -> None:
    with pytest.raises(StrategyError, match="unknown strategy 'martingal' \\(did you mean 'martingale'\\?\\)"):
        registry().resolve("martingal", {})


def test_unknown_parameter_suggests_the_closest_name() -> None:
    with pytest.raises(StrategyError, match="no parameter 'unti' \\(did you mean 'unit'\\?\\)"):
        registry().resolve("martingale", {"unti": 10})
    with pytest.raises(StrategyError, match="no parameter 'stop_los' \\(did you mean 'stop_loss'\\?\\)"):
        registry().resolve("flat", {"stop_los": 10})


def test_unknown_side_suggests_the_closest_selector() -> None:
    with pytest.raises(StrategyError, match="unknown side 'folow-last' .*did you mean 'follow-last'"):
        registry().resolve("flat", {"side": "folow-last"})


def test_a_selector_parameter_on_another_side_names_its_selector() -> None:
    with pytest.raises(StrategyError, match="no parameter 'length' \\(it is a parameter of side 'streak'\\)"):
        registry().resolve("flat", {"side": "banker", "length": 3})


@pytest.mark.parametrize(
    "params, message",
    [
        ({"unit": -5}, "unit must be a positive amount"),
        ({"unit": 0.001}, "unit must be a whole number of cents"),
        ({"unit": "ten"}, "unit must be an amount"),
        ({"side": "streak", "length": 0}, "length must be a whole number of at least 1"),
        ({"side": "pattern", "pattern": "BXP"}, "pattern must be a string of B and P"),
        ({"stop_loss": -1}, "stop_loss must be a positive amount"),
        ({"max_rounds": 2.5}, "max_rounds must be a whole number"),
    ],
)
def test_bad_parameter_values_fail_before_the_run(params, message) -> None:
    with pytest.raises(StrategyError, match=message):
        registry().resolve("flat", params)


def test_bad_progression_parameters_fail_before_the_run() -> None:
    with pytest.raises(StrategyError, match="wins must be a whole number"):
        registry().resolve("paroli", {"wins": 0})
    with pytest.raises(StrategyError, match="line must be a non-empty list"):
        registry().resolve("labouchere", {"line": []})
    with pytest.raises(StrategyError, match="whole number of cents"):
        registry().resolve("labouchere", {"line": [0.5], "unit": 0.05}, default_session(table_min_cents=1))


def test_a_composed_strategy_takes_its_selectors_and_stop_rules_parameters() -> None:
    cls, params = registry().resolve("paroli", {"side": "streak", "length": 2, "stop_win": 50})
    assert cls.sides(params) == {"banker", "player"}
    made = cls(default_session(), **params)
    assert made.chooser.length == 2 and made.stops[0].goal == Decimal(50)


class Both(Strategy):
    name = "both"
    params = {"unit": 10}

    @classmethod
    def sides(cls, params):
        return {"banker", "player"}

    def bets(self, view):
        return {"banker": self.unit, "player": self.unit}


def test_a_free_form_strategy_takes_stop_rules_and_is_itself_without_them() -> None:
    cls = with_stop_rules(Both, registry().stop_rules)
    assert issubclass(cls, StopRuled)
    assert cls.accepted_params({}) == {"unit": 10, "stop_loss": None, "stop_win": None, "max_rounds": None}
    assert cls.sides({"unit": 10, "max_rounds": 3}) == {"banker", "player"}
    assert type(cls(default_session(), unit=10)) is Both
    wrapped = cls(default_session(), unit=10, max_rounds=1)
    assert isinstance(wrapped, StopRuled) and wrapped.strategy.unit == 10


# Against the independent reference (tests/helpers/strategy_reference.py) on seeded shoes --------

PROGRESSIONS = ["flat", "martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind"]
SELECTORS = [
    ("banker", {}),
    ("player", {}),
    ("tie", {}),
    ("player_pair", {}),
    ("follow-last", {}),
    ("chop", {}),
    ("streak", {"length": 2}),
    ("pattern", {"pattern": "BBP"}),
    ("random", {}),
]


@pytest.mark.slow
@pytest.mark.parametrize("use", PROGRESSIONS)
def test_every_progression_and_selector_matches_the_reference_round_by_round(use: str) -> None:
    from fractions import Fraction

    from helpers.strategy_reference import play_session

    rules = preset("punto-banco-8-pairs")
    table = seeded_table(rules, seed=100 + PROGRESSIONS.index(use), first_shoe=1, count=6)
    letters = {0: "B", 1: "P", 2: "T"}
    shoes: dict[int, list] = {}
    for shoe, outcome, pp, bp in zip(
        table.shoe.tolist(), table.outcome.tolist(), table.player_pair.tolist(), table.banker_pair.tolist(), strict=True
    ):
        shoes.setdefault(shoe, []).append((letters[outcome], pp, bp))
    extra = {"paroli": {"wins": 2}, "labouchere": {"line": [1, 2, 2.5]}}.get(use, {})
    variants = [
        dict(bankroll=300, table_min=5, table_max=160, unit=5),
        dict(bankroll=2000, table_min=1, table_max=500, unit=2.5, stop_win=60, stop_loss=400),
        dict(bankroll=150, table_min=10, table_max=1000, unit=10, max_rounds=70),
    ]
    for side, side_params in SELECTORS:
        for variant in variants:
            params = {
                "side": side,
                **side_params,
                **extra,
                **{k: v for k, v in variant.items() if k in ("unit", "stop_win", "stop_loss", "max_rounds")},
            }
            cols = play(
                use,
                table,
                rules="punto-banco-8-pairs",
                shoes_per_session=2,
                label="ref",
                seed=9,
                bankroll=variant["bankroll"],
                table_min=variant["table_min"],
                table_max=variant["table_max"],
                **params,
            )
            got = list(zip(cols["stake"].tolist(), cols["bankroll"].tolist(), cols["capped"].tolist(), strict=True))
            expected = []
            for session, first in ((1, 1), (2, 3), (3, 5)):
                rows = play_session(
                    use,
                    side,
                    [shoes[first], shoes[first + 1]],
                    bankroll=Fraction(variant["bankroll"]),
                    table_min=Fraction(variant["table_min"]),
                    table_max=Fraction(variant["table_max"]),
                    unit=Fraction(str(variant["unit"])),
                    params=params,
                    coin=strategy_rng(9, "ref", session),
                )
                expected += [(int(s * 100), int(b * 1_000_000), int(c)) for s, b, c in rows]
            assert got == expected, (use, side, variant)
