"""Errors the command line reports as one clear sentence, without a traceback.

Every layer raises ``InputError`` (or a subclass) for bad input: the command
line prints ``str(error)`` and exits with status 2. ``OutputError`` is a
result that could not be written (a folder that cannot be made or written
to, a full disk): exit status 1, and nothing half-written is left behind.
"""

from __future__ import annotations

import errno
import os
import sys
import traceback
from collections.abc import Iterable, Sequence
from typing import Any


class BaccaratError(Exception):
    """An error the command line reports as ``baccarat: error: MESSAGE`` and exits with ``exit_status``."""

    exit_status = 1

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        super().__init__(self.render())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle with every field, so that an error raised in a worker process arrives whole."""
        return _rebuild, (type(self), self.__dict__.copy())

    def render(self) -> str:
        """Return the error as ``FILE:LINE:COL: message`` (the parts that are known)."""
        where = [str(p) for p in (self.path, self.line, self.column) if p is not None]
        return ": ".join([":".join(where), self.message]) if where else self.message


def _rebuild(cls: type[BaccaratError], fields: dict[str, Any]) -> BaccaratError:
    error = cls.__new__(cls)
    error.__dict__.update(fields)
    Exception.__init__(error, error.render())
    return error


class InputError(BaccaratError):
    """A mistake in the user's input: files, experiments, parameters, options."""

    exit_status = 2


class ExperimentError(InputError):
    """An experiment given to the Python API as a mapping that no experiment file could hold (a generator, an integer key)."""


class OutputError(BaccaratError):
    """Results that could not be written: the folder cannot be made or written to, or the disk is full."""

    exit_status = 1

    @classmethod
    def from_os_error(cls, exc: OSError, path: str | os.PathLike[str], what: str = "the results", after: str = "") -> OutputError:
        """Return the error of writing ``what`` to ``path`` that failed with ``exc``; ``after`` ends the sentence."""
        return cls(f"cannot write {what}: {os_reason(exc)}{after}", path=str(path))


class StdoutError(OutputError):
    """The command's standard output that cannot be written (a full device, an I/O error): exit status 1."""


def os_reason(exc: OSError) -> str:
    """Return why the operating system refused, in words (``No space left on device (the disk is full)``)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason += " (the disk is full)"
    elif exc.errno == errno.EFBIG:
        reason += " (larger than this system allows a file to be)"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason += " (the folder cannot be written to)"
    return reason


class RunFailure(BaccaratError):
    """A run that could not finish for a reason outside its input (a worker process died): exit status 1."""

    exit_status = 1


class ReportedRunFailure(RunFailure):
    """A run failure already reported on standard error by the process it ended (a worker a strategy's twin crashed).

    The command line adds no line of its own and exits with status 1.
    """


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


_FRAMEWORK = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _plugin_frames(exc: BaseException, homes: Sequence[str]) -> list[traceback.FrameSummary]:
    """The frames of ``exc``'s traceback from the first one outside the framework; those in ``homes`` when any are."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    outside = [f for f in frames if not os.path.abspath(f.filename).startswith(_FRAMEWORK)]
    mine = [f for f in outside if any(os.path.abspath(f.filename).startswith(home) for home in homes)]
    return mine or outside


def raised_at(exc: BaseException, homes: Sequence[str] = ()) -> str:
    """Return `` at FILE:LINE``, the innermost line of a plugin's code in ``exc``'s traceback, or "" when there is none.

    ``homes`` are the plugin's files and package folders (:func:`code_homes`);
    without them, the innermost line outside the framework is named.
    """
    frames = _plugin_frames(exc, homes)
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""


def plugin_traceback(exc: BaseException) -> str:
    """Return ``exc``'s traceback from the first frame outside the framework (what ``--debug`` shows)."""
    shown = traceback.TracebackException.from_exception(exc)
    frames = list(shown.stack)
    first = next((i for i, f in enumerate(frames) if not os.path.abspath(f.filename).startswith(_FRAMEWORK)), 0)
    shown.stack = traceback.StackSummary.from_list(frames[first:])
    return "".join(shown.format())


def code_homes(classes: Iterable[type]) -> list[str]:
    """Return the files (loose modules) and package folders the code of ``classes`` and their bases lives in."""
    homes = []
    for cls in classes:
        for base in getattr(cls, "__mro__", ()):
            module = sys.modules.get(base.__module__.split(".")[0])
            path = getattr(module, "__file__", None)
            if not path or os.path.abspath(path).startswith(_FRAMEWORK):
                continue
            path = os.path.abspath(path)
            homes.append(os.path.dirname(path) + os.sep if hasattr(module, "__path__") else path)
    return homes
