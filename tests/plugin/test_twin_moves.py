"""A plugin developed in a plugins folder, then installed as a package (and back), keeps its compiled twin.

numba caches a twin's machine code beside the plugin's file, and that code names the module it was compiled
in: ``baccarat_plugin_<name>`` for a file of a plugins folder, ``<name>`` once installed. The file stays where
it is (as ``pip install -e`` leaves it), so the cache left by the folder's runs is found by the installed
plugin's: the twin must compile again instead of falling back to the reference engine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

PLUGIN = """
from baccarat.plugin import Progression, hookimpl
from baccarat.plugin.twins import STAKE, ProgressionTwin


class PlusOne(Progression):
    name = "plus-one"

    def lost(self, net):
        self.stake += self.unit

    def won(self, net):
        self.restart()


def lost(state, params, net):
    state[STAKE] += params[0]


def won(state, params, net):
    state[STAKE] = params[0]


@hookimpl
def register_progressions(register):
    register(PlusOne)


@hookimpl
def register_twins(register):
    register(PlusOne, ProgressionTwin(won=won, lost=lost))
"""

EXPERIMENT = "shoes: {seed: 5, count: 60}\nstrategies:\n  - {use: plus-one, params: {side: banker, unit: 10}}\n"


def run(tmp_path: Path, out: str, *options: str, installed: bool = False) -> str:
    env = {**os.environ, "BACCARAT_COMPILED_FROM": "0"}  # compiled however small the run
    if installed:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path / "plugins"), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--quiet", "--workers", "1", "--out", out, *options]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stderr


def install(folder: Path) -> None:
    """Make ``my_twin.py`` of ``folder`` an installed distribution with a ``baccarat`` entry point, where it stands."""
    info = folder / "my_twin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-twin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[baccarat]\nmy_twin = my_twin\n", encoding="utf-8")


@pytest.mark.slow
def test_a_twin_compiled_from_a_plugins_folder_still_runs_compiled_once_installed(tmp_path: Path) -> None:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "my_twin.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "exp.yaml").write_text(EXPERIMENT, encoding="utf-8")

    assert "reference engine" not in run(tmp_path, "from-folder", "--plugins-dir", "plugins")
    assert list((folder / "__pycache__").glob("my_twin.*.nbi"))  # the folder's run cached the twin beside the file

    install(folder)
    assert "reference engine" not in run(tmp_path, "installed", installed=True)
    (folder / "my_twin-0.1.dist-info" / "entry_points.txt").unlink()  # and back to a plugins folder
    assert "reference engine" not in run(tmp_path, "folder-again", "--plugins-dir", "plugins")

    ledgers = [pl.read_parquet(tmp_path / out / "ledger.parquet") for out in ("from-folder", "installed", "folder-again")]
    assert ledgers[0].height > 1000 and ledgers[0]["stake"].max() > 10
    assert ledgers[0].equals(ledgers[1]) and ledgers[0].equals(ledgers[2])
