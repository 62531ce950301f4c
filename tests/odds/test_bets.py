"""Settlement of every bet and variant, through the engine and into the ledger; bets refused before a run."""

from __future__ import annotations

import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from baccarat.cli import main
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.errors import RulesError
from baccarat.execution.runner import run_experiment
from baccarat.experiment import load_experiment
from baccarat.odds.exact_odds import bet_odds
from baccarat.odds.fast_evs import expected_values
from baccarat.odds.settlement import check_bets_offered, settlement_table
from baccarat.plugin import Strategy
from baccarat.results.ledger import ledger_table
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.cards import parse_card, rank_of
from baccarat.table.dealer import play_round
from baccarat.table.rules import Rules, preset, rules_from_mapping

# Hands dealt in order P, B, P, B, then third cards; the comment says how each ends.
HANDS = {
    "A": "3S 2H 3D 2C 3H",  # Player 3-3 stands on 6; Banker 2-2 draws a 3: Banker wins with a three-card 7; both pairs
    "B": "2S KH 3D 7C 3H",  # Player 2-3 draws a 3: Player wins with a three-card 8 against Banker's 7
    "C": "AS 3H 4D 3C KH",  # Player A-4 draws a K (5); Banker 3-3 stands on a 0: Banker wins with a two-card 6; Banker pair
    "D": "AS 2H AD AC KH 3S",  # Player A-A draws a K (2); Banker 2-A draws a 3: Banker wins with a three-card 6; Player pair
    "E": "8S 8H KD KC",  # 8 against 8, naturals: a tie
    "F": "3S 4H 3D 3C",  # Player 3-3 stands on 6; Banker 4-3 stands on 7: Banker wins with a two-card 7; Player pair
    "G": "9S 2H KD 3C",  # Player's natural 9 against 5
}

STAKE = 10
# Expected net of a 10 stake on each hand, written from the rules by hand.
STANDARD = {  # 5% commission, Tie 8:1, pairs 11:1
    "banker": {"A": 9.5, "B": -10, "C": 9.5, "D": 9.5, "E": 0, "F": 9.5, "G": -10},
    "player": {"A": -10, "B": 10, "C": -10, "D": -10, "E": 0, "F": -10, "G": 10},
    "tie": {"A": -10, "B": -10, "C": -10, "D": -10, "E": 80, "F": -10, "G": -10},
    "player_pair": {"A": 110, "B": -10, "C": -10, "D": 110, "E": -10, "F": 110, "G": -10},
    "banker_pair": {"A": 110, "B": -10, "C": 110, "D": -10, "E": -10, "F": -10, "G": -10},
}
EZ = {  # no commission, a Banker win with a three-card 7 pushes, Dragon 7 40:1, Panda 8 25:1
    "banker": {"A": 0, "B": -10, "C": 10, "D": 10, "E": 0, "F": 10, "G": -10},
    "player": STANDARD["player"],
    "tie": STANDARD["tie"],
    "dragon7": {"A": 400, "B": -10, "C": -10, "D": -10, "E": -10, "F": -10, "G": -10},
    "panda8": {"A": -10, "B": 250, "C": -10, "D": -10, "E": -10, "F": -10, "G": -10},
}
SUPER_6 = {  # no commission, a Banker win with a 6 pays 1:2
    "banker": {"A": 10, "B": -10, "C": 5, "D": 5, "E": 0, "F": 10, "G": -10},
    "player": STANDARD["player"],
    "tie": STANDARD["tie"],
}
FOUR_PERCENT_TIE_NINE = {
    "banker": {"A": 9.6, "B": -10, "C": 9.6, "D": 9.6, "E": 0, "F": 9.6, "G": -10},
    "player": STANDARD["player"],
    "tie": {"A": -10, "B": -10, "C": -10, "D": -10, "E": 90, "F": -10, "G": -10},
}
CASES = [
    (preset("punto-banco-8-pairs"), STANDARD),
    (preset("ez-baccarat-8"), EZ),
    (preset("super-6-8"), SUPER_6),
    (
        rules_from_mapping({"name": "four-percent-tie-nine", "commission": "4%", "tie_pays": "9:1"}, preset("punto-banco-8")),
        FOUR_PERCENT_TIE_NINE,
    ),
]


class EverySide(Strategy):
    """Bet the same amount on each of ``sides`` every round."""

    name = "every-side"
    params = {"sides": ("banker",), "unit": STAKE}

    def bets(self, view):
        return dict.fromkeys(self.sides, self.unit)


def hand_table() -> RoundTable:
    rounds = [play_round([parse_card(t) for t in HANDS[key].split()]) for key in HANDS]
    return RoundTable.from_rounds([(1, rounds)])


def test_the_hands_end_as_their_comments_say() -> None:
    ends = {key: play_round([parse_card(t) for t in cards.split()]) for key, cards in HANDS.items()}
    summary = {
        key: (r.outcome, r.player_total, len(r.player), r.banker_total, len(r.banker), r.player_pair, r.banker_pair)
        for key, r in ends.items()
    }
    assert summary == {
        "A": ("banker", 6, 2, 7, 3, True, True),
        "B": ("player", 8, 3, 7, 2, False, False),
        "C": ("banker", 5, 3, 6, 2, False, True),
        "D": ("banker", 2, 3, 6, 3, True, False),
        "E": ("tie", 8, 2, 8, 2, False, False),
        "F": ("banker", 6, 2, 7, 2, True, False),
        "G": ("player", 9, 2, 5, 2, False, False),
    }


@pytest.mark.parametrize(("rules", "expected"), CASES, ids=lambda x: getattr(x, "name", ""))
def test_every_variant_settles_in_the_ledger(rules: Rules, expected: dict[str, dict[str, float]]) -> None:
    table = hand_table()
    sides = tuple(expected)
    assert set(sides) == set(rules.bets)
    run = StrategyRun("every side", EverySide, {"sides": sides, "unit": STAKE})
    config = SessionConfig(bankroll_cents=1_000_000, table_min_cents=100, table_max_cents=100_000)
    columns = run_strategy(run, table, settlement_table(table, rules), rules, config, seed=1)
    ev = expected_values(rules)
    ledger = pl.from_arrow(ledger_table("every side", columns, rules.bets, ev))
    keys = list(HANDS)
    for bet in sides:
        assert ledger[f"stake_{bet}"].to_list() == [Decimal(STAKE)] * len(keys)
        assert ledger[f"net_{bet}"].to_list() == [Decimal(str(expected[bet][k])) for k in keys], bet
    totals = [sum(Decimal(str(expected[bet][k])) for bet in sides) for k in keys]
    assert ledger["net"].to_list() == totals
    assert ledger["stake"].to_list() == [Decimal(STAKE * len(sides))] * len(keys)
    assert ledger.schema["expected_net"] == pl.Float64
    assert ledger["expected_net"].to_list() == pytest.approx([STAKE * sum(ev[b] for b in sides)] * len(keys), abs=1e-12)


def test_commission_on_a_small_stake_is_kept_exactly() -> None:
    rules = rules_from_mapping({"commission": "4%"}, preset("punto-banco-8"))
    table = hand_table()
    run = StrategyRun("banker", EverySide, {"sides": ("banker",), "unit": Decimal("0.05")})
    config = SessionConfig(bankroll_cents=100_000, table_min_cents=1, table_max_cents=100_000)
    columns = run_strategy(run, table, settlement_table(table, rules), rules, config, seed=1)
    assert columns["net_banker"][0] == 48_000  # 0.05 * 0.96 = 0.048 in micro-units


SHOE = "2S 3H 3D 4C 7S KH KD AS 5H".split()  # nine cards that can make every kind of end, pairs included


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        preset("punto-banco-8-pairs"),
        preset("ez-baccarat-8"),
        preset("super-6-8"),
        rules_from_mapping(
            {
                "name": "everything",
                "commission": "4%",
                "tie_pays": "9:1",
                "banker_three_card_seven_pushes": True,
                "banker_six_pays": "1:2",
                "side_bets": {"player_pair": "11:1", "banker_pair": "5:1", "dragon7": "40:1", "panda8": "25:1"},
            }
        ),
    ],
    ids=lambda r: r.name,
)
def test_settlement_over_every_possible_deal_averages_to_the_exact_value(rules: Rules) -> None:
    cards = [parse_card(t) for t in SHOE]
    rounds = [play_round(order) for order in itertools.permutations(cards, 6)]
    table = RoundTable.from_rounds([(1, rounds)])
    multipliers = settlement_table(table, rules)
    counts = Counter(rank_of(c) for c in cards)
    exact = bet_odds(rules, [counts[r] for r in range(1, 14)])
    for bet in rules.bets:
        assert (multipliers[bet] > 0).any() and (multipliers[bet] < 0).any(), bet  # both results really occur
        assert Fraction(int(multipliers[bet].sum()), len(rounds) * 10_000) == exact[bet].expected_value, bet


# --- refused before the run ------------------------------------------------------------


def test_a_bet_the_rules_do_not_offer_is_refused() -> None:
    with pytest.raises(RulesError, match=r"'dragon7' is not offered by the rules 'punto-banco-8'.*offer banker, player, tie$"):
        check_bets_offered({"dragon7"}, preset("punto-banco-8"))
    with pytest.raises(RulesError, match=r"did you mean 'dragon7'"):
        check_bets_offered({"dragon"}, preset("ez-baccarat-8"))
    check_bets_offered({"banker", "dragon7", "panda8"}, preset("ez-baccarat-8"))


def test_outcome_only_shoes_refuse_bets_that_need_the_cards() -> None:
    with pytest.raises(RulesError, match="'player_pair' needs the cards"):
        check_bets_offered({"player_pair"}, preset("punto-banco-8-pairs"), has_cards=False)
    for name in ("ez-baccarat-8", "super-6-8"):
        with pytest.raises(RulesError, match="'banker' needs the cards"):
            check_bets_offered({"banker"}, preset(name), has_cards=False)
        check_bets_offered({"player", "tie"}, preset(name), has_cards=False)
    check_bets_offered({"banker"}, preset("punto-banco-8"), has_cards=False)


def test_outcome_only_tables_settle_only_what_the_winner_decides() -> None:
    table = RoundTable.from_outcomes([(1, [OUTCOME_CODE["banker"], OUTCOME_CODE["tie"]])])
    assert list(settlement_table(table, preset("punto-banco-8-pairs"))) == ["banker", "player", "tie"]
    ez = settlement_table(table, preset("ez-baccarat-8"))
    assert list(ez) == ["player", "tie"]
    assert ez["tie"].tolist() == [-10_000, 80_000]


def experiment_yaml(tmp_path, rules: str, side: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(
        f"name: bad\nrules: {rules}\nshoes: {{source: seeded, seed: 1, count: 2}}\n"
        f"strategies:\n  - name: flat\n    use: flat\n    params: {{side: {side}, unit: 10}}\n",
        encoding="utf-8",
    )
    return str(path)


def test_the_command_refuses_an_unoffered_bet_before_running(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    status = main(["run", experiment_yaml(tmp_path, "ez-baccarat-8", "player_pair"), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "'player_pair' is not offered by the rules 'ez-baccarat-8'" in err
    assert not out.exists()


# --- expected result in the ledger -----------------------------------------------------


def test_run_ledger_carries_the_expected_result_of_the_bets_placed(tmp_path) -> None:
    experiment = load_experiment(
        {
            "name": "ev",
            "rules": "ez-baccarat-8",
            "shoes": {"source": "seeded", "seed": 3, "count": 20},
            "session": {"bankroll": 100, "table_min": 5, "table_max": 1000},
            "strategies": [
                {"name": "banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
                {"name": "dragon", "use": "martingale", "params": {"side": "dragon7", "unit": 5}},
            ],
        }
    )
    ledger = run_experiment(experiment).ledger
    ev = bet_odds(experiment.rules)
    stakes = ledger.select(pl.col("stake_banker").cast(pl.Float64), pl.col("stake_dragon7").cast(pl.Float64))
    wanted = (
        stakes["stake_banker"] * float(ev["banker"].expected_value) + stakes["stake_dragon7"] * float(ev["dragon7"].expected_value)
    ).to_numpy()
    assert np.allclose(ledger["expected_net"].to_numpy(), wanted, rtol=0, atol=1e-9)
    sitting_out = ledger.filter(pl.col("stake") == 0)
    assert sitting_out.height > 0 and (sitting_out["expected_net"] == 0).all()
    dragon = ledger.filter(pl.col("strategy") == "dragon")
    assert dragon["stake"].n_unique() > 1  # the martingale doubled, and ruin (stake 0) came
