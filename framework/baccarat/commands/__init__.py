"""One module per ``baccarat`` subcommand: ``add_parser(parser)`` and ``run(args)``.

- :mod:`~baccarat.commands.compare`: ``baccarat compare RUN_A RUN_B [...] [--baseline LABEL] [--json]``: saved runs
  side by side.
- :mod:`~baccarat.commands.exact`: ``baccarat exact EXPERIMENT.yaml [--rounds N] [--ruin-at-most P] [--json]``: the
  exact distribution of each strategy's session.
- :mod:`~baccarat.commands.odds`: ``baccarat odds [--rules PRESET|FILE] [--decks N] [--remaining RANK=COUNT,...]
  [--json]``.
- :mod:`~baccarat.commands.patterns`: ``baccarat patterns [FILE|RUN_DIR] [--format F] [--rules R] [--count N --seed S]
  [--chart FILE] [--json]``: the patterns players read in shoes, against fairly shuffled shoes.
- :mod:`~baccarat.commands.plan`: ``baccarat plan --strategy NAME ... [--bankroll B] [--hands N] [--ruin-at-most P]
  [--win-goal G] [--stop-loss L] [--json]``: each strategy's exact risk of ruin, losses and the bankroll a target needs.
- :mod:`~baccarat.commands.predict`: ``baccarat predict EXPERIMENT.yaml [--predictors NAMES] [--set K=V] [--json]``:
  predictors of the next round scored against the exact odds of the cards left.
- :mod:`~baccarat.commands.report`: ``baccarat report RUN_DIR [--baseline NAME] [--exact] [--png] [--svg]``: rebuild
  summary, comparison and report of a saved run.
- :mod:`~baccarat.commands.roads`: ``baccarat roads FILE|RUN_DIR --shoe N``: draw one shoe's scoreboard roads.
- :mod:`~baccarat.commands.search`: ``baccarat search EXPERIMENT.yaml [--top K] [--fresh-seed S] [--json]``: the
  best of a grid in sample and on fresh shoes, beside a search of strategies with the house edge.
- :mod:`~baccarat.commands.shoes`: ``baccarat shoes generate|check``: write seeded shoes to a file, check a recorded
  shoe file.
- :mod:`~baccarat.commands.strategies`: ``baccarat strategies [--json] [--plugins-dir DIR]``: everything the plugins
  provide.
- :mod:`~baccarat.commands.trace`: ``baccarat trace EXPERIMENT.yaml --strategy LABEL [--session N]``: one session,
  round by round.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, TypeVar

Number = TypeVar("Number", int, float)


def add_set_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--set KEY.PATH=VALUE`` (repeatable) on a command that reads an experiment: its values go to ``overrides``."""
    parser.add_argument(
        "--set",
        metavar="KEY.PATH=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override a value of the experiment, e.g. --set shoes.count=100 --set strategies.0.params.unit=5 (repeatable)",
    )


def number_argument(
    text: str, read: Callable[[str], Number], fits: Callable[[Number], bool], expected: str, unreadable: str | None = None
) -> Number:
    """Return ``text`` read by ``read`` (``int`` or ``float``) when it reads and ``fits``: an option's ``type``.

    Otherwise raise argparse's error ``"{expected}, not '{text}'"`` (``unreadable`` instead of ``expected``, when given,
    for text that is no number).
    """
    try:
        value = read(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{unreadable or expected}, not {text!r}") from None
    if not fits(value):
        raise argparse.ArgumentTypeError(f"{expected}, not {text!r}")
    return value


@contextmanager
def saying_what_was_written(written: str) -> Iterator[None]:
    """Print the block's lines and flush them; if standard output cannot take them, say that ``written`` still holds.

    A command that wrote its files before printing ends with one line such
    as ``cannot write to standard output: ...; the results are in out``.
    """
    from baccarat.errors import StdoutError

    try:
        yield
        sys.stdout.flush()
    except StdoutError as exc:
        raise StdoutError(f"{exc.message}; {written}") from None


_json_streams: list[TextIO] = []
"""Where :func:`print_json` writes while :func:`json_output` holds standard output (the innermost last)."""


@contextmanager
def json_output(keep: bool = False) -> Iterator[None]:
    """Hold standard output for the command's JSON alone: everything else written to it goes to standard error.

    While the block runs, ``sys.stdout`` is standard error and so is file
    descriptor 1, so that nothing plugin code prints reaches the JSON: at
    import, in a strategy, a bet or an exact form, from a thread it
    started, through ``os.write(1, ...)`` or C code, or in the worker
    processes started meanwhile (they inherit the descriptor).
    :func:`print_json` alone writes to the standard output as it was. With
    ``keep`` the block ends with both left on standard error (the process
    is about to end: a plugin's thread printing then must not reach the
    JSON, nor fail on a standard output that cannot be written).
    """
    real = sys.stdout
    real.flush()
    kept = _duplicate_fd_1(real)
    stream = real if kept is None else open(kept, "w", encoding=real.encoding, errors=real.errors, closefd=False)  # noqa: SIM115
    if kept is not None:
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    _json_streams.append(stream)
    try:
        yield
    finally:
        _json_streams.remove(stream)
        if not keep:
            sys.stdout = real
        if kept is not None:
            try:
                stream.close()  # flushed by print_json already, or failed: closing writes nothing more
            except OSError:
                pass
            if not keep:
                os.dup2(kept, 1)
            os.close(kept)


def _duplicate_fd_1(stream: TextIO) -> int | None:
    """A duplicate of file descriptor 1 when ``stream`` writes to it (not a test's capture, say); else None."""
    try:
        if stream.fileno() != 1:
            return None
        return os.dup(1)
    except (AttributeError, ValueError, OSError):
        return None


CHART_SUFFIXES = (".png", ".svg", ".json")
"""What ``--chart FILE`` may end in: a PNG or SVG picture, or the Vega-Lite specification."""


def chart_file(name: str | None, force: bool) -> Path | None:
    """Return the ``--chart`` file a command is to write, or None; refuse another kind of file, or one already there
    without ``--force``, in one sentence (:class:`baccarat.errors.InputError`)."""
    from baccarat.errors import InputError

    if not name:
        return None
    chart = Path(name)
    if chart.suffix.lower() not in CHART_SUFFIXES:
        raise InputError(f"--chart {chart}: name a file ending in .png, .svg or .json")
    if (chart.is_file() or chart.is_symlink()) and not force:
        raise InputError("exists already; give another --chart, or --force to replace it", path=str(chart))
    return chart


def write_chart(path: Path, chart: Any) -> None:
    """Write ``chart`` (a Vega-Altair chart) to the ``--chart`` file whole: PNG or SVG by its suffix, else its JSON
    specification."""
    import json

    from baccarat.files.outfolder import atomic_file
    from baccarat.results.charts.export import chart_bytes, spec

    suffix = path.suffix.lower()
    body = json.dumps(spec(chart)).encode() if suffix == ".json" else chart_bytes(chart, suffix[1:])
    with atomic_file(path, "the chart", suffix=suffix) as tmp:
        Path(tmp).write_bytes(body)


def print_json(text: str) -> None:
    """Print ``text``, the command's JSON, to standard output (the one :func:`json_output` holds) and flush it.

    A standard output that cannot be written is a
    :class:`~baccarat.errors.StdoutError`; a reader that went away, a
    ``BrokenPipeError`` (the command ends quietly with status 1).
    """
    from baccarat.errors import StdoutError, os_reason

    stream = _json_streams[-1] if _json_streams else sys.stdout
    try:
        stream.write(text + "\n")
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StdoutError(f"cannot write to standard output: {os_reason(exc)}") from None
