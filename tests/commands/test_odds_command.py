"""`baccarat odds`: its JSON as the README gives it, the table, --decks, --remaining and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from baccarat.cli import main
from baccarat.odds.exact_odds import round_odds

FIVE = {"banker", "player", "tie", "player_pair", "banker_pair"}


def odds_json(capsys, *args: str) -> dict:
    assert main(["odds", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_holds_the_probabilities_and_house_edges_of_spec_section_5(capsys) -> None:
    doc = odds_json(capsys)
    assert FIVE <= set(doc["probabilities"]) and FIVE <= set(doc["house_edge"])
    assert doc["probabilities"]["banker"] == pytest.approx(0.458597423, abs=5e-10)
    assert doc["probabilities"]["player"] == pytest.approx(0.446246609, abs=5e-10)
    assert doc["probabilities"]["tie"] == pytest.approx(0.095155968, abs=5e-10)
    assert doc["probabilities"]["player_pair"] == pytest.approx(31 / 415, abs=1e-15)
    assert doc["house_edge"]["banker"] == pytest.approx(0.010579, abs=5e-7)
    assert doc["house_edge"]["player"] == pytest.approx(0.012351, abs=5e-7)
    assert doc["house_edge"]["tie"] == pytest.approx(0.143596, abs=5e-7)
    assert doc["house_edge"]["player_pair"] == pytest.approx(1 - 12 * 31 / 415, abs=1e-15)  # priced at 11:1
    assert doc["bets"]["player_pair"]["offered"] is False and doc["bets"]["banker"]["offered"] is True
    assert doc["cards"] == 416 and doc["decks"] == 8


def test_variant_bets_appear_with_their_edges(capsys) -> None:
    doc = odds_json(capsys, "--rules", "ez-baccarat-8")
    assert {"dragon7", "panda8"} <= set(doc["house_edge"])
    banker = doc["bets"]["banker"]
    assert banker["push"] == pytest.approx(doc["probabilities"]["tie"] + doc["probabilities"]["dragon7"], abs=1e-15)
    assert banker["expected_value"] == pytest.approx(banker["win"] - banker["lose"], abs=1e-15)
    assert doc["house_edge"]["dragon7"] == pytest.approx(1 - 41 * doc["probabilities"]["dragon7"], abs=1e-15)
    super6 = odds_json(capsys, "--rules", "super-6-8")
    p = super6["probabilities"]
    assert super6["house_edge"]["banker"] == pytest.approx(-(p["banker"] - p["banker_six"] / 2 - p["player"]), abs=1e-15)


def test_decks_changes_the_shoe(capsys) -> None:
    doc = odds_json(capsys, "--decks", "6")
    assert doc["probabilities"]["banker"] == pytest.approx(0.458653, abs=5e-7)
    assert doc["probabilities"]["banker_pair"] == pytest.approx(23 / 311, abs=1e-15)


def test_a_rules_file_sets_commission_and_tie_payout(tmp_path, capsys) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("decks: 8\ncommission: 4%\ntie_pays: '9:1'\n", encoding="utf-8")
    doc = odds_json(capsys, "--rules", str(path))
    p = doc["probabilities"]
    assert doc["rules"] == "house"
    assert doc["house_edge"]["banker"] == pytest.approx(-(0.96 * p["banker"] - p["player"]), abs=1e-15)
    assert doc["house_edge"]["tie"] == pytest.approx(1 - 10 * p["tie"], abs=1e-15)


def test_remaining_overrides_the_named_ranks_only(capsys) -> None:
    doc = odds_json(capsys, "--decks", "2", "--remaining", "A=0, t=3,K=1")
    counts = [0] + [8] * 8 + [3, 8, 8, 1]
    assert list(doc["remaining"].values()) == counts and doc["cards"] == sum(counts)
    exact = round_odds(counts).events()
    for name, p in exact.items():
        assert doc["probabilities"][name] == float(p)
    assert doc["probabilities"]["player_pair"] == float(Fraction(sum(c * (c - 1) for c in counts), sum(counts) * (sum(counts) - 1)))


def test_the_table_is_readable(capsys) -> None:
    assert main(["odds", "--rules", "ez-baccarat-8"]) == 0
    out = capsys.readouterr().out
    assert "Exact odds, rules ez-baccarat-8: 8 decks, 416 cards (a full shoe)" in out
    assert "Banker wins with a three-card 7" in out
    banker = next(line for line in out.splitlines() if line.startswith("Banker ") and "1:1" in line)
    assert "push on a three-card 7" in banker and banker.endswith("1.0183%")
    assert any(line.startswith("Dragon 7") and "40:1" in line for line in out.splitlines())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--remaining", "X=3"], "'X=3' is not RANK=COUNT"),
        (["--remaining", "A"], "'A' is not RANK=COUNT"),
        (["--remaining", "A=1,a=2"], "the rank A is named twice"),
        (["--remaining", "Q=two"], "the count in 'Q=two' is not a whole number"),
        (["--remaining", "A=33"], "holds 0 to 32 cards of a rank"),
        (["--remaining", "9=-1"], "holds 0 to 32 cards of a rank"),
        (["--remaining", ","], "expected RANK=COUNT items"),
        (["--decks", "1", "--remaining", "A=0,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=0,J=0,Q=1,K=4"], "5 cards left cannot complete a round"),
        (["--rules", "punto-banco-9"], "did you mean 'punto-banco-8'"),
        (["--rules", "missing.yaml"], "missing.yaml: cannot read rules file"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(capsys, args: list[str], message: str) -> None:
    assert main(["odds", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("baccarat: error: ") and captured.err.count("\n") == 1
    assert message in captured.err


@pytest.mark.slow
def test_the_console_command_prints_json() -> None:
    done = subprocess.run([sys.executable, "-m", "baccarat", "odds", "--json", "--decks", "1"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["probabilities"]["banker_pair"] == pytest.approx(3 / 51, abs=1e-15)


def test_the_example_of_the_help_is_accepted(capsys) -> None:
    import re

    from baccarat.cli import build_parser

    help_text = " ".join(build_parser()._subparsers._group_actions[0].choices["odds"].format_help().split())
    example = re.search(r"--remaining .*?e\.g\. '([^']+)'", help_text).group(1)
    doc = odds_json(capsys, "--remaining", example)
    for item in example.split(","):
        rank, count = item.split("=")
        assert doc["remaining"][{"T": "10"}.get(rank, rank)] == int(count)


# What the casino gives back -------------------------------------------------------------------


def test_a_1pct_rolling_rebate_adds_1pct_of_the_stake_to_every_bet_exactly(capsys, tmp_path) -> None:
    from baccarat.odds.exact_odds import bet_odds
    from baccarat.odds.rebates import effective_expected_value, effective_house_edge
    from baccarat.table.rules import load_rules

    rules = load_rules({"rolling_rebate": "1%"})
    assert rules.rolling_rebate == Fraction(1, 100)
    for odds in bet_odds(rules).values():
        assert effective_expected_value(rules, odds) == odds.expected_value + Fraction(1, 100)  # exact fractions
        assert effective_house_edge(rules, odds) == odds.house_edge - Fraction(1, 100)
    banker = bet_odds(rules)["banker"]
    path = tmp_path / "rebate.yaml"
    path.write_text("preset: punto-banco-8\nrolling_rebate: 1%\n", encoding="utf-8")
    for args in (["--rules", str(path)], ["--rolling-rebate", "1%"], ["--rolling-rebate", "0.01"]):
        doc = odds_json(capsys, *args)
        assert doc["rebates"] == {"rolling_rebate": 0.01, "loss_rebate": 0.0}
        assert doc["effective_house_edge"]["banker"] == float(banker.house_edge - Fraction(1, 100))
        assert doc["bets"]["banker"]["effective_house_edge"] == float(banker.house_edge - Fraction(1, 100))
        assert doc["house_edge"]["banker"] == float(banker.house_edge)  # the table's own edge is unchanged
    assert main(["odds", "--rolling-rebate", "1%"]) == 0
    text = capsys.readouterr().out
    assert "after rebates" in text and "0.0579%" in text and "1.00% of every amount wagered (rolling rebate)" in text


def test_a_rebate_on_losses_paid_bet_by_bet_adds_its_share_of_the_chance_of_losing(capsys) -> None:
    from baccarat.odds.exact_odds import bet_odds
    from baccarat.odds.rebates import effective_house_edge
    from baccarat.table.rules import load_rules

    rules = load_rules({"preset": "ez-baccarat-8", "loss_rebate": "10%", "rolling_rebate": "0.5%"})
    doc = odds_json(capsys, "--rules", "ez-baccarat-8", "--loss-rebate", "10%", "--rolling-rebate", "0.5%")
    for bet, odds in bet_odds(rules).items():
        assert effective_house_edge(rules, odds) == -odds.expected_value - Fraction(1, 200) - Fraction(1, 10) * odds.lose
        assert doc["effective_house_edge"][bet] == float(effective_house_edge(rules, odds))


def test_without_rebates_the_output_has_no_rebate_column(capsys) -> None:
    doc = odds_json(capsys)
    assert "rebates" not in doc and "effective_house_edge" not in doc["bets"]["banker"]
    assert main(["odds"]) == 0
    assert "after rebates" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("1.5bp", "rolling_rebate must be a number"),
        ("0.00015", "rolling_rebate 0.00015 is not a whole number of basis points (0.0001) of a stake"),
        ("100%", "rolling_rebate must be at least 0 and below 1, not 1"),
        ("-1%", "rolling_rebate must be at least 0 and below 1"),
    ],
)
def test_a_rebate_is_checked_like_the_commission(capsys, value: str, said: str) -> None:
    capsys.readouterr()
    assert main(["odds", f"--rolling-rebate={value}"]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1


def test_commission_rates_and_the_commission_free_variants_are_priced_as_they_are(capsys, tmp_path) -> None:
    from baccarat.odds.exact_odds import bet_odds
    from baccarat.table.rules import load_rules

    path = tmp_path / "four.yaml"
    path.write_text("preset: punto-banco-8\ncommission: 4%\n", encoding="utf-8")
    for args, rules in (
        (["--rules", str(path)], load_rules({"commission": "4%"})),
        (["--rules", "ez-baccarat-8"], load_rules("ez-baccarat-8")),
        (["--rules", "super-6-8"], load_rules("super-6-8")),
    ):
        doc = odds_json(capsys, *args)
        assert doc["house_edge"]["banker"] == float(bet_odds(rules)["banker"].house_edge)
    assert main(["odds", "--rules", str(path)]) == 0
    assert "1:1 less 4%" in capsys.readouterr().out
