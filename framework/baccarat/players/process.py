"""Player processes: a plugin's strategy plays in a process of its own, which holds only what has been dealt.

A dealer (the process that deals a chunk's shoes and settles them) starts one
*host* per run: a fresh interpreter (``python -m baccarat.players.host``, hash
seed fixed) that imports the plugins, resolves the run's strategies and waits.
It is never given the seed, a shoe or a round. For each (strategy, chunk) the
host forks a *player*, which plays the strategy over every session of the
chunk in lock-step (:class:`baccarat.players.seat.Seat`): the dealer sends
what was dealt in a round for every session still playing, the player answers
with every session's bets for the next round. So every (strategy, chunk)
starts from the same state (module globals, class attributes, the order of a
set), whatever the number of workers.

The player answers in plain numbers (:func:`encode_answer`), never a pickle:
nothing it sends can run code in the dealer. A player that ends (``os._exit``,
a crash, a signal) ends the run with one line naming its strategy; a stop
(Ctrl-C, SIGTERM, SIGHUP) kills it, whatever its code is doing, since the
dealer waits for it at check points. Players and host write their standard
output to standard error, ignore the terminal's Ctrl-C and SIGHUP (the dealer
stops them) and end with their parent.
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from baccarat import interrupts
from baccarat.errors import InputError, StrategyError
from baccarat.players.seat import Answer, Opening, Step

HASH_SEED = "0"
"""PYTHONHASHSEED of the host (and so of every player): the order of a set of strings is the same in every run."""

LENGTH = struct.Struct("<q")

HOST_EXIT_SECONDS = 5.0
"""How long a host is given to end on its own once the dealer is done with it (then it is killed)."""

ANSWER_SECONDS_ENV = "BACCARAT_PLAYER_TIMEOUT"
"""The environment variable that sets :data:`ANSWER_SECONDS` (seconds; 0 for no limit)."""

ANSWER_SECONDS = 600.0
"""How long a player may take to answer one step (every session's bets for one round) before the dealer kills it.

Generous on purpose: a step asks the strategy for the bets of every session
of a chunk (thousands), so a strategy spending even tens of milliseconds a
decision on a loaded machine answers well within it; a player that does not
answer is stuck (a loop that never ends, C code that never returns).
"""


def answer_seconds(environ: Mapping[str, str] | None = None) -> float | None:
    """The limit on a player's answer: :data:`ANSWER_SECONDS`, or the environment's :data:`ANSWER_SECONDS_ENV`; None for none."""
    text = (os.environ if environ is None else environ).get(ANSWER_SECONDS_ENV, "").strip()
    if not text:
        return ANSWER_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise InputError(f"{ANSWER_SECONDS_ENV} must be a number of seconds (0 for no limit), not {text!r}")
    return seconds or None


def send_blob(sock: socket.socket, data: bytes) -> None:
    """Send ``data`` with its length first."""
    sock.sendall(LENGTH.pack(len(data)) + data)


def recv_blob(sock: socket.socket) -> bytes:
    """Receive what :func:`send_blob` sent; raise EOFError when the other end closed."""
    head = recv_exactly(sock, LENGTH.size)
    return recv_exactly(sock, LENGTH.unpack(head)[0])


def recv_exactly(sock: socket.socket, size: int) -> bytes:
    """Receive exactly ``size`` bytes; raise EOFError when the other end closed first."""
    parts, left = [], size
    while left:
        part = sock.recv(min(left, 1 << 20))
        if not part:
            raise EOFError
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


# The answer in plain numbers -------------------------------------------------------------------------------
_HEAD = struct.Struct("<5q")


def encode_answer(answer: Answer) -> bytes:
    """The bytes of ``answer``: four counts, the start flag, the bets, the expected values, the stops, the error and its detail (UTF-8)."""
    bets = np.ascontiguousarray(answer.bets, dtype="<i8")
    evs = np.ascontiguousarray(answer.evs, dtype="<f8")
    stops = np.ascontiguousarray(answer.stops, dtype="<i8")
    error, detail = answer.error.encode("utf-8", "replace"), answer.detail.encode("utf-8", "replace")
    head = _HEAD.pack(len(bets), len(stops), len(error), len(detail), int(answer.at_start))
    return b"".join((head, bets.tobytes(), evs.tobytes(), stops.tobytes(), error, detail))


def decode_answer(data: bytes, label: str) -> Answer:
    """Read the bytes of :func:`encode_answer`; refuse anything else, naming the strategy whose player sent it."""
    try:
        nbets, nstops, nerror, ndetail, at_start = _HEAD.unpack_from(data)
        sizes = (nbets * 32, nbets * 8, nstops * 16, nerror, ndetail)
        if min(sizes) < 0 or _HEAD.size + sum(sizes) != len(data):
            raise ValueError
        at = _HEAD.size
        bets = np.frombuffer(data, "<i8", nbets * 4, at).reshape(nbets, 4)
        at += sizes[0]
        evs = np.frombuffer(data, "<f8", nbets, at)
        at += sizes[1]
        stops = np.frombuffer(data, "<i8", nstops * 2, at).reshape(nstops, 2)
        at += sizes[2]
        error = data[at : at + nerror].decode("utf-8", "replace")
        detail = data[at + nerror :].decode("utf-8", "replace")
    except (ValueError, struct.error):
        raise StrategyError(
            f"strategy {label!r}: its player sent what is no answer to the round it was dealt; nothing is written"
        ) from None
    return Answer(bets.astype(np.int64), evs.astype(np.float64), stops.astype(np.int64), error, detail, at_start == 1)


# The dealer's side -------------------------------------------------------------------------------------------
class Host:
    """The process players are forked from, seen from the dealer: started once, then asked for a player per (strategy, chunk)."""

    def __init__(self, plugins_dirs: Sequence[str], rules: Any) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
        command = [sys.executable, "-m", "baccarat.players.host", str(theirs.fileno()), str(os.getpid())]
        with interrupts.starting_workers():  # deaf to the terminal's Ctrl-C from its first instruction
            self.process = subprocess.Popen(command, pass_fds=[theirs.fileno()], env=env, stdin=subprocess.DEVNULL, stdout=2)
        theirs.close()
        self.control = ours
        try:
            send_blob(ours, pickle.dumps((tuple(plugins_dirs), rules), protocol=pickle.HIGHEST_PROTOCOL))
            said = self._wait(recv_blob, "start")
        except BaseException:
            self.close()
            raise
        if said:
            self.close()
            raise StrategyError(said.decode("utf-8", "replace"))

    def _wait(self, read: Any, what: str) -> bytes:
        while True:
            interrupts.check()
            if select.select([self.control], [], [], interrupts.WAKE_SECONDS)[0]:
                try:
                    return read(self.control)
                except (EOFError, OSError):
                    raise StrategyError(
                        f"the process that starts the strategies' players ended before it could {what}: see above"
                    ) from None
            if self.process.poll() is not None:
                raise StrategyError(f"the process that starts the strategies' players ended (status {self.process.returncode}): see above")

    def player(self, use: str, params: Mapping[str, Any]) -> tuple[Connection, int]:
        """Fork a fresh player for the registered strategy ``use`` with ``params``; return the connection to it and its process id."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            wanted = pickle.dumps((use, dict(params)), protocol=pickle.HIGHEST_PROTOCOL)
            socket.send_fds(self.control, [LENGTH.pack(len(wanted))], [theirs.fileno()])
            self.control.sendall(wanted)
            pid = int.from_bytes(self._wait(lambda sock: recv_exactly(sock, 8), "start a player"), "little")
        finally:
            theirs.close()
        return Connection(ours.detach()), pid

    def close(self) -> None:
        """End the host (its players end with it)."""
        with contextlib.suppress(OSError):
            self.control.close()  # the host ends on its own once its players have ended
        try:
            self.process.wait(HOST_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class PlayerSeat:
    """A seat whose strategy plays in a player process: the dealer's handle, sending steps and reading answers."""

    def __init__(self, host: Host, use: str, params: Mapping[str, Any], opening: Opening, limit: float | None) -> None:
        """Fork a player from ``host`` and open the sessions; ``limit``: the seconds a step may take (None: no limit)."""
        self.label = opening.label
        self.limit = limit
        self.connection, self.pid = host.player(use, params)
        self.pidfd = _pidfd(self.pid)
        self.killed = False
        self.deadline: float | None = None
        """When the answer to the step sent last is due (None: no limit)."""
        self.connection.send(opening)

    def __enter__(self) -> PlayerSeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection and kill the player, whatever it is doing."""
        self.connection.close()
        self._kill()

    def _kill(self) -> None:
        if self.killed:  # once only: the host reaps it, and its number may be another process's by now
            return
        self.killed = True
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except (ProcessLookupError, OSError):
            pass  # it had ended
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def step(self, step: Step) -> Answer:
        """Send the step; return the player's answer, waiting at check points (a stop, or no answer within the limit, kills the player)."""
        self.send(step)
        return self.answer()

    def send(self, step: Step) -> None:
        """Send the step, for :meth:`answer` to read the player's answer (the dealer sends every seat its step, then reads the answers)."""
        self.deadline = None if self.limit is None else time.monotonic() + self.limit
        try:
            self.connection.send(step)
        except (EOFError, OSError):
            raise self._ended() from None
        except BaseException:
            self._kill()
            raise

    def answer(self) -> Answer:
        """The player's answer to the step sent last, waiting at check points (a stop, or no answer within the limit, kills the player)."""
        try:
            while not self.connection.poll(interrupts.WAKE_SECONDS):
                interrupts.check()
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise StrategyError(
                        f"strategy {self.label!r} did not answer within {self.limit:g} s and its player was stopped (its code "
                        f"may loop for ever, or be stuck in C code; {ANSWER_SECONDS_ENV} sets the limit)"
                    )
            data = self.connection.recv_bytes()
        except (EOFError, OSError):
            raise self._ended() from None
        except BaseException:
            self._kill()
            raise
        return decode_answer(data, self.label)

    def _ended(self) -> StrategyError:
        return StrategyError(
            f"strategy {self.label!r} ended its player process while it played (its code called os._exit, crashed "
            "the interpreter or was killed); the run was abandoned and nothing was written"
        )


def _pidfd(pid: int) -> int | None:
    """A file descriptor of process ``pid`` (signals then never reach another process that took its number), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


_HOSTS: dict[Any, Host] = {}
"""The host this process started, by plugin folders and rules (one at a time: it ends when another is needed)."""


def host_for(plugins_dirs: Sequence[str], rules: Any) -> Host:
    """Return this process's host for these plugin folders and rules, started the first time it is asked for."""
    key = (tuple(plugins_dirs), pickle.dumps(rules))
    host = _HOSTS.get(key)
    if host is None or host.process.poll() is not None:
        close_hosts()
        host = _HOSTS[key] = Host(plugins_dirs, rules)
    return host


@atexit.register
def close_hosts() -> None:
    """End every host this process started."""
    while _HOSTS:
        _HOSTS.popitem()[1].close()
