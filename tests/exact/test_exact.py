"""``baccarat exact``: the exact distribution of a session, against closed forms, brute force and simulation.

- Closed forms: flat betting's final bankroll is a trinomial distribution of
  wins, pushes and losses; flat Player betting between ruin and a win goal is
  the gambler's ruin.
- Brute force: every sequence of a few rounds played through the reference
  engine (``run_strategy``), each weighted by its exact chance, gives the
  session's distribution with every engine rule applied (table-maximum
  restarts, the bankroll cap, ruin, stop rules); the dynamic program must give
  the same figures.
- Simulation: ``single-deck`` sessions run by ``baccarat run`` agree with the
  exact figures within 4 standard errors, for every built-in progression.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml
from helpers.exact_reference import outcome_probabilities, value_counts_for_decks

import baccarat.exact.bounds
from baccarat.api import load
from baccarat.cli import main
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.exact import QUANTILES, ExactLimitError, analyse_strategy
from baccarat.money import MICROS_PER_UNIT
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.rules import preset

SINGLE = outcome_probabilities(value_counts_for_decks(1))
"""Banker, Player and Tie chances of one round off a fresh deck, from the independent reference calculator."""

PROGRESSIONS = ("flat", "martingale", "grand-martingale", "paroli", "fibonacci", "dalembert", "labouchere", "1-3-2-6", "oscars-grind")


def write(
    tmp_path: Path,
    strategies: list[dict],
    rules: str = "single-deck",
    bankroll: int = 1000,
    rounds: int = 60,
    table_min: int = 10,
    table_max: int = 1000,
    count: int = 100,
    seed: int = 1,
) -> Path:
    path = tmp_path / "experiment.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "exact",
                "rules": rules,
                "shoes": {"source": "seeded", "seed": seed, "count": count},
                "session": {"bankroll": bankroll, "shoes_per_session": rounds, "table_min": table_min, "table_max": table_max},
                "strategies": strategies,
            }
        ),
        encoding="utf-8",
    )
    return path


def exact_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["exact", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def lower_quantile(values: list[float], weights: list[float], level: float) -> float:
    order = sorted(range(len(values)), key=values.__getitem__)
    total = 0.0
    for k in order:
        total += weights[k]
        if total >= level - 1e-12:
            return values[k]
    return values[order[-1]]


# Closed forms -----------------------------------------------------------------------


def test_flat_betting_is_the_trinomial_distribution_of_wins_pushes_and_losses(tmp_path: Path, capsys) -> None:
    n = 60  # 60 rounds of 10 from 1000: ruin is impossible, so the final bankroll is 1000 + 9.5 W - 10 L
    path = write(
        tmp_path,
        [
            {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
            {"name": "flat tie", "use": "flat", "params": {"side": "tie", "unit": 10}},
        ],
        rounds=n,
    )
    out = exact_json(capsys, str(path))
    assert out["rules"] == "single-deck" and out["rounds"] == n and out["exact"] is True and out["skipped"] == []
    banker, tie = out["strategies"]
    pw, pt, pl = (float(SINGLE[k]) for k in ("banker", "tie", "player"))
    values, weights = [], []
    for w in range(n + 1):
        for loss in range(n - w + 1):
            values.append(1000 + 9.5 * w - 10 * loss)
            weights.append(math.comb(n, w) * math.comb(n - w, loss) * pw**w * pl**loss * pt ** (n - w - loss))
    assert abs(sum(weights) - 1) < 1e-12
    assert abs(banker["expected_net"] - n * (9.5 * pw - 10 * pl)) < 1e-9
    assert abs(banker["p_profit"] - sum(q for v, q in zip(values, weights, strict=True) if v > 1000)) < 1e-12
    assert banker["risk_of_ruin"] == 0 and banker["expected_wagered"] == pytest.approx(10 * n, abs=1e-9)
    for level, value in banker["final_bankroll_quantiles"].items():
        assert value == lower_quantile(values, weights, float(level)), level
    # Tie at 8:1 never pushes: a binomial of wins; from 1000, 60 losses of 10 still leave 400.
    assert abs(tie["expected_net"] - n * (80 * pt - 10 * (1 - pt))) < 1e-9
    assert (
        abs(tie["p_profit"] - sum(math.comb(n, w) * pt**w * (1 - pt) ** (n - w) for w in range(n + 1) if 80 * w - 10 * (n - w) > 0)) < 1e-12
    )


@pytest.mark.slow
def test_flat_player_between_ruin_and_a_win_goal_is_the_gamblers_ruin(tmp_path: Path, capsys) -> None:
    # 5 units of 10, a goal of 10 units (stop_win 50); ties push, so only decided rounds count.
    path = write(
        tmp_path,
        [
            {"name": "to ten units", "use": "flat", "params": {"side": "player", "unit": 10, "stop_win": 50}},
            {"name": "to eight", "use": "flat", "params": {"side": "player", "unit": 10, "stop_win": 30}},
        ],
        bankroll=50,
        rounds=3000,
    )
    out = exact_json(capsys, str(path))
    p = SINGLE["player"] / (SINGLE["player"] + SINGLE["banker"])
    ratio = (1 - p) / p
    for result, goal in zip(out["strategies"], (10, 8), strict=True):
        ruin = float((ratio**5 - ratio**goal) / (1 - ratio**goal))
        assert abs(result["risk_of_ruin"] - ruin) < 1e-9
        assert abs(result["p_profit"] - (1 - ruin)) < 1e-9
        assert abs(result["expected_net"] - ((goal * 10 - 50) * (1 - ruin) - 50 * ruin)) < 1e-6
        curve = result["ruin_curve"]
        assert len(curve) == 3001 and curve[0] == 0 and curve[4] == 0 and curve[5] > 0
        assert all(a <= b for a, b in zip(curve, curve[1:], strict=False))


# Brute force through the reference engine ----------------------------------------------


def brute_force(use: str, params: dict, config: SessionConfig, rounds: int) -> dict:
    """Play every sequence of ``rounds`` outcomes through the reference engine; weight each by its exact chance."""
    rules = preset("single-deck")
    names = ("banker", "player", "tie")
    sequences = list(itertools.product(names, repeat=rounds))
    table = RoundTable.from_outcomes((k + 1, [OUTCOME_CODE[name]]) for k, name in enumerate(itertools.chain.from_iterable(sequences)))
    cls, full = registry().configure(use, params)
    columns = run_strategy(
        StrategyRun(use, cls, full),
        table,
        settlement_table(table, rules),
        rules,
        SessionConfig(config.bankroll_cents, config.table_min_cents, config.table_max_cents, rounds),
        seed=0,
        sessions=session_bounds(table, rounds),
    )
    chance = np.array([float(math.prod((SINGLE[name] for name in seq), start=Fraction(1))) for seq in sequences])
    bankroll = columns["bankroll"].reshape(len(sequences), rounds) / MICROS_PER_UNIT
    stake = columns["stake"].reshape(len(sequences), rounds) / 100
    initial = config.bankroll_cents / 100
    below = bankroll < config.table_min_cents / 100
    final = bankroll[:, -1]
    return {
        "risk_of_ruin": chance[below.any(axis=1)].sum(),
        "p_profit": chance[final > initial].sum(),
        "expected_net": (chance * final).sum() - initial,
        "expected_wagered": (chance * stake.sum(axis=1)).sum(),
        "ruin_curve": [0.0] + [chance[below[:, :t].any(axis=1)].sum() for t in range(1, rounds + 1)],
        "quantiles": {str(q): lower_quantile(final.tolist(), chance.tolist(), q) for q in QUANTILES},
    }


CASES = [
    # progression, params, bankroll, table max (cents): restarts at the table maximum, the bankroll cap, ruin
    ("martingale", {"side": "player", "unit": 10}, 4500, 4000),
    ("grand-martingale", {"side": "player", "unit": 10}, 6000, 4000),
    ("paroli", {"side": "player", "unit": 10, "wins": 2}, 3000, 10_000),
    ("fibonacci", {"side": "player", "unit": 10}, 4000, 3000),
    ("dalembert", {"side": "player", "unit": 10, "stop_loss": 30}, 5000, 10_000),
    ("labouchere", {"side": "player", "unit": 10, "line": [1, 2]}, 5000, 4000),
    ("1-3-2-6", {"side": "player", "unit": 10, "stop_win": 40}, 3000, 10_000),
    ("oscars-grind", {"side": "player", "unit": 10, "max_rounds": 5}, 3000, 10_000),
    ("martingale", {"side": "banker", "unit": 10, "stop_win": 15}, 100_000, 10_000),
    ("flat", {"side": "random", "unit": 10}, 10_000, 10_000),  # no ruin in 6 rounds: the mean is linear in the side
]


@pytest.mark.parametrize(("use", "params", "bankroll", "table_max"), CASES, ids=[c[0] + "-" + c[1]["side"] for c in CASES])
def test_every_engine_rule_as_the_reference_engine_applies_it(use: str, params: dict, bankroll: int, table_max: int) -> None:
    rounds = 6
    config = SessionConfig(bankroll, 1000, table_max, rounds)
    found = registry()
    cls, full = found.configure(use, params)
    result = analyse_strategy("s", cls, full, preset("single-deck"), config, rounds, found.exact_forms())
    assert result.interpolated == 0  # every bankroll on the grid: the figures are exact
    if params["side"] == "random":  # the coin: a mixture of Banker and Player whatever came before
        banker = brute_force(use, {**params, "side": "banker"}, config, rounds)
        player = brute_force(use, {**params, "side": "player"}, config, rounds)
        assert result.expected_net == pytest.approx((banker["expected_net"] + player["expected_net"]) / 2, abs=1e-9)
        return
    expected = brute_force(use, params, config, rounds)
    for key in ("risk_of_ruin", "p_profit", "expected_net", "expected_wagered"):
        assert getattr(result, key) == pytest.approx(expected[key], abs=1e-9), key
    assert np.allclose(result.ruin_curve, expected["ruin_curve"], atol=1e-12, rtol=0)
    assert result.final_bankroll_quantiles == expected["quantiles"]
    assert 0 < result.risk_of_ruin < 1 or use in ("paroli", "1-3-2-6", "oscars-grind", "martingale")


def test_a_capped_banker_bet_off_the_grid_is_split_keeping_its_mean() -> None:
    # 25 on Banker, unit 10, Martingale: 10, 20 -> capped at 15 (bankroll); a win pays 14.25, off the 0.50 grid.
    config = SessionConfig(2500, 1000, 10_000, 4)
    found = registry()
    cls, full = found.configure("martingale", {"side": "banker", "unit": 10})
    result = analyse_strategy("s", cls, full, preset("single-deck"), config, 4, found.exact_forms())
    expected = brute_force("martingale", {"side": "banker", "unit": 10}, config, 4)
    assert result.interpolated > 0
    for key in ("risk_of_ruin", "expected_wagered", "p_profit"):
        assert getattr(result, key) == pytest.approx(expected[key], abs=1e-9), key
    assert result.expected_net == pytest.approx(expected["expected_net"], abs=1e-9)


# Simulation --------------------------------------------------------------------------

SIMULATED = [{"name": name, "use": name, "params": {"side": "banker", "unit": 5}} for name in PROGRESSIONS[:-1]] + [
    # Oscar's Grind on Banker stakes what a series still needs, to the cent: too many states for a test; on Player exact.
    {"name": "oscars-grind", "use": "oscars-grind", "params": {"side": "player", "unit": 5}},
    {"name": "martingale coin stop_win", "use": "martingale", "params": {"side": "random", "unit": 5, "stop_win": 15}},
    {"name": "dalembert stops", "use": "dalembert", "params": {"side": "banker", "unit": 5, "stop_loss": 20, "max_rounds": 15}},
    {"name": "paroli tie", "use": "paroli", "params": {"side": "tie", "unit": 5, "wins": 2}},
]


@pytest.mark.slow
def test_single_deck_simulation_agrees_with_the_exact_figures_within_4_standard_errors(tmp_path: Path, capsys) -> None:
    sessions, rounds = 3000, 20
    path = write(tmp_path, SIMULATED, bankroll=50, rounds=rounds, table_min=5, table_max=50, count=sessions * rounds, seed=20261201)
    exact = {r["strategy"]: r for r in exact_json(capsys, str(path))["strategies"]}
    assert sorted(exact) == sorted(s["name"] for s in SIMULATED)
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--quiet", "--workers", "1", "--no-report"]) == 0
    table = load(tmp_path / "run").sessions
    for name, figures in exact.items():
        mine = table.filter(table["strategy"] == name)
        assert mine.height == sessions
        for simulated, p in (
            (mine["ruined"].to_numpy().mean(), figures["risk_of_ruin"]),
            ((mine["net"].cast(float).to_numpy() > 0).mean(), figures["p_profit"]),
        ):
            error = math.sqrt(p * (1 - p) / sessions)
            assert abs(simulated - p) <= 4 * error, (name, simulated, p)
        for column, mean in (("net", figures["expected_net"]), ("wagered", figures["expected_wagered"])):
            values = mine[column].cast(float).to_numpy()
            assert abs(values.mean() - mean) <= 4 * values.std(ddof=1) / math.sqrt(sessions), (name, column)


# What cannot be analysed, and limits ---------------------------------------------------------


@pytest.mark.slow
def test_strategies_without_an_exact_form_are_listed_as_skipped_with_the_reason(tmp_path: Path, capsys) -> None:
    path = write(
        tmp_path,
        [
            {"name": "follow", "use": "martingale", "params": {"side": "follow-last"}},
            {"name": "counter", "use": "ev-counter", "params": {"bets": ["banker"]}},
            {"name": "flat", "use": "flat"},
        ],
        rounds=5,
    )
    out = exact_json(capsys, str(path))
    assert [r["strategy"] for r in out["strategies"]] == ["flat"]
    reasons = {s["strategy"]: s["reason"] for s in out["skipped"]}
    assert "side 'follow-last' has no exact form" in reasons["follow"]
    assert "free-form strategy" in reasons["counter"]
    assert main(["exact", str(path)]) == 0
    text = capsys.readouterr().out
    assert "skipped follow: side 'follow-last'" in text and "skipped counter: a free-form" in text


def test_multi_round_shoes_take_an_average_session_and_are_an_approximation(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, [{"name": "flat", "use": "flat"}], rules="punto-banco-8", rounds=1)
    assert main(["exact", str(path)]) == 0  # without --rounds: an average session of the experiment's shoes, said first
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("no --rounds: ") and "an average session of the experiment's shoes" in first
    out = exact_json(capsys, str(path), "--rounds", "30")
    assert out["exact"] is False and out["rounds"] == 30
    with pytest.raises(SystemExit) as stop:
        main(["exact", str(path), "--rounds", "0"])
    assert stop.value.code == 2


def test_an_analysis_beyond_the_memory_bound_is_one_clear_error(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(baccarat.exact.bounds, "MAX_STATES", 500)
    path = write(tmp_path, [{"name": "big", "use": "dalembert"}], rounds=200)
    assert main(["exact", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "strategy 'big' needs more than 500 states" in err and "Traceback" not in err
    found = registry()
    cls, full = found.configure("flat", {})
    with pytest.raises(ExactLimitError):
        analyse_strategy(
            "f", cls, full, preset("single-deck"), SessionConfig(100_000, 1000, 100_000, 1), 200, found.exact_forms(), max_states=10
        )


def test_a_strategy_beyond_the_state_limit_is_skipped_and_the_others_printed(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(baccarat.exact.bounds, "MAX_STATES", 20_000)  # flat Banker holds about 6,000: its grid
    path = write(tmp_path, [{"name": "big", "use": "dalembert"}, {"name": "flat", "use": "flat"}], rounds=200)
    assert main(["exact", str(path)]) == 0
    out = capsys.readouterr().out
    assert "skipped big: beyond the state limit" in out and "more than 20,000 states" in out
    assert any(line.startswith("flat") and "%" in line for line in out.splitlines())
    assert main(["exact", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["strategy"] for r in data["strategies"]] == ["flat"] and data["skipped"][0]["strategy"] == "big"


# The report ----------------------------------------------------------------------------------


def exact_section(report: Path) -> str:
    page = report.read_text(encoding="utf-8")
    start = page.find("<h2>Exact analysis</h2>")
    return page[start : page.index("<h2>", start + 5)] if start >= 0 else ""


@pytest.mark.slow
def test_the_report_sets_the_exact_figures_beside_the_simulation_when_asked(tmp_path: Path, capsys) -> None:
    strategies = [
        {"name": "mart", "use": "martingale", "params": {"side": "player", "unit": 5}},
        {"name": "follow", "use": "flat", "params": {"side": "follow-last", "unit": 5}},
    ]
    path = write(tmp_path, strategies, bankroll=50, rounds=20, table_min=5, table_max=50, count=4000)
    assert main(["run", str(path), "--out", str(tmp_path / "plain"), "--quiet", "--workers", "1"]) == 0
    assert exact_section(tmp_path / "plain" / "report.html") == ""  # not asked for
    assert main(["report", str(tmp_path / "plain"), "--exact", "--quiet"]) == 0
    section = exact_section(tmp_path / "plain" / "report.html")
    capsys.readouterr()
    exact = exact_json(capsys, str(path))["strategies"][0]
    assert f"{100 * exact['risk_of_ruin']:.2f}%" in section and 'id="plot-exact"' in section
    assert "follow: side &#x27;follow-last&#x27; has no exact form" in section
    # exact: true in the experiment: the run's report has the section, and so does a rebuild of it.
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    path.write_text(yaml.safe_dump({**data, "exact": True}), encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "asked"), "--quiet", "--workers", "1"]) == 0
    assert exact_section(tmp_path / "asked" / "report.html").count("<tr>") == 2
    assert main(["report", str(tmp_path / "asked"), "--quiet"]) == 0
    assert "risk of ruin, exact" in exact_section(tmp_path / "asked" / "report.html")
    path.write_text(yaml.safe_dump({**data, "exact": "yes"}), encoding="utf-8")
    assert main(["exact", str(path)]) == 2
    assert "exact must be true or false, not 'yes'" in capsys.readouterr().err


@pytest.mark.slow
def test_the_report_analyses_an_average_session_as_baccarat_exact_does_and_says_so(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, [{"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 10}}], rules="punto-banco-8", rounds=1)
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--quiet", "--workers", "1"]) == 0
    assert main(["report", str(tmp_path / "run"), "--exact", "--quiet"]) == 0
    section = exact_section(tmp_path / "run" / "report.html")
    capsys.readouterr()
    exact = exact_json(capsys, str(path))
    assert f"<p>{exact['rounds']:,} rounds per session (an average session of the experiment&#x27;s shoes)" in section
    assert f"{100 * exact['strategies'][0]['risk_of_ruin']:.2f}%" in section
    dealt = pl.read_parquet(tmp_path / "run" / "sessions.parquet").get_column("rounds_dealt")
    assert dealt.min() <= exact["rounds"] < dealt.max()  # not the longest session: an average one
    assert abs(exact["rounds"] - dealt.mean()) <= 3 * dealt.std() / dealt.len() ** 0.5 + 1


@pytest.mark.parametrize(
    ("use", "params"),
    [
        ("martingale", {"side": "banker", "unit": 10}),
        ("labouchere", {"side": "player", "unit": 10, "stop_loss": 40}),
        ("oscars-grind", {"side": "banker", "unit": 10, "stop_win": 20}),
    ],
)
def test_dense_and_sparse_states_give_the_same_figures(use: str, params: dict, monkeypatch) -> None:
    config = SessionConfig(6000, 1000, 8000, 12)
    found = registry()
    cls, full = found.configure(use, params)
    dense = analyse_strategy("s", cls, full, preset("single-deck"), config, 12, found.exact_forms(), bands=True)
    monkeypatch.setattr(baccarat.exact.bounds, "DENSE_CELLS", 1)  # every progression state held sparse
    sparse = analyse_strategy("s", cls, full, preset("single-deck"), config, 12, found.exact_forms(), bands=True)
    for key in ("risk_of_ruin", "p_profit", "expected_net", "expected_wagered", "interpolated"):
        assert getattr(dense, key) == pytest.approx(getattr(sparse, key), abs=1e-12), key
    assert dense.final_bankroll_quantiles == sparse.final_bankroll_quantiles
    assert np.allclose(dense.ruin_curve, sparse.ruin_curve, atol=1e-12, rtol=0)
    assert np.array_equal(dense.bands, sparse.bands)
    assert dense.risk_of_ruin > 0
