"""The summary's rebates and expected loss per session and per hour, against the run's own sessions table."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import baccarat
from baccarat.cli import main

EXPERIMENT = """rules: {preset: punto-banco-8, rolling_rebate: 0.01, loss_rebate: 0.1}
shoes: {seed: 1, count: 60}
session: {hands_per_hour: 60}
strategies:
  - name: flat
    use: flat
  - name: martingale
    use: martingale
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> baccarat.api.Result:
    folder = tmp_path_factory.mktemp("rebates")
    (folder / "exp.yaml").write_text(EXPERIMENT)
    return baccarat.run(folder / "exp.yaml", out=folder / "out")


def test_rebates_are_the_rolling_share_of_the_wagers_and_the_loss_share_of_each_losing_session(run) -> None:
    sessions = pl.read_parquet(Path(run.out_dir) / "sessions.parquet")
    for row in run.summary.iter_rows(named=True):
        mine = sessions.filter(pl.col("strategy") == row["strategy"])
        wagered = sum(Fraction(str(w)) for w in mine["wagered"])
        lost = sum(Fraction(str(-n)) for n in mine["net"] if n < 0)
        assert Fraction(str(row["rebates"])) == Fraction(1, 100) * wagered + Fraction(1, 10) * lost
        assert row["rebates"] > 0


def test_expected_loss_per_session_and_per_hour_at_the_tables_pace(run) -> None:
    sessions = pl.read_parquet(Path(run.out_dir) / "sessions.parquet")
    for row in run.summary.iter_rows(named=True):
        mine = sessions.filter(pl.col("strategy") == row["strategy"])
        per_session = (-float(mine["expected_net"].sum()) - float(row["rebates"])) / mine.height
        assert row["expected_loss_per_session"] == pytest.approx(per_session, rel=1e-12)
        hands = mine["rounds_dealt"].sum() / mine.height
        assert row["expected_loss_per_hour"] == pytest.approx(per_session * 60 / hands, rel=1e-12)


def test_without_rebates_the_loss_is_the_expected_net_and_the_pace_its_default(tmp_path: Path) -> None:
    result = baccarat.run({"shoes": {"seed": 2, "count": 20}, "strategies": [{"use": "flat"}]})
    row = result.summary.row(0, named=True)
    assert row["rebates"] == Decimal(0)
    assert row["expected_loss_per_session"] == pytest.approx(-row["expected_net"] / 20, rel=1e-12)
    hands = result.sessions["rounds_dealt"].sum() / 20
    assert row["expected_loss_per_hour"] == pytest.approx(row["expected_loss_per_session"] * 72 / hands, rel=1e-12)


def test_a_reloaded_run_gives_the_same_rebates(run) -> None:
    again = baccarat.load(run.out_dir)
    columns = ["strategy", "rebates", "expected_loss_per_session", "expected_loss_per_hour"]
    assert again.summary.select(columns).equals(run.summary.select(columns))


@pytest.mark.parametrize(
    ("value", "said"),
    [("0", "0"), ("-72", "-72"), (".nan", "nan"), (".inf", "inf"), ("10001", "10001"), ("yes", "true"), ("fast", "'fast'")],
)
def test_a_bad_pace_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, said: str) -> None:
    (tmp_path / "exp.yaml").write_text(f"session: {{hands_per_hour: {value}}}\nstrategies:\n  - use: flat\n")
    assert main(["run", str(tmp_path / "exp.yaml"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    rule = "more than 0 and at most 10,000, such as 72 or 72.5"  # the words of `plan --hands-per-hour` (tests/commands)
    assert f"exp.yaml:1:27: session.hands_per_hour must be {rule}, not {said}" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_pace_with_decimals_gives_the_loss_per_hour_at_that_pace(tmp_path: Path) -> None:
    (tmp_path / "exp.yaml").write_text(EXPERIMENT.replace("hands_per_hour: 60", "hands_per_hour: 72.5"))
    result = baccarat.run(tmp_path / "exp.yaml", out=tmp_path / "out")
    for row in result.summary.iter_rows(named=True):
        mine = result.sessions.filter(pl.col("strategy") == row["strategy"])
        hands = mine["rounds_dealt"].sum() / mine.height
        assert row["expected_loss_per_hour"] == pytest.approx(row["expected_loss_per_session"] * 72.5 / hands, rel=1e-12)
    assert "hands_per_hour: 72.5" in (tmp_path / "out" / "experiment.yaml").read_text(encoding="utf-8")
