"""A plugin's bug never changes another strategy's numbers, never loses a file and never passes unnoticed.

Each case is a plugin of a few lines, run through the real command line
(``baccarat run``): a strategy forcing the frozen rules open, a compiled
twin writing into its history or reading past its end, state kept on the
class, a bet that is not deterministic, an exact form whose probabilities
are not probabilities, plugin files that are not regular files. Each stops
the run with one line naming the strategy (or plugin) and exit status 2,
leaving nothing written; where a plugin's bug is contained instead, the
other strategies' numbers are those of a run without it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import polars as pl
import pytest

from baccarat.cli import main
from baccarat.plugin.manager import clear_registry


@pytest.fixture(autouse=True)
def fresh_plugins():
    clear_registry()
    yield
    clear_registry()


def plugin_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    for name, code in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


def one_line(err: str) -> str:
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def experiment(tmp_path: Path, strategies: str, shoes: int = 6, name: str = "exp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"shoes: {{seed: 3, count: {shoes}}}\nsession: {{shoes_per_session: 2}}\nstrategies:\n" + textwrap.dedent(strategies))
    return path


def run(tmp_path: Path, exp: Path, folder: Path | None, out: str = "out", *extra: str) -> int:
    plugins = ["--plugins-dir", str(folder)] if folder is not None else []
    return main(["run", str(exp), "--quiet", *plugins, "--out", str(tmp_path / out), *extra])


FLAT = "  - {name: flat banker, use: flat, params: {side: banker, unit: 10}}\n"


# Item: the rules are the experiment's, out of a strategy's reach ----------------------------------------------------

RULE_BREAKER = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import Strategy


class RuleBreaker(Strategy):
    \"\"\"Bets nothing; from session ``at`` on, sets the commission (or a side bet's pays) to what suits it.\"\"\"

    name = "rule-breaker"
    params = {"at": 1, "what": "commission"}

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        if view.session >= self.at:
            if self.what == "commission":
                object.__setattr__(view.rules, "commission", Fraction(0))
            else:
                view.rules.side_bets.clear()
        return None


@hookimpl
def register_strategies(register):
    register(RuleBreaker)
"""


@pytest.mark.parametrize(
    ("params", "said"),
    [
        (
            "{at: 1}",
            "exp.yaml:6:8: strategy 'rule-breaker' changed the table rules (commission 1/20 became 0) while it played a sample shoe ",
        ),
        ("{at: 3}", "strategy 'breaker' changed the table rules (commission 1/20 became 0) while it played; "),
        ("{at: 3, what: side bets}", "strategy 'breaker' changed the table rules (side_bets {'dragon7': Fraction(40, 1)} became {})"),
    ],
)
def test_a_strategy_forcing_the_rules_open_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], params: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, breaker=RULE_BREAKER)
    rules = "rules: {side_bets: {dragon7: 40}}\n" if "side" in params else ""
    exp = experiment(tmp_path, FLAT + f"  - name: breaker\n    use: rule-breaker\n    params: {params}\n")
    exp.write_text(rules + exp.read_text())
    assert run(tmp_path, exp, folder) == 2
    err = one_line(capsys.readouterr().err)
    assert said in err, err
    assert not (tmp_path / "out").exists()


# Compiled twins: their history is their own copy, ending at the last round dealt --------------------------------------

TWINS = """
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.kernels import BANKER, PLAYER, CompiledSelector, njit


class Peek(Selector):
    \"\"\"Banker every round; its twin reads one round past its history, through a helper.\"\"\"

    name = "peek"

    def choose(self, view):
        return "banker"


class Vandal(Peek):
    \"\"\"Banker every round; its twin writes PLAYER over its whole history.\"\"\"

    name = "vandal"


@njit
def next_outcome(history):
    return history[len(history)]


def peek(view, history, state, params, rng):
    return PLAYER if next_outcome(history) == PLAYER else BANKER


def vandal(view, history, state, params, rng):
    for i in range(len(history)):
        history[i] = PLAYER
    return BANKER


@hookimpl
def register_selectors(register):
    register(Peek)
    register(Vandal)


@hookimpl
def register_kernels(register):
    register(Peek, CompiledSelector(peek))
    register(Vandal, CompiledSelector(vandal))
"""

MARTINGALE = "  - {name: martingale follow-last, use: martingale, params: {side: follow-last, unit: 10}}\n"


def ledger_of(folder: Path, strategy: str) -> pl.DataFrame:
    return pl.read_parquet(folder / "ledger.parquet").filter(pl.col("strategy") == strategy).drop("strategy")


def test_compiled_twins_cannot_write_the_rounds_or_read_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")  # a small run, compiled all the same
    folder = plugin_folder(tmp_path, twins=TWINS)
    hostile = experiment(
        tmp_path,
        "  - {name: vandal, use: flat, params: {side: vandal, unit: 10}}\n"
        "  - {name: peek, use: flat, params: {side: peek, unit: 10}}\n" + MARTINGALE + FLAT,
        shoes=40,
    )
    assert run(tmp_path, hostile, folder, "hostile", "--workers", "1") == 0
    warned = capsys.readouterr().err
    assert "baccarat: warning: strategy 'peek' runs on the reference engine: a compiled twin raised IndexError" in warned
    monkeypatch.setenv("BACCARAT_NO_FAST_PATH", "1")
    assert run(tmp_path, experiment(tmp_path, MARTINGALE + FLAT, shoes=40, name="alone.yaml"), None, "alone") == 0
    for strategy in ("martingale follow-last", "flat banker"):
        assert ledger_of(tmp_path / "hostile", strategy).equals(ledger_of(tmp_path / "alone", strategy))
    vandal, peek, flat = (ledger_of(tmp_path / "hostile", s) for s in ("vandal", "peek", "flat banker"))
    assert peek["net"].equals(flat["net"]) and vandal["net"].equals(flat["net"])  # banker every round: no look-ahead
