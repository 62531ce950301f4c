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
from baccarat.players.seat import CARDS_PER_ROUND, Answer, Opening, Step

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


# Arrays in plain numbers ------------------------------------------------------------------------------------
_TYPES = (np.dtype("<i1"), np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"), np.dtype("?"), np.dtype("<f8"))
"""The types an array is sent in, by code: integers in the narrowest that holds them, flags, floating point."""

_INTEGERS = tuple((code, int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)) for code, dtype in enumerate(_TYPES[:4]))


def _packed(array: np.ndarray) -> tuple[int, bytes]:
    """The code of the type ``array`` is sent in (integers: the narrowest that holds every value) and its bytes."""
    if array.dtype.kind == "b":
        return 4, np.ascontiguousarray(array).tobytes()
    if array.dtype.kind == "f":
        return 5, np.ascontiguousarray(array, dtype="<f8").tobytes()
    low, high = (int(array.min()), int(array.max())) if array.size else (0, 0)
    code = next(code for code, least, most in _INTEGERS if least <= low and high <= most)
    return code, np.ascontiguousarray(array, dtype=_TYPES[code]).tobytes()


def _unpacked(code: int, data: bytes | bytearray, shape: tuple[int, ...], at: int, dtype: Any) -> tuple[np.ndarray, int]:
    """The array of ``shape`` sent by :func:`_packed` with ``code``, read at ``at`` as ``dtype``; and where the next one starts."""
    if not 0 <= code < len(_TYPES) or min(shape) < 0:
        raise ValueError("no such array")
    sent = _TYPES[code]
    count = math.prod(shape)
    if at + count * sent.itemsize > len(data):
        raise ValueError("the array is cut short")
    return np.frombuffer(data, sent, count, at).reshape(shape).astype(dtype), at + count * sent.itemsize


# The answer in plain numbers -------------------------------------------------------------------------------
_HEAD = struct.Struct("<5q3b")


def encode_answer(answer: Answer) -> bytes:
    """The bytes of ``answer``: four counts, the start flag, the types of the arrays, the bets, the expected values, the stops,
    the error and its detail (UTF-8)."""
    (bets_code, bets), (evs_code, evs), (stops_code, stops) = (_packed(a) for a in (answer.bets, answer.evs, answer.stops))
    error, detail = answer.error.encode("utf-8", "replace"), answer.detail.encode("utf-8", "replace")
    nbets, nstops = len(answer.bets), len(answer.stops)
    head = _HEAD.pack(nbets, nstops, len(error), len(detail), int(answer.at_start), bets_code, evs_code, stops_code)
    return b"".join((head, bets, evs, stops, error, detail))


def decode_answer(data: bytes, label: str) -> Answer:
    """Read the bytes of :func:`encode_answer`; refuse anything else, naming the strategy whose player sent it."""
    try:
        nbets, nstops, nerror, ndetail, at_start, bets_code, evs_code, stops_code = _HEAD.unpack_from(data)
        if evs_code != 5 or min(nerror, ndetail) < 0:
            raise ValueError
        bets, at = _unpacked(bets_code, data, (nbets, 4), _HEAD.size, np.int64)
        evs, at = _unpacked(evs_code, data, (nbets,), at, np.float64)
        stops, at = _unpacked(stops_code, data, (nstops, 2), at, np.int64)
        if at + nerror + ndetail != len(data) or bets_code > 3 or stops_code > 3:
            raise ValueError
        error = data[at : at + nerror].decode("utf-8", "replace")
        detail = data[at + nerror :].decode("utf-8", "replace")
    except (ValueError, struct.error):
        raise StrategyError(
            f"strategy {label!r}: its player sent what is no answer to the round it was dealt; nothing is written"
        ) from None
    return Answer(bets, evs, stops, error, detail, at_start == 1)


# The step in plain numbers ---------------------------------------------------------------------------------
_STEP_FIELDS = (
    ("outcome", np.int8),
    ("cards", np.int8),
    ("bankroll", np.int64),
    ("nets", np.int64),
    ("hand", np.int64),
    ("new_shoe", np.bool_),
    ("shoe", np.int64),
    ("turned", np.int64),
    ("may_bet", np.bool_),
)
"""The arrays of a :class:`Step` in the order they are sent, with the type the player reads each in (the type the dealer makes it in)."""

_STEP_HEAD = struct.Struct(f"<4q{len(_STEP_FIELDS)}b")


def encode_step(step: Step) -> bytes:
    """The bytes of ``step``: four counts (sessions that played, sessions to play, bets settled, cards or none), the types of its
    arrays, then its arrays (integers in the narrowest type that holds them).

    The dealer sends one to every strategy's player every round: a few plain copies cost a fraction of a pickle, and a
    step this small is sent at once, while the player still plays the round before.
    """
    codes, parts = [], []
    for name, _ in _STEP_FIELDS:
        array = getattr(step, name)
        code, part = _packed(array) if array is not None else (0, b"")
        codes.append(code)
        parts.append(part)
    head = _STEP_HEAD.pack(len(step.outcome), len(step.hand), len(step.nets), step.cards is not None, *codes)
    return b"".join((head, *parts))


def decode_step(data: bytes) -> Step:
    """Read the bytes of :func:`encode_step` (sent by the dealer) into a :class:`Step` of arrays of its own."""
    played, playing, settled, has_cards, *codes = _STEP_HEAD.unpack_from(data)
    shapes = {"outcome": (played,), "cards": (played, CARDS_PER_ROUND), "bankroll": (played,), "nets": (settled, 3)}
    at = _STEP_HEAD.size
    arrays: dict[str, np.ndarray | None] = {}
    for (name, dtype), code in zip(_STEP_FIELDS, codes, strict=True):
        if name == "cards" and not has_cards:
            arrays[name] = None
            continue
        arrays[name], at = _unpacked(code, data, shapes.get(name, (playing,)), at, dtype)
    if at != len(data):
        raise ValueError("the dealer's step is not what it should be")
    return Step(**arrays)  # type: ignore[arg-type]


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
            self.connection.send_bytes(encode_step(step))
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
