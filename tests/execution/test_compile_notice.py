"""The one line printed while numba compiles: said on the first compilation of a process only, installed once."""

from __future__ import annotations

import io

import numba
import pytest
from numba.core import event

from baccarat.execution import compile_notice


@pytest.fixture
def notice_stream(monkeypatch: pytest.MonkeyPatch):
    """A fresh notice writing to a string; unregistered afterwards, so no later compilation writes to it."""
    monkeypatch.setattr(compile_notice, "_installed", [])
    stream = io.StringIO()
    yield stream
    for listener in compile_notice._installed:
        event.unregister("numba:compile", listener)


def test_the_first_compilation_prints_the_message_once(notice_stream: io.StringIO) -> None:
    compile_notice.announce_compiling(notice_stream)
    compile_notice.announce_compiling(notice_stream)  # a second call installs nothing more
    assert len(compile_notice._installed) == 1
    assert notice_stream.getvalue() == ""  # nothing compiled yet: nothing said

    first = numba.njit(cache=False)(lambda x: x + 1)
    second = numba.njit(cache=False)(lambda x: x * 3)
    assert first(2) == 3 and second(2) == 6  # two compilations
    assert notice_stream.getvalue() == f"\r\x1b[K{compile_notice.MESSAGE}\n"


def test_a_closed_terminal_does_not_stop_the_compilation(notice_stream: io.StringIO) -> None:
    notice_stream.close()  # writing raises ValueError: the run goes on
    compile_notice.announce_compiling(notice_stream)
    assert numba.njit(cache=False)(lambda x: x - 1)(5) == 4
    assert compile_notice._installed[0].said
