"""The exact analysis of sessions of ``session.rounds`` rounds under the dealer's session rules (win goal, stop-loss).

- Brute force: every sequence of a few rounds played through the reference
  engine, each weighted by its exact chance, gives the chance of reaching the
  goal, of the stop-loss, the expected hands played and the expected net; the
  dynamic program must give the same figures.
- Simulation: ``single-deck`` sessions run by ``baccarat run`` agree with the
  exact figures within 4 standard errors.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from helpers.exact_reference import outcome_probabilities, value_counts_for_decks
from helpers.sampling import assert_mean_near, assert_share_near

import baccarat.exact.bounds
from baccarat.api import load
from baccarat.cli import main
from baccarat.engine.reference import SESSION_RULES, SessionConfig, StrategyRun, end_names, run_strategy
from baccarat.exact import analyse_strategy, session_rounds
from baccarat.money import MICROS_PER_UNIT
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.rules import preset

SINGLE = outcome_probabilities(value_counts_for_decks(1))
"""Banker, Player and Tie chances of one round off a fresh deck, from the independent reference calculator."""


def brute_force(use: str, params: dict, config: SessionConfig) -> dict:
    """Play every sequence of ``config.rounds`` outcomes through the reference engine; weight each by its exact chance."""
    rules = preset("single-deck")
    rounds = config.rounds
    names = ("banker", "player", "tie")
    sequences = list(itertools.product(names, repeat=rounds))
    table = RoundTable.from_outcomes((k + 1, [OUTCOME_CODE[name]]) for k, name in enumerate(itertools.chain.from_iterable(sequences)))
    cls, full = registry().configure(use, params)
    columns = run_strategy(StrategyRun(use, cls, full), table, settlement_table(table, rules), rules, config, seed=0)
    chance = np.array([float(math.prod((SINGLE[name] for name in seq), start=Fraction(1))) for seq in sequences])
    stake = columns["stake"].reshape(len(sequences), rounds)
    final = columns["bankroll"].reshape(len(sequences), rounds)[:, -1] / MICROS_PER_UNIT
    codes = columns["stopped_by"].reshape(len(sequences), rounds)
    assert ((codes > 0).sum(axis=1) <= 1).all()  # one end a session at most
    by = codes.max(axis=1)
    goal_code, loss_code = len(end_names(cls)) - 1, len(end_names(cls))
    return {
        "p_win_goal": chance[by == goal_code].sum(),
        "p_stop_loss": chance[by == loss_code].sum(),
        "expected_rounds": (chance * (stake > 0).sum(axis=1)).sum(),
        "expected_net": (chance * final).sum() - config.bankroll_cents / 100,
        "expected_wagered": (chance * stake.sum(axis=1)).sum() / 100,
        "risk_of_ruin": chance[final < config.table_min_cents / 100].sum(),
    }


CASES = [
    # progression, params, bankroll, win goal, stop-loss (cents)
    ("martingale", {"side": "player", "unit": 10}, 10_000, 2_500, 6_000),
    ("martingale", {"side": "banker", "unit": 10}, 10_000, 1_800, 3_000),  # a goal between Banker's grid points
    ("paroli", {"side": "banker", "unit": 10}, 10_000, 3_000, None),
    ("dalembert", {"side": "player", "unit": 10, "stop_loss": 30}, 5_000, None, 2_000),  # the strategy's own rule too
    ("flat", {"side": "player", "unit": 10}, 3_000, 2_000, 2_500),  # 30 - 25 is below the table minimum: ruin, not the stop-loss
    ("fibonacci", {"side": "player", "unit": 10, "stop_win": 20}, 10_000, 3_000, 4_000),  # the strategy's goal first
]


@pytest.mark.parametrize(("use", "params", "bankroll", "goal", "loss"), CASES, ids=[f"{c[0]}-{c[1]['side']}" for c in CASES])
def test_goal_stop_loss_and_hands_played_as_the_reference_engine_plays_them(
    use: str, params: dict, bankroll: int, goal: int | None, loss: int | None
) -> None:
    config = SessionConfig(bankroll, 1000, 10_000, rounds=6, win_goal_cents=goal, stop_loss_cents=loss)
    found = registry()
    cls, full = found.configure(use, params)
    result = analyse_strategy(
        "s", cls, full, preset("single-deck"), config, session_rounds(preset("single-deck"), config, None), found.exact_forms()
    )
    assert result.rounds == 6
    expected = brute_force(use, params, config)
    for key in ("expected_rounds", "expected_net", "expected_wagered", "risk_of_ruin"):
        assert getattr(result, key) == pytest.approx(expected[key], abs=1e-9), key
    assert (result.p_win_goal is None) == (goal is None) and (result.p_stop_loss is None) == (loss is None)
    if goal is not None:
        assert result.p_win_goal == pytest.approx(expected["p_win_goal"], abs=1e-9)
        assert result.p_win_goal > 0 or use == "fibonacci"
    if loss is not None:
        assert result.p_stop_loss == pytest.approx(expected["p_stop_loss"], abs=1e-9)
    assert result.expected_loss == -result.expected_net
    assert end_names(cls)[-2:] == SESSION_RULES


def test_dense_and_sparse_agree_under_session_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    config = SessionConfig(6000, 1000, 8000, rounds=12, win_goal_cents=2_000, stop_loss_cents=3_500)
    found = registry()
    cls, full = found.configure("martingale", {"side": "banker", "unit": 10})
    dense = analyse_strategy("s", cls, full, preset("single-deck"), config, 12, found.exact_forms())
    monkeypatch.setattr(baccarat.exact.bounds, "DENSE_CELLS", 1)  # every progression state held sparse
    sparse = analyse_strategy("s", cls, full, preset("single-deck"), config, 12, found.exact_forms())
    for key in ("risk_of_ruin", "p_profit", "expected_net", "expected_wagered", "expected_rounds", "p_win_goal", "p_stop_loss"):
        assert getattr(dense, key) == pytest.approx(getattr(sparse, key), abs=1e-12), key


def test_the_session_length_is_session_rounds_unless_given() -> None:
    config = SessionConfig(100_000, 1_000, 10_000, rounds=60)
    assert session_rounds(preset("punto-banco-8"), config, None) == 60
    assert session_rounds(preset("punto-banco-8"), config, 25) == 25


@pytest.mark.slow
def test_single_deck_simulation_of_goals_and_stop_losses_agrees_with_the_exact_figures(tmp_path: Path, capsys) -> None:
    sessions, rounds = 3000, 40
    strategies = [
        {"name": "martingale", "use": "martingale", "params": {"side": "banker", "unit": 10}},
        {"name": "paroli", "use": "paroli", "params": {"side": "player", "unit": 10}},
        {"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 25}},
    ]
    path = tmp_path / "experiment.yaml"
    session = {"bankroll": 500, "rounds": rounds, "table_min": 10, "table_max": 500, "win_goal": 100, "stop_loss": 150}
    path.write_text(
        yaml.safe_dump(
            {
                "rules": "single-deck",
                "shoes": {"seed": 20261207, "count": sessions * rounds},
                "session": session,
                "strategies": strategies,
            }
        ),
        encoding="utf-8",
    )
    assert main(["exact", str(path), "--json"]) == 0
    exact = {r["strategy"]: r for r in json.loads(capsys.readouterr().out)["strategies"]}
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--quiet", "--workers", "1", "--no-report"]) == 0
    run = load(tmp_path / "run")
    table, ledger = run.sessions, run.ledger
    for name, figures in exact.items():
        mine = table.filter(table["strategy"] == name).sort("session")
        assert mine.height == sessions
        ended = mine["stopped_by"].to_list()
        assert_share_near([e == "session.win_goal" for e in ended], figures["p_win_goal"], name)
        assert_share_near([e == "session.stop_loss" for e in ended], figures["p_stop_loss"], name)
        assert_share_near(mine["ruined"].to_numpy(), figures["risk_of_ruin"], name)
        hands = (
            ledger.filter((ledger["strategy"] == name) & (ledger["stake"] > 0)).group_by("session").len().sort("session")["len"].to_numpy()
        )
        hands = np.concatenate([hands, np.zeros(sessions - len(hands))])
        loss = -mine["net"].cast(float).to_numpy()
        assert_mean_near(hands, figures["expected_rounds"], name)
        assert_mean_near(loss, -figures["expected_net"], name)
        assert 0.05 < figures["p_win_goal"] < 0.95 and figures["p_stop_loss"] > 0.01  # both rules matter here


@pytest.mark.slow
def test_the_sixty_hands_experiment_answers_its_question_exactly_and_by_simulation(tmp_path: Path, capsys) -> None:
    # configs/sixty-hands.yaml on single-deck rules, where every round is independent and the exact figures exact.
    config = str(Path(__file__).resolve().parents[2] / "configs" / "sixty-hands.yaml")
    sessions = 2500
    overrides = ["--set", "rules=single-deck", "--set", f"shoes.count={sessions * 60}"]
    assert main(["exact", config, *overrides, "--json"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    assert analysis["rounds"] == 60 and analysis["exact"]
    exact = {r["strategy"]: r for r in analysis["strategies"]}
    assert sorted(exact) == ["dalembert", "flat banker", "martingale", "paroli"]
    out = tmp_path / "run"
    assert main(["run", config, *overrides, "--out", str(out), "--quiet", "--workers", "1", "--no-report"]) == 0
    table = load(out).sessions
    for name, figures in exact.items():
        mine = table.filter(table["strategy"] == name)
        assert mine.height == sessions
        net = mine["net"].cast(float).to_numpy()
        assert_share_near(mine["ruined"].to_numpy(), figures["risk_of_ruin"], name)
        assert_share_near(net > 0, figures["p_profit"], name)
        assert_mean_near(net, figures["expected_net"], name)
    assert exact["martingale"]["risk_of_ruin"] > 0.1  # the question has an answer: Martingale is the one ruined


@pytest.mark.slow
def test_the_report_sets_the_session_rules_exact_chances_beside_the_shares_simulated(tmp_path: Path, capsys) -> None:
    config = str(Path(__file__).resolve().parents[2] / "configs" / "sixty-hands.yaml")
    overrides = ["--set", "shoes.count=300", "--set", "session.win_goal=200", "--set", "session.stop_loss=300"]
    assert main(["exact", config, *overrides, "--json"]) == 0
    exact = {r["strategy"]: r for r in json.loads(capsys.readouterr().out)["strategies"]}
    assert main(["run", config, *overrides, "--out", str(tmp_path / "run"), "--quiet", "--workers", "1"]) == 0
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    sessions = load(tmp_path / "run").sessions
    assert "reached the win goal, exact" in page and "ended by the stop-loss, simulated" in page
    mine = sessions.filter(sessions["strategy"] == "martingale")
    share = (mine["stopped_by"] == "session.win_goal").fill_null(False).mean()
    row = f"<td>martingale</td><td>{100 * share:.2f}%</td><td>{100 * exact['martingale']['p_win_goal']:.2f}%</td>"
    assert row in page


def test_one_strategy_by_name_with_the_session_in_its_configuration() -> None:
    from baccarat.exact import Skipped, analyse_session

    config = SessionConfig(10_000, 1000, 10_000, rounds=6, win_goal_cents=2_500, stop_loss_cents=6_000)
    result = analyse_session("martingale", {"side": "player", "unit": 10}, preset("single-deck"), config)
    expected = brute_force("martingale", {"side": "player", "unit": 10}, config)
    assert result.strategy == "martingale" and result.rounds == 6
    for key in ("p_win_goal", "p_stop_loss", "expected_rounds", "expected_net"):
        assert getattr(result, key) == pytest.approx(expected[key], abs=1e-9), key
    assert analyse_session("martingale", {"side": "player", "unit": 10}, preset("single-deck"), config, rounds=3).rounds == 3
    assert isinstance(analyse_session("flat", {"side": "follow-last", "unit": 10}, preset("single-deck"), config), Skipped)
