"""A seat for a vectorised strategy: one call per round decides the bets of every session of the chunk.

:class:`VectorSeat` answers the dealer's steps as :class:`~baccarat.players.seat.Seat`
does (same :class:`~baccarat.players.seat.Step` in, same
:class:`~baccarat.players.seat.Answer` out), so the player processes, the
dealer and the ledger are the same for both. Where a seat keeps a view and a
strategy per session and calls each, this one makes the strategy once for the
chunk (:class:`baccarat.plugin.vector.ChunkFacts`) and hands it each step as
read-only arrays (:class:`baccarat.plugin.vector.Rounds`) of the sessions
still playing: what was dealt, never more. What it returns is checked over
all sessions at once with numpy, and the first session at fault is named in
one sentence, as the per-session seat names it.

:func:`seat_for` chooses the seat wherever one is built.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baccarat.errors import plugin_traceback
from baccarat.interrupts import is_stop
from baccarat.money import CENTS_PER_UNIT, MICROS_PER_CENT, cents_to_decimal
from baccarat.players.seat import LARGEST_CENTS, Answer, Opening, Refused, Seat, Step, no_bets, said
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.vector import NO_BET, ChunkFacts, Rounds, VectorStrategy, chunk_rng, is_vector, read_only
from baccarat.table.rules import Rules

NO_STOPS = np.zeros((0, 2), np.int64)


def seat_for(cls: type[Strategy] | type[VectorStrategy], rules: Rules, opening: Opening) -> Seat | VectorSeat:
    """Return the seat that plays ``cls``: a :class:`VectorSeat` for a vectorised strategy, else a :class:`Seat`."""
    if is_vector(cls):
        return VectorSeat(cls, rules, opening)
    return Seat(cls, rules, opening)


class VectorSeat:
    """A vectorised strategy over the sessions of a chunk, in lock-step (see the module's docstring)."""

    def __init__(self, cls: type[VectorStrategy], rules: Rules, opening: Opening) -> None:
        self.cls = cls
        self.rules = rules
        self.opening = opening
        self.sessions = np.asarray(opening.sessions, dtype=np.int64)
        self.strategy: Any = None
        self.steps = 0
        self.shoe = np.zeros(len(self.sessions), np.int64)
        """Each session's current shoe (where a fault is said to be)."""
        self.hand = np.zeros(len(self.sessions), np.int64)

    # The frame of a step is the per-session seat's: ``_step`` runs in the exact decimal context, a refusal is the answer.
    __enter__ = Seat.__enter__
    __exit__ = Seat.__exit__
    step = Seat.step

    def _step(self, step: Step) -> Answer:
        if self.steps == 0:
            self._open(step)
        n = len(step.hand)
        if n == 0:  # the last step only shows the last round: no round is left to bet on
            return no_bets()
        self.shoe[:n], self.hand[:n] = step.shoe, step.hand
        rounds = self._rounds(step, n)
        try:
            wanted = self.strategy.bets(rounds)
        except BaseException as exc:  # its own BaseException subclass, sys.exit: the strategy failed
            if is_stop(exc):
                raise
            raise self._refused(0, f"{said(exc, self.cls)}", exc) from None
        if wanted is None:
            return no_bets()
        pos, k, cents = self._checked(wanted, rounds)
        rows = np.stack([pos, k, cents, np.zeros(len(pos), np.int64)], axis=1)
        return Answer(rows, np.full(len(pos), np.nan), NO_STOPS)

    def _open(self, step: Step) -> None:
        """Make the strategy once for the chunk, with the chunk's random stream."""
        opening = self.opening
        chunk = ChunkFacts(
            read_only(self.sessions),
            self.rules,
            cents_to_decimal(opening.bankroll_cents),
            cents_to_decimal(opening.table_min_cents),
            cents_to_decimal(opening.table_max_cents),
            tuple(opening.offered),
            opening.has_cards,
            chunk_rng(opening.stream_key, int(self.sessions.min()) if len(self.sessions) else 0),
            opening.stream_key,
        )
        try:
            self.strategy = self.cls(chunk, **opening.params)
        except BaseException as exc:
            if is_stop(exc):
                raise
            first = (
                f"session {self.sessions[0]}, shoe {step.shoe[0] if len(step.shoe) else '-'}, before round 1"
                if len(self.sessions)
                else "no session"
            )
            raise Refused(
                f"strategy {opening.label!r} could not start: {said(exc, self.cls)} ({first})", plugin_traceback(exc), at_start=True
            ) from None

    def _rounds(self, step: Step, n: int) -> Rounds:
        """What the strategy is shown for the next round: the round just dealt and the next one's known facts, first ``n`` sessions."""
        nets = step.nets
        net = np.zeros(n, np.int64)
        if len(nets):
            nets = nets[nets[:, 0] < n]  # the sessions still playing (those that just ended are done)
            np.add.at(net, nets[:, 0], nets[:, 2])
        if len(step.outcome):
            outcome = step.outcome[:n]
            cards = None if step.cards is None else step.cards[:n]
            bankroll = step.bankroll[:n]
        else:  # before the first round: nothing dealt, every bankroll as it started
            outcome = np.full(n, NO_BET, np.int8)
            cards = None if not self.opening.has_cards else np.zeros((n, 6), np.int8)
            bankroll = np.full(n, self.opening.bankroll_cents * MICROS_PER_CENT, np.int64)
        return Rounds(
            self.steps + 1,
            read_only(outcome),
            None if cards is None else read_only(cards),
            read_only(bankroll),
            read_only(net),
            read_only(nets),
            read_only(step.hand),
            read_only(step.shoe),
            read_only(step.new_shoe),
            read_only(step.may_bet),
        )

    # What the strategy returned -------------------------------------------------------------------------
    def _checked(self, wanted: Any, rounds: Rounds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Check ``(sides, amounts)`` over every session at once; return the bets placed: positions, side indices, cents."""
        n = rounds.n
        if not isinstance(wanted, tuple | list) or len(wanted) != 2:
            raise self._refused(0, f"returned {type(wanted).__name__}, not (sides, amounts) or None")
        try:
            sides, amounts = (np.asarray(part) for part in wanted)
        except Exception as exc:  # ragged lists, objects numpy cannot read
            raise self._refused(0, f"returned (sides, amounts) that are no arrays: {said(exc, self.cls)}") from None
        for what, array in (("sides", sides), ("amounts", amounts)):
            if array.shape != (n,):
                raise self._refused(0, f"returned {what} of shape {array.shape}, not ({n},): one per session still playing")
        if sides.dtype.kind not in "iu":
            raise self._refused(0, f"returned sides of {sides.dtype}, not side indices (integers)")
        if amounts.dtype.kind not in "iuf" or amounts.dtype == np.float16:
            raise self._refused(0, f"returned amounts of {amounts.dtype}, not currency units (integers or floats)")
        sides = sides.astype(np.int64, copy=False)
        offered = self.opening.offered
        unknown = ((sides < NO_BET) | (sides >= len(offered))) & rounds.may_bet
        if unknown.any():
            i = int(np.argmax(unknown))
            raise self._refused(i, f"bet on side index {sides[i]}, which the table does not offer ({self._offered()})")
        betting = (sides != NO_BET) & rounds.may_bet
        cents = self._cents(amounts, betting, sides)
        betting &= cents != 0
        pos = np.flatnonzero(betting)
        return pos, sides[pos], np.minimum(cents[pos], LARGEST_CENTS)

    def _cents(self, amounts: np.ndarray, betting: np.ndarray, sides: np.ndarray) -> np.ndarray:
        """The amounts of the sessions betting as whole cents; refuse the first that is not whole cents, is negative or below the minimum.

        Floats are whole cents when they are the float nearest a number of
        cents (``cents / 100`` is correctly rounded, so that is the test):
        ``12.5`` and ``0.07`` are, ``0.001`` is not.
        """
        if amounts.dtype.kind == "f":
            amounts = amounts.astype(np.float64, copy=False)
            bad = betting & ~np.isfinite(amounts)
            if bad.any():
                i = int(np.argmax(bad))
                raise self._refused(i, f"bet an invalid amount on {self.opening.offered[sides[i]]}: {amounts[i]!r} is not an amount")
            capped = np.clip(np.where(betting, amounts, 0.0), -LARGEST_CENTS / CENTS_PER_UNIT, LARGEST_CENTS / CENTS_PER_UNIT)
            cents = np.rint(capped * CENTS_PER_UNIT)
            bad = betting & (np.abs(capped) < LARGEST_CENTS / CENTS_PER_UNIT) & (cents / CENTS_PER_UNIT != capped)
            if bad.any():
                i = int(np.argmax(bad))
                raise self._refused(
                    i, f"bet an invalid amount on {self.opening.offered[sides[i]]}: {float(amounts[i])} is not a whole number of cents"
                )
            cents = cents.astype(np.int64)
        else:
            units = np.where(betting, amounts, 0)
            if units.dtype.kind == "u":
                units = np.minimum(units, LARGEST_CENTS // CENTS_PER_UNIT).astype(np.int64)
            units = units.astype(np.int64)
            cents = np.clip(units, -LARGEST_CENTS // CENTS_PER_UNIT, LARGEST_CENTS // CENTS_PER_UNIT) * CENTS_PER_UNIT
        negative = betting & (cents < 0)
        if negative.any():
            i = int(np.argmax(negative))
            raise self._refused(i, f"bet a negative amount ({amounts[i]}) on {self.opening.offered[sides[i]]}")
        table_min = self.opening.table_min_cents
        low = betting & (cents > 0) & (cents < table_min)
        if low.any():
            i = int(np.argmax(low))
            amount, side = cents_to_decimal(int(cents[i])), self.opening.offered[sides[i]]
            raise self._refused(i, f"bet {amount} on {side}, below the table minimum {cents_to_decimal(table_min)}")
        return cents

    def _offered(self) -> str:
        return ", ".join(f"{k}: {bet}" for k, bet in enumerate(self.opening.offered))

    def _refused(self, i: int, what: str, exc: BaseException | None = None) -> Refused:
        where = f"session {self.sessions[i]}, shoe {self.shoe[i]}, hand {self.hand[i]}, round {self.steps + 1}"
        return Refused(f"strategy {self.opening.label!r} {what} ({where})", plugin_traceback(exc) if exc is not None else "")
