"""One module per ``baccarat`` subcommand: ``add_parser(parser)`` and ``run(args)``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


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
