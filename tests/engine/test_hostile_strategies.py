"""Strategies that misbehave: every fault stops the run with one sentence naming strategy, session, shoe and round.

Bets above the table maximum or the bankroll are cut (docs/strategies.md) and
counted; everything else a strategy can get wrong is an error, raised where
it happens, and ``baccarat run`` exits 2 leaving no output folder.
"""

from __future__ import annotations

import inspect
import math
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from baccarat.cli import main
from baccarat.engine.reference import SessionConfig, StrategyRun, amount_to_cents, run_strategy
from baccarat.errors import StrategyError
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.rules import preset

RULES = preset("punto-banco-8")


def table_of(shoes: list[str]) -> RoundTable:
    letters = {"B": "banker", "P": "player", "T": "tie"}
    return RoundTable.from_outcomes([(k, [OUTCOME_CODE[letters[c]] for c in text]) for k, text in enumerate(shoes, start=1)])


def line_of(function: Any, text: str) -> int:
    """The line number of the first line of ``function``'s source holding ``text``."""
    lines, first = inspect.getsourcelines(function)
    return first + next(n for n, line in enumerate(lines) if text in line)


class Scripted(Strategy):
    """Bets 10 on banker every round, except ``answer`` (or ``fail``) at round ``at_round`` of session ``at_session``."""

    name = "scripted"
    params: dict[str, Any] = {}

    def __init__(
        self,
        session: Any,
        answer: Any = None,
        fail: BaseException | None = None,
        at_session: int = 2,
        at_round: int = 3,
        in_settle: bool = False,
        in_init: bool = False,
    ) -> None:
        super().__init__(session)
        self.answer, self.fail, self.in_settle = answer, fail, in_settle
        self.at = (at_session, at_round)
        if in_init and session.number == at_session and fail is not None:
            raise fail

    def _now(self, view: Any) -> bool:
        return (view.session, view.round) == self.at

    def bets(self, view: Any) -> Any:
        if self._now(view) and not self.in_settle:
            if self.fail is not None:
                raise self.fail
            return self.answer
        return {"banker": 10}

    def settle(self, view: Any, nets: Any) -> None:
        if self._now(view) and self.in_settle and self.fail is not None:
            raise self.fail


def play(
    bankroll: int = 1000, table_min: int = 10, table_max: int = 500, shoes: tuple[str, ...] = ("BPBPB", "PBTBP", "BBPPB"), **params: Any
) -> dict[str, np.ndarray]:
    table = table_of(list(shoes))
    config = SessionConfig(bankroll * 100, table_min * 100, table_max * 100, 1)
    return run_strategy(StrategyRun("mine", Scripted, params), table, settlement_table(table, RULES), RULES, config, seed=3)


def error_of(**params: Any) -> str:
    with pytest.raises(StrategyError) as info:
        play(**params)
    message = str(info.value)
    assert "\n" not in message and message.startswith("strategy 'mine' ")
    return message


WHERE = "(session 2, shoe 2, hand 3, round 3)"

BAD_BETS = {
    "negative": ({"banker": -10}, "bet a negative amount (-10) on banker"),
    "negative float": ({"banker": -0.5}, "bet a negative amount (-0.5) on banker"),
    "NaN": ({"banker": math.nan}, "bet an invalid amount on banker: nan is not an amount"),
    "infinity": ({"player": math.inf}, "bet an invalid amount on player: inf is not an amount"),
    "Decimal NaN": ({"banker": Decimal("NaN")}, "bet an invalid amount on banker: Decimal('NaN') is not an amount"),
    "signalling NaN": ({"banker": Decimal("sNaN")}, "bet an invalid amount on banker: Decimal('sNaN') is not an amount"),
    "numpy NaN": ({"banker": np.float64("nan")}, "bet an invalid amount on banker: "),
    "a tenth of a cent": ({"banker": 10.001}, "bet an invalid amount on banker: 10.001 is not a whole number of cents"),
    "float arithmetic off by a hair": (
        {"banker": 0.07 * 300},
        "bet an invalid amount on banker: 21.000000000000004 is not a whole number of cents",
    ),
    "a third": ({"banker": Fraction(31, 3)}, "bet an invalid amount on banker: 31/3 is not a whole number of cents"),
    "text": ({"banker": "10"}, "bet an invalid amount on banker: '10' is not an amount"),
    "boolean": ({"banker": True}, "bet an invalid amount on banker: True is not an amount"),
    "None amount": ({"banker": None}, "bet an invalid amount on banker: None is not an amount"),
    "complex": ({"banker": 10j}, "bet an invalid amount on banker: 10j is not an amount"),
    "unknown side": ({"bankr": 10}, "bet on 'bankr', which the table does not offer here (banker, player, tie)"),
    "side not text": ({1: 10}, "bet on 1, which the table does not offer here (banker, player, tie)"),
    "pair not offered": ({"player_pair": 10}, "bet on 'player_pair', which the table does not offer here"),
    "below the table minimum": ({"banker": 5}, "bet 5.00 on banker, below the table minimum 10.00"),
    "a list": ([("banker", 10)], "returned list, not a mapping of side to amount"),
    "a numpy array": (np.array([10, 10]), "returned ndarray, not a mapping of side to amount"),
    "a number": (10, "returned int, not a mapping of side to amount"),
    "false": (False, "returned bool, not a mapping of side to amount"),
}


@pytest.mark.parametrize("case", list(BAD_BETS))
def test_an_invalid_bet_stops_the_run_where_it_was_made(case: str) -> None:
    answer, expected = BAD_BETS[case]
    message = error_of(answer=answer)
    assert message.startswith(f"strategy 'mine' {expected}"), message
    assert message.endswith(WHERE)


@pytest.mark.parametrize(
    ("fail", "said"),
    [
        (ValueError("no luck"), "raised ValueError: no luck"),
        (ZeroDivisionError(), "raised ZeroDivisionError"),
        (MemoryError(), "raised MemoryError"),
        (RecursionError("maximum recursion depth exceeded"), "raised RecursionError: maximum recursion depth exceeded"),
        (SystemExit(3), "called sys.exit(3)"),
        (ValueError("first line\nsecond line"), "raised ValueError: first line"),
    ],
)
def test_a_strategy_that_raises_is_named_with_its_place(fail: BaseException, said: str) -> None:
    raise_line = line_of(Scripted.bets, "raise self.fail")
    settle_line = line_of(Scripted.settle, "raise self.fail")
    assert error_of(fail=fail) == f"strategy 'mine' {said} at {__file__}:{raise_line} {WHERE}"
    fail.with_traceback(None)  # raised afresh, not where it was raised before
    assert error_of(fail=fail, in_settle=True) == f"strategy 'mine' {said} at {__file__}:{settle_line} {WHERE}"


def test_a_strategy_that_cannot_start_a_session_is_named_with_its_first_shoe() -> None:
    line = line_of(Scripted.__init__, "raise fail")
    assert error_of(fail=RuntimeError("no table"), in_init=True) == (
        f"strategy 'mine' could not start: raised RuntimeError: no table at {__file__}:{line} (session 2, shoe 2, before round 1)"
    )


def test_sitting_out_is_none_or_an_empty_mapping_or_zero() -> None:
    for answer in (None, {}, {"banker": 0}, {"banker": 0.0, "player": Decimal(0)}):
        cols = play(answer=answer)
        row = 5 + 2  # session 2, round 3
        assert cols["stake"][row] == 0 and cols["net"][row] == 0 and cols["capped"][row] == 0


@pytest.mark.parametrize(
    ("amount", "cents"),
    [
        (np.int64(20), 2000),
        (np.float64(12.5), 1250),
        (np.float32(10.1), 1010),
        (Fraction(41, 2), 2050),
        (Decimal("1E+1"), 1000),
        (12.3, 1230),
    ],
)
def test_any_real_number_of_whole_cents_is_an_amount(amount: Any, cents: int) -> None:
    assert amount_to_cents(amount) == cents


def test_bets_above_the_table_maximum_and_the_bankroll_are_cut_and_counted() -> None:
    cols = play(answer={"banker": 10**30}, table_max=500)  # round 3 of session 2: cut to 500
    assert cols["stake"][7] == 500 * 100 and cols["capped"][7] == 1
    cols = play(answer={"banker": 900}, bankroll=300, table_max=1000)  # bankroll 300 less earlier results
    assert cols["bankroll"][6] == 299_500_000  # 300 - 10 + 9.50 before round 3 of session 2
    assert cols["stake"][7] == 29950 and cols["capped"][7] == 1


def test_a_further_bet_the_bankroll_would_cut_below_the_minimum_is_not_placed() -> None:
    # session 2 starts at 100; rounds 1 and 2 (P, B) leave 100 - 10 + 9.50 = 99.50.
    cols = play(answer={"banker": 95, "player": 50}, bankroll=100, table_min=10, table_max=500)
    assert cols["stake_banker"][7] == 9500 and cols["stake_player"][7] == 0
    assert cols["capped"][7] == 1
    cols = play(answer={"banker": 80, "player": 50}, bankroll=100, table_min=10, table_max=500)
    assert cols["stake_banker"][7] == 8000 and cols["stake_player"][7] == 1950 and cols["capped"][7] == 1


# Through the command line -------------------------------------------------------------

PLUGIN = '''
from baccarat import hookimpl
from baccarat.plugin import Strategy


class Hostile(Strategy):
    """Misbehaves in one round of one session."""

    name = "hostile"
    params = {"mode": "raise", "at_session": 2, "at_round": 30}

    def __init__(self, session, **params):
        super().__init__(session, **params)
        if self.mode == "start" and session.number == self.at_session:
            raise RuntimeError("no table for this session")

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        if (view.session, view.round) != (self.at_session, self.at_round):
            return {"banker": 10}
        return {"raise": None, "nan": {"banker": float("nan")}, "negative": {"banker": -10},
                "cent": {"banker": 10.005}, "side": {"dragon": 10}}[self.mode] or 1 / 0


@hookimpl
def register_strategies(register):
    register(Hostile)
'''


PLUGIN_RAISE_LINE = 1 + PLUGIN.splitlines().index('                "cent": {"banker": 10.005}, "side": {"dragon": 10}}[self.mode] or 1 / 0')


def refused_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], plugin: str, strategies: str) -> str:
    """``baccarat run`` of ``strategies`` (YAML lines) with ``plugin`` in plugins/: exit status 2, one line, nothing written."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hostile.py").write_text(plugin)
    (tmp_path / "exp.yaml").write_text("shoes: {seed: 4, count: 3}\nplugins_dir: plugins\nstrategies:\n" + strategies)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["run", "exp.yaml", "--quiet", "--out", "out"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    return err


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("raise", "raised ZeroDivisionError: division by zero"),
        ("nan", "bet an invalid amount on banker: nan is not an amount"),
        ("negative", "bet a negative amount (-10) on banker"),
        ("cent", "bet an invalid amount on banker: 10.005 is not a whole number of cents"),
        ("side", "bet on 'dragon', which the table does not offer here (banker, player, tie)"),
    ],
)
def test_the_command_reports_a_misbehaving_strategy_in_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], mode: str, said: str
) -> None:
    err = refused_run(tmp_path, monkeypatch, capsys, PLUGIN, f"  - name: bad one\n    use: hostile\n    params: {{mode: {mode}}}\n")
    where = f" at {tmp_path / 'plugins' / 'hostile.py'}:{PLUGIN_RAISE_LINE}" if mode == "raise" else ""
    assert err.startswith(f"baccarat: error: strategy 'bad one' {said}{where} (session 2, shoe 2, hand 30, round 30)"), err


def test_a_strategy_that_cannot_start_a_session_in_the_run_is_named_where_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample shoe before the run is its first session; the second session, played in the run, cannot start."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hostile.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(
        "shoes: {seed: 4, count: 3}\nplugins_dir: plugins\nstrategies:\n  - use: flat\n  - name: bad one\n    use: hostile\n"
        "    params: {mode: start}\n"
    )
    assert main(["run", "exp.yaml", "--quiet", "--out", "out"]) == 2
    out, err = capsys.readouterr()
    line = 1 + PLUGIN.splitlines().index('            raise RuntimeError("no table for this session")')
    at = f"{tmp_path / 'plugins' / 'hostile.py'}:{line}"
    assert (out, err) == (
        "",
        f"baccarat: error: exp.yaml:6:10: strategy 'bad one' could not start: raised RuntimeError: no table for this session at {at} "
        "(session 2, shoe 2, before round 1)\n",
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("how", ["--debug", "BACCARAT_DEBUG"])
def test_debug_shows_the_plugins_own_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "hostile.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(
        "shoes: {seed: 4, count: 3}\nplugins_dir: plugins\nstrategies:\n  - name: bad one\n    use: hostile\n    params: {mode: raise}\n"
    )
    if how == "BACCARAT_DEBUG":
        monkeypatch.setenv("BACCARAT_DEBUG", "1")
        args = ["run", "exp.yaml", "--quiet", "--out", "out"]
    else:
        args = ["run", "exp.yaml", "--quiet", "--out", "out", "--debug"]
    assert main(args) == 2
    err = capsys.readouterr().err
    trace, last = err.rstrip("\n").rsplit("\n", 1)
    assert trace.startswith("Traceback (most recent call last):")
    assert f'File "{tmp_path / "plugins" / "hostile.py"}", line {PLUGIN_RAISE_LINE}, in bets' in trace
    assert trace.endswith("ZeroDivisionError: division by zero")
    assert "baccarat/engine.py" not in trace  # the plugin's own frames only
    assert last.startswith("baccarat: error: strategy 'bad one' raised ZeroDivisionError: division by zero at ")
    assert not (tmp_path / "out").exists()


def test_errors_cross_process_boundaries_whole() -> None:
    import pickle

    from baccarat.errors import ParameterError

    for error in (
        StrategyError("raised ValueError (session 2)", path="exp.yaml", line=3, column=4),
        ParameterError("unit must be positive", param="unit", path="exp.yaml", line=5, column=6),
    ):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error) and again.__dict__ == error.__dict__


@pytest.mark.slow
@pytest.mark.skipif(__import__("importlib").util.find_spec("ray") is None, reason="Ray is not installed (pip install '.[ray]')")
def test_a_misbehaving_strategy_on_ray_is_the_same_one_line(tmp_path: Path) -> None:
    """Through the real command in a process of its own, as Ray takes over the process it starts in.

    When Ray's own processes crash (a raylet abort, seen on a busy machine), the command is tried again in a fresh
    folder: the crashed attempt's unfinished output would rightly be reported and removed by the next run into it.
    """
    for attempt in range(3):
        folder = tmp_path / f"attempt-{attempt}"
        (folder / "plugins").mkdir(parents=True)
        (folder / "plugins" / "hostile.py").write_text(PLUGIN)
        (folder / "exp.yaml").write_text(
            "shoes: {seed: 4, count: 3}\nplugins_dir: plugins\n"
            "strategies:\n  - name: bad one\n    use: hostile\n    params: {mode: negative}\n"
        )
        command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--quiet", "--out", "out", "--executor", "ray", "--workers", "1"]
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
        if done.returncode == 2 or done.stderr.startswith("baccarat: "):
            break
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "baccarat: error: strategy 'bad one' bet a negative amount (-10) on banker (session 2, shoe 2, hand 30, round 30)\n"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["exp.yaml", "plugins"]


SELECTORS = '''
from baccarat import hookimpl
from baccarat.plugin import Selector


class Misspelt(Selector):
    """Backs a bet no table offers, from the first round."""

    name = "misspelt"

    def choose(self, view):
        return "bankr"


class Late(Selector):
    """Backs Banker, but a dragon in round 30 of session 2 (after the sample shoe tried before the run)."""

    name = "late"

    def choose(self, view):
        return "dragon" if (view.session, view.round) == (2, 30) else "banker"


@hookimpl
def register_selectors(register):
    register(Misspelt)
    register(Late)
'''


@pytest.mark.parametrize(
    ("side", "said"),
    [
        (
            "misspelt",
            "exp.yaml:7:30: strategy 'my pick' bet on 'bankr', which the table does not offer here (banker, player, tie): "
            "its selector 'misspelt' (side: misspelt) chose it, on a sample shoe tried before the run",
        ),
        (
            "late",
            "strategy 'my pick' bet on 'dragon', which the table does not offer here (banker, player, tie): "
            "its selector 'late' (side: late) chose it (session 2, shoe 2, hand 30, round 30)",
        ),
    ],
)
def test_a_plugin_selector_betting_what_the_table_does_not_offer_is_named_with_the_strategys_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], side: str, said: str
) -> None:
    # The progression only stakes: the selector chose the bet, so the message names it and the strategy's label, not 'martingale'.
    strategies = "  - {name: flat banker, use: flat, params: {side: banker, unit: 10}}\n  - name: my pick\n"
    err = refused_run(
        tmp_path, monkeypatch, capsys, SELECTORS, strategies + f"    use: martingale\n    params: {{unit: 10, side: {side}}}\n"
    )
    assert err == f"baccarat: error: {said}\n" and "'martingale'" not in err
