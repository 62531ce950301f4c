"""Vectorised strategies and their per-session twin, as a plugin file's text: the tests write it to a plugins folder, or load it here.

``FollowMartingale`` and ``VecFollowMartingale`` are one strategy written per
session and vectorised; ``VecFlat`` is flat on one side; ``VecCoin`` draws its
side from the chunk's stream, ``VecGlobalCoin`` from numpy's global one; ``VecFaulty`` returns one bad bet where told.
"""

from __future__ import annotations

from typing import Any

PLUGIN = '''
import numpy as np

from baccarat.plugin import Strategy, VectorStrategy, hookimpl

BANKER, PLAYER, NO_BET = 0, 1, -1  # outcome codes of Rounds.outcome (-1: no round yet)


class FollowMartingale(Strategy):
    """Back this shoe's last winner (banker first); double after a loss, one unit after a win or above the maximum."""

    name = "follow-martingale"
    params = {"unit": 10}

    def __init__(self, session, unit=10):
        super().__init__(session)
        self.unit = self.stake = unit
        self.limit = session.table_max

    def bets(self, view):
        if self.stake > self.limit:
            self.stake = self.unit
        return {view.last_decided or "banker": self.stake}

    def settle(self, view, nets):
        net = sum(nets.values())
        if net > 0:
            self.stake = self.unit
        elif net < 0:
            self.stake *= 2


class VecFollowMartingale(VectorStrategy):
    """The same, every session of the chunk at once."""

    name = "vec-follow-martingale"
    params = {"unit": 10}

    def __init__(self, chunk, unit=10):
        super().__init__(chunk)
        self.unit = unit
        self.stake = np.full(chunk.size, unit, np.int64)
        self.last = np.full(chunk.size, NO_BET, np.int64)
        self.limit = int(chunk.table_max)
        self.banker, self.player = chunk.side("banker"), chunk.side("player")

    def bets(self, rounds):
        n = rounds.n
        stake, last = self.stake[:n], self.last[:n]
        stake[rounds.net > 0] = self.unit
        stake[rounds.net < 0] *= 2
        decided = (rounds.outcome == BANKER) | (rounds.outcome == PLAYER)
        last[decided] = rounds.outcome[decided]
        last[rounds.new_shoe] = NO_BET
        stake[stake > self.limit] = self.unit
        return np.where(last == PLAYER, self.player, self.banker), stake


class VecFlat(VectorStrategy):
    name = "vec-flat"
    params = {"side": "banker", "unit": 10}

    def __init__(self, chunk, side="banker", unit=10):
        super().__init__(chunk)
        self.index, self.unit = chunk.side(side), unit

    def bets(self, rounds):
        return np.full(rounds.n, self.index), np.full(rounds.n, self.unit)


class VecCoin(VectorStrategy):
    """Banker or Player at random, from the chunk's stream."""

    name = "vec-coin"

    def bets(self, rounds):
        return self.chunk.rng.integers(0, 2, rounds.n), np.full(rounds.n, 10)


class VecGlobalCoin(VectorStrategy):
    """Banker or Player from numpy's global stream, not the chunk's: not reproducible."""

    name = "vec-global-coin"

    def bets(self, rounds):
        return np.random.randint(0, 2, rounds.n), np.full(rounds.n, 10)


class VecFaulty(VectorStrategy):
    """Flat Banker, with one fault in session ``at``, round 3."""

    name = "vec-faulty"
    params = {"fault": "none", "at": 1}

    def __init__(self, chunk, fault="none", at=1):
        super().__init__(chunk)
        self.fault, self.at = fault, at

    def bets(self, rounds):
        sides, amounts = np.zeros(rounds.n, np.int64), np.full(rounds.n, 10.0)
        here = np.flatnonzero(self.chunk.sessions[: rounds.n] == self.at)
        if rounds.round == 3 and len(here):
            i = here[0]
            if self.fault == "unoffered":
                sides[i] = 7
            elif self.fault == "fraction":
                amounts[i] = 0.125
            elif self.fault == "negative":
                amounts[i] = -20
            elif self.fault == "below":
                amounts[i] = 2
            elif self.fault == "length":
                return sides[:-1], amounts
        return sides, amounts


@hookimpl
def register_strategies(register):
    for cls in (FollowMartingale, VecFollowMartingale, VecFlat, VecCoin, VecGlobalCoin, VecFaulty):
        register(cls)
'''


def plugin_classes() -> dict[str, Any]:
    """The plugin's classes by name, loaded in this process (for tests that play them on the engine directly)."""
    namespace: dict[str, Any] = {}
    exec(compile(PLUGIN, "vector_plugin", "exec"), namespace)  # noqa: S102 - the tests' own plugin text
    return namespace
