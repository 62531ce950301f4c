"""Exact histograms of a strategy's bankroll after each round, over its sessions: the bankroll bands, folded chunk by chunk.

Bankrolls are integer micro-units, so the distribution of the bankroll
after round ``r`` over every session is held exactly as its distinct values
and how many sessions had each (a session that has ended counts with its
final bankroll, as the bands define it). :class:`RoundCounts` adds a chunk's
sessions as the chunk arrives and merges what it was given a few chunks at a
time; the bands' percentiles and means are then read off the counts
(:meth:`RoundCounts.bands`): no bankroll is kept or spooled, and no column
of every session is ever sorted. Memory holds one value per distinct
(round, bankroll), far fewer than sessions x rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from baccarat.results.statistics.tallies import exact_sum, percentiles_of_counts

CURVE_POINTS = 400
"""Most rounds at which the bands evaluate the bankroll's percentiles."""

BAND_PERCENTILES = (5, 25, 50, 75, 95)
"""Percentiles of the bankroll drawn as the median and its two bands."""

PENDING_TRIPLES = 1 << 18
"""(round, value, count) triples a :class:`RoundCounts` holds unmerged at least (see there)."""


def curve_rounds(max_round: int, points: int = CURVE_POINTS) -> np.ndarray:
    """Return the rounds (from 1) at which bankroll bands are evaluated: all of them, or ``points`` spread evenly."""
    if max_round <= points:
        return np.arange(1, max_round + 1, dtype=np.int64)
    return np.unique(np.linspace(1, max_round, points).round().astype(np.int64))


def bankroll_block(bankroll: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Return one chunk's bankroll column round by round: a row per round, a column per session.

    ``bankroll`` holds the chunk's sessions one after the other, ``lengths``
    rounds each (at least one). Row ``r`` holds each session's bankroll after
    round ``r + 1``, or its last one once it has ended; there are as many
    rows as the chunk's longest session has rounds.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    rows = int(lengths.max()) if len(lengths) else 0
    block = np.empty((rows, len(lengths)), dtype=np.int64)
    block[:] = bankroll[np.cumsum(lengths) - 1]  # every row: the final bankrolls, then each session's rounds over them
    # The rounds played, session by session, are the cells of the transposed block below each session's length.
    block.T[np.arange(rows)[None, :] < lengths[:, None]] = bankroll
    return block


def _distinct(keys: np.ndarray, values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct (key, value) pairs, sorted by key then value, with their counts added up.

    The pairs usually come as a few runs each sorted already (the merged
    triples, then each chunk's): where keys and values fit in one int64
    (``key * span + value - lowest``), a stable sort of that one number
    merges the runs (timsort) instead of sorting twice.
    """
    if not len(keys):
        return keys, values, counts
    lowest, span = int(values.min()), int(values.max()) - int(values.min()) + 1
    if (int(keys.max()) + 1) * span < 1 << 62 and int(keys.min()) >= 0:
        combined = keys * span + (values - lowest)
        order = np.argsort(combined, kind="stable")
        combined = combined[order]
        new = np.empty(len(combined), dtype=bool)
        new[0] = True
        new[1:] = combined[1:] != combined[:-1]
    else:
        order = np.lexsort((values, keys))
        new = np.empty(len(keys), dtype=bool)
        new[0] = True
        new[1:] = (keys[order][1:] != keys[order][:-1]) | (values[order][1:] != values[order][:-1])
    starts = np.flatnonzero(new)
    first = order[starts]
    return keys[first], values[first], np.add.reduceat(counts[order], starts)


def _weighted_sum(values: np.ndarray, counts: np.ndarray) -> int:
    """Return ``Σ values·counts`` exactly (int64 values, counts below 2**31): the high and low 32 bits apart."""
    high, low = values >> 32, values & 0xFFFFFFFF
    return (exact_sum(high * counts) << 32) + exact_sum(low * counts)


class KeyedCounts:
    """Exact counts of int64 values under int64 keys: (key, value, count) triples, sorted by key then value.

    Triples added wait until they outnumber those merged (and at least
    :data:`PENDING_TRIPLES`), then are merged in one pass: memory holds one
    triple per distinct (key, value), and a bounded number waiting.
    """

    def __init__(self) -> None:
        self._keys = np.zeros(0, dtype=np.int64)
        self._values = np.zeros(0, dtype=np.int64)
        self._counts = np.zeros(0, dtype=np.int64)
        self._pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._waiting = 0

    @classmethod
    def of(cls, keys: np.ndarray, values: np.ndarray, counts: np.ndarray) -> KeyedCounts:
        """Return the counts of these triples: taken as they are when sorted by key then value, each pair once (as
        :meth:`merge` leaves them), else merged."""
        keyed = cls()
        step, rise = np.diff(keys), np.diff(values)
        if ((step > 0) | ((step == 0) & (rise > 0))).all():
            keyed._keys, keyed._values, keyed._counts = keys, values, counts
        else:
            keyed.add(keys, values, counts)
            keyed.merge()
        return keyed

    def add(self, keys: np.ndarray, values: np.ndarray, counts: np.ndarray) -> None:
        """Count ``counts[i]`` times the value ``values[i]`` under ``keys[i]``."""
        self._pending.append((keys, values, counts))
        self._waiting += len(keys)
        if self._waiting > max(PENDING_TRIPLES, len(self._keys)):
            self.merge()

    def merge(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Merge what waits; return the triples (keys, values, counts), sorted by key then value."""
        if self._pending:
            parts = [(self._keys, self._values, self._counts), *self._pending]
            self._pending, self._waiting = [], 0
            self._keys, self._values, self._counts = _distinct(*(np.concatenate(column) for column in zip(*parts, strict=True)))
        return self._keys, self._values, self._counts


class RoundCounts:
    """Each round's bankroll over a strategy's sessions as exact counts, added a chunk at a time.

    Held as (round, value, count) triples (:class:`KeyedCounts`). A chunk's
    rounds beyond its longest session are not stored: its final bankrolls
    count for every later round, held as (that session's rounds, value,
    count) triples.
    """

    def __init__(self) -> None:
        self.sessions = 0
        self.longest = 0
        """The longest session's rounds."""
        self.rounds = KeyedCounts()
        """Each round's bankrolls (the round from 0: after round ``r + 1``)."""
        self.ended = KeyedCounts()
        """Each chunk's final bankrolls, under the rounds of its longest session: they count for every round after it."""

    def add(self, bankroll: np.ndarray, lengths: np.ndarray) -> None:
        """Add a chunk's sessions: ``bankroll`` holds them one after the other, ``lengths`` rounds each (at least one)."""
        if not len(lengths):
            return
        block = bankroll_block(np.asarray(bankroll, dtype=np.int64), lengths)
        height, width = block.shape
        ordered = np.sort(block, axis=1).ravel()  # each round's values in order: runs of equal values are counted
        new = np.empty(len(ordered), dtype=bool)
        new[0] = True
        new[1:] = ordered[1:] != ordered[:-1]
        new[::width] = True  # each round starts its own runs
        starts = np.flatnonzero(new)
        counts = np.diff(np.append(starts, len(ordered)))
        rounds, values = starts // width, ordered[starts]
        last = rounds == height - 1  # the last row: every session's final bankroll
        self.ended.add(np.full(int(last.sum()), height, dtype=np.int64), values[last], counts[last])
        self.rounds.add(rounds, values, counts)
        self.sessions += width
        self.longest = max(self.longest, height)

    def bands(self, grid: np.ndarray, percentiles: Sequence[float] = BAND_PERCENTILES) -> tuple[np.ndarray, np.ndarray]:
        """Return the bankroll's ``percentiles`` (a row per round of ``grid``, ascending, from 1) and its mean, in units.

        The percentiles are numpy's linear ones of every session's bankroll
        after the round, bit for bit; the mean is their exact sum divided by
        the sessions, as floats divide (an int64 sum over the sessions, then
        ``/ sessions / 10**6``).
        """
        rounds, round_values, round_counts = self.rounds.merge()
        heights, final_values, final_counts = self.ended.merge()
        carried = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))  # finals of the chunks that have ended
        taken = 0
        table = np.empty((len(grid), len(percentiles)))
        means = np.empty(len(grid))
        for i, r in enumerate(np.asarray(grid, dtype=np.int64).tolist()):
            upto = int(np.searchsorted(heights, r, side="left"))  # chunks whose longest session ended before round r
            if upto > taken:
                keys = np.zeros(len(carried[0]) + upto - taken, dtype=np.int64)
                values = np.concatenate([carried[0], final_values[taken:upto]])
                counts = np.concatenate([carried[1], final_counts[taken:upto]])
                _, *carried = _distinct(keys, values, counts)
                taken = upto
            lo, hi = np.searchsorted(rounds, [r - 1, r])
            values = np.concatenate([round_values[lo:hi], carried[0]])
            counts = np.concatenate([round_counts[lo:hi], carried[1]])
            order = np.argsort(values, kind="stable")
            values, counts = values[order], counts[order]
            table[i] = percentiles_of_counts(values / 1e6, counts, percentiles)
            means[i] = float(_weighted_sum(values, counts)) / self.sessions / 1e6
        return table, means
