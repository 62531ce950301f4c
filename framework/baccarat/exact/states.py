"""The states of one progression met during an analysis, numbered, and its moves between them.

A state is the tuple of the attributes named by the progression's exact form
(:class:`baccarat.plugin.exact_forms.ExactProgression`); a move is the
progression's own ``restart``, ``won(net)`` or ``lost(net)`` called on an
instance set to that state, so the analysis moves it exactly as a run does.
Moves are found when first needed, then looked up.
"""

from __future__ import annotations

import copy
import decimal
from collections.abc import Callable
from typing import Any

import numpy as np

from baccarat.exact.bounds import ExactLimitError, Unplayable
from baccarat.money import EXACT, decimal_to_cents, micros_to_decimal
from baccarat.plugin.exact_forms import ExactProgression
from baccarat.plugin.pieces import Progression


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def _thaw(value: Any) -> Any:
    return [_thaw(v) for v in value] if isinstance(value, tuple) else value


class ProgressionStates:
    """The states of one progression met so far, numbered from 0, and its moves between them, found as needed."""

    def __init__(self, proto: Progression, form: ExactProgression, max_states: int) -> None:
        self.proto = proto
        self.attrs = form.state
        self.lists = tuple(isinstance(getattr(proto, a, None), list) for a in self.attrs)
        self.reads_net = form.reads_net
        self.max_states = max_states
        self.numbers: dict[tuple, int] = {}
        self.snapshots: list[tuple] = []
        self.stake_list: list[int] = []
        self.restart_of = np.zeros(0, dtype=np.int64)
        self.moves: dict[Any, np.ndarray] = {}  # (won, multiplier) or won -> next state per state (-1 unknown)
        self.by_net: dict[tuple[int, bool, int], int] = {}
        self.add(proto)

    @property
    def stakes(self) -> np.ndarray:
        """The stake (cents) of each state, by number."""
        return np.asarray(self.stake_list, dtype=np.int64)

    def add(self, prog: Progression) -> int:
        """Return the number of the state ``prog`` is in, numbering it when it is new."""
        try:
            snapshot = tuple(_freeze(getattr(prog, a)) for a in self.attrs)
            number = self.numbers.get(snapshot)
        except (AttributeError, TypeError) as exc:
            raise Unplayable(f"progression {self.proto.name!r}: its exact form names a state it does not hold ({exc})") from None
        if number is None:
            if len(self.snapshots) >= self.max_states:
                raise ExactLimitError(f"progression {self.proto.name!r} reaches more than {self.max_states:,} states")
            number = self.numbers[snapshot] = len(self.snapshots)
            self.snapshots.append(snapshot)
            self.stake_list.append(decimal_to_cents(prog.stake))
        return number

    def instance(self, number: int) -> Progression:
        """Return a progression set to state ``number``."""
        prog = copy.copy(self.proto)
        for attr, value, is_list in zip(self.attrs, self.snapshots[number], self.lists, strict=True):
            setattr(prog, attr, _thaw(value) if is_list else value)
        return prog

    def step(self, number: int, action: Callable[[Progression], None]) -> int:
        """Return the state reached by ``action`` on a progression in state ``number``."""
        prog = self.instance(number)
        try:
            with decimal.localcontext(EXACT):  # as the engine plays it: amounts exact whatever the caller's context
                action(prog)
        except Exception as exc:
            raise Unplayable(f"progression {self.proto.name!r} raised {type(exc).__name__}: {exc}") from None
        return self.add(prog)

    def _lookup(self, table: np.ndarray, states: np.ndarray, fill: Callable[[int], int]) -> tuple[np.ndarray, np.ndarray]:
        """Return ``table`` grown to every state, with the entries of ``states`` filled by ``fill``, and their values."""
        if len(table) < len(self.snapshots):
            table = np.concatenate([table, np.full(len(self.snapshots) - len(table), -1, dtype=np.int64)])
        values = table[states]
        if (values < 0).any():
            for number in np.unique(states[values < 0]).tolist():
                target = fill(number)
                if len(table) < len(self.snapshots):
                    table = np.concatenate([table, np.full(len(self.snapshots) - len(table), -1, dtype=np.int64)])
                table[number] = target
            values = table[states]
        return table, values

    def restart(self, states: np.ndarray) -> np.ndarray:
        """Return the state each of ``states`` restarts to."""
        self.restart_of, values = self._lookup(self.restart_of, states, lambda n: self.step(n, lambda p: p.restart()))
        return values

    def move(self, states: np.ndarray, stake: np.ndarray, placed: np.ndarray, multiplier: int) -> np.ndarray:
        """Return the states after bets of ``placed`` cents (``stake`` asked) that ended with ``multiplier``."""
        won = multiplier > 0
        nets = placed * multiplier
        if not self.reads_net:
            key: Any = won
        else:
            key = (won, multiplier)
        table = self.moves.get(key, np.zeros(0, dtype=np.int64))

        def fill(number: int) -> int:
            net = micros_to_decimal(self.stake_list[number] * multiplier)
            return self.step(number, (lambda p: p.won(net)) if won else (lambda p: p.lost(net)))

        uncapped = placed == stake if self.reads_net else np.ones(len(states), dtype=bool)
        if uncapped.all():
            table, values = self._lookup(table, states, fill)
            self.moves[key] = table
            return values
        values = np.empty(len(states), dtype=np.int64)
        table, values[uncapped] = self._lookup(table, states[uncapped], fill)
        self.moves[key] = table
        for row in np.flatnonzero(~uncapped).tolist():  # a capped bet: the move reads the amount actually won or lost
            number, net = int(states[row]), int(nets[row])
            target = self.by_net.get((number, won, net))
            if target is None:
                target = self.by_net[(number, won, net)] = self.step(
                    number,
                    (lambda p, net=net: p.won(micros_to_decimal(net))) if won else (lambda p, net=net: p.lost(micros_to_decimal(net))),
                )
            values[row] = target
        return values
