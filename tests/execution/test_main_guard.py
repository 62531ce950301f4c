"""A run with worker processes from a script's unguarded top level: refused in one line; guarded or interactive, let through."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest

from baccarat.execution.main_guard import _guarded, _is_main_test, check_main_guard


def run_as_main(monkeypatch: pytest.MonkeyPatch, path: Path, text: str, name: str = "__main__") -> None:
    """Run ``text`` as the top-level code of script ``path``, the process's ``__main__``, with ``check`` at hand."""
    path.write_text(text, encoding="utf-8")
    main = types.ModuleType(name)
    main.__file__ = str(path)
    main.__dict__["check"] = check_main_guard
    monkeypatch.setitem(sys.modules, "__main__", main)
    exec(compile(text, str(path), "exec"), vars(main))


def test_an_unguarded_call_with_workers_is_refused_naming_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "script.py"
    with pytest.raises(SystemExit) as stopped:
        run_as_main(monkeypatch, script, "x = 1\n\ncheck(2)\n")
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"baccarat: error: {script}, line 3: baccarat.run(..., workers=2) starts worker processes")
    assert err.count("\n") == 1 and 'if __name__ == "__main__":' in err


def test_a_call_inside_a_function_is_refused_at_the_top_level_line_that_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        run_as_main(monkeypatch, tmp_path / "script.py", "def go():\n    check(3, 'baccarat.search')\n\n\ngo()\n")
    assert ", line 5: baccarat.search(..., workers=3)" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        'if __name__ == "__main__":\n    check(2)\n',
        'if "__main__" == __name__:\n    for _ in range(1):\n        check(2)\n',
        "check(1)\n",  # one worker: no process is started
    ],
)
def test_a_guarded_call_or_one_worker_is_let_through(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_as_main(monkeypatch, tmp_path / "script.py", text)
    assert capsys.readouterr().err == ""


def test_a_script_that_cannot_be_read_again_is_let_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "gone.py"
    main = types.ModuleType("__main__")
    main.__file__ = str(script)  # never written: cannot be parsed
    main.__dict__["check"] = check_main_guard
    monkeypatch.setitem(sys.modules, "__main__", main)
    exec(compile("check(2)\n", str(script), "exec"), vars(main))  # no SystemExit


def test_the_main_test_and_the_guarded_lines() -> None:
    tests = [ast.parse(text, mode="eval").body for text in ('__name__ == "__main__"', '"__main__" == __name__')]
    assert all(_is_main_test(test) for test in tests)
    others = ['__name__ != "__main__"', '__name__ == "main"', "x == '__main__'", '__name__ == "__main__" == y', "flag"]
    assert not any(_is_main_test(ast.parse(text, mode="eval").body) for text in others)
    tree = ast.parse('a = 1\nif __name__ == "__main__":\n    try:\n        b = 2\n    finally:\n        c = 3\nelse:\n    d = 4\n')
    assert [line for line in range(1, 9) if _guarded(tree.body, line)] == [3, 4, 5, 6]
