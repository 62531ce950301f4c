"""``stopped_by`` of sessions.parquet through ``baccarat run``: a plugin's own stop rule, compiled and on the reference."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from baccarat.cli import main
from baccarat.engine.compiled import DISABLE_ENV

PLUGIN = '''
from baccarat import hookimpl
from baccarat.plugin.twins import BANKROLL, StopRuleTwin, micros
from baccarat.plugin import positive_amount, StopRule


class TrailingStop(StopRule):
    """Stop once the bankroll has fallen ``trailing_stop`` below its highest point in the session."""

    name = "trailing_stop"
    params = {"trailing_stop": None}

    def __init__(self, session, trailing_stop=None):
        super().__init__(session)
        self.drop = positive_amount(trailing_stop, "trailing_stop")
        self.high = session.bankroll

    def stop(self, view):
        self.high = max(self.high, view.bankroll)
        return self.high - view.bankroll >= self.drop


def trailing_stop(view, state, params):
    state[0] = max(state[0], view[BANKROLL])
    return state[0] - view[BANKROLL] >= params[0]


@hookimpl
def register_stop_rules(register):
    register(TrailingStop)


@hookimpl
def register_twins(register):
    register(TrailingStop, StopRuleTwin(trailing_stop, lambda rule: [micros(rule.drop)], state_size=1))
'''

EXPERIMENT = """name: trailing
shoes: {seed: 4, count: 80}
session: {bankroll: 500, table_min: 10, table_max: 1000}
strategies:
  - name: martingale
    use: martingale
    params: {side: banker, unit: 10, stop_loss: 70, trailing_stop: 100}
  - name: flat
    use: flat
    params: {side: player, unit: 10}
"""

INITIAL, LIMIT, DROP = Decimal(500), Decimal(70), Decimal(100)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "trailing.py").write_text(PLUGIN)
    (tmp_path / "trailing.yaml").write_text(EXPERIMENT)
    return tmp_path


def expected_stops(ledger: pl.DataFrame) -> dict[int, str | None]:
    """Worked from the ledger alone: Martingale on Banker sits out only once stopped (or ruined); the rule reported is
    the first, in order (stop_loss, then the plugin's trailing_stop), that holds on the bankroll before that round."""
    out: dict[int, str | None] = {}
    for (session,), rows in ledger.filter(pl.col("strategy") == "martingale").sort("round").group_by("session", maintain_order=True):
        before, high, found = INITIAL, INITIAL, None
        for stake, bankroll in zip(rows["stake"], rows["bankroll"], strict=True):
            high = max(high, before)
            holding = [name for name, held in (("stop_loss", INITIAL - before >= LIMIT), ("trailing_stop", high - before >= DROP)) if held]
            if stake == 0:
                assert before >= 10, "not ruined: stop_loss 70 holds long before a bankroll of 500 is gone"
                found = holding[0]  # the round it stopped: some rule holds
                break
            assert not holding  # it bet: no rule held before this round
            before = bankroll
        out[session] = found
    return out


@pytest.mark.slow
def test_a_plugin_stop_rule_is_reported_by_its_name_on_both_engines(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")  # compiled, small as the run is
    assert main(["run", "trailing.yaml", "--plugins-dir", "plugins", "--out", "compiled", "--quiet", "--no-report"]) == 0
    assert "reference engine" not in capsys.readouterr().err  # the plugin's twin passed its check: played compiled
    with monkeypatch.context() as patch:
        patch.setenv(DISABLE_ENV, "1")
        assert main(["run", "trailing.yaml", "--plugins-dir", "plugins", "--out", "reference", "--quiet", "--no-report"]) == 0
    compiled = pl.read_parquet(workdir / "compiled" / "sessions.parquet")
    reference = pl.read_parquet(workdir / "reference" / "sessions.parquet")
    assert compiled.schema["stopped_by"] == pl.String
    assert compiled.equals(reference)
    mine = compiled.filter(pl.col("strategy") == "martingale")
    assert dict(zip(mine["session"], mine["stopped_by"], strict=True)) == expected_stops(
        pl.read_parquet(workdir / "compiled" / "ledger.parquet")
    )
    counts = mine["stopped_by"].value_counts()
    assert set(counts["stopped_by"].to_list()) >= {"stop_loss", "trailing_stop"}
    assert compiled.filter(pl.col("strategy") == "flat")["stopped_by"].null_count() == 80  # no stop rule set
    assert not (compiled["ruined"] & compiled["stopped_by"].is_not_null()).any()


@pytest.mark.slow
def test_baccarat_report_keeps_stopped_by(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "trailing.yaml", "--plugins-dir", "plugins", "--out", "run", "--quiet", "--no-report"]) == 0
    written = pl.read_parquet(workdir / "run" / "sessions.parquet")
    assert written["stopped_by"].null_count() < written.height
    assert main(["report", "run", "--quiet"]) == 0
    assert pl.read_parquet(workdir / "run" / "sessions.parquet").equals(written)
