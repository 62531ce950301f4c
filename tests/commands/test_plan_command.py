"""``baccarat plan``: each strategy's exact figures, against ``baccarat exact``, closed forms and simulation.

- ``baccarat exact``: plan's risk of ruin, expected net, amount wagered and
  bankroll for the target risk are the exact analysis's own (equal).
- Closed forms: flat betting's session is a trinomial walk of wins, pushes
  and losses; the chance of reaching a win goal before a stop-loss, the
  expected net loss (what a rebate on losses pays on) and the rebates follow
  from it by a small independent dynamic program over the walk.
- Simulation (slow): ``single-deck`` sessions of 60 rounds played by
  ``baccarat run`` agree with plan's figures within 4 standard errors.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from baccarat.api import load
from baccarat.cli import main
from baccarat.odds.exact_odds import bet_odds
from baccarat.table.pace import HANDS_PER_HOUR
from baccarat.table.rules import preset

QUESTION = ["--strategy", "martingale", "--strategy", "paroli", "--strategy", "dalembert", "--strategy", "flat"]
"""The four strategies of the player's question: which lasts longest over 60 hands with 1,000?"""


def plan_json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["plan", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def exact_json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["exact", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def write(tmp_path: Path, strategies: list[dict], rules: str = "single-deck", rounds: int = 60, count: int = 60, seed: int = 1) -> Path:
    path = tmp_path / "experiment.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "plan-test",
                "rules": rules,
                "shoes": {"source": "seeded", "seed": seed, "count": count},
                "session": {"bankroll": 1000, "shoes_per_session": rounds, "table_min": 10, "table_max": 1000},
                "strategies": strategies,
            }
        ),
        encoding="utf-8",
    )
    return path


QUESTION_ENTRIES = [{"name": name, "use": name} for name in ("martingale", "paroli", "dalembert", "flat")]


@pytest.mark.slow
def test_plan_gives_the_exact_analysis_own_figures_and_bankrolls(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, QUESTION_ENTRIES, rules="punto-banco-8", rounds=1)
    plan = plan_json(capsys, *QUESTION, "--hands", "60")
    exact = {r["strategy"]: r for r in exact_json(capsys, str(path), "--rounds", "60")["strategies"]}
    need = {r["strategy"]: r for r in exact_json(capsys, str(path), "--rounds", "60", "--ruin-at-most", "0.01")["strategies"]}
    assert plan["rounds"] == 60 and plan["exact"] is False and plan["method"] == "independent-rounds approximation"
    assert [s["strategy"] for s in plan["strategies"]] == ["martingale", "paroli", "dalembert", "flat"]
    for s in plan["strategies"]:
        mine = exact[s["strategy"]]
        for key in ("risk_of_ruin", "p_profit", "expected_net", "expected_wagered"):
            assert s[key] == mine[key], (s["strategy"], key)
        assert s["expected_loss"] == -mine["expected_net"]  # no rebate
        assert s["bankroll_for_ruin"] == need[s["strategy"]]["bankroll_for_ruin"]
        assert s["risk_of_ruin_at_that_bankroll"] == need[s["strategy"]]["risk_of_ruin"] <= 0.01
        assert s["loss_per_hour"] == pytest.approx(s["expected_loss"] * HANDS_PER_HOUR / 60, rel=1e-12)
    ranked = sorted(plan["strategies"], key=lambda s: (round(s["risk_of_ruin"], 12), s["expected_loss"]))
    assert plan["lasts_longest"] == [s["strategy"] for s in ranked]
    # The same from the experiment file: its strategies, rules and session, the hands given.
    again = plan_json(capsys, "--experiment", str(path), "--hands", "60")
    assert [s["risk_of_ruin"] for s in again["strategies"]] == [s["risk_of_ruin"] for s in plan["strategies"]]


def flat_walk(p_win: Fraction, p_push: Fraction, wins: int, n: int, goal: int | None, stop: int | None) -> dict[int, Fraction]:
    """The exact distribution of a flat bettor's net (in stakes) after ``n`` rounds: +``wins`` per win, -1 per loss,
    betting stopped at ``+goal`` or ``-stop`` (an independent walk, no bankroll limit reached)."""
    p_loss = 1 - p_win - p_push
    now: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        after: dict[int, Fraction] = {}
        for net, p in now.items():
            if (goal is not None and net >= goal) or (stop is not None and net <= -stop):
                after[net] = after.get(net, 0) + p
                continue
            for step, q in ((wins, p_win), (0, p_push), (-1, p_loss)):
                after[net + step] = after.get(net + step, 0) + p * q
        now = after
    return now


def test_the_goal_first_the_rebates_and_the_hour_against_a_flat_walk(capsys) -> None:
    rules = preset("single-deck")
    player = bet_odds(rules)["player"]
    walk = flat_walk(player.win, player.push, 1, 30, goal=5, stop=8)  # unit 10: goal 50, stop-loss 80
    plan = plan_json(
        capsys,
        "--strategy",
        "flat side=player",
        "--rules",
        "single-deck",
        "--hands",
        "30",
        "--win-goal",
        "50",
        "--stop-loss",
        "80",
        "--rolling-rebate",
        "1%",
        "--loss-rebate",
        "10%",
        "--hands-per-hour",
        "60",
    )
    assert plan["exact"] is True and plan["rebates"] == {"rolling_rebate": 0.01, "loss_rebate": 0.1}
    (s,) = plan["strategies"]
    p_goal = sum(p for net, p in walk.items() if net >= 5)
    p_stop = sum(p for net, p in walk.items() if net <= -8)
    net = sum(p * net for net, p in walk.items()) * 10
    short = sum(p * -net for net, p in walk.items() if net < 0) * 10
    # Rounds still betting: those before the goal or the stop-loss was reached, each staking 10.
    wagered = sum(10 * sum(p for k, p in flat_walk(player.win, player.push, 1, t, 5, 8).items() if -8 < k < 5) for t in range(30))
    assert s["p_goal_first"] == pytest.approx(float(p_goal), abs=1e-12)
    assert s["p_stop_loss"] == pytest.approx(float(p_stop), abs=1e-12)
    assert s["expected_net"] == pytest.approx(float(net), abs=1e-9)
    assert s["expected_wagered"] == pytest.approx(float(wagered), abs=1e-9)
    assert s["rolling_rebate"] == pytest.approx(float(wagered) / 100, abs=1e-11)
    assert s["loss_rebate"] == pytest.approx(float(short) / 10, abs=1e-11)
    assert s["expected_loss"] == pytest.approx(float(-net - wagered / 100 - short / 10), abs=1e-9)
    assert s["loss_per_hour"] == pytest.approx(s["expected_loss"] * 60 / 30, rel=1e-12)
    assert s["risk_of_ruin"] == 0 and s["win_goal"] == 50 and s["stop_loss"] == 80
    assert "reaches its goal of +50.00 first in" in s["conclusion"]


def test_win_goal_and_stop_loss_are_the_session_rules_run_plays(tmp_path: Path, capsys) -> None:
    """``--win-goal``/``--stop-loss`` are ``session.win_goal``/``session.stop_loss``, as ``baccarat run`` and ``exact`` take them.

    A session rule ends the betting whatever the strategy, beside the strategy's own
    stop rules: "martingale small goal" keeps its own goal of 50 under a session goal
    of 100, so it almost never reaches 100 (it reaches it only from 90 up, by a win of
    10 or more at once). Plan's figures are ``baccarat exact``'s for the same session,
    whether the goal comes from the options or from the experiment file.
    """
    entries = [
        {"name": "martingale side=player", "use": "martingale", "params": {"side": "player"}},
        {"name": "martingale small goal", "use": "martingale", "params": {"side": "player", "stop_win": 50}},
        {"name": "flat side=player", "use": "flat", "params": {"side": "player"}},
    ]
    bare = write(tmp_path, entries)
    ruled = tmp_path / "ruled.yaml"
    data = yaml.safe_load(bare.read_text(encoding="utf-8"))
    data["session"].update({"win_goal": 100, "stop_loss": 300})
    ruled.write_text(yaml.safe_dump(data), encoding="utf-8")
    exact = {s["strategy"]: s for s in exact_json(capsys, str(ruled))["strategies"]}
    goals = ["--win-goal", "100", "--stop-loss", "300"]
    plans = [
        plan_json(capsys, "--experiment", str(ruled)),  # the session rules of the file
        plan_json(capsys, "--experiment", str(bare), *goals),  # the options, over a file without them
        plan_json(capsys, "--strategy", "martingale side=player", "--strategy", "flat side=player", "--rules", "single-deck", *goals),
    ]
    for plan in plans:
        assert plan["rounds"] == 60 and plan["exact"] is True
        for s in plan["strategies"]:
            truth = exact[s["strategy"]]
            assert (s["win_goal"], s["stop_loss"]) == (100, 300)
            assert s["p_goal_first"] == truth["p_win_goal"] and s["p_stop_loss"] == truth["p_stop_loss"], s["strategy"]
            for key in ("risk_of_ruin", "expected_net", "expected_wagered"):
                assert s[key] == truth[key], (s["strategy"], key)
    assert exact["martingale small goal"]["p_win_goal"] < 0.01 < 0.5 < exact["martingale side=player"]["p_win_goal"]


def test_a_pace_with_decimals_is_the_same_from_the_option_and_the_experiment(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, [{"name": "flat", "use": "flat"}])
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["session"]["hands_per_hour"] = 72.5
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    from_file = plan_json(capsys, "--experiment", str(path))
    from_option = plan_json(capsys, "--strategy", "flat", "--rules", "single-deck", "--hands-per-hour", "72.5")
    for plan in (from_file, from_option):
        (s,) = plan["strategies"]
        assert plan["hands_per_hour"] == 72.5 and plan["hours"] == 60 / 72.5
        assert s["loss_per_hour"] == pytest.approx(s["expected_loss"] * 72.5 / 60, rel=1e-12)
    assert from_file["strategies"][0]["loss_per_hour"] == from_option["strategies"][0]["loss_per_hour"]
    overridden = plan_json(capsys, "--experiment", str(path), "--hands-per-hour", "90")
    assert overridden["hands_per_hour"] == 90


@pytest.mark.parametrize("value", ["0", "-72", "nan", "inf", "10001", "fast"])
def test_a_bad_pace_is_refused_in_the_words_of_the_experiments(capsys, value: str) -> None:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["plan", "--strategy", "flat", "--hands-per-hour", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    rule = "more than 0 and at most 10,000, such as 72 or 72.5"  # session.hands_per_hour's (tests/results)
    assert f"argument --hands-per-hour: expected hands per hour, {rule}, not {value!r}" in err[-1]


def test_the_text_says_each_strategys_conclusion_and_which_lasts_longest(capsys) -> None:
    capsys.readouterr()
    assert main(["plan", "--strategy", "martingale", "--strategy", "flat", "--rules", "single-deck", "--hands", "24"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("24 hands per session (about 20 minutes at 72 hands an hour), rules single-deck (exact")
    for name in ("martingale", "flat"):
        assert re.search(rf"^{name} is (never )?ruined .* a 1\.00% risk of ruin needs a bankroll of [\d,]+\.\d\d\.$", text, re.M)
    assert re.search(r"^Lasts longest \(lowest risk of ruin first\): ", text, re.M)


def test_what_the_dynamic_program_cannot_analyse_is_listed_with_the_reason(capsys) -> None:
    plan = plan_json(capsys, "--strategy", "flat", "--strategy", "flat side=follow-last", "--hands", "10", "--simulate", "0")
    assert [s["strategy"] for s in plan["strategies"]] == ["flat"]
    assert plan["skipped"][0]["strategy"] == "flat side=follow-last"
    assert "no exact form" in plan["skipped"][0]["reason"]


def test_a_strategy_without_an_exact_form_is_simulated_within_what_its_bets_allow(capsys) -> None:
    """The fast tier's run of the simulation: 100 sessions of at most 20 flat bets of 10 can neither be ruined nor wager 200."""
    (follow,) = plan_json(capsys, "--strategy", "flat side=follow-last", "--hands", "20", "--simulate", "100")["strategies"]
    assert follow["method"] == "simulation" and follow["simulated_sessions"] == 100
    assert follow["risk_of_ruin"] == 0 and 0 < follow["expected_wagered"] < 200
    low, high = follow["ci95"]["risk_of_ruin"]
    assert low == 0 < high < 0.05  # none ruined in 100: the interval's top is below 3.7% (the rule of three)


@pytest.mark.slow
def test_what_the_dynamic_program_cannot_analyse_is_simulated_and_says_so(capsys) -> None:
    plan = plan_json(capsys, "--strategy", "flat", "--strategy", "flat side=follow-last", "--hands", "30", "--simulate", "300")
    flat, follow = plan["strategies"]
    assert flat["method"] == "independent-rounds approximation" and "simulated_sessions" not in flat
    assert follow["strategy"] == "flat side=follow-last" and follow["method"] == "simulation" and follow["simulated_sessions"] == 300
    assert "no exact form" in follow["note"] and plan["skipped"] == []
    low, high = follow["ci95"]["risk_of_ruin"]
    assert follow["risk_of_ruin"] == 0 and low == 0 < high  # 30 flat bets of 10 cannot lose 1,000
    # At most 30 bets of 10 a session, the first hand of a shoe sat out (nothing to follow yet).
    assert 0 < follow["expected_wagered"] < 300 and follow["conclusion"].startswith("flat side=follow-last (simulated: 300 sessions) ")
    capsys.readouterr()
    assert main(["plan", "--strategy", "flat side=follow-last", "--hands", "30", "--simulate", "300"]) == 0
    text = capsys.readouterr().out
    assert "flat side=follow-last *" in text and "* simulated over 300 sessions" in text and "95% intervals: risk of ruin" in text


@pytest.mark.slow
def test_the_simulation_of_a_strategy_agrees_with_its_exact_figures_within_4_standard_errors(tmp_path: Path) -> None:
    from baccarat.exact.plan import plan_experiment
    from baccarat.exact.results import Skipped
    from baccarat.execution.plan_simulation import simulate_skipped
    from baccarat.experiment import load_experiment

    entries = [{"name": "martingale", "use": "martingale", "params": {"stop_win": 100}}, {"name": "dalembert", "use": "dalembert"}]
    experiment = load_experiment(write(tmp_path, entries))  # single-deck: the exact figures are exact
    stops = {"martingale": (Decimal(100), None), "dalembert": (None, None)}
    exact = plan_experiment(experiment, 60, 0.05, HANDS_PER_HOUR, stops)
    exact.skipped = [Skipped(s.strategy, "simulated for the test") for s in exact.strategies]
    figures = {s.strategy: s for s in exact.strategies}
    exact.strategies = []
    simulated = simulate_skipped(experiment, exact, stops, sessions=4000)
    assert simulated.skipped == [] and len(simulated.strategies) == 2
    for s in simulated.strategies:
        truth = figures[s.strategy]
        assert s.method == "simulation" and s.simulated_sessions == 4000
        shares = [(s.risk_of_ruin, truth.risk_of_ruin)] + ([(s.p_goal, truth.p_goal)] if truth.p_goal is not None else [])
        for simulated, p in shares:
            assert abs(simulated - p) <= 4 * math.sqrt(p * (1 - p) / 4000), (s.strategy, simulated, p)
        for key, value in (("expected_net", truth.expected_net), ("expected_wagered", truth.expected_wagered)):
            low, high = s.intervals[key]  # the mean +- 1.96 standard errors
            assert abs((low + high) / 2 - value) <= (high - low) / 2 * 4 / 1.96, (s.strategy, key, low, high, value)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--strategy", "martingal"], "--strategy 'martingal': unknown strategy 'martingal' (did you mean 'martingale'?)"),
        (["--strategy", "flat sid=player"], "--strategy 'flat sid=player': strategy 'flat' has no parameter 'sid' (did you mean 'side'?)"),
        (["--strategy", "flat unit"], "--strategy 'flat unit': 'unit' is not key=value"),
        ([], "give the strategies to plan"),
        (["--strategy", "flat", "--strategy", "flat"], "--strategy 'flat' is given twice"),
        (["--strategy", "flat", "--rolling-rebate", "0.00015"], "rolling_rebate 0.00015 is not a whole number of basis points"),
        (
            ["--strategy", "flat", "--table-min", "100", "--table-max", "50"],
            "error: session.table_max (50) is below session.table_min (100)",
        ),
        (["--strategy", "flat unit=5"], "error: unit 5 is below the table minimum 10"),
        (
            ["--strategy", "flat", "--experiment", "x.yaml"],
            "give the strategies with --strategy or in the experiment of --experiment, not both",
        ),
        (["--experiment", "no-such-experiment.yaml"], "error: no-such-experiment.yaml: cannot read the file"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(capsys, args: list[str], said: str) -> None:
    capsys.readouterr()
    assert main(["plan", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("baccarat: error: ") and said in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_the_worked_example_of_the_docs_prints_what_the_command_prints(capsys) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "plan.md").read_text(encoding="utf-8")
    command, shown = re.search(r"```bash\n(baccarat plan [^\n]*)\n```\n\n<!-- docs-test: output -->\n```\n(.*?)```", page, re.S).groups()
    capsys.readouterr()
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out == shown


@pytest.mark.slow
def test_single_deck_simulation_of_60_rounds_agrees_with_plan_within_4_standard_errors(tmp_path: Path, capsys) -> None:
    sessions, rounds = 4000, 60
    strategies = [
        *QUESTION_ENTRIES,
        {"name": "martingale goal", "use": "martingale", "params": {"stop_win": 100, "stop_loss": 300}},
        {"name": "paroli goal", "use": "paroli", "params": {"stop_win": 100, "stop_loss": 300}},
    ]
    path = write(tmp_path, strategies, rounds=rounds, count=sessions * rounds, seed=20261207)
    planned = plan_json(capsys, "--experiment", str(path))  # single-deck: a session is shoes_per_session rounds, 60
    assert planned["rounds"] == rounds and planned["exact"] is True
    plan = {s["strategy"]: s for s in planned["strategies"]}
    assert sorted(plan) == sorted(s["name"] for s in strategies)
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--quiet", "--workers", "1", "--no-report"]) == 0
    table = load(tmp_path / "run").sessions
    for name, figures in plan.items():
        mine = table.filter(table["strategy"] == name)
        assert mine.height == sessions
        net = mine["net"].cast(float).to_numpy()
        shares = [(mine["ruined"].to_numpy().mean(), figures["risk_of_ruin"])]
        if figures["p_goal_first"] is not None:
            shares += [((net >= 100).mean(), figures["p_goal_first"]), ((net <= -300).mean(), figures["p_stop_loss"])]
        for simulated, p in shares:
            error = math.sqrt(p * (1 - p) / sessions)
            assert abs(simulated - p) <= 4 * error, (name, simulated, p)
        for values, mean in ((net, figures["expected_net"]), (mine["wagered"].cast(float).to_numpy(), figures["expected_wagered"])):
            assert abs(values.mean() - mean) <= 4 * values.std(ddof=1) / math.sqrt(sessions), (name, values.mean(), mean)


@pytest.mark.slow
def test_plans_win_goal_and_stop_loss_agree_with_a_run_of_the_session_rules_within_4_standard_errors(tmp_path: Path, capsys) -> None:
    """``plan --win-goal 100 --stop-loss 300`` against 4,000 sessions of ``session: {win_goal: 100, stop_loss: 300}`` run."""
    sessions, rounds = 4000, 60
    entries = [{"name": "martingale", "use": "martingale"}, {"name": "paroli", "use": "paroli"}, {"name": "flat", "use": "flat"}]
    planned = plan_json(
        capsys,
        *[x for e in entries for x in ("--strategy", e["name"])],
        "--rules",
        "single-deck",
        "--hands",
        str(rounds),
        "--win-goal",
        "100",
        "--stop-loss",
        "300",
    )
    path = write(tmp_path, entries, rounds=rounds, count=sessions * rounds, seed=20261208)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["session"] = {"bankroll": 1000, "rounds": rounds, "table_min": 10, "table_max": 1000, "win_goal": 100, "stop_loss": 300}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--quiet", "--workers", "1", "--no-report"]) == 0
    table = load(tmp_path / "run").sessions
    for figures in planned["strategies"]:
        mine = table.filter(table["strategy"] == figures["strategy"])
        assert mine.height == sessions
        ended = mine["stopped_by"].to_list()
        shares = [
            (ended.count("session.win_goal") / sessions, figures["p_goal_first"]),
            (ended.count("session.stop_loss") / sessions, figures["p_stop_loss"]),
            (mine["ruined"].to_numpy().mean(), figures["risk_of_ruin"]),
        ]
        for simulated, p in shares:
            assert abs(simulated - p) <= 4 * math.sqrt(p * (1 - p) / sessions), (figures["strategy"], simulated, p)
        net = mine["net"].cast(float).to_numpy()
        assert abs(net.mean() - figures["expected_net"]) <= 4 * net.std(ddof=1) / math.sqrt(sessions), figures["strategy"]
