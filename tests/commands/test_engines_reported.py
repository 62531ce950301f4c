"""``baccarat run --json`` says which engine played each strategy, and why; a large bankroll no longer falls silently to the reference."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs of the real command, in processes of their own

PLUGIN = """
from baccarat.plugin import Strategy, hookimpl


class Mine(Strategy):
    name = "mine"

    def bets(self, view):
        return {"banker": 10}


@hookimpl
def register_strategies(register):
    register(Mine)
"""

EXPERIMENT = """name: engines
shoes: {seed: 5, count: 300}
session: {bankroll: 10000000, table_max: 1000}
strategies:
  - {name: flat, use: flat, params: {side: banker, unit: 10}}
  - {name: martingale, use: martingale, params: {side: banker, unit: 10}}
  - {name: paroli, use: paroli, params: {side: banker, unit: 10}}
  - {name: follow, use: flat, params: {side: follow-last, unit: 10}}
  - {name: mine, use: mine}
"""


def test_json_names_the_engine_of_every_strategy_and_a_large_bankroll_plays_compiled(tmp_path: Path) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mine.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet", "--json"]
    done = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=600, env={**os.environ, "BACCARAT_COMPILED_FROM": "0"}
    )
    assert done.returncode == 0, done.stderr
    engines = json.loads(done.stdout)["engines"]
    # Four built-in strategies with a bankroll of 10,000,000: each session is bounded by its own length, so all stay compiled.
    assert {label: engines[label] for label in ("flat", "martingale", "paroli", "follow")} == dict.fromkeys(
        ("flat", "martingale", "paroli", "follow"), "compiled"
    )
    assert engines["mine"] == "reference, in player processes (a plugin's strategy)"
