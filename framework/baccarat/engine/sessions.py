"""Sessions cut from the rounds dealt: whole shoes (``shoes_per_session``), or a number of rounds (``session.rounds``).

With ``rounds``, a session is that many consecutive rounds. By default the
next session starts on the round after the last one's end, in the same shoe
(a session crosses into the next shoe when its shoe ends first); with
``new_shoe`` each session starts on a new shoe and the rest of its last shoe
is not played. Only whole sessions are played: the rounds after the last
whole session are not played or written. Sessions are cut the same way
whichever part of the shoes a chunk holds (:func:`round_windows` from a row
of the first shoe), so the cut never depends on the chunks.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from baccarat.money import MICROS_PER_CENT, cents_to_decimal
from baccarat.plugin.view import SessionInfo
from baccarat.shoes.rounds import RoundTable
from baccarat.table.pace import HANDS_PER_HOUR
from baccarat.table.rules import Rules

__all__ = ["SessionConfig", "round_windows", "session_bounds", "sessions_of", "shoe_lengths"]


@dataclasses.dataclass(frozen=True)
class SessionConfig:
    """Money, length and session rules of every session, in exact cents.

    A session is ``shoes_per_session`` whole shoes, or, with ``rounds``, that
    many rounds (:mod:`baccarat.engine.sessions`). ``win_goal_cents`` and
    ``stop_loss_cents`` are the dealer's session rules: the session bets no
    more once its bankroll has reached the start plus the goal, or fallen to
    the start minus the stop-loss or below.
    """

    bankroll_cents: int
    table_min_cents: int
    table_max_cents: int
    shoes_per_session: int = 1
    rounds: int | None = None
    """Rounds of every session (None: whole shoes, ``shoes_per_session`` of them)."""
    new_shoe: bool = False
    """With ``rounds``: each session starts on a new shoe (else on the round after the last session's end)."""
    win_goal_cents: int | None = None
    stop_loss_cents: int | None = None
    hands_per_hour: float = HANDS_PER_HOUR
    """The table's pace, for the summary's loss per hour (no engine reads it); decimals allowed (72.5)."""

    def session_rules(self) -> tuple[int | None, int | None]:
        """Return the win goal and the stop-loss in micro-units (None where not set)."""
        return (
            None if self.win_goal_cents is None else self.win_goal_cents * MICROS_PER_CENT,
            None if self.stop_loss_cents is None else self.stop_loss_cents * MICROS_PER_CENT,
        )

    def sample_session(self, rules: Rules) -> SessionInfo:
        """The first session's information with a fixed generator: what a strategy is made with to check it before a run."""
        return SessionInfo(
            1,
            rules,
            cents_to_decimal(self.bankroll_cents),
            cents_to_decimal(self.table_min_cents),
            cents_to_decimal(self.table_max_cents),
            np.random.default_rng(0),
        )


def session_bounds(table: RoundTable, shoes_per_session: int) -> list[tuple[int, int, int]]:
    """Return ``(session, start_row, stop_row)`` for each session, sessions numbered from 1.

    Session ``k`` holds shoes ``(k-1)*shoes_per_session+1 .. k*shoes_per_session``
    counted in the table's order; a last session may hold fewer shoes.
    """
    bounds = table.shoe_bounds()
    out = []
    for k in range(0, len(bounds), shoes_per_session):
        group = bounds[k : k + shoes_per_session]
        out.append((k // shoes_per_session + 1, group[0][0], group[-1][1]))
    return out


def shoe_lengths(table: RoundTable) -> np.ndarray:
    """Return the rounds of each shoe of ``table``, in order (int64)."""
    if len(table) == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(np.diff(table.shoe)) + 1
    edges = np.concatenate([[0], change, [len(table)]])
    return np.diff(edges).astype(np.int64)


def round_windows(lengths: np.ndarray, rounds: int, new_shoe: bool, offset: int = 0, limit: int | None = None) -> np.ndarray:
    """Return the ``(start, stop)`` rows of the whole sessions of ``rounds`` rounds over shoes of ``lengths`` rounds.

    Rows count from the first shoe's first round; the first session starts at
    row ``offset`` (a session already under way before it is not this call's).
    At most ``limit`` sessions. With ``new_shoe``, each session starts on the
    first shoe that begins at or after the previous session's end.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if not new_shoe:
        n = max(0, (total - offset) // rounds)
        if limit is not None:
            n = min(n, limit)
        starts = offset + rounds * np.arange(n, dtype=np.int64)
    else:
        shoe_starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if len(lengths) else np.zeros(0, np.int64)
        if len(lengths) and int(lengths.min()) >= rounds:  # every shoe holds a session: one per shoe
            starts = shoe_starts[shoe_starts >= offset]
            starts = starts[starts + rounds <= total]
            if limit is not None:
                starts = starts[:limit]
        else:
            found: list[int] = []
            i = int(np.searchsorted(shoe_starts, offset))
            while i < len(shoe_starts) and (limit is None or len(found) < limit):
                start = int(shoe_starts[i])
                if start + rounds > total:
                    break
                found.append(start)
                i = int(np.searchsorted(shoe_starts, start + rounds))
            starts = np.asarray(found, dtype=np.int64)
    return np.stack([starts, starts + rounds], axis=1) if len(starts) else np.zeros((0, 2), np.int64)


def sessions_of(
    table: RoundTable, config: SessionConfig, first_session: int = 1, offset: int = 0, limit: int | None = None
) -> list[tuple[int, int, int]]:
    """Return ``(session, start_row, stop_row)`` of every session of ``table`` under ``config``, numbered from ``first_session``.

    Whole shoes (:func:`session_bounds`) without
    ``config.rounds``; else :func:`round_windows` from row ``offset`` of the
    first shoe, at most ``limit`` sessions.
    """
    if config.rounds is None:
        return [(first_session + k - 1, start, stop) for k, start, stop in session_bounds(table, config.shoes_per_session)]
    windows = round_windows(shoe_lengths(table), config.rounds, config.new_shoe, offset, limit)
    return [(first_session + k, int(start), int(stop)) for k, (start, stop) in enumerate(windows.tolist())]


def played_rows(table: RoundTable, sessions: list[tuple[int, int, int]]) -> tuple[RoundTable, list[tuple[int, int, int]]]:
    """Return the table of the sessions' rounds only (in session order) and the sessions' rows in it.

    What a run deals, plays and writes: no round outside a session.
    """
    if not sessions:
        return table.slice(0, 0), []
    bounds = np.asarray(sessions, dtype=np.int64).reshape(-1, 3)
    if (bounds[1:, 1] == bounds[:-1, 2]).all():
        start, stop = int(bounds[0, 1]), int(bounds[-1, 2])
        part = table if (start, stop) == (0, len(table)) else table.slice(start, stop)
        return part, [(k, a - start, b - start) for k, a, b in sessions]
    rows = np.concatenate([np.arange(a, b, dtype=np.int64) for _, a, b in sessions])
    lengths = bounds[:, 2] - bounds[:, 1]
    firsts = (np.cumsum(lengths) - lengths).tolist()
    return table.take(rows), [(k, f, f + n) for (k, _, _), f, n in zip(sessions, firsts, lengths.tolist(), strict=True)]
