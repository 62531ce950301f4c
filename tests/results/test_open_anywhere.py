"""A run folder opens anywhere: report, compare and load need no plugin that played it; its experiment names no absolute path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import baccarat
from baccarat.cli import main

PLUGIN = """
from baccarat import hookimpl
from baccarat.plugin import Selector


class Alternate(Selector):
    name = "alternate-anywhere"

    def choose(self, view):
        return "banker" if view.round % 2 else "player"


@hookimpl
def register_selectors(register):
    register(Alternate)
"""

EXPERIMENT = """name: anywhere
shoes: {seed: 3, count: 12}
session: {bankroll: 1000, table_min: 5, table_max: 1000, shoes_per_session: 1}
strategies:
  - name: flat banker
    use: flat
    params: {side: banker, unit: 10}
  - name: martingale alternate
    use: martingale
    params: {side: alternate-anywhere, unit: 10}
"""


@pytest.mark.slow
def test_a_run_played_with_a_plugin_reports_and_compares_without_it(tmp_path: Path, capsys) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "alternate_anywhere.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    for out in ("a", "b"):
        args = ["run", str(tmp_path / "exp.yaml"), "--plugins-dir", str(tmp_path / "plugins"), "--out", str(tmp_path / out), "--quiet"]
        assert main(args) == 0
    recorded = yaml.safe_load((tmp_path / "a" / "experiment.yaml").read_text())
    assert recorded["plugins_dir"] == ["plugins"]  # relative to the experiment file, as the user would write it
    shutil.rmtree(tmp_path / "plugins")
    capsys.readouterr()
    assert main(["report", str(tmp_path / "a")]) == 0
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    shown = capsys.readouterr().out
    assert "a: martingale alternate" in shown and "b: martingale alternate" in shown
    assert baccarat.load(tmp_path / "a").summary.get_column("strategy").to_list() == ["flat banker", "martingale alternate"]
    # Replaying needs the plugin: the message says which folder and how to give it.
    assert main(["run", str(tmp_path / "exp.yaml"), "--out", str(tmp_path / "c")]) == 2
    said = capsys.readouterr().err
    assert "unknown side 'alternate-anywhere'" in said and "--plugins-dir FOLDER" in said


@pytest.mark.slow
@pytest.mark.parametrize("written", ["plugins", "./plugins"])
def test_plugins_dir_is_recorded_as_written(tmp_path: Path, written: str) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "alternate_anywhere.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(f"plugins_dir: {written}\n{EXPERIMENT}")
    assert main(["run", str(tmp_path / "exp.yaml"), "--out", str(tmp_path / "run"), "--quiet"]) == 0
    assert yaml.safe_load((tmp_path / "run" / "experiment.yaml").read_text())["plugins_dir"] == [written]


BET_PLUGIN = """
from fractions import Fraction

from baccarat.plugin import BetDefinition, hookimpl

TIE_ON_SIX = BetDefinition(
    name="tie_on_6_anywhere",
    label="Tie on 6",
    needs=frozenset({"totals"}),
    pays={"win": Fraction(35)},
    wins=lambda r: {"win": r.tie & (r.player_total == 6)},
    pushes=None,
    description="the hands tie on 6",
)


@hookimpl
def register_bets(register):
    register(TIE_ON_SIX)
"""


@pytest.mark.slow
def test_a_run_on_a_plugin_bet_loads_without_it(tmp_path: Path) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "tie_on_six_anywhere.py").write_text(BET_PLUGIN)
    (tmp_path / "exp.yaml").write_text(
        "name: bet\nplugins_dir: plugins\nrules: {preset: punto-banco-8, side_bets: {tie_on_6_anywhere: '35:1'}}\n"
        "shoes: {seed: 3, count: 6}\nsession: {bankroll: 1000, table_min: 5, table_max: 1000}\n"
        "strategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
        "  - name: tie on six\n    use: flat\n    params: {side: tie_on_6_anywhere, unit: 5}\n"
    )
    assert main(["run", str(tmp_path / "exp.yaml"), "--out", str(tmp_path / "run"), "--quiet"]) == 0
    expected = baccarat.load(tmp_path / "run").summary
    shutil.rmtree(tmp_path / "plugins")
    assert baccarat.load(tmp_path / "run").summary.equals(expected)
    # In a fresh process, where the plugin's bet was never registered:
    shown = subprocess.run([sys.executable, "-m", "baccarat", "report", str(tmp_path / "run")], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert "tie on six" in shown.stdout
