"""The ``baccarat`` command: argument parsing and error reporting.

Each subcommand lives in ``baccarat.commands.<name>`` with ``add_parser`` and
``run``; modules are imported only when needed, so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from baccarat.errors import StdoutError, os_reason

COMMANDS: tuple[tuple[str, str], ...] = (
    ("run", "run an experiment file and write its results"),
    ("strategies", "list every strategy, progression, selector and stop rule the plugins provide"),
    ("roads", "draw one shoe's scoreboard roads (bead plate, big road, derived roads)"),
    ("shoes", "write seeded shoes to a file, or check a recorded shoe file"),
    ("report", "rebuild the summary, plots and report of a saved run"),
    ("compare", "saved runs' summaries side by side, paired when they played the very same rounds"),
    ("trace", "play one session of one strategy and print it round by round, with the strategy's state"),
    ("odds", "exact probabilities and house edges of every bet, for any rules and remaining cards"),
    ("exact", "exact risk of ruin and result distribution of each strategy's session, without simulation"),
    ("plan", "which strategy lasts longest, and what bankroll a target risk of ruin needs: exact figures per strategy"),
    ("predict", "score predictors of the next round (roads, streaks, off the top) against the exact odds of the cards left"),
    ("search", "search a grid of strategies on training shoes, the best on fresh shoes, beside the luck of a null search"),
    ("patterns", "test the patterns players read in shoes (streaks, chops, roads) against fairly shuffled shoes"),
)
"""(name, one-line help) of each subcommand, in the order ``--help`` shows them."""

DEBUG_ENV = "BACCARAT_DEBUG"
"""Environment variable: set to 1 to show a plugin's own traceback with its error, as ``--debug`` does."""

_DEBUG_HELP = f"with an error raised in a plugin's code, also print the plugin's traceback (or set {DEBUG_ENV}=1)"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error of the command (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        """Print ``PROG: error: MESSAGE (see PROG --help)`` and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> object:
        """Refuse an empty value given to an option (``--out ''``, ``--set ''``) instead of taking it as not given."""
        if action.option_strings and any(isinstance(s, str) and not s.strip() for s in arg_strings):
            self.error(f"argument {'/'.join(action.option_strings)}: the value is empty; give one or leave the option out")
        return super()._get_values(action, arg_strings)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand."""
    from baccarat import __version__

    parser = Parser(prog="baccarat", description="Backtest betting strategies at Punto Banco baccarat.")
    parser.add_argument("--version", action="version", version=f"baccarat {__version__}")
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS:
        module = importlib.import_module(f"baccarat.commands.{name}")
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_parser(command)
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)
    return parser


def debugging(args: argparse.Namespace | None) -> bool:
    """Whether ``--debug`` was given or ``BACCARAT_DEBUG`` is set (to anything but 0)."""
    return bool(getattr(args, "debug", False)) or os.environ.get(DEBUG_ENV, "0").strip() not in ("", "0")


def main(argv: Sequence[str] | None = None, *, ending: bool = False) -> int:
    """Run the command line; return the exit status.

    0 on success; 2 for bad input and 1 for results that could not be
    written (standard output included: a full device), each with one line on
    stderr; 128 + the signal's number when stopped by Ctrl-C (130), SIGTERM
    (143) or SIGHUP (129), after cleaning up. A closed standard output is
    refused before any work (status 2). With ``--json``, standard output
    holds the JSON alone (:func:`baccarat.commands.json_output`; ``ending``:
    the process ends when this returns, so it stays held).
    """
    from baccarat import interrupts
    from baccarat.commands import json_output
    from baccarat.errors import BaccaratError, ReportedRunFailure
    from baccarat.execution import memorylimit

    if sys.stdout is None:
        _say("baccarat: error: standard output is closed; send it somewhere (for example > /dev/null)")
        return 2
    memorylimit.fit_address_space_limit()  # before pyarrow and polars load
    args = None
    try:
        with interrupts.stop_on_signals(), warnings.catch_warnings():
            warnings.showwarning = _show_warning
            parser = build_parser()
            args = parser.parse_args(argv)
            if args.command is None:  # a bare `baccarat`: what it can do
                parser.print_help()
                return 0
            module = importlib.import_module(f"baccarat.commands.{args.command}")
            with json_output(keep=ending) if getattr(args, "json", False) else contextlib.nullcontext():
                status = int(module.run(args) or 0)
            sys.stdout.flush()
            return status
    except ReportedRunFailure as exc:  # its process said it already, in one line
        return exc.exit_status
    except BaccaratError as exc:
        if isinstance(exc, StdoutError):
            _silence_stdout()  # what is still in its buffer cannot be written either
        detail = getattr(exc, "detail", None)
        if detail and debugging(args):
            _say(detail.rstrip("\n"))
        _say(f"baccarat: error: {exc}{_why_unknown(exc)}")
        return exc.exit_status
    except KeyboardInterrupt as exc:
        _say(f"baccarat: {interrupts.describe(exc)}")
        return interrupts.exit_status(exc)
    except BrokenPipeError:  # the reader of our output went away (`baccarat strategies | head`)
        _silence_stdout()
        return 1
    except (MemoryError, RuntimeError, ImportError) as exc:  # out of memory, or of address space for a stack or a library
        if not memorylimit.ran_out(exc):
            raise
        print(f"baccarat: error: {memorylimit.describe(_memory_remedy(args))}", file=sys.stderr)
        return 1


def _memory_remedy(args: argparse.Namespace | None) -> str:
    """What the command that ran out of memory can change: its module's ``MEMORY_REMEDY``, else to allow more memory."""
    from baccarat.execution.memorylimit import REMEDY

    command = getattr(args, "command", None)
    module = sys.modules.get(f"baccarat.commands.{command}") if command else None
    return getattr(module, "MEMORY_REMEDY", REMEDY)


def _why_unknown(exc: Exception) -> str:
    """For an error about an unknown name (strategy, side, bet), the plugin left out that may have registered it."""
    if "unknown " not in str(exc) or "baccarat.plugin.manager" not in sys.modules:
        return ""
    from baccarat.plugin.manager import left_out

    said = left_out()
    if not said:
        return ""
    more = f" (and {len(said) - 1} more plugin warning{'s' if len(said) > 2 else ''})" if len(said) > 1 else ""
    return f"; note that {said[0]}{more}"


def console() -> NoReturn:
    """Entry point of the ``baccarat`` command: :func:`main`, then a quick exit.

    Once the command is done and its output flushed, the exit handlers run
    (Ray's shutdown among them) and the process ends without tearing the
    interpreter down module by module: with polars, numba and pyarrow
    loaded that teardown alone takes a good part of a second, and it writes
    nothing.
    """
    _guard_standard_streams()
    if sys.stdout is not None:
        sys.stdout = _Stdout(sys.stdout)
    try:
        status = main(ending=True)
    except SystemExit as exc:  # --help and --version end through argparse; their output is flushed below
        status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    exit_now(status)


def exit_now(status: int) -> NoReturn:
    """Flush the output, run the exit handlers, and end the process with ``status``.

    Threads still running are not waited for: the command started none that
    must finish, and one a plugin started (not a daemon) must not keep the
    process alive once the work is done.
    """
    import atexit

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # the reader went away, as `main` reports it: status 1, no message
            _silence_stdout()
            status = status or 1
        except (OSError, ValueError):
            pass
        except StdoutError as exc:  # a full device: the one line `main` gives
            _silence_stdout()
            _say(f"baccarat: error: {exc}")
            status = status or 1
    _output_complete()
    sys.unraisablehook = _exit_handler_failed
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError, StdoutError):
            pass
    os._exit(status)


def _exit_handler_failed(unraisable: Any) -> None:
    """Say in one line that an exit handler (a plugin's ``atexit`` function, say) raised: its name, file and line.

    The command's work is done and its status stands; ``BACCARAT_DEBUG=1``
    also prints the handler's traceback.
    """
    import traceback

    exc = unraisable.exc_value
    handler = unraisable.object
    name = getattr(handler, "__qualname__", None) or repr(handler)
    frames = traceback.extract_tb(unraisable.exc_traceback) if unraisable.exc_traceback is not None else []
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    what = type(exc).__name__ if exc is not None else getattr(unraisable.exc_type, "__name__", "an exception")
    text = " ".join(str(exc).split()) if exc is not None else ""
    if debugging(None) and frames:
        _say("".join(traceback.format_exception(unraisable.exc_type, exc, unraisable.exc_traceback)).rstrip("\n"))
    _say(f"baccarat: warning: the exit handler {name} raised {what}{': ' + text if text else ''}{where}; the command had finished its work")


def _output_complete() -> None:
    """The command's output is complete: what threads and exit handlers print from now on goes to standard error.

    A plugin's ``atexit`` handler that prints (in Python, or in C through
    file descriptor 1) must not add to the JSON a ``--json`` command wrote.
    """
    if sys.stderr is None:
        return
    sys.stdout = sys.stderr
    try:
        os.dup2(sys.stderr.fileno(), 1)
    except (OSError, ValueError, AttributeError):
        pass


def _show_warning(
    message: Warning | str, category: type[Warning], filename: str, lineno: int, file: TextIO | None = None, line: str | None = None
) -> None:
    """Show a library's warning as one line, like the command's own warnings."""
    text = " ".join(str(message).split())
    try:
        print(f"baccarat: warning: {text} ({category.__name__})", file=file or sys.stderr)
    except (OSError, ValueError):
        pass


def _stdout_error(exc: OSError) -> StdoutError:
    return StdoutError(f"cannot write to standard output: {os_reason(exc)}")


class _Stdout:
    """The command's standard output: a failure to write it is an :class:`~baccarat.errors.OutputError`, not a traceback.

    A reader that went away (``BrokenPipeError``) is left as it is: ``main``
    ends quietly with status 1, as ``head`` expects.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text``; an operating-system error becomes an OutputError."""
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_error(exc) from None

    def flush(self) -> None:
        """Flush; an operating-system error becomes an OutputError."""
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_error(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _guard_standard_streams() -> None:
    """Open /dev/null on standard input, output or error when one was closed, so no file the command opens takes its place.

    A closed standard output stays ``None`` (``main`` refuses to run); a
    closed standard error becomes /dev/null (messages are lost, the status is not).
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the process's own stderr


def _say(line: str) -> None:
    """Print ``line`` on stderr; a stderr that cannot be written loses the line, never the exit status."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        if sys.stdout is not sys.stderr:  # not held for the JSON (baccarat.commands.json_output), where it is stderr
            os.dup2(devnull, sys.stdout.fileno())
        os.dup2(devnull, 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
