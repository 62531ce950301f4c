"""Every package's docstring is a true map of what it holds: it names each of its modules and sub-packages, and
every module it points at (``:mod:`...```) exists."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "framework" / "baccarat"
INITS = sorted(PACKAGE.rglob("__init__.py"))


def docstring(init: Path) -> str:
    return ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""


def held(package: Path) -> list[str]:
    modules = [p.stem for p in package.glob("*.py") if p.stem != "__init__"]
    return sorted(modules + [p.name for p in package.iterdir() if (p / "__init__.py").exists()])


@pytest.mark.parametrize("init", INITS, ids=[str(i.parent.relative_to(PACKAGE.parent)) for i in INITS])
def test_the_package_docstring_names_every_module_it_holds(init: Path) -> None:
    text = docstring(init)
    assert [name for name in held(init.parent) if not re.search(rf"\b{re.escape(name)}\b", text)] == []


@pytest.mark.parametrize("init", INITS, ids=[str(i.parent.relative_to(PACKAGE.parent)) for i in INITS])
def test_every_module_the_package_docstring_points_at_exists(init: Path) -> None:
    pointed = re.findall(r":mod:`~?(baccarat[\w.]*)`", docstring(init))
    assert [name for name in pointed if importlib.util.find_spec(name) is None] == []


def test_the_maps_cover_the_whole_package() -> None:
    assert len(INITS) >= 15 and sum(len(held(i.parent)) for i in INITS) > 120
