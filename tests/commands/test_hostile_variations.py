"""More ways a plugin's bug could reach another strategy's numbers or a user's files, through the real command line.

Variations on the cases of test_hostile_plugins.py, by other paths: the
rules reached through ``session.rules`` in a strategy's ``__init__`` (not
``view.rules`` while it plays), ...
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REWRITER = """
from fractions import Fraction

from baccarat.plugin import Selector, hookimpl


class Rewriter(Selector):
    \"\"\"Banker; when made, it sets the commission to 0 through session.rules (a bug: it meant a copy).\"\"\"

    name = "rewriter"

    def __init__(self, session, **params):
        super().__init__(session, **params)
        object.__setattr__(session.rules, "commission", Fraction(0))
        session.rules.side_bets["dragon7"] = Fraction(100)

    def choose(self, view):
        return "banker"


@hookimpl
def register_selectors(register):
    register(Rewriter)
"""


def baccarat(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baccarat", *args], cwd=folder, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )


@pytest.mark.slow
def test_a_strategy_changing_session_rules_when_made_changes_no_one_s_numbers(tmp_path: Path) -> None:
    """It was made once before the run with the experiment's own rules: every strategy then settled without
    commission (flat Banker on 200 shoes: -675.00 became +3,030.00) and experiment.yaml said ``commission: 0``.

    A strategy is now made in a player process: what it changes there is its own copy. The dealer settles every
    bet by the experiment's rules, so the rewriter's Banker bets pay as flat Banker's, and flat Banker's numbers
    are those of a run without the rewriter."""
    import polars as pl

    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "rewriter.py").write_text(REWRITER)
    banker = "  - {name: banker, use: flat, params: {side: banker, unit: 10}}\n"
    (tmp_path / "exp.yaml").write_text(
        "shoes: {seed: 3, count: 40}\nstrategies:\n  - {name: r, use: flat, params: {side: rewriter, unit: 10}}\n" + banker
    )
    (tmp_path / "alone.yaml").write_text("shoes: {seed: 3, count: 40}\nstrategies:\n" + banker)
    done = baccarat(tmp_path, "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet")
    assert done.returncode == 0, done.stderr
    assert baccarat(tmp_path, "run", "alone.yaml", "--out", "alone", "--quiet").returncode == 0
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    alone = pl.read_parquet(tmp_path / "alone" / "ledger.parquet")
    nets = {label: ledger.filter(pl.col("strategy") == label)["net"].to_list() for label in ("r", "banker")}
    assert nets["banker"] == alone["net"].to_list() == nets["r"]
    wins = {net for net in nets["banker"] if net > 0}
    assert {float(net) for net in wins} == {9.5}  # the commission still taken on every Banker win
    assert "commission: 0" not in (tmp_path / "out" / "experiment.yaml").read_text()


@pytest.mark.slow
def test_the_temporary_file_of_a_killed_command_is_removed_by_the_next_one_into_the_same_file(tmp_path: Path) -> None:
    """``kill -9`` of ``shoes generate`` (or ``roads``) left its ``.NAME.XXXXXXXX.tmp`` beside the file for good."""
    generate = [sys.executable, "-m", "baccarat", "shoes", "generate", "--rules", "punto-banco-8", "--seed", "1", "--out", "s.csv"]
    process = subprocess.Popen(
        [*generate, "--count", "1000000", "--quiet"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while not [p for p in tmp_path.glob(".s.csv.*") if p.stat().st_size > 0]:  # writing
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.02)
    finally:
        process.kill()
        process.wait()
    (left,) = tmp_path.glob(".s.csv.*")
    live = tmp_path / f".s.csv.{os.getpid()}-abcdefgh.tmp"  # a command still writing (this process runs)
    live.write_text("mine")
    other = tmp_path / ".s.csv.notes"
    other.write_text("mine")
    done = baccarat(tmp_path, "shoes", "generate", "--rules", "punto-banco-8", "--seed", "1", "--out", "s.csv", "--count", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert not left.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name, "s.csv"])


MOVER = """
import os

from baccarat.plugin import Selector, hookimpl

ELSEWHERE = os.path.abspath("elsewhere")


class Mover(Selector):
    \"\"\"Banker; from shoe 2 it moves the working folder as it plays (a bug: it meant to read a file there).\"\"\"

    name = "mover"

    def choose(self, view):
        if view.shoe >= 2:
            os.chdir(ELSEWHERE)
        return "banker"


@hookimpl
def register_selectors(register):
    register(Mover)
"""


@pytest.mark.slow
def test_a_strategy_moving_the_working_folder_as_it_plays_moves_no_output(tmp_path: Path) -> None:
    """The run's files are named relative to the working folder: the run ended "cannot write the results: No such file
    or directory; nothing was left behind", and left its temporary folder behind."""
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mover.py").write_text(MOVER)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "exp.yaml").write_text(
        "shoes: {seed: 3, count: 30}\nstrategies:\n  - {name: m, use: flat, params: {side: mover, unit: 10}}\n"
    )
    done = baccarat(tmp_path, "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("-> out")
    assert (tmp_path / "out" / "summary.csv").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "exp.yaml", "out", "plugins"]
    assert list((tmp_path / "elsewhere").iterdir()) == []


FAILING_EXIT = """
import atexit
import sys


def bye():
    raise RuntimeError("cleanup failed")


def leave():
    sys.exit(5)


atexit.register(bye)
atexit.register(leave)
"""


def test_a_plugins_exit_handler_that_raises_is_one_line_naming_it_and_changes_no_status(tmp_path: Path) -> None:
    """Python printed "Exception ignored in atexit callback" and a traceback after the command's output."""
    (tmp_path / "plugins").mkdir()
    plugin = tmp_path / "plugins" / "farewell.py"
    plugin.write_text(FAILING_EXIT)
    done = baccarat(tmp_path, "strategies", "--plugins-dir", "plugins", "--json")
    assert done.returncode == 0, done.stderr
    assert "flat" in done.stdout
    assert done.stderr.splitlines() == [  # the handlers run last registered first
        f"baccarat: warning: the exit handler leave raised SystemExit: 5 at {plugin}:11; the command had finished its work",
        f"baccarat: warning: the exit handler bye raised RuntimeError: cleanup failed at {plugin}:7; the command had finished its work",
    ]
