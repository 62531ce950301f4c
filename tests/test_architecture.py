"""The layout holds: imports only go downward through the layers, and the framework never imports its plugins.

docs/architecture.md names the layers; this test reads every module of
``framework/baccarat`` and checks each of its imports of the package (at
the top of the module or inside a function alike) against that order.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

FRAMEWORK = Path(__file__).resolve().parents[1] / "framework" / "baccarat"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "money", "streams", "interrupts", "compiling", "files"),
    ("table",),
    ("shoes",),
    ("odds",),
    ("plugin",),
    ("players",),
    ("engine",),
    ("exact",),
    ("results",),
    ("experiment",),
    ("execution",),
    ("api",),
    ("commands",),
    ("strategy", "kernels", "bet_registry", "cards", "rules", "exact_forms", "roads"),  # the 0.1 modules, deprecated aliases
    ("cli", "__main__", "__init__"),
)
"""The layers from the ground up: a module may import from its own layer and those before it."""

RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def modules() -> list[Path]:
    return sorted(FRAMEWORK.rglob("*.py"))


def layer_of(dotted: str) -> str:
    """The layer of ``baccarat.X...``: its first part below the package (the package itself is its ``__init__``)."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every module of the package that ``path`` imports, with the line of the import."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "baccarat":
            if node.module == "baccarat":  # from baccarat import x: the sub-package or module x
                found += [(node.lineno, f"baccarat.{alias.name}") for alias in node.names if alias.name != "__version__"]
            else:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.split(".")[0] == "baccarat"]
    return found


def module_layer(path: Path) -> str:
    parts = path.relative_to(FRAMEWORK).with_suffix("").parts
    return parts[0] if len(parts) > 1 else parts[0]


def test_every_module_belongs_to_a_named_layer() -> None:
    assert {module_layer(path) for path in modules()} <= set(RANK)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(FRAMEWORK)))
def test_imports_only_go_downward(path: Path) -> None:
    mine = RANK[module_layer(path)]
    upward = [
        f"line {line}: {target} ({layer_of(target)})" for line, target in imports_of(path) if RANK.get(layer_of(target), len(LAYERS)) > mine
    ]
    assert upward == [], f"{path.relative_to(FRAMEWORK)} ({module_layer(path)}) imports upward"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(FRAMEWORK)))
def test_the_framework_never_imports_its_plugins(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
    named += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in named if name.split(".")[0] == "baccarat_strategies"]


def test_every_package_says_what_it_holds() -> None:
    for init in FRAMEWORK.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(FRAMEWORK)} has no docstring"


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a table module importing the engine is caught, inside a function too."""
    module = tmp_path / "dealer.py"
    module.write_text("def f():\n    from baccarat.engine.reference import run_strategy\n", encoding="utf-8")
    assert imports_of(module) == [(2, "baccarat.engine.reference")]
    assert RANK[layer_of("baccarat.engine.reference")] > RANK["table"]


def test_the_tree_is_ruff_clean_and_formatted() -> None:
    """The complexity budget (ruff C901, pyproject.toml) and the formatting hold for every file of the project."""
    root = FRAMEWORK.parents[1]
    for args in (["check", "--quiet", "."], ["format", "--check", "--quiet", "."]):
        done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, f"ruff {' '.join(args)}:\n{done.stdout}{done.stderr}"


def test_every_package_of_the_tree_is_installed() -> None:
    """pyproject.toml lists every folder with an ``__init__.py``: a package left out is missing from a wheel (``pip install .``)."""
    import tomllib

    root = FRAMEWORK.parents[1]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = set(setuptools["package-dir"])  # each mapped folder is a package (configs/rules: the presets, data only)
    for name, folder in setuptools["package-dir"].items():
        for init in (root / folder).rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(root / folder).parts]))
    assert set(setuptools["packages"]) == found


RESULTS_LAYERS: tuple[tuple[str, ...], ...] = (
    ("__init__", "ledger", "ledger_checks", "formatting"),
    ("statistics", "patterns"),
    ("comparisons",),
    ("collected",),
    ("charts",),
    ("report",),
)
"""results/ from the ground up: the ledger, its checks and formatting; statistics and patterns; comparisons (which read the
statistics); the statistics of a run put together from its collector; charts; the report."""

RESULTS_RANK = {name: rank for rank, names in enumerate(RESULTS_LAYERS) for name in names}
RESULTS = FRAMEWORK / "results"


def results_part(dotted_or_path: str) -> str:
    """The part of results/ a module belongs to: its first name below ``baccarat.results``."""
    parts = dotted_or_path.split(".")
    return parts[2] if len(parts) > 2 else "__init__"


def dotted(path: Path) -> str:
    parts = path.relative_to(FRAMEWORK.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("path", sorted(RESULTS.rglob("*.py")), ids=lambda p: str(p.relative_to(RESULTS)))
def test_results_imports_only_go_downward_through_its_parts(path: Path) -> None:
    mine = RESULTS_RANK[results_part(dotted(path))]
    targets = [target for _, target in imports_of(path) if target.startswith("baccarat.results")]
    assert [t for t in targets if RESULTS_RANK[results_part(t)] > mine] == []


def test_no_two_modules_of_results_import_each_other() -> None:
    graph = {dotted(path): {t for _, t in imports_of(path)} for path in RESULTS.rglob("*.py")}
    mutual = sorted((a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ()))
    assert mutual == []


CIRCLES_ALLOWED: dict[frozenset[str], str] = {}
"""Module circles kept on purpose (the modules -> why); none today."""


def runtime_imports_of(path: Path, known: set[str]) -> set[str]:
    """The modules of the package that ``path`` imports when it runs (inside functions too; not under ``TYPE_CHECKING``).

    ``from baccarat.x import y`` imports the module ``baccarat.x.y`` when there is one, else ``baccarat.x``;
    ``from baccarat import __version__`` reads the package's version, which imports nothing.
    """
    found: set[str] = set()
    stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            stack += node.orelse
            continue
        stack += ast.iter_child_nodes(node)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "baccarat":
            names = [alias.name for alias in node.names if (node.module, alias.name) != ("baccarat", "__version__")]
            found |= {f"{node.module}.{name}" if f"{node.module}.{name}" in known else node.module for name in names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found & known


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The circles of ``graph`` (module -> the modules it imports): each set of modules that reach one another."""
    reach = {module: set() for module in graph}
    for start in graph:
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            if module not in reach[start]:
                reach[start].add(module)
                todo += graph.get(module, ())
    found = {frozenset(m for m in reach[start] if start in reach[m]) | {start} for start in graph if start in reach[start]}
    return sorted(found, key=sorted)


def test_no_modules_of_the_framework_import_one_another_in_a_circle() -> None:
    """No two modules import each other, directly or through others, even inside functions (``CIRCLES_ALLOWED`` aside)."""
    known = {dotted(path) for path in modules()}
    graph = {dotted(path): runtime_imports_of(path, known) - {dotted(path)} for path in modules()}
    assert [sorted(circle) for circle in circles(graph) if circle not in CIRCLES_ALLOWED] == []


def test_the_circle_check_sees_a_circle_through_an_import_inside_a_function(tmp_path: Path) -> None:
    """The check itself: a pair importing each other (one of them inside a function) and a circle of three are found;
    an import under ``TYPE_CHECKING`` is not one."""
    source = {
        "a": "from baccarat.b import x\n",
        "b": "def f():\n    from baccarat.a import y\n",
        "c": "from baccarat import d\n",
        "d": "import baccarat.e\n",
        "e": "def g():\n    from baccarat.c import z\n",
        "f": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from baccarat.a import y\n",
    }
    for name, text in source.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    known = {f"baccarat.{name}" for name in source}
    graph = {f"baccarat.{name}": runtime_imports_of(tmp_path / f"{name}.py", known) for name in source}
    assert graph["baccarat.f"] == set()
    assert circles(graph) == [frozenset({"baccarat.a", "baccarat.b"}), frozenset({"baccarat.c", "baccarat.d", "baccarat.e"})]
