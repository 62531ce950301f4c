"""``baccarat trace`` (one session round by round) and ``baccarat strategies check`` (a piece's twins compared)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import polars as pl
import pytest
import yaml

from baccarat.cli import main
from baccarat.plugin.manager import clear_registry


def experiment(tmp_path: Path, strategies: list[dict], **extra) -> Path:
    data = {
        "name": "traced",
        "rules": "punto-banco-8",
        "shoes": {"source": "seeded", "seed": 11, "count": 6},
        "session": {"bankroll": 300, "shoes_per_session": 2, "table_min": 10, "table_max": 200},
        "strategies": strategies,
        **extra,
    }
    path = tmp_path / "experiment.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.slow
def test_trace_prints_a_session_as_the_run_ledger_has_it_with_the_progressions_state(tmp_path: Path, capsys) -> None:
    path = experiment(
        tmp_path, [{"name": "flat", "use": "flat"}, {"name": "mart", "use": "martingale", "params": {"side": "follow-last", "unit": 10}}]
    )
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["trace", str(path), "--strategy", "mart", "--session", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    ledger = (
        pl.read_parquet(tmp_path / "out" / "ledger.parquet").filter((pl.col("strategy") == "mart") & (pl.col("session") == 2)).sort("round")
    )
    assert out[0].startswith("strategy 'mart', session 2: ") and "shoes 3, 4" in out[0]
    assert out[1].split() == ["ROUND", "SHOE", "HAND", "OUTCOME", "BET", "STAKE", "NET", "BANKROLL", "STATE"]
    rows = [line.split() for line in out[2:-1]]
    assert out[-1].startswith(("ended by ", "ruined in round ", "not ended by a rule or ruin"))
    assert len(rows) == ledger.height > 100
    stakes = []
    for row, expected in zip(rows, ledger.iter_rows(named=True), strict=True):
        assert [int(row[0]), int(row[1]), int(row[2]), row[3]] == [
            expected["round"],
            expected["shoe"],
            expected["hand"],
            expected["outcome"],
        ]
        assert float(row[5]) == pytest.approx(float(expected["stake"]))
        assert float(row[6]) == pytest.approx(float(expected["net"]))
        assert float(row[7]) == pytest.approx(float(expected["bankroll"]))
        assert row[4] in ("-", "banker", "player") and (row[4] == "-") == (expected["stake"] == 0)
        stakes.append(int(re.search(r"stake=(\d+)", " ".join(row[8:])).group(1)))
    # The state after each round is the Martingale's next stake (currency units): one unit after a win, twice the
    # stake asked after a loss (a stake above the table maximum of 200 restarts at one unit before the bet).
    previous = 10
    for row, stake in zip(rows, stakes, strict=True):
        asked = previous if previous <= 200 else 10
        net = float(row[6])
        expected = previous if row[4] == "-" else 10 if net > 0 else 2 * asked if net < 0 else asked
        assert stake == expected, row
        previous = stake
    assert max(stakes) > 40  # losing runs were traced


@pytest.mark.slow
def test_trace_ends_saying_what_ended_the_session_as_the_sessions_table_does(tmp_path: Path, capsys) -> None:
    """The last line names ``stopped_by`` of the run's sessions table (a session rule or the strategy's own stop rule)
    and its round: the round of the last bet for a session rule, checked once a round is settled; the round after it
    for a stop rule, checked before the bet. Or ruin, or no end before the session's last round."""
    strategies = [
        {"name": "mart", "use": "martingale"},
        {"name": "own goal", "use": "martingale", "params": {"stop_win": 20}},
        {"name": "flat", "use": "flat"},
    ]
    session = {"bankroll": 300, "table_min": 10, "table_max": 200, "rounds": 40, "win_goal": 40, "stop_loss": 100}
    path = experiment(tmp_path, strategies, session=session, shoes={"source": "seeded", "seed": 5, "count": 6})
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet", "--no-report"]) == 0
    sessions = pl.read_parquet(tmp_path / "out" / "sessions.parquet")
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    firsts = sessions.sort("strategy", "session").unique("stopped_by", keep="first", maintain_order=True)  # one of each end
    assert set(firsts["stopped_by"]) == {"session.win_goal", "session.stop_loss", "stop_win", None}
    for row in firsts.iter_rows(named=True):
        capsys.readouterr()
        assert main(["trace", str(path), "--strategy", row["strategy"], "--session", str(row["session"])]) == 0
        last = capsys.readouterr().out.splitlines()[-1]
        mine = ledger.filter((pl.col("strategy") == row["strategy"]) & (pl.col("session") == row["session"]))
        bet = mine.filter(pl.col("stake") > 0)["round"].max()
        name = row["stopped_by"]
        if name is None:
            assert (
                not row["ruined"]
                and last == f"not ended by a rule or ruin: played to its last round 40, bankroll {row['final_bankroll']:.2f}"
            )
        elif name.startswith("session."):
            assert last.startswith(f"ended by {name} after round {bet} was settled, bankroll "), last
        else:
            assert last.startswith(f"ended by {name} in round {bet + 1}, before its bet, bankroll "), last


def test_trace_refuses_an_unknown_label_or_session_in_one_line(tmp_path: Path, capsys) -> None:
    path = experiment(tmp_path, [{"name": "martingale one", "use": "martingale"}])
    assert main(["trace", str(path), "--strategy", "martingale on"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "baccarat: error: the experiment has no strategy labelled 'martingale on' (did you mean "
        "'martingale one'?); its strategies are 'martingale one'\n"
    )
    assert main(["trace", str(path), "--strategy", "martingale one", "--session", "4"]) == 2
    assert capsys.readouterr().err == ("baccarat: error: --session 4 is not a session of this experiment: its sessions are 1 to 3\n")


WRONG_TWIN = """
    from baccarat import hookimpl
    from baccarat.plugin.twins import STAKE, ProgressionTwin
    from baccarat.plugin import Progression

    class PlusTwo(Progression):
        name = "plus-two"

        def won(self, net):
            self.stake = self.unit

        def lost(self, net):
            self.stake += 2 * self.unit

    def won(state, params, net):
        state[STAKE] = params[0]

    def lost(state, params, net):  # one unit, where the reference adds two
        state[STAKE] += params[0]

    @hookimpl
    def register_progressions(register):
        register(PlusTwo)

    @hookimpl
    def register_twins(register):
        register(PlusTwo, ProgressionTwin(won=won, lost=lost))
"""


def test_check_names_the_first_difference_with_both_stakes_and_states(tmp_path: Path, capsys) -> None:
    from baccarat.engine.reference import StrategyRun, run_strategy, session_bounds
    from baccarat.execution.twin_check import CONFIGS, RULES, SEED
    from baccarat.odds.settlement import settlement_table
    from baccarat.plugin.manager import registry
    from baccarat.shoes.compiled_deal import seeded_table_compiled
    from baccarat.table.rules import preset

    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "wrong.py").write_text(textwrap.dedent(WRONG_TWIN), encoding="utf-8")
    clear_registry()
    assert main(["strategies", "check", "plus-two", "--shoes", "30", "--plugins-dir", str(folder)]) == 1
    out = capsys.readouterr().out
    # Where it must differ: the round after the first lost bet that has a next round in its session.
    rules = preset(RULES)
    table = seeded_table_compiled(rules, SEED, 1, 30)
    cls, params = registry([folder]).configure("plus-two", {"side": "banker", "unit": 10})
    ref = run_strategy(
        StrategyRun("x", cls, params), table, settlement_table(table, rules), rules, CONFIGS[0], SEED, session_bounds(table, 1)
    )
    lost = next(k for k in range(len(ref["net"]) - 1) if ref["net"][k] < 0 and ref["session"][k + 1] == ref["session"][k])
    row = lost + 1
    assert (
        f"at session {ref['session'][row]}, shoe {ref['shoe'][row]}, hand {ref['hand'][row]}, round {ref['round'][row]} (columns"
    ) in out
    assert f"reference: stake {ref['stake'][row] / 100:.2f}" in out and "stake 20.00" in out
    assert "state after the round: stake=" in out and "progression [" in out
    assert ref["stake"][row] == 3000  # the reference: one unit plus two after the loss


def test_check_a_built_in_selector_and_what_has_no_twin(capsys) -> None:
    assert main(["strategies", "check", "pattern", "--param", "pattern=BBP", "--shoes", "20"]) == 0
    out = capsys.readouterr().out
    assert "selector 'pattern' (use: martingale, side: pattern, unit: 10, pattern: BBP)" in out
    assert "identical ledgers" in out
    assert main(["strategies", "check", "road-ask"]) == 2
    assert "has no compiled twin: it runs on the reference engine" in capsys.readouterr().err
    assert main(["strategies", "check", "martingal"]) == 2
    assert "(did you mean 'martingale'?)" in capsys.readouterr().err
