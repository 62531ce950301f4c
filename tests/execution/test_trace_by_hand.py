"""``baccarat trace`` of recorded shoes short enough to work out by hand: every stake, net, bankroll, state and ending.

Flat banker pays 0.95 to one and pushes on a tie; the Martingale on player doubles its stake after a loss and
returns to one unit after a win (a tie changes nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from baccarat.cli import main

SHOES = "BPTBB\nPPBPB\n"


@pytest.fixture
def experiment(tmp_path: Path) -> Path:
    (tmp_path / "shoes.txt").write_text(SHOES)
    data = {
        "name": "traced",
        "rules": "punto-banco-8",
        "shoes": {"source": "recorded", "path": "shoes.txt", "format": "outcomes"},
        "session": {"bankroll": 300, "shoes_per_session": 1, "table_min": 10, "table_max": 200},
        "strategies": [
            {"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 10}},
            {"name": "mart", "use": "martingale", "params": {"side": "player", "unit": 10}},
        ],
    }
    path = tmp_path / "experiment.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def trace(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> list[str]:
    assert main(["trace", str(path), *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_martingale_session_of_one_shoe(experiment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert trace(capsys, experiment, "--strategy", "mart", "--session", "1") == [
        "strategy 'mart', session 1: 5 rounds from shoe 1; bankroll 300.00",
        "ROUND  SHOE  HAND  OUTCOME  BET     STAKE     NET  BANKROLL  STATE",
        "    1     1     1  banker   player  10.00  -10.00    290.00  stake=20",
        "    2     1     2  player   player  20.00  +20.00    310.00  stake=10",
        "    3     1     3  tie      player  10.00    0.00    310.00  stake=10",
        "    4     1     4  banker   player  10.00  -10.00    300.00  stake=20",
        "    5     1     5  banker   player  20.00  -20.00    280.00  stake=40",
        "not ended by a rule or ruin: played to its last round 5, bankroll 280.00",
    ]


def test_sessions_of_rounds_run_across_shoes(experiment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = trace(capsys, experiment, "--strategy", "mart", "--session", "2", "--set", "session.rounds=3")
    assert out[0] == "strategy 'mart', session 2: 3 rounds from shoes 1, 2; bankroll 300.00"
    assert [line.split()[:8] for line in out[2:5]] == [
        ["1", "1", "4", "banker", "player", "10.00", "-10.00", "290.00"],
        ["2", "1", "5", "banker", "player", "20.00", "-20.00", "270.00"],
        ["3", "2", "1", "player", "player", "40.00", "+40.00", "310.00"],
    ]
    assert main(["trace", str(experiment), "--strategy", "mart", "--session", "4", "--set", "session.rounds=3"]) == 2
    assert capsys.readouterr().err == "baccarat: error: --session 4 is not a session of this experiment: its sessions are 1 to 3\n"


def test_flat_banker_pays_its_commission_and_ends_by_ruin_or_a_session_rule(experiment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = trace(capsys, experiment, "--strategy", "flat", "--session", "2")
    assert [line.split()[5:8] for line in out[2:7]] == [
        ["10.00", "-10.00", "290.00"],
        ["10.00", "-10.00", "280.00"],
        ["10.00", "+9.50", "289.50"],
        ["10.00", "-10.00", "279.50"],
        ["10.00", "+9.50", "289.00"],
    ]
    ruined = trace(capsys, experiment, "--strategy", "flat", "--session", "2", "--set", "session.bankroll=20")
    assert ruined[-1] == "ruined in round 2: bankroll 0.00, below the table minimum 10.00: no bet after it"
    stopped = trace(capsys, experiment, "--strategy", "flat", "--session", "2", "--set", "session.stop_loss=15")
    assert stopped[-1] == "ended by session.stop_loss after round 2 was settled, bankroll 280.00: no bet after it"


def test_a_stop_rule_of_the_strategy_ends_it_before_its_next_bet(experiment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(experiment.read_text(encoding="utf-8"))
    data["strategies"][1]["params"]["stop_win"] = 10  # up 10 after round 2: no bet from round 3 on
    experiment.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = trace(capsys, experiment, "--strategy", "mart", "--session", "1")
    assert [line.split()[4:] for line in out[3:7]] == [
        ["player", "20.00", "+20.00", "310.00", "stake=10", "goal=10"],
        ["-", "0.00", "0.00", "310.00", "stake=10", "goal=10", "stopped"],
        ["-", "0.00", "0.00", "310.00", "stake=10", "goal=10", "stopped"],
        ["-", "0.00", "0.00", "310.00", "stake=10", "goal=10", "stopped"],
    ]
    assert out[-1] == "ended by stop_win in round 3, before its bet, bankroll 310.00: no bet from it on"
