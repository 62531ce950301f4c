"""The host players are forked from: ``python -m baccarat.players.host FD PARENT`` (started by :class:`baccarat.players.process.Host`).

It reads the plugin folders, the strategies and the rules from the socket
``FD`` (never a seed or a round), imports the plugins and resolves the
strategies, then forks a player for each request: the player plays one
strategy over the sessions of a chunk on the socket passed with the request,
and ends when the dealer closes it. The host ends with its parent ``PARENT``,
each player with the host.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import socket
import sys
from multiprocessing.connection import Connection
from typing import Any

from baccarat.players.process import LENGTH, decode_step, encode_answer, recv_blob, recv_exactly, send_blob
from baccarat.players.seat import no_bets
from baccarat.players.vector_seat import seat_for
from baccarat.plugin.manager import registry


def end_with_parent(parent: int) -> None:
    """End this process as soon as its parent ``parent`` dies (Linux's parent-death signal; elsewhere when it is seen gone)."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the players end when their socket closes
        pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def ignore_terminal() -> None:
    """Ctrl-C and SIGHUP reach every process of a terminal's group: only the dealer acts on them (it kills its players)."""
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])


def main(argv: list[str]) -> None:
    """Serve the dealer: resolve the strategies, then fork a player for each request until the dealer closes the socket."""
    ignore_terminal()
    end_with_parent(int(argv[2]))
    control = socket.socket(fileno=int(argv[1]))
    plugins_dirs, rules = pickle.loads(recv_blob(control))
    try:
        plugins = registry(plugins_dirs)
    except Exception as exc:  # the dealer loaded them already: said in its words when they do not load here
        send_blob(control, f"the plugins could not be loaded in the process that starts the players: {exc}".encode())
        return
    send_blob(control, b"")
    signal.signal(signal.SIGCHLD, _reap)  # players are waited for as they end (their CPU counts in this process's children)
    gc.collect()
    gc.freeze()  # what every player inherits is never traversed by its collector (nor copied on that account)
    host = os.getpid()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, LENGTH.size, 1)
            if len(message) != LENGTH.size or not fds:
                return
            use, params = pickle.loads(recv_exactly(control, LENGTH.unpack(message)[0]))
        except (OSError, EOFError):
            return
        pid = os.fork()
        if pid == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            end_with_parent(host)
            unseeded_streams_apart()
            _play(fds[0], plugins, use, params, rules)
            os._exit(0)
        os.close(fds[0])
        try:
            control.sendall(pid.to_bytes(8, "little"))
        except OSError:  # the dealer is gone, or done (a stop): nothing to say
            return


def _reap(signum: int, frame: Any) -> None:
    """Wait for every player that has ended."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def unseeded_streams_apart() -> None:
    """Seed the process-wide random streams (``random``'s, numpy's legacy one) afresh from the system in a new player.

    A fork copies them: two players would draw the same "random" numbers, so
    a strategy drawing from them would seem deterministic on the sample shoe
    and then give other results in another run. Seeded apart, two fresh
    players bet differently and the strategy is refused before the run.
    """
    import random

    random.seed(os.urandom(16))
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(int.from_bytes(os.urandom(4), "little"))


def _play(fd: int, plugins: Any, use: str, params: dict[str, Any], rules: Any) -> None:
    """A player: one strategy over the sessions of a chunk, step after step, until the dealer closes the connection."""
    connection = Connection(fd)
    try:
        opening = connection.recv()
        try:
            cls = plugins.configure(use, params)[0]
        except Exception as exc:  # the dealer configured it already: not reached unless the plugin differs here
            connection.send_bytes(encode_answer(no_bets(f"strategy {opening.label!r} could not be made in its player: {exc}")))
            return
        seat = seat_for(cls, rules, opening)
        opened = False
        while True:
            step = decode_step(connection.recv_bytes())
            try:
                answer = seat.step(step)
            except Exception as exc:  # the seat's own failure: said, never a traceback the dealer would have to read
                answer = no_bets(f"strategy {opening.label!r}: its player failed: {type(exc).__name__}: {exc}")
            connection.send_bytes(encode_answer(answer))
            if not opened:  # the sessions' strategies and views, made at the first step, live as long as the player:
                gc.freeze()  # the collector no longer walks them each time it runs
                opened = True
    except (EOFError, OSError):  # the dealer is done with this player
        return


if __name__ == "__main__":
    sys.stdout = sys.stderr
    try:
        main(sys.argv)
    except (OSError, EOFError):  # the dealer closed the socket mid-message (a stop): the host ends without a word
        os._exit(0)
