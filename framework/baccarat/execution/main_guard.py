"""A run with worker processes started by a script's top-level code outside ``if __name__ == "__main__":``.

Worker processes are spawned: each imports the user's script again, so a
script that calls ``baccarat.run(..., workers=2)`` at its top level, outside
``if __name__ == "__main__":``, would start the run again in every worker
(multiprocessing refuses, and the run ends in a cascade of tracebacks).
:func:`check_main_guard` finds that case before any process starts and says
in one line what to add.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import FrameType


def check_main_guard(workers: int, what: str = "baccarat.run") -> None:
    """Exit with one line (status 2) when ``what`` with ``workers`` > 1 is called from a script's unguarded top level.

    Called where a run with worker processes starts (:func:`baccarat.api.run`).
    A call from an interactive session, ``python -c``, a notebook or any code
    whose script cannot be read is let through.
    """
    if workers <= 1:
        return
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return
    top = _top_level_frame(sys._getframe(1), vars(main))
    if top is None:
        return
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return
    if not _guarded(tree.body, top.f_lineno):
        sys.stderr.write(
            f"baccarat: error: {path}, line {top.f_lineno}: {what}(..., workers={workers}) starts worker processes, "
            'which import this script again: put the call under `if __name__ == "__main__":`\n'
        )
        raise SystemExit(2)


def _top_level_frame(frame: FrameType | None, main_globals: dict[str, object]) -> FrameType | None:
    """The outermost frame running the main script's top-level code, or None."""
    found = None
    while frame is not None:
        if frame.f_globals is main_globals and frame.f_code.co_name == "<module>":
            found = frame
        frame = frame.f_back
    return found


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [side.id for side in sides if isinstance(side, ast.Name)]
    values = [side.value for side in sides if isinstance(side, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def _guarded(body: list[ast.stmt], line: int) -> bool:
    """Whether ``line`` of the module lies under an ``if __name__ == "__main__":`` among ``body`` (at any depth)."""
    for statement in body:
        end = statement.end_lineno or statement.lineno
        if not statement.lineno <= line <= end:
            continue
        if isinstance(statement, ast.If) and _is_main_test(statement.test):
            return any(child.lineno <= line <= (child.end_lineno or child.lineno) for child in statement.body)
        nested = [getattr(statement, field, []) for field in ("body", "orelse", "finalbody", "handlers")]
        return any(_guarded([s for s in block if isinstance(s, ast.stmt)], line) for block in nested if isinstance(block, list))
    return False
