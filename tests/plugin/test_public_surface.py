"""The plugin API is one explicit surface: its names are listed here, and the built-in plugin uses only it.

Removing or renaming a name of ``baccarat.plugin`` or ``baccarat.plugin.twins`` breaks plugins: it
must go through a deprecation and a CHANGELOG.md entry, and then this list changes with it.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.scripted import play, stakes

import baccarat.plugin
import baccarat.plugin.twins

ROOT = Path(__file__).resolve().parents[2]

PLUGIN_NAMES = sorted(
    "BLUE CENT DERIVED_ROADS EXACT FIXED_SIDES MAX_AMOUNT MAX_COUNT OPPOSITE RED BetDefinition Bets ExactProgression "
    "Dealt ExactSelector ExactStopRule FixedSideSelector Predictor Progression Roads RoundFacts Selector SessionInfo StopLimits StopRule "
    "ChunkFacts Rounds Strategy TableView VectorBets VectorStrategy "
    "bet_evs bet_names bet_odds decimal_to_cents decimal_to_micros did_you_mean ev_exceeds hookimpl "
    "load_rules outcome_chances parse_card parse_outcomes positive_amount positive_int remove_cards roads round_odds shoe_counts".split()
)

TWIN_NAMES = sorted(
    "BANKER BANKER_PAIR BANKROLL DECIDED_IN_SHOE DRAGON7 HAND LAST_DECIDED MICROS_PER_CENT PANDA8 PLAYER PLAYER_PAIR PROFIT "
    "ROUND SESSION SHOE SIDES SIT_OUT STAKE STREAK_LENGTH TABLE_MAX TABLE_MIN TIE VIEW_SIZE ProgressionTwin "
    "SelectorTwin StopRuleTwin cents first_stake keep micros njit random".split()
)


def test_the_public_names_are_the_snapshot() -> None:
    assert sorted(baccarat.plugin.__all__) == PLUGIN_NAMES
    assert sorted(baccarat.plugin.twins.__all__) == TWIN_NAMES


def test_every_public_name_is_a_real_attribute_bound_at_import() -> None:
    # Bound in the module's namespace (what a type checker reads), not made on first use by a module __getattr__.
    assert not hasattr(baccarat.plugin, "__getattr__")
    assert all(name in vars(baccarat.plugin) for name in PLUGIN_NAMES)
    assert all(getattr(baccarat.plugin.twins, name) is not None for name in TWIN_NAMES)


def test_importing_the_plugin_api_loads_no_compiler_and_no_dataframes() -> None:
    code = "import sys, baccarat.plugin, baccarat.plugin.twins; print(sorted({'numba', 'polars'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {name for name in found if name.split(".")[0] == "baccarat"}


PLUGIN_FILES = sorted((ROOT / "strategies" / "baccarat_strategies").glob("*.py")) + [
    ROOT / "docs" / "example-plugin" / "baccarat_example_plugin.py"
]


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: p.name)
def test_the_built_in_and_example_plugins_import_only_the_public_surface(path: Path) -> None:
    assert imported_modules(path) <= {"baccarat", "baccarat.plugin", "baccarat.plugin.twins"}


def test_a_progression_with_params_and_no_init_reads_them_as_attributes(tmp_path: Path) -> None:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "capped.py").write_text(
        """
from baccarat.plugin import Progression, Selector, StopRule, hookimpl


class Capped(Progression):
    name = "capped"
    params = {"cap": 4}

    def restart(self):
        self.stake = self.unit
        self.doublings = 0
        assert self.cap == 4 or self.cap == 2

    def won(self, net):
        self.restart()

    def lost(self, net):
        if self.doublings < self.cap:
            self.stake *= 2
            self.doublings += 1


class Every(Selector):
    name = "every"
    params = {"every_side": "banker"}

    def choose(self, view):
        return self.every_side


class AfterRounds(StopRule):
    name = "after-rounds"
    params = {"after": None}

    def stop(self, view):
        return view.round > self.after


@hookimpl
def register_progressions(register):
    register(Capped)


@hookimpl
def register_selectors(register):
    register(Every)


@hookimpl
def register_stop_rules(register):
    register(AfterRounds)
""",
        encoding="utf-8",
    )
    cols = play("capped", "PPPPBPPP", plugins_dirs=(folder,), side="every", cap=2, after=7)
    assert stakes(cols) == [10, 20, 40, 40, 40, 10, 20, 0]


def test_the_version_is_the_changelogs_newest_and_the_packages() -> None:
    import re
    import tomllib

    import baccarat

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    newest = re.search(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert newest is not None and baccarat.__version__ == declared == newest.group(1)


PYTHON_FENCE = re.compile(r"^```python\n(?P<body>.*?)^```", re.S | re.M)
DOC_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TAUGHT_HOMES = {"baccarat.plugin", "baccarat.plugin.twins"}


def taught_imports() -> list[tuple[str, str, list[str]]]:
    """Every ``from baccarat... import`` of the docs' Python blocks: (page, module, names)."""
    found = []
    for page in DOC_PAGES:
        for block in PYTHON_FENCE.finditer(page.read_text(encoding="utf-8")):
            for node in ast.walk(ast.parse(block.group("body"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "baccarat":
                    found.append((page.name, node.module, [alias.name for alias in node.names]))
    return found


def test_the_docs_teach_plugin_imports_only_from_the_plugin_api() -> None:
    taught = taught_imports()
    assert len(taught) >= 8  # the README's and the docs' plugins, counting and roads examples
    assert [(page, module) for page, module, _ in taught if module not in TAUGHT_HOMES] == []
    for _, module, names in taught:
        home = importlib.import_module(module)
        assert all(name in home.__all__ for name in names), (module, names)
