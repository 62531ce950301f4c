"""``baccarat run --json``, the manifest and the report say which engine played each strategy, and why.

A large bankroll no longer falls silently to the reference.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.one_bet_plugin import PLUGIN

pytestmark = pytest.mark.slow  # runs of the real command, in processes of their own


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
    assert engines["mine"] == "reference: a plugin's code, played in player processes"
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["engines"] == engines
    assert said_in_report(tmp_path / "out") == engines


def said_in_report(out: Path) -> dict[str, str]:
    """The engines the report's run facts state: its row ``Engines``, ``label: engine`` by strategy."""
    page = (out / "report.html").read_text(encoding="utf-8")
    row = page.split('<td class="label">Engines</td><td class="label">', 1)[1].split("</td>", 1)[0]
    return dict(part.split(": ", 1) for part in html.unescape(row).split("; "))


def test_the_compiled_path_turned_off_is_the_reason_given(tmp_path: Path) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mine.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT.replace("count: 300", "count: 20"))
    command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet", "--json"]
    env = {**os.environ, "BACCARAT_COMPILED_FROM": "0", "BACCARAT_NO_COMPILED_PATH": "1"}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    engines = json.loads(done.stdout)["engines"]
    off = "reference: BACCARAT_NO_COMPILED_PATH turns the compiled path off"
    assert engines == {
        **dict.fromkeys(("flat", "martingale", "paroli", "follow"), off),
        "mine": "reference: a plugin's code, played in player processes",
    }
    assert said_in_report(tmp_path / "out") == engines
    rebuilt = subprocess.run([sys.executable, "-m", "baccarat", "report", "out"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert said_in_report(tmp_path / "out") == engines  # a report rebuilt later says the same, from the manifest
