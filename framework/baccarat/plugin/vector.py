"""The vectorised strategy protocol: one strategy deciding for every session of a chunk at once, with numpy arrays.

A :class:`~baccarat.plugin.strategy.Strategy` is made once per session and
asked once per session and round: its cost is a Python call per
session-round. A :class:`VectorStrategy` is made once per chunk of sessions
(:class:`ChunkFacts`: the chunk's fixed facts) and asked once per round for the
bets of every session still playing (:class:`Rounds`: read-only arrays of
what was dealt), so the cost of the call is shared by thousands of sessions
and its own work is numpy's.

It plays in the same lock-step as every strategy (``docs/architecture.md``):
the dealer deals round ``k`` of every session, the strategy answers the bets
of round ``k + 1``. It is registered through ``register_strategies`` like a
:class:`Strategy`, and is used the same way in an experiment (``use: NAME``).

Money: the bankroll and the nets it is given are exact integers of
micro-units (:data:`MICROS_PER_UNIT` to a currency unit; a 5% commission on
a bet of 10.05 is not a whole number of cents). The amounts it returns are
currency units: integers, or floats that are whole cents (checked).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

import numpy as np

from baccarat.money import MICROS_PER_UNIT
from baccarat.streams import keyed_strategy_rng
from baccarat.table.dealer import OUTCOMES
from baccarat.table.rules import Rules

NO_BET = -1
"""The side index that places no bet (and the outcome code of a session that has not played a round yet)."""

CHUNK_STREAM = 2**63
"""Marks the chunk's stream apart from every session's (a session number is never this large)."""

__all__ = ["MICROS_PER_UNIT", "NO_BET", "OUTCOMES", "ChunkFacts", "Rounds", "VectorBets", "VectorStrategy", "chunk_rng"]


def chunk_rng(key: int, first_session: int) -> np.random.Generator:
    """Return the random stream of the chunk whose first session is ``first_session``, for the strategy whose key is ``key``.

    Drawn from the strategy's key (:func:`baccarat.streams.strategy_key`, from
    which the seed cannot be recovered) and the chunk's first session: the
    same chunk gives the same stream in any process and with any number of
    workers (the chunks are cut from the experiment alone).
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(key, spawn_key=(CHUNK_STREAM, first_session))))


def read_only(array: np.ndarray) -> np.ndarray:
    """Return a view of ``array`` that cannot be written (the strategy's arrays are the dealer's facts)."""
    view = array.view()
    view.flags.writeable = False
    return view


@dataclasses.dataclass(frozen=True)
class ChunkFacts:
    """The fixed facts of a chunk of sessions, given once when the strategy is made.

    Sessions are in the order of every array the strategy is given and
    returns: longest session first, so the sessions still playing at any
    round are always the first ``rounds.n``.
    """

    sessions: np.ndarray
    """int64, read-only: the session numbers, in the order of every array."""
    rules: Rules
    """The table's rules (read only)."""
    bankroll: Decimal
    """Each session's starting bankroll, currency units."""
    table_min: Decimal
    """The smallest stake the table takes, currency units."""
    table_max: Decimal
    """The largest stake the table takes, currency units (larger ones are cut to it)."""
    offered: tuple[str, ...]
    """The bets the table offers, by side index: ``offered.index("banker")`` is what ``bets`` returns to back the banker."""
    has_cards: bool
    """Whether the shoes have cards (``Rounds.cards``), not only outcomes."""
    rng: np.random.Generator
    """The chunk's random stream (:func:`chunk_rng`): results are reproducible and need no seed."""
    stream_key: int = dataclasses.field(repr=False, default=0)

    @property
    def size(self) -> int:
        """The number of sessions in the chunk."""
        return len(self.sessions)

    def side(self, name: str) -> int:
        """Return the side index of bet ``name`` (ValueError naming the offered bets when the table does not offer it)."""
        try:
            return self.offered.index(name)
        except ValueError:
            raise ValueError(f"the table does not offer {name!r} ({', '.join(self.offered)})") from None

    def session_rng(self, position: int) -> np.random.Generator:
        """Return the random stream of the session at ``position``: the very ``session.rng`` a per-session strategy gets.

        Draw from these (rather than :attr:`rng`) when a session's draws must
        not depend on the other sessions of its chunk, for example to give
        the same bets as a per-session twin, or under ``baccarat trace``.
        """
        return keyed_strategy_rng(self.stream_key, int(self.sessions[position]))


@dataclasses.dataclass(frozen=True)
class Rounds:
    """What has been dealt, for the ``n`` sessions still playing, when the strategy is asked for round ``round``'s bets.

    Every array has ``n`` entries (the first ``n`` sessions of the chunk) and
    is read-only. The round just dealt is the previous one (none when
    ``round`` is 1).
    """

    round: int
    """The round the bets are for, from 1 (the same for every session: they play in lock-step)."""
    outcome: np.ndarray
    """int8: the round just dealt's outcome code, an index into :data:`OUTCOMES` (banker, player, tie); -1 before round 1."""
    cards: np.ndarray | None
    """int8, ``(n, 6)``: the round just dealt's cards, player's three then banker's three (0: none); None without cards."""
    bankroll: np.ndarray
    """int64: each session's bankroll once the round just dealt was settled, micro-units (:data:`MICROS_PER_UNIT`)."""
    net: np.ndarray
    """int64: each session's net over its bets of the round just dealt, micro-units (0: no bet, or a push)."""
    nets: np.ndarray
    """int64 rows ``(session position, side index, net micro-units)``: every bet of these sessions settled in the round just dealt."""
    hand: np.ndarray
    """int64: the next round's hand number in its shoe, from 1."""
    shoe: np.ndarray
    """int64: the next round's shoe."""
    new_shoe: np.ndarray
    """bool: the next round starts a shoe."""
    may_bet: np.ndarray
    """bool: the session may bet (its bankroll reaches the table minimum and no session rule ended it); else bets are ignored."""

    @property
    def n(self) -> int:
        """The number of sessions still playing."""
        return len(self.hand)


VectorBets = tuple[np.ndarray, np.ndarray] | None
"""What ``VectorStrategy.bets`` returns: ``(sides, amounts)``, each of ``rounds.n`` entries; None sits every session out."""


class VectorStrategy:
    """Base class of a vectorised strategy: subclass it, register it from a plugin like a :class:`Strategy`.

    Class attributes as a :class:`Strategy`: ``name``, ``params`` (names with
    defaults), ``description``. ``__init__`` receives the chunk's facts
    (:class:`ChunkFacts`) and the parameters; keep every session's state in arrays
    on the instance, one entry per session of the chunk. ``bets(rounds)`` is
    called once per round with what was dealt (:class:`Rounds`) and returns
    ``(sides, amounts)``: for each of the ``rounds.n`` sessions still playing,
    a side index into ``chunk.offered`` (:data:`NO_BET`, -1, for none) and an
    amount in currency units (integers, or floats that are whole cents;
    0 places no bet). One bet per session and round.

    What it returns is checked across all sessions at once: a side the table
    does not offer, an amount that is not a whole number of cents, negative,
    or below the table minimum, or arrays of the wrong shape, end the run with
    one sentence naming the strategy and the first session at fault. Bets of
    sessions that may not bet (``rounds.may_bet``) are ignored; amounts above
    the table maximum or the bankroll are cut to it, as for any strategy.

    Randomness comes from ``chunk.rng`` (or ``chunk.session_rng(i)``), never
    from a clock or a global stream: the sample shoe is played by two fresh
    players, and a strategy that bets differently is refused.
    """

    name: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    def __init__(self, chunk: ChunkFacts, **params: Any) -> None:
        self.chunk = chunk
        for key, value in params.items():
            setattr(self, key, value)

    @classmethod
    def accepted_params(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the parameters this strategy takes, with their defaults (its ``params``), as :meth:`Strategy.accepted_params`."""
        return dict(cls.params)

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """Return the bets this strategy may place with ``params``, as :meth:`Strategy.sides` (the same default guess)."""
        side = params.get("side")
        return {side} if isinstance(side, str) else set()

    def bets(self, rounds: Rounds) -> VectorBets:
        """Return the next round's bets of every session still playing: ``(sides, amounts)``, or None for no bet at all."""
        raise NotImplementedError


def is_vector(cls: Any) -> bool:
    """Tell whether ``cls`` is a vectorised strategy (made once per chunk, asked once per round)."""
    return isinstance(cls, type) and issubclass(cls, VectorStrategy)
