"""Errors the user can cause: one clear sentence, exit status 2, no traceback.

Every layer raises ``InputError`` (or a subclass) for bad input; the command
line prints ``str(error)`` and exits with status 2.
"""

from __future__ import annotations


class InputError(Exception):
    """A mistake in the user's input: files, experiments, parameters, options."""

    exit_status = 2

    def __init__(self, message: str, *, path: str | None = None,
                 line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        super().__init__(self.render())

    def render(self) -> str:
        """Return the error as ``FILE:LINE:COL: message`` (the parts that are known)."""
        where = [str(p) for p in (self.path, self.line, self.column) if p is not None]
        return ": ".join([":".join(where), self.message]) if where else self.message


class RulesError(InputError):
    """A rule set that cannot be dealt or settled exactly."""


class ShoeError(InputError):
    """A recorded shoe file that is malformed or impossible under the rules."""


class StrategyError(InputError):
    """An unknown strategy or parameter, or a strategy that misbehaved during a run."""


class ParameterError(StrategyError):
    """A strategy parameter that is unknown or has a value the strategy refuses; ``param`` names it."""

    def __init__(self, message: str, *, param: str, **where: object) -> None:
        self.param = param
        super().__init__(message, **where)  # type: ignore[arg-type]


def did_you_mean(name: str, choices: list[str] | tuple[str, ...] | set[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest of ``choices``, or ``""``."""
    import difflib

    close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
