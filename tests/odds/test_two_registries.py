"""Two plugin registries in one process, each with its own bets: every answer comes from the bets of the rules asked.

Two plugin folders define a bet of the same name, ``nine_nine``, differently
(a tie on 9 paying 60:1; a tie on 0 paying 70:1), and the second folder one
more bet, ``low_tie``. Used one after the other in one process, rules
parsing, settlement, exact odds, fast expected values, counting, the
distribution ``baccarat exact`` reads, ``baccarat odds`` and a run each
answer with the bets of the rules (or plugin folder) they are given, never
with those of the registry built before (the expected values were once cached
by the rules' values alone, so the second folder's bet was priced with the
first one's definition).
"""

from __future__ import annotations

import copy
import json
import pickle
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from helpers.side_bet_reference import end_distribution, value_counts

from baccarat.cli import main
from baccarat.errors import RulesError
from baccarat.odds.compositions import shoe_counts
from baccarat.odds.counting import exact_ev_fraction, exact_evs
from baccarat.odds.exact_odds import bet_distribution, bet_odds
from baccarat.odds.fast_evs import bet_evs, expected_values
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Bets, Strategy, TableView
from baccarat.plugin.compose import sides_under
from baccarat.plugin.manager import clear_registry, registry
from baccarat.shoes.rounds import OUTCOME_CODE
from baccarat.shoes.seeded import seeded_table
from baccarat.table.bet_registry import BetRegistry, built_in_bets
from baccarat.table.rules import Rules, load_rules, preset

NINE_NINE = """
from fractions import Fraction
from pathlib import Path

from baccarat.plugin import BetDefinition, hookimpl

with Path(__file__).with_suffix(".loads").open("a") as loads:
    loads.write("loaded\\n")  # how many times this plugin was imported

BET = BetDefinition(name="nine_nine", label="Nine-Nine", needs=frozenset({"totals"}), pays={"win": Fraction(PAYS)},
                    wins=lambda r: {"win": r.tie & (r.player_total == TOTAL)})
MORE = []


@hookimpl
def register_bets(register):
    register(BET)
    for bet in MORE:
        register(bet)
"""

LOW_TIE = """
MORE.append(BetDefinition(name="low_tie", label="Low tie", needs=frozenset({"totals"}), pays={"win": Fraction(20)},
                          wins=lambda r: {"win": r.tie & (r.player_total <= 1)}))
"""

OFFERED = {"side_bets": {"nine_nine": "standard"}}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two plugin folders: ``nine_nine`` a tie on 9 at 60:1; ``nine_nine`` a tie on 0 at 70:1, and ``low_tie``."""
    root = tmp_path_factory.mktemp("registries")
    nines, zeros = root / "nines", root / "zeros"
    for folder, source in ((nines, NINE_NINE.replace("PAYS", "60").replace("TOTAL", "9")),
                           (zeros, NINE_NINE.replace("PAYS", "70").replace("TOTAL", "0") + LOW_TIE)):  # fmt: skip
        folder.mkdir()
        (folder / "bets.py").write_text(source, encoding="utf-8")
    return nines, zeros


def tie_on(total: int) -> Fraction:
    """The exact chance of a tie on ``total`` off the top of 8 decks, from the independent calculator."""
    distribution = end_distribution(value_counts(list(shoe_counts(8))))
    return sum((q for (pt, bt, _, _, _), q in distribution.items() if pt == bt == total), Fraction(0))


def both_rules(folders: tuple[Path, Path]) -> tuple[Rules, Rules]:
    """The rules offering ``nine_nine`` at its standard pay, parsed against each folder's registry."""
    return tuple(load_rules(OFFERED, registry([folder]).bet_registry) for folder in folders)  # type: ignore[return-value]


def test_rules_parse_each_side_bet_against_the_registry_they_are_given(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    assert (nines.side_bets["nine_nine"], zeros.side_bets["nine_nine"]) == (60, 70)  # each folder's standard pay table
    assert nines.bet_registry is registry([folders[0]]).bet_registry and zeros.bet_registry is registry([folders[1]]).bet_registry
    assert load_rules({"side_bets": {"low_tie": "20:1"}}, zeros.bet_registry).bets == ("banker", "player", "tie", "low_tie")
    with pytest.raises(RulesError, match="unknown side bet 'low_tie'"):
        load_rules({"side_bets": {"low_tie": "20:1"}}, nines.bet_registry)
    with pytest.raises(RulesError, match="unknown side bet 'nine_nine'"):  # no registry: the built-in bets, whatever was built last
        load_rules(OFFERED)
    assert load_rules("punto-banco-8", zeros.bet_registry).bet_registry is zeros.bet_registry
    assert preset("punto-banco-8").bet_registry == built_in_bets() == registry().bet_registry


def test_settlement_settles_each_rules_bet_by_its_own_definition(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    table = seeded_table(nines, 5, 1, 60)
    tie = table.outcome == OUTCOME_CODE["tie"]
    for rules, total, pays in ((nines, 9, 60), (zeros, 0, 70), (nines, 9, 60)):
        hit = tie & (table.player_total == total)
        assert hit.any()
        assert settlement_table(table, rules)["nine_nine"].tolist() == [pays * 10_000 if h else -10_000 for h in hit.tolist()]


def test_exact_odds_fast_evs_and_counting_price_each_rules_bet_by_its_own_definition(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    nine, zero = 61 * tie_on(9) - 1, 71 * tie_on(0) - 1
    assert nine != zero
    full = list(shoe_counts(8))
    for rules, exact in ((nines, nine), (zeros, zero), (nines, nine), (zeros, zero)):  # one after the other: no cache mixes them
        assert bet_odds(rules)["nine_nine"].expected_value == exact
        assert expected_values(rules)["nine_nine"] == pytest.approx(float(exact), abs=1e-15)
        assert bet_evs(rules, np.array(full))["nine_nine"] == pytest.approx(float(exact), abs=1e-15)
        assert exact_evs(rules, full, ["nine_nine"])["nine_nine"] == pytest.approx(float(exact), abs=1e-15)
        assert exact_ev_fraction(rules, full, "nine_nine") == exact


@pytest.mark.slow
def test_the_distribution_baccarat_exact_reads_is_each_rules_own(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    for rules, total, pays in ((nines, 9, 60), (zeros, 0, 70)):
        assert bet_distribution(rules, "nine_nine") == {pays * 10_000: tie_on(total), -10_000: 1 - tie_on(total)}


def test_baccarat_exact_prices_each_plugin_folders_bet_in_turn(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for folder, total, pays in ((folders[0], 9, 60), (folders[1], 0, 70), (folders[0], 9, 60)):
        experiment = tmp_path / f"{folder.name}.yaml"
        experiment.write_text(
            f"plugins_dir: {folder}\nrules: {{preset: punto-banco-8, side_bets: {{nine_nine: standard}}}}\n"
            "session: {bankroll: 1000, table_min: 1}\nstrategies:\n  - {name: nines, use: flat, params: {side: nine_nine, unit: 1}}\n",
            encoding="utf-8",
        )
        assert main(["exact", str(experiment), "--rounds", "10", "--json"]) == 0
        (found,) = json.loads(capsys.readouterr().out)["strategies"]
        p = tie_on(total)
        assert found["expected_net"] == pytest.approx(10 * float((pays + 1) * p - 1), abs=1e-9)
        assert found["p_profit"] == pytest.approx(1 - (1 - float(p)) ** 10, abs=1e-12)  # one hit in 10 rounds is a profit


def test_rules_copied_or_pickled_keep_their_registry(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    for rules in (nines, zeros, preset("punto-banco-8")):
        assert copy.deepcopy(rules).bet_registry is rules.bet_registry  # a strategy's private copy shares the bets
        again = pickle.loads(pickle.dumps(rules))  # to a worker: rebuilt from the plugin folders, here the same bets
        assert again == rules and again.bet_registry == rules.bet_registry
    handmade = BetRegistry()
    for name in built_in_bets():
        handmade.add(built_in_bets().definition(name), "built-in")
    assert handmade == built_in_bets() != nines.bet_registry  # equal: the same definitions under the same names


class Sided(Strategy):
    """A free-form strategy whose ``side`` parameter the default ``sides`` reads."""

    name = "sided"
    params = {"side": "banker"}

    def bets(self, view: TableView) -> Bets:
        return {self.side: 1}


def test_rules_sent_to_another_process_load_their_plugins_there_when_first_read(folders: tuple[Path, Path]) -> None:
    nines, _ = both_rules(folders)
    sent = pickle.dumps(nines)
    loads = folders[0] / "bets.loads"
    clear_registry()  # as in a worker process just started: no plugin loaded yet
    before = loads.read_text(encoding="utf-8").count("loaded")
    again = pickle.loads(sent)
    assert loads.read_text(encoding="utf-8").count("loaded") == before  # not while the chunk's plan is unpickled
    assert again.bets == ("banker", "player", "tie", "nine_nine") and again.side_bets["nine_nine"] == 60
    assert loads.read_text(encoding="utf-8").count("loaded") == before + 1  # when first read, once
    assert again.bet_registry == registry([folders[0]]).bet_registry and again.bet_registry != nines.bet_registry
    table = seeded_table(again, 5, 1, 60)
    hit = (table.outcome == OUTCOME_CODE["tie"]) & (table.player_total == 9)
    assert settlement_table(table, again)["nine_nine"].tolist() == [600_000 if h else -10_000 for h in hit.tolist()]


def test_a_strategys_default_sides_are_kept_where_the_rules_know_the_bet(folders: tuple[Path, Path]) -> None:
    nines, zeros = both_rules(folders)
    assert sides_under(Sided, {"side": "nine_nine"}, nines) == {"nine_nine"} == sides_under(Sided, {"side": "nine_nine"}, zeros)
    assert sides_under(Sided, {"side": "nine_nine"}, preset("punto-banco-8")) == set()  # not a bet there: the guess is dropped
    assert sides_under(Sided, {"side": "alternate"}, nines) == set()
    flat, params = registry([folders[0]]).configure("flat", {"side": "nine_nine", "unit": 1})
    assert sides_under(flat, params, nines) == {"nine_nine"}  # composed: declared, checked against the table later


@pytest.mark.slow
def test_baccarat_odds_answers_for_each_plugin_folder_in_turn(folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    for folder, total, pays, low_tie in ((folders[0], 9, 60, False), (folders[1], 0, 70, True), (folders[0], 9, 60, False)):
        assert main(["odds", "--plugins-dir", str(folder), "--json"]) == 0
        bets = json.loads(capsys.readouterr().out)["bets"]
        assert bets["nine_nine"]["pays"] == f"{pays}:1 (not offered)" and ("low_tie" in bets) == low_tie
        assert bets["nine_nine"]["win"] == pytest.approx(float(tie_on(total)), abs=1e-15)
        assert bets["nine_nine"]["expected_value"] == pytest.approx(float((pays + 1) * tie_on(total) - 1), abs=1e-15)


@pytest.mark.slow
def test_two_runs_in_one_process_each_expect_their_own_bets_value(folders: tuple[Path, Path], tmp_path: Path) -> None:
    for folder, total, pays in ((folders[0], 9, 60), (folders[1], 0, 70)):
        experiment = tmp_path / f"{folder.name}.yaml"
        experiment.write_text(
            f"plugins_dir: {folder}\nrules: {{preset: punto-banco-8, side_bets: {{nine_nine: standard}}}}\n"
            "shoes: {source: seeded, seed: 3, count: 4}\nsession: {bankroll: 100000, table_min: 1}\n"
            "strategies:\n  - {name: nines, use: flat, params: {side: nine_nine, unit: 1}}\n",
            encoding="utf-8",
        )
        out = tmp_path / f"out-{folder.name}"
        assert main(["run", str(experiment), "--out", str(out), "--quiet"]) == 0
        ledger = pl.read_parquet(out / "ledger.parquet")
        rounds = pl.read_parquet(out / "rounds.parquet").sort("shoe", "hand")
        hit = rounds.select((pl.col("player_total") == total) & (pl.col("banker_total") == total)).to_series()
        assert ledger.sort("shoe", "hand")["net"].to_list() == [pays if h else -1 for h in hit.to_list()]
        assert ledger["expected_net"].to_numpy() == pytest.approx(float((pays + 1) * tie_on(total) - 1), abs=1e-12)


def test_the_deprecated_module_level_bet_names_answer_for_the_built_in_bets(folders: tuple[Path, Path]) -> None:
    import baccarat.plugin
    from baccarat.table import bet_registry

    registry([folders[1]])  # built last: its bets are not the process's
    for function in (baccarat.plugin.bet_names, bet_registry.bet_names):
        with pytest.warns(DeprecationWarning, match=r"rules\.bet_registry\.bet_names\(\)"):
            assert function() == built_in_bets().bet_names()
    with pytest.warns(DeprecationWarning, match="side_bet_names"):
        assert "low_tie" not in bet_registry.side_bet_names()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "nine_nine" not in built_in_bets() and "low_tie" in registry([folders[1]]).bet_registry
