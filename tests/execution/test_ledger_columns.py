"""The ledger's per-bet columns are written only where they carry information, and every figure stays the same.

``stake_<bet>`` / ``net_<bet>`` are written for the bets the strategies
declare (their ``sides``), none when that is a single bet (they would repeat
``stake`` and ``net``), and for every bet the table settles when a strategy
does not declare its sides. A strategy that stakes on a bet it does not
declare is refused. Runs with the columns forced on give the very same
summary, comparison, session table and ledger values.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import polars as pl
import pytest

from baccarat.errors import StrategyError
from baccarat.execution import chunks as chunking
from baccarat.execution.runner import run_to_folder
from baccarat.experiment import load_experiment

PLUGIN = '''
from baccarat import hookimpl
from baccarat.plugin import Strategy


class BankerInOddRounds(Strategy):
    """Back Banker in odd rounds of the session (declares nothing: the default sides)."""

    name = "banker-in-odd-rounds"
    params = {"unit": 10}

    def bets(self, view):
        return {"banker": self.unit} if view.round % 2 else None


class SaysBankerBetsPlayer(Strategy):
    """Declares Banker alone, but backs Player."""

    name = "says-banker-bets-player"
    params = {"unit": 10}

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        return {"player": self.unit}


@hookimpl
def register_strategies(register):
    register(BankerInOddRounds)
    register(SaysBankerBetsPlayer)
'''


def experiment(tmp_path: Path, strategies: list[dict], rules: str = "punto-banco-8"):
    plugins = tmp_path / "plugins"
    plugins.mkdir(exist_ok=True)
    (plugins / "odd_rounds.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return load_experiment(
        {
            "name": "columns",
            "rules": rules,
            "shoes": {"source": "seeded", "seed": 5, "count": 12},
            "session": {"bankroll": 500, "shoes_per_session": 2, "table_min": 10, "table_max": 500},
            "plugins_dir": str(plugins),
            "strategies": strategies,
        }
    )


FLAT_BANKER = {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}}
MARTINGALE_BANKER = {"name": "martingale banker", "use": "martingale", "params": {"side": "banker", "unit": 10}}
FOLLOW_LAST = {"name": "follow last", "use": "flat", "params": {"side": "follow-last", "unit": 10}}
TIE = {"name": "flat tie", "use": "flat", "params": {"side": "tie", "unit": 10}}
UNDECLARED = {"name": "odd rounds", "use": "banker-in-odd-rounds"}


def per_bet(ledger: pl.DataFrame) -> list[str]:
    return [name for name in ledger.columns if name.startswith(("stake_", "net_"))]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strategies", "rules", "columns"),
    [
        ([FLAT_BANKER, MARTINGALE_BANKER], "punto-banco-8", []),  # one bet: stake_banker would be stake
        ([FLAT_BANKER, FOLLOW_LAST], "punto-banco-8", ["stake_banker", "net_banker", "stake_player", "net_player"]),
        ([FLAT_BANKER, TIE], "punto-banco-8-pairs", ["stake_banker", "net_banker", "stake_tie", "net_tie"]),
        (
            [FLAT_BANKER, UNDECLARED],
            "punto-banco-8-pairs",
            [
                "stake_banker",
                "net_banker",
                "stake_player",
                "net_player",
                "stake_tie",
                "net_tie",
                "stake_player_pair",
                "net_player_pair",
                "stake_banker_pair",
                "net_banker_pair",
            ],
        ),
    ],
)
def test_per_bet_columns_are_written_for_the_bets_the_strategies_declare(
    tmp_path: Path, strategies: list[dict], rules: str, columns: list[str]
) -> None:
    run_to_folder(experiment(tmp_path, strategies, rules), tmp_path / "out")
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert per_bet(ledger) == columns
    for name in columns if UNDECLARED not in strategies else ():  # declared bets: each has stakes in some rounds
        assert ledger[name].cast(pl.Float64).abs().sum() > 0, name
    if not columns:
        assert ledger["stake"].cast(pl.Float64).sum() > 0


@pytest.mark.slow
def test_every_figure_is_the_same_with_every_per_bet_column(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exp = experiment(tmp_path, [FLAT_BANKER, MARTINGALE_BANKER, FOLLOW_LAST])
    run_to_folder(exp, tmp_path / "lean")
    monkeypatch.setattr(chunking.RunPlan, "ledger_bets", lambda plan: plan.bets)
    run_to_folder(exp, tmp_path / "full")
    lean = pl.read_parquet(tmp_path / "lean" / "ledger.parquet")
    full = pl.read_parquet(tmp_path / "full" / "ledger.parquet")
    assert per_bet(lean) == ["stake_banker", "net_banker", "stake_player", "net_player"] and "stake_tie" in full.columns
    assert full.select(full.columns[:11]).equals(lean.select(full.columns[:11]))
    assert (full["stake_tie"].cast(pl.Float64) == 0).all() and (full["net_tie"].cast(pl.Float64) == 0).all()
    for name in ("summary.csv", "comparison.csv", "sessions.parquet"):
        assert (tmp_path / "lean" / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name


def test_a_strategy_that_bets_where_it_does_not_declare_is_refused(tmp_path: Path) -> None:
    exp = experiment(tmp_path, [FLAT_BANKER, {"name": "liar", "use": "says-banker-bets-player"}])
    with pytest.raises(
        StrategyError,
        match=r"strategy 'liar' staked on player, which its sides\(\) does not name "
        r"\(banker\)",
    ):
        run_to_folder(exp, tmp_path / "out")
    assert not (tmp_path / "out").exists()
