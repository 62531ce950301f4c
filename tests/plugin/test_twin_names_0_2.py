"""Plugins written for 0.2's twin names (``baccarat.plugin.kernels``, ``register_kernels``, ``Compiled*``) keep working in 0.3.

Each old name answers with its new meaning and a ``DeprecationWarning`` naming the new one; a plugin that
implements the old hook is named among the plugin warnings, and its twins are still the ones the compiled path uses.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

import baccarat.plugin.twins as twins
from baccarat.engine.compiled import compiled_path_disabled
from baccarat.plugin.manager import clear_registry, registry

PLUGIN_0_2 = """
from baccarat.plugin import Progression, hookimpl
from baccarat.plugin.kernels import CompiledProgression, STAKE


class Steady(Progression):
    name = "steady-0-2"

    def restart(self):
        self.stake = self.unit

    def won(self, net):
        pass

    def lost(self, net):
        pass


def steady_restart(state, params):
    state[STAKE] = params[0]


@hookimpl
def register_progressions(register):
    register(Steady)


@hookimpl
def register_kernels(register):
    register(Steady, CompiledProgression(restart=steady_restart, params=lambda piece: [int(piece.unit * 100)]))
"""


@pytest.mark.parametrize(
    ("old", "new"), [("CompiledProgression", "ProgressionTwin"), ("CompiledSelector", "SelectorTwin"), ("CompiledStopRule", "StopRuleTwin")]
)
def test_each_0_2_class_name_is_its_new_class_with_a_warning_naming_it(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"use {new}"):
        assert getattr(twins, old) is getattr(twins, new)


def test_the_0_2_module_warns_naming_its_new_import_and_answers_every_name() -> None:
    sys.modules.pop("baccarat.plugin.kernels", None)
    with pytest.warns(DeprecationWarning, match="import from baccarat.plugin.twins"):
        old = importlib.import_module("baccarat.plugin.kernels")
    assert old.CompiledSelector is twins.SelectorTwin and old.SIT_OUT == twins.SIT_OUT and old.STAKE == twins.STAKE


def test_hook_register_kernels(tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "steady.py").write_text(textwrap.dedent(PLUGIN_0_2), encoding="utf-8")
    clear_registry()
    try:
        found = registry([plugins])
        steady = found.entries["progression"]["steady-0-2"].cls
        twin = found.twins().get(steady)
    finally:
        clear_registry()
    assert isinstance(twin, twins.ProgressionTwin)
    hook_notes = [w for w in found.warnings if "'register_kernels', deprecated" in w and "'register_twins'" in w]
    module_notes = [w for w in found.warnings if "baccarat.plugin.kernels is deprecated" in w]
    assert len(hook_notes) == 1 and "steady" in hook_notes[0]
    assert len(module_notes) == 1


@pytest.mark.parametrize("variable", ["BACCARAT_NO_COMPILED_PATH", "BACCARAT_NO_FAST_PATH"])
def test_either_name_of_the_switch_turns_the_compiled_path_off(variable: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_NO_COMPILED_PATH", raising=False)
    monkeypatch.delenv("BACCARAT_NO_FAST_PATH", raising=False)
    assert not compiled_path_disabled()
    monkeypatch.setenv(variable, "1")
    assert compiled_path_disabled()
