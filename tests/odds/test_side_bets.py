"""Side bets as registered bets: exact odds against an independent calculator and published figures, settlement of
every pay-table line on hand-made rounds, suits refused where shoes lack them, and a plugin's own bet end to end."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from helpers.side_bet_reference import (
    END_BETS,
    either_pair_probability,
    end_bet_ev,
    end_distribution,
    perfect_pair_probability,
    value_counts,
)

from baccarat.cli import main
from baccarat.engine.reference import SessionConfig
from baccarat.errors import RulesError
from baccarat.odds.compositions import shoe_counts, suited_counts
from baccarat.odds.counting import exact_evs
from baccarat.odds.enumeration import card_weights
from baccarat.odds.exact_odds import bet_odds, round_odds
from baccarat.odds.fast_evs import bet_evs
from baccarat.odds.settlement import bets_settled, check_bets_offered, settlement_table
from baccarat.plugin.manager import registry
from baccarat.shoes.rounds import RoundTable
from baccarat.table.bet_checks import check_definition
from baccarat.table.bet_registry import built_in_bets
from baccarat.table.cards import make_card, parse_card
from baccarat.table.dealer import play_round
from baccarat.table.rules import Rules, preset, rules_from_mapping

NEW_BETS = ("dragon_bonus_player", "dragon_bonus_banker", "either_pair", "perfect_pair", "big", "small", "lucky_6", "super_six")
SIDE_RULES = preset("punto-banco-8-side-bets")
SIX_CARDS_8_DECKS = math.perm(416, 6)


def ev(bet: str, counts, rules: Rules = SIDE_RULES) -> Fraction:
    return round_odds(counts, rules.decks).bet(rules, bet).expected_value


# --- the preset and the registry ---------------------------------------------------------------


def test_the_preset_offers_every_new_side_bet_with_the_standard_main_bets() -> None:
    assert set(NEW_BETS) <= set(SIDE_RULES.bets)
    main8 = preset("punto-banco-8")
    assert (SIDE_RULES.decks, SIDE_RULES.commission, SIDE_RULES.tie_pays) == (main8.decks, main8.commission, main8.tie_pays)
    assert SIDE_RULES.side_bets["lucky_6"] == {"two_cards": 12, "three_cards": 20}
    assert SIDE_RULES.side_bets["big"] == Fraction(54, 100)


def test_the_built_in_bets_are_registered_through_the_hook_in_the_documented_order() -> None:
    assert built_in_bets().bet_names()[:3] == ("banker", "player", "tie")
    assert set(NEW_BETS) | {"player_pair", "banker_pair", "dragon7", "panda8"} <= set(built_in_bets().side_bet_names())
    assert all(entry.origin == "built-in" for name, entry in built_in_bets().items() if name in NEW_BETS)
    assert registry().bet_registry == built_in_bets()  # the same definitions, through the host's register_bets
    docs = (Path(__file__).parents[2] / "docs" / "side-bets.md").read_text(encoding="utf-8")
    for bet in NEW_BETS:
        assert f"`{bet}`" in docs, f"{bet} has no pay table in docs/side-bets.md"


def test_every_built_in_bet_passes_the_check_a_plugins_bet_is_given() -> None:
    """The registry of the built-in bets alone takes them unchecked (it sits below the rules the check needs)."""
    for name, entry in built_in_bets().items():
        assert check_definition(entry.definition) is entry.definition, name


def test_pay_tables_read_from_rules_standard_mappings_and_single_payouts() -> None:
    rules = rules_from_mapping(
        {"side_bets": {"dragon_bonus_player": "standard", "lucky_6": {"three_cards": "23:1"}, "either_pair": "standard"}},
        preset("punto-banco-8"),
    )
    assert rules.side_bets["dragon_bonus_player"]["by_9"] == 30
    assert rules.side_bets["lucky_6"] == {"two_cards": 12, "three_cards": 23}
    assert rules.side_bets["either_pair"] == 5
    again = rules_from_mapping(rules.to_mapping())
    assert again.side_bets == rules.side_bets
    with pytest.raises(RulesError, match="several pay lines"):
        Rules(side_bets={"lucky_6": Fraction(12)})
    with pytest.raises(RulesError, match="unknown pay line 'six'"):
        Rules(side_bets={"lucky_6": {"six": Fraction(12)}})
    with pytest.raises(RulesError, match="unknown side bet 'lucky6'.*did you mean 'lucky_6'"):
        Rules(side_bets={"lucky6": Fraction(12)})


# --- exact odds against the independent calculator ---------------------------------------------

DEPLETED = [20, 31, 28, 32, 25, 30, 32, 19, 22, 25, 27, 31, 29]
"""A composition part way through an 8-deck shoe (fewer aces, eights and nines)."""


@pytest.mark.parametrize(
    "counts, decks",
    [(list(shoe_counts(8)), 8), (DEPLETED, 8), ([4] * 9 + [2, 4, 3, 4], 1)],
    ids=["full 8 decks", "depleted 8 decks", "depleted 1 deck"],
)
def test_bets_of_the_end_of_a_round_match_the_independent_enumeration(counts: list[int], decks: int) -> None:
    distribution = end_distribution(value_counts(counts))
    rules = Rules(decks=decks, side_bets={bet: "standard" and SIDE_RULES.side_bets[bet] for bet in END_BETS})
    odds = round_odds(counts, decks)
    fast = bet_evs(rules, counts)
    for bet in END_BETS:
        exact = end_bet_ev(bet, distribution)
        assert odds.bet(rules, bet).expected_value == exact, bet
        assert fast[bet] == pytest.approx(float(exact), abs=1e-15), bet


@pytest.mark.parametrize("counts", [list(shoe_counts(8)), DEPLETED, [4] * 9 + [2, 4, 3, 4]])
def test_either_pair_matches_inclusion_and_exclusion(counts: list[int]) -> None:
    p = either_pair_probability(counts)
    assert ev("either_pair", counts) == 6 * p - 1
    assert bet_evs(SIDE_RULES, counts)["either_pair"] == pytest.approx(float(6 * p - 1), abs=1e-15)


def test_perfect_pair_from_known_suits_matches_inclusion_and_exclusion() -> None:
    rng = np.random.default_rng(3)
    for decks in (8, 1):
        shoe = rng.permutation([make_card(r, s) for r in range(1, 14) for s in range(1, 5)] * decks)
        for dealt in (0, 30, 40 if decks == 1 else 300):
            suited = suited_counts(decks, shoe[:dealt].tolist())
            p = perfect_pair_probability(suited.tolist())
            assert ev("perfect_pair", suited, Rules(decks=decks, side_bets={"perfect_pair": 25})) == 26 * p - 1
            assert exact_evs(Rules(decks=decks, side_bets={"perfect_pair": 25}), suited.tolist(), ["perfect_pair"])[
                "perfect_pair"
            ] == pytest.approx(float(26 * p - 1), abs=1e-15)


def test_perfect_pair_from_ranks_only_averages_over_the_unknown_suits_of_the_cards_gone() -> None:
    """One deck less two aces and a king, suits unknown: every choice of their suits is equally likely."""
    from itertools import combinations

    chances = []
    for aces in combinations(range(1, 5), 2):
        for king in range(1, 5):
            gone = [make_card(1, s) for s in aces] + [make_card(13, king)]
            chances.append(perfect_pair_probability(suited_counts(1, gone).tolist()))
    average = sum(chances, Fraction(0)) / len(chances)
    by_rank = [2] + [4] * 11 + [3]
    rules = Rules(decks=1, side_bets={"perfect_pair": 25})
    assert ev("perfect_pair", by_rank, rules) == 26 * average - 1
    # a full shoe: the same whether its suits are listed or not
    assert card_weights(suited_counts(8)) == card_weights(shoe_counts(8), 8)


# --- published figures ----------------------------------------------------------------------------


def test_dragon_bonus_lines_are_the_published_combinations() -> None:
    """Wizard of Odds, "Baccarat Side Bets", Dragon Bonus (8 decks): the combinations of each line out of 416P6.

    https://wizardofodds.com/games/baccarat/appendix/5/ -- house edges 2.65% (Player) and 9.37% (Banker).
    """
    published = {
        "dragon_bonus_player": {
            "by_9": 18_409_431_764_992,
            "by_8": 34_097_645_543_424,
            "by_7": 89_590_261_473_280,
            "by_6": 141_238_897_317_888,
            "by_5": 166_169_165_987_840,
            "by_4": 186_780_352_174_080,
            "natural": 812_685_054_124_032,
        },
        "dragon_bonus_banker": {
            "by_9": 15_390_342_909_952,
            "by_8": 28_305_092_784_128,
            "by_7": 79_517_099_278_336,
            "by_6": 119_200_072_366_080,
            "by_5": 157_275_882_332_160,
            "by_4": 201_147_167_287_296,
            "natural": 812_685_054_124_032,
        },
    }
    odds = bet_odds(SIDE_RULES)
    for bet, lines in published.items():
        assert dict(odds[bet].lines) == {line: Fraction(c, SIX_CARDS_8_DECKS) for line, c in lines.items()}
        assert odds[bet].push == Fraction(89_325_908_267_520, SIX_CARDS_8_DECKS)  # a natural tie
    assert round(float(odds["dragon_bonus_player"].house_edge), 6) == 0.026517
    assert round(float(odds["dragon_bonus_banker"].house_edge), 6) == 0.093731


def test_lucky_6_and_super_six_are_the_published_combinations() -> None:
    """Wizard of Odds, "Lucky 6" (8 decks): a two-card winning Banker 6 in 186,173,936,904,192 of 416P6 ways, a
    three-card one in 83,058,367,551,488; house edge 16.68% at 12:1 / 20:1, 11.70% at 12:1 / 23:1.

    https://wizardofodds.com/games/baccarat/side-bets/lucky-6/ -- Super Six at 12:1 pays on either.
    """
    two, three = Fraction(186_173_936_904_192, SIX_CARDS_8_DECKS), Fraction(83_058_367_551_488, SIX_CARDS_8_DECKS)
    odds = bet_odds(SIDE_RULES)
    assert dict(odds["lucky_6"].lines) == {"two_cards": two, "three_cards": three}
    assert round(float(odds["lucky_6"].house_edge), 6) == 0.166836
    las_vegas = rules_from_mapping({"side_bets": {"lucky_6": {"three_cards": 23}}})
    assert round(float(bet_odds(las_vegas)["lucky_6"].house_edge), 6) == 0.116985
    assert odds["super_six"].expected_value == 13 * (two + three) - 1


def test_pairs_big_and_small_agree_with_published_house_edges() -> None:
    """Wizard of Odds: Perfect Pair (version 1, 8 decks, 25:1) wins in 246,848,784 of 7,379,583,120 combinations,
    house edge 13.03% (https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver1/); the 4-5-6 bet's four
    cards come with probability 0.378868 (appendix 5), so Small at 1.5:1 gives up 5.28% and Big at 0.54:1 4.35%;
    Either Pair at 5:1 is quoted at 13.71%."""
    odds = bet_odds(SIDE_RULES)
    assert odds["perfect_pair"].win == Fraction(246_848_784, 7_379_583_120)
    assert round(float(odds["perfect_pair"].house_edge), 4) == 0.1303
    assert round(float(odds["small"].win), 6) == 0.378868
    assert round(float(odds["small"].house_edge), 4) == 0.0528
    assert round(float(odds["big"].house_edge), 4) == 0.0435
    assert round(float(odds["either_pair"].house_edge), 4) == 0.1371


# --- settlement of every pay-table line on hand-made rounds ------------------------------------------


def hand_made(*cards: str) -> RoundTable:
    """Rounds played by the reference dealer from card sequences (``"AS 2H ..."``, one string per round)."""
    rounds = [play_round([parse_card(c) for c in text.split()]) for text in cards]
    return RoundTable.from_rounds([(1, rounds)])


def multipliers_of(table: RoundTable, rules: Rules = SIDE_RULES) -> dict[str, list[int]]:
    return {bet: m.tolist() for bet, m in settlement_table(table, rules).items()}


def expected_multiplier(rules: Rules, bet: str, line: str | None) -> int:
    if line is None:
        return -10_000
    if line == "push":
        return 0
    return int(rules.bet_registry.definition(bet).table_under(rules)[line] * 10_000)


def test_every_pay_table_line_settles_on_a_hand_made_round() -> None:
    # Rounds chosen so that each line of each new bet pays once, written out with their totals.
    cases = [
        # (cards in deal order P B P B [P3] [B3], {bet: the line it pays, 'push', or None for a loss})
        ("9S 2H KD 3C", {"dragon_bonus_player": "natural", "dragon_bonus_banker": None, "small": "win", "big": None}),
        ("8S 9H KD KC", {"dragon_bonus_banker": "natural", "dragon_bonus_player": None}),  # 8 v 9
        ("8S 8H KD KC", {"dragon_bonus_player": "push", "dragon_bonus_banker": "push"}),  # a natural tie
        ("5S KH KD KC 4D KS", {"dragon_bonus_player": "by_9", "big": "win", "small": None}),  # P 9 v B 0
        ("5S KH KD KC 3D KS", {"dragon_bonus_player": "by_8"}),  # P 8 v B 0
        ("5S KH KD KC 2D KS", {"dragon_bonus_player": "by_7"}),
        ("5S KH KD KC AD KS", {"dragon_bonus_player": "by_6"}),
        ("5S KH KD KC KD KS", {"dragon_bonus_player": "by_5"}),
        ("4S KH KD KC KH KS", {"dragon_bonus_player": "by_4"}),
        ("3S KH KD KC KH KS", {"dragon_bonus_player": None, "dragon_bonus_banker": None}),  # by 3: loses
        ("KS 3H KD KC KH 6S", {"dragon_bonus_banker": "by_9", "dragon_bonus_player": None}),  # P 0 v B 3+6
        ("KS 3H KD KC KH 5S", {"dragon_bonus_banker": "by_8"}),
        ("KS 3H KD KC KH 4S", {"dragon_bonus_banker": "by_7"}),
        ("KS 3H KD KC KH 3S", {"dragon_bonus_banker": "by_6"}),
        ("KS 3H KD KC KH 2S", {"dragon_bonus_banker": "by_5"}),
        ("KS 3H KD KC KH AS", {"dragon_bonus_banker": "by_4"}),
        ("KS 6H AD KC 2S", {"lucky_6": "two_cards", "super_six": "win", "big": "win"}),  # P 3 v B 6
        ("KS 3H KD KC 5D 3S", {"lucky_6": "three_cards", "super_six": "win", "big": "win"}),  # P 5 v B 3+3
        ("6S 6H QD KC", {"lucky_6": None, "super_six": None, "small": "win"}),  # a tie on 6
        ("3S 3H 3C 3D", {"either_pair": "win", "perfect_pair": None, "player_pair": "win"}),  # pairs, not suited
        ("3S KH 3S QC 2D", {"either_pair": "win", "perfect_pair": "win", "banker_pair": None}),  # P 3S 3S
        ("KS QH AD QH 2C 2D", {"either_pair": "win", "perfect_pair": "win", "banker_pair": "win"}),  # B QH QH
        ("AS 2H 3S 4C 5D", {"either_pair": None, "perfect_pair": None, "big": "win"}),
    ]
    table = hand_made(*(cards for cards, _ in cases))
    got = multipliers_of(table)
    for row, (cards, wanted) in enumerate(cases):
        for bet, line in wanted.items():
            assert got[bet][row] == expected_multiplier(SIDE_RULES, bet, line), (cards, bet, line)
    paid = {(bet, line) for _, wanted in cases for bet, line in wanted.items() if line not in (None, "push")}
    for bet in NEW_BETS:
        for line in SIDE_RULES.bet_registry.definition(bet).pays:
            assert (bet, line) in paid, f"no hand-made round pays {bet} {line}"


@pytest.mark.slow
def test_the_rounds_settle_in_the_ledger_exactly(tmp_path: Path) -> None:
    """A seeded run under the side-bet preset: each side bet's net is its stake times its pay, or minus the stake."""
    import baccarat

    experiment = tmp_path / "side.yaml"
    strategies = "\n".join(f"  - {{name: {bet}, use: flat, params: {{side: {bet}, unit: 10}}}}" for bet in NEW_BETS)
    experiment.write_text(
        f"rules: punto-banco-8-side-bets\nshoes: {{source: seeded, seed: 5, count: 3}}\n"
        f"session: {{bankroll: 100000, table_min: 1, table_max: 100}}\nstrategies:\n{strategies}\n",
        encoding="utf-8",
    )
    result = baccarat.run(experiment)
    rounds = result.rounds
    for bet in NEW_BETS:
        ledger = result.ledger.filter(pl.col("strategy") == bet).sort("shoe", "hand")
        assert f"stake_{bet}" in ledger.columns and f"net_{bet}" in ledger.columns
        assert len(ledger) == len(rounds)
        for row, record in zip(rounds.sort("shoe", "hand").iter_rows(named=True), ledger.iter_rows(named=True), strict=True):
            cards = [parse_card(c) for c in record_cards(row)]
            again = multipliers_of(RoundTable.from_rounds([(1, [play_round(cards)])]))[bet][0]
            assert record[f"net_{bet}"] == record[f"stake_{bet}"] * again / 10_000
        assert ledger["net"].to_list() == ledger[f"net_{bet}"].to_list()


def record_cards(row: dict) -> list[str]:
    """A ``rounds`` row's cards in deal order (P B P B, then the third cards)."""
    p, b = row["player_cards"], row["banker_cards"]
    cards = [p[0], b[0], p[1], b[1]]
    if len(p) == 3:
        cards.append(p[2])
    if len(b) == 3:
        cards.append(b[2])
    return cards


# --- shoes without suits, or without cards ---------------------------------------------------------


def test_bets_that_read_suits_are_refused_on_cards_recorded_by_rank_only() -> None:
    ranks_only = hand_made("3 3 6 Q", "A 2 8 4")
    assert not ranks_only.has_suits() and hand_made("3S 3H 6D QC").has_suits()
    with pytest.raises(RulesError, match="'perfect_pair' needs the cards' suits"):
        check_bets_offered({"perfect_pair"}, SIDE_RULES, has_cards=True, has_suits=False)
    check_bets_offered({"either_pair", "lucky_6"}, SIDE_RULES, has_cards=True, has_suits=False)
    assert "perfect_pair" not in settlement_table(ranks_only, SIDE_RULES)
    assert "perfect_pair" not in bets_settled(SIDE_RULES, has_cards=True, has_suits=False)
    for bet in NEW_BETS:
        with pytest.raises(RulesError, match="record outcomes only"):
            check_bets_offered({bet}, SIDE_RULES, has_cards=False)


# --- the compiled path --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("use", ["flat", "martingale", "paroli"])
def test_the_fast_path_settles_the_new_bets_as_the_reference(use: str) -> None:
    from baccarat.engine.compiled import play_compiled
    from baccarat.engine.reference import StrategyRun, run_strategy, session_bounds
    from baccarat.shoes.compiled_deal import seeded_table_compiled

    table = seeded_table_compiled(SIDE_RULES, 9, 1, 6)
    multipliers = settlement_table(table, SIDE_RULES)
    config = SessionConfig(20_000, 100, 5_000, 2)
    sessions = session_bounds(table, config.shoes_per_session)
    for bet in NEW_BETS:
        cls, full = registry().configure(use, {"side": bet, "unit": 1})
        run = StrategyRun(bet, cls, full)
        fast = play_compiled(run, table, multipliers, SIDE_RULES, config, 9, sessions)
        reference = run_strategy(run, table, multipliers, SIDE_RULES, config, 9, sessions)
        assert fast is not None, bet
        for name, column in reference.items():
            assert np.array_equal(fast[name], column), (bet, name)


# --- ev-counter and view.exact_ev ------------------------------------------------------------------


@pytest.mark.slow
def test_ev_counter_counts_any_offered_side_bet() -> None:
    """It bets a watched side bet exactly in the rounds whose EV from the unseen cards (recounted here) is above the
    threshold: Perfect Pair from the unseen cards' ranks and suits (inclusion and exclusion), Dragon Bonus and Big
    from the exact odds of the unseen ranks (checked against the independent enumeration above)."""
    from baccarat.engine.reference import StrategyRun, run_strategy
    from baccarat.plugin.registry import default_session
    from baccarat.shoes.seeded import seeded_table, shuffled_shoe

    rules = SIDE_RULES
    table = seeded_table(rules, 11, 1, 2)
    watched = ["dragon_bonus_player", "perfect_pair", "big"]
    threshold = Fraction(-3, 100)
    cls, full = registry().resolve("ev-counter", {"bets": watched, "threshold": -0.03, "unit": 1}, default_session(rules))
    columns = run_strategy(
        StrategyRun("counter", cls, full), table, settlement_table(table, rules), rules, SessionConfig(1_000_000, 100, 10_000, 1), seed=1
    )
    placed = {bet: 0 for bet in watched}
    for row in range(len(table)):
        first = row
        while first and table.shoe[first - 1] == table.shoe[row]:
            first -= 1
        seen = [int(shuffled_shoe(rules, 11, int(table.shoe[row]))[0])]  # the card turned to start the burn
        for r in range(first, row):
            seen += [int(c) for c in (*table.player_cards[r], *table.banker_cards[r]) if c]
        suited = suited_counts(8, seen)
        odds = round_odds(suited.reshape(13, 4).sum(axis=1), 8)
        wanted = {
            "perfect_pair": 26 * perfect_pair_probability(suited.tolist()) - 1 > threshold,
            "dragon_bonus_player": odds.bet(rules, "dragon_bonus_player").expected_value > threshold,
            "big": odds.bet(rules, "big").expected_value > threshold,
        }
        for bet, want in wanted.items():
            stake = columns[f"stake_{bet}"][row]
            placed[bet] += bool(stake)
            assert (stake == 100) == want, (bet, row)
    assert all(placed.values()) and not all(v == len(table) for v in placed.values())


# --- a plugin's own bet, end to end -------------------------------------------------------------------

PLUGIN = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.table.bet_registry import BetDefinition

NINE_NINE = BetDefinition(name="nine_nine", label="Nine-Nine", needs=frozenset({"totals"}), pays={"win": Fraction(60)},
                          wins=lambda r: {"win": r.tie & (r.player_total == 9)}, description="a tie on 9")


@hookimpl
def register_bets(register):
    register(NINE_NINE)
"""


@pytest.fixture
def plugin_dir(tmp_path: Path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "nine_nine.py").write_text(PLUGIN, encoding="utf-8")
    return folder


def test_the_built_in_bets_reach_the_plugin_registry_through_the_hosts_register_bets(monkeypatch: pytest.MonkeyPatch) -> None:
    from baccarat.plugin import builtin_bets as host
    from baccarat.plugin.manager import clear_registry
    from baccarat.table.builtin_bets import BUILT_IN

    found = registry()
    assert list(found.bet_registry) == [bet.name for bet in BUILT_IN] and found.bets == {}
    assert {entry.origin for entry in found.bet_registry.values()} == {"built-in"}
    monkeypatch.setattr(host, "BUILT_IN", [bet for bet in BUILT_IN if bet.main])  # the host's hook registers three bets
    clear_registry()
    try:
        assert list(registry().bet_registry) == ["banker", "player", "tie"]
    finally:
        monkeypatch.undo()
        clear_registry()
    assert list(registry().bet_registry) == [bet.name for bet in BUILT_IN]


def test_each_plugin_registry_holds_its_own_bets_and_the_rules_parsed_against_it_carry_them(plugin_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "nine_nine.py").write_text(PLUGIN.replace("Fraction(60)", "Fraction(70)"), encoding="utf-8")
    first, second, plain = registry([plugin_dir]), registry([other]), registry()
    assert first.bet_registry.definition("nine_nine").pays["win"] == 60
    assert second.bet_registry.definition("nine_nine").pays["win"] == 70  # one name in two folders: no clash
    assert "nine_nine" not in plain.bet_registry and first.bet_registry != second.bet_registry
    standard = {"side_bets": {"nine_nine": "standard"}}
    assert rules_from_mapping(standard, preset("punto-banco-8"), first.bet_registry).side_bets["nine_nine"] == 60
    assert rules_from_mapping(standard, preset("punto-banco-8"), second.bet_registry).side_bets["nine_nine"] == 70
    # Rules given no registry know the built-in bets alone, whatever registry was built last.
    with pytest.raises(RulesError, match="unknown side bet 'nine_nine'"):
        rules_from_mapping(standard, preset("punto-banco-8"))


def test_settlement_and_odds_read_the_bets_of_the_rules_they_are_handed(plugin_dir: Path, tmp_path: Path) -> None:
    from baccarat.shoes.rounds import OUTCOME_CODE
    from baccarat.shoes.seeded import seeded_table

    other = tmp_path / "other"
    other.mkdir()
    (other / "nine_nine.py").write_text(PLUGIN.replace("r.player_total == 9", "r.player_total == 8"), encoding="utf-8")
    nines, eights = (
        rules_from_mapping({"side_bets": {"nine_nine": "60:1"}}, preset("punto-banco-8"), registry([folder]).bet_registry)
        for folder in (plugin_dir, other)
    )
    registry()  # the registry built last knows no nine_nine: the rules' own bets decide
    table = seeded_table(nines, 3, 1, 40)
    tie = table.outcome == OUTCOME_CODE["tie"]
    for rules, total in ((nines, 9), (eights, 8)):
        hit = tie & (table.player_total == total)
        assert hit.any()
        assert settlement_table(table, rules)["nine_nine"].tolist() == [600_000 if h else -10_000 for h in hit.tolist()]
    distribution = end_distribution(value_counts(list(shoe_counts(8))))
    for rules, total in ((nines, 9), (eights, 8)):
        p = sum((q for (pt, bt, _, _, _), q in distribution.items() if pt == bt == total), Fraction(0))
        assert bet_odds(rules)["nine_nine"].expected_value == 61 * p - 1


def test_a_plugin_bet_named_like_a_built_in_is_refused_naming_both(tmp_path: Path) -> None:
    from baccarat.errors import StrategyError

    folder = tmp_path / "clash"
    folder.mkdir()
    (folder / "ties.py").write_text(PLUGIN.replace('name="nine_nine"', 'name="tie"'), encoding="utf-8")
    with pytest.raises(StrategyError, match=r"bet name 'tie' is registered twice: by built-in and by .*ties"):
        registry([folder])


@pytest.mark.slow
def test_a_plugin_bet_is_priced_settled_and_backed_end_to_end(plugin_dir: Path, tmp_path: Path) -> None:
    found = registry([plugin_dir])
    assert found.bets["nine_nine"].name == "nine_nine" and "nine_nine" in found.selectors
    rules = rules_from_mapping({"side_bets": {"nine_nine": "60:1"}}, preset("punto-banco-8"), found.bet_registry)
    distribution = end_distribution(value_counts(list(shoe_counts(8))))
    p = sum((q for (pt, bt, _, _, _), q in distribution.items() if pt == bt == 9), Fraction(0))
    assert bet_odds(rules)["nine_nine"].expected_value == 61 * p - 1
    experiment = tmp_path / "nine.yaml"
    experiment.write_text(
        f"plugins_dir: {plugin_dir}\nrules: {{preset: punto-banco-8, side_bets: {{nine_nine: '60:1'}}}}\n"
        "shoes: {source: seeded, seed: 2, count: 20}\nsession: {bankroll: 100000, table_min: 1}\n"
        "strategies:\n  - {name: nines, use: flat, params: {side: nine_nine, unit: 1}}\n"
        "  - {name: counter, use: ev-counter, params: {bets: [nine_nine], threshold: -1, unit: 1}}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    registry()  # built last, a registry without the plugin: the run loads the plugin itself, before the rules that offer its bet
    assert main(["run", str(experiment), "--out", str(out)]) == 0
    ledger = pl.read_parquet(out / "ledger.parquet")
    rounds = pl.read_parquet(out / "rounds.parquet")
    nines = ledger.filter(pl.col("strategy") == "nines").sort("shoe", "hand")
    hit = rounds.sort("shoe", "hand").select((pl.col("player_total") == 9) & (pl.col("banker_total") == 9)).to_series()
    assert hit.any()
    # Both strategies back only nine_nine: its stake and net are the ledger's own (no stake_/net_ columns repeat them).
    assert "net_nine_nine" not in ledger.columns and "stake_nine_nine" not in ledger.columns
    assert nines["net"].to_list() == [60 if h else -1 for h in hit.to_list()]
    counter = ledger.filter(pl.col("strategy") == "counter")
    assert (counter["stake"] == 1).all()  # every EV is above -1


@pytest.mark.slow
def test_worker_processes_settle_a_plugin_bet_as_the_plugin_defines_it(
    plugin_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baccarat.execution import chunks as chunking

    monkeypatch.setattr(chunking, "LEDGER_ROWS_PER_CHUNK", 300)  # a few sessions per chunk: many chunks over two workers
    experiment = tmp_path / "nine.yaml"
    experiment.write_text(
        f"plugins_dir: {plugin_dir}\nrules: {{preset: punto-banco-8, side_bets: {{nine_nine: '60:1'}}}}\n"
        "shoes: {source: seeded, seed: 4, count: 24}\nsession: {bankroll: 100000, table_min: 1, shoes_per_session: 2}\n"
        "strategies:\n  - {name: nines, use: flat, params: {side: nine_nine, unit: 1}}\n",
        encoding="utf-8",
    )
    registry()  # built last, a registry without the plugin: each worker process rebuilds the registry the plan's rules carry
    out = tmp_path / "out"
    assert main(["run", str(experiment), "--out", str(out), "--workers", "2", "--quiet"]) == 0
    ledger = pl.read_parquet(out / "ledger.parquet").sort("shoe", "hand")
    rounds = pl.read_parquet(out / "rounds.parquet").sort("shoe", "hand")
    hit = rounds.select((pl.col("player_total") == 9) & (pl.col("banker_total") == 9)).to_series()
    assert hit.any() and len(ledger) == len(rounds) > 300
    assert ledger["net"].to_list() == [60 if h else -1 for h in hit.to_list()]


def test_baccarat_odds_gives_every_new_bet_for_the_side_bet_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--rules", "punto-banco-8-side-bets", "--json", "--remaining", "A=10,5=20,K=3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    counts = [10, 32, 32, 32, 20] + [32] * 7 + [3]
    distribution = end_distribution(value_counts(counts))
    for bet in NEW_BETS:
        assert doc["bets"][bet]["offered"] is True
        if bet in END_BETS:
            assert doc["house_edge"][bet] == pytest.approx(float(-end_bet_ev(bet, distribution)), abs=1e-15)
    assert doc["house_edge"]["either_pair"] == pytest.approx(float(1 - 6 * either_pair_probability(counts)), abs=1e-15)
    assert doc["bets"]["lucky_6"]["lines"]["three_cards"] > 0
