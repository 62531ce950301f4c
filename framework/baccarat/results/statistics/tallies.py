"""Exact aggregates of session rows that add up chunk by chunk: the summary and the paired comparison are made from them.

Money inside a run is integer micro-units, so its sums, sums of squares and
sums of products are exact integers (:func:`exact_sum`, :func:`exact_gram`),
its medians, quantiles and ``bankroll_for_ruin`` are read off exact
histograms (:class:`Counts`: each value with its count), and the floats of a
session (its ``expected_net``) are summed exactly and rounded once
(:class:`FloatSum`). A :class:`SessionTally` (one strategy's sessions) and
a :class:`PairTally` (a strategy's sessions paired with the baseline's) hold
those aggregates: adding the sessions a chunk at a time or all at once gives
the very same tally, so the statistics folded while a run plays
(:mod:`baccarat.results.statistics.folded`) are those of the whole session
table (:func:`baccarat.results.statistics.ledger_stats.summary_table`, the
definition), and memory holds no column of every session.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import polars as pl

from baccarat.money import MICROS_PER_UNIT
from baccarat.results.ledger import money_micros
from baccarat.table.pace import HANDS_PER_HOUR

LIMB_BITS = 16
"""Bits of a limb in :func:`exact_gram`: a product of two limbs and 2**20 of them added stay exact in a float64."""

LIMBS = 4
"""Limbs of an int64 in :func:`exact_gram`."""

BLOCK_ROWS = 1 << 20
"""Rows added at once by :func:`exact_gram` (with :data:`LIMB_BITS`, every partial sum is below 2**53)."""

FLOAT_OFFSET = 1126
"""A float's exact value times 2**FLOAT_OFFSET is an integer (the smallest subnormal is 2**-1074, its mantissa 2**52 of it)."""

FLOAT_BLOCK = 1 << 26
"""Floats whose 27-bit halves :meth:`FloatSum.add` adds in float64 at once (their sums stay below 2**53)."""

SPLITTER = 134217729.0
"""2**27 + 1: Dekker's split of a float into two halves whose products are exact."""


def exact_sum(values: np.ndarray) -> int:
    """Return the exact sum of an int64 array (as a Python int: no overflow)."""
    values = np.asarray(values, dtype=np.int64)
    if not len(values):
        return 0
    top = max(int(np.abs(values).max()), 1)
    step = max(1, (1 << 62) // top)  # a block's sum stays within int64
    return sum(int(values[start : start + step].sum()) for start in range(0, len(values), step))


def exact_gram(columns: np.ndarray) -> np.ndarray:
    """Return ``X.T @ X`` of an ``(n, m)`` int64 matrix exactly, as an ``(m, m)`` array of Python ints.

    Each value is cut into its :data:`LIMBS` words of :data:`LIMB_BITS` bits
    (two's complement: the lower words unsigned, the top one signed), read
    in place; the words' products, added :data:`BLOCK_ROWS` rows at a time,
    are exact in float64, so one matrix product (BLAS) per block gives every
    sum of products.
    """
    x = np.ascontiguousarray(columns, dtype="<i8")
    n, m = x.shape
    gram = np.zeros((m, m), dtype=object)
    if not n:
        return gram
    words = x.view("<u2").reshape(n, m, LIMBS)
    top = x.view("<i2").reshape(n, m, LIMBS)[:, :, -1]
    for start in range(0, n, BLOCK_ROWS):
        rows = slice(start, min(start + BLOCK_ROWS, n))
        # Column (i, j): the i-th word of column j.
        split = np.empty((rows.stop - rows.start, LIMBS * m))
        for i in range(LIMBS - 1):
            split[:, i * m : (i + 1) * m] = words[rows, :, i]
        split[:, (LIMBS - 1) * m :] = top[rows]
        products = (split.T @ split).astype(np.int64)  # exact integers below 2**52
        for shift in range(2 * LIMBS - 1):  # the products of words a and b weigh 2**(LIMB_BITS * (a + b))
            # Adding LIMBS such products stays below 2**54: exact in int64.
            pairs = [(a, shift - a) for a in range(LIMBS) if 0 <= shift - a < LIMBS]
            weight = sum(products[a * m : (a + 1) * m, b * m : (b + 1) * m] for a, b in pairs)
            gram += weight.astype(object) << (LIMB_BITS * shift)
    return gram


class FloatSum:
    """The exact sum of floats, added array by array and rounded once (:meth:`value`); NaN once a NaN is added."""

    def __init__(self) -> None:
        self.scaled = 0
        """The finite values' exact sum times 2**FLOAT_OFFSET."""
        self.special = 0.0
        """The sum of the infinite and NaN values."""
        self.count = 0

    def add(self, values: np.ndarray) -> None:
        """Add each value of a float64 array."""
        values = np.asarray(values, dtype=np.float64)
        self.count += len(values)
        finite = np.isfinite(values)
        if not finite.all():
            self.special += float(values[~finite].sum())
            values = values[finite]
        if not len(values):
            return
        fraction, exponent = np.frexp(values)
        mantissa = (fraction * float(1 << 53)).astype(np.int64)  # exact: a float has 53 bits of mantissa
        lowest = int(exponent.min())
        group = exponent - lowest  # the exponents of a few nearby powers of two: counted, not sorted
        size = int(group.max()) + 1
        for start in range(0, len(values), FLOAT_BLOCK):
            part = slice(start, start + FLOAT_BLOCK)
            # Sums of 27-bit halves of at most FLOAT_BLOCK mantissas: exact in float64.
            high = np.bincount(group[part], weights=(mantissa[part] >> 26).astype(np.float64), minlength=size)
            low = np.bincount(group[part], weights=(mantissa[part] & ((1 << 26) - 1)).astype(np.float64), minlength=size)
            total = 0
            for shift in np.flatnonzero((high != 0) | (low != 0)).tolist():
                total += ((int(high[shift]) << 26) + int(low[shift])) << shift
            self.scaled += total << (lowest - 53 + FLOAT_OFFSET)

    def add_squares(self, values: np.ndarray) -> None:
        """Add the exact square of each value (Dekker: ``x = a + b`` with ``a²``, ``2ab`` and ``b²`` exact floats).

        Exact for values whose squares neither underflow nor overflow (magnitudes between about 1e-140 and 1e140).
        """
        values = np.asarray(values, dtype=np.float64)
        scaled = SPLITTER * values
        high = scaled - (scaled - values)
        low = values - high
        for part in (high * high, 2 * high * low, low * low):
            self.add(part)
        self.count -= 2 * len(values)

    def add_products(self, left: np.ndarray, right: np.ndarray) -> None:
        """Add the exact product of each pair of values (Dekker: each value the sum of two halves whose products are exact floats).

        Exact for values whose products neither underflow nor overflow (as :meth:`add_squares`).
        """
        halves = [_halves(np.asarray(values, dtype=np.float64)) for values in (left, right)]
        for a in halves[0]:
            for b in halves[1]:
                self.add(a * b)
        self.count -= 3 * len(halves[0][0])

    def exact(self) -> Fraction | None:
        """The sum as an exact fraction (None once an infinite or NaN value was added)."""
        if self.special != 0 or self.special != self.special:
            return None
        return Fraction(self.scaled, 1 << FLOAT_OFFSET)

    def value(self) -> float:
        """The sum, rounded once to the nearest float."""
        if self.special != 0 or self.special != self.special:
            return self.special + float(self.scaled / (1 << FLOAT_OFFSET))
        return self.scaled / (1 << FLOAT_OFFSET)  # int / int: correctly rounded


def _halves(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's split of floats into a high and a low half of 26 bits each: a product of two halves is an exact float."""
    scaled = SPLITTER * values
    high = scaled - (scaled - values)
    return high, values - high


class Counts:
    """An exact histogram of int64 values: the distinct values, sorted, and how many times each was added.

    Values added wait in a buffer until it holds more than the histogram
    has distinct values (and at least :data:`PENDING_VALUES`), then are
    counted in one pass: a chunk at a time costs no sort of the histogram.
    """

    def __init__(self) -> None:
        self._values = np.zeros(0, dtype=np.int64)
        self._counts = np.zeros(0, dtype=np.int64)
        self._pending: list[np.ndarray] = []
        self._waiting = 0

    def add(self, values: np.ndarray) -> None:
        """Count each value of an int64 array."""
        if not len(values):
            return
        self._pending.append(np.array(values, dtype=np.int64))
        self._waiting += len(values)
        if self._waiting > max(PENDING_VALUES, len(self._values)):
            self._merge()

    def _merge(self) -> None:
        if not self._pending:
            return
        found, counts = np.unique(np.concatenate(self._pending), return_counts=True)
        self._pending, self._waiting = [], 0
        if len(self._values):
            found, where = np.unique(np.concatenate([self._values, found]), return_inverse=True)
            merged = np.zeros(len(found), dtype=np.int64)
            np.add.at(merged, where, np.concatenate([self._counts, counts]))
            counts = merged
        self._values, self._counts = found, counts.astype(np.int64)

    @property
    def values(self) -> np.ndarray:
        """The distinct values, sorted."""
        self._merge()
        return self._values

    @property
    def counts(self) -> np.ndarray:
        """How many times each of :attr:`values` was added."""
        self._merge()
        return self._counts

    @property
    def total(self) -> int:
        """How many values were added."""
        return int(self.counts.sum())

    def ranked(self, ranks: np.ndarray) -> np.ndarray:
        """Return the values at 0-based ``ranks`` (each below :attr:`total`) of the values added, sorted."""
        return self.values[np.searchsorted(np.cumsum(self.counts), np.asarray(ranks, dtype=np.int64), side="right")]


PENDING_VALUES = 1 << 16
"""Values a :class:`Counts` holds uncounted at least (see there)."""


def _percentile_ranks(n: int, percentiles: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """numpy's linear percentile of ``n`` sorted values: the ranks of the two neighbours and the weight of the second."""
    virtual = (n - 1) * np.true_divide(np.asarray(percentiles), 100)
    previous = np.floor(virtual)
    following = previous + 1
    above = virtual >= n - 1
    previous[above] = -1
    following[above] = -1
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    return previous, following, np.asarray(virtual - previous, dtype=virtual.dtype)


def _interpolate(a: np.ndarray, b: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """numpy's two-sided linear interpolation between neighbours ``a`` and ``b`` (weight ``gamma`` on ``b``)."""
    diff = b - a
    result = a + diff * gamma
    np.subtract(b, diff * (1 - gamma), out=result, where=np.broadcast_to(gamma >= 0.5, result.shape))
    return result


def percentiles_of_counts(values: np.ndarray, counts: np.ndarray, percentiles: Sequence[float]) -> np.ndarray:
    """Return ``np.percentile`` (linear) of the sorted ``values`` each repeated ``counts`` times, bit for bit (none empty)."""
    n = int(counts.sum())
    previous, following, gamma = _percentile_ranks(n, percentiles)
    ends = np.cumsum(counts)
    at = lambda ranks: values[np.searchsorted(ends, np.where(ranks < 0, n - 1, ranks), side="right")]  # noqa: E731
    return _interpolate(at(previous), at(following), gamma)


def money_floats(micros: np.ndarray) -> np.ndarray:
    """Return amounts in micro-units as the floats polars gives for their ``Decimal(38, 6)`` (``micros / 10**6``)."""
    return np.asarray(micros, dtype=np.int64) / 1e6


def median_of(counts: Counts, floats: np.ndarray | None = None) -> float | None:
    """Return polars' median of the values counted (as floats: ``floats``, one a distinct value; default the values)."""
    n = counts.total
    if not n:
        return None
    values = counts.values.astype(np.float64) if floats is None else floats
    middle = values[np.searchsorted(np.cumsum(counts.counts), [(n - 1) // 2, n // 2], side="right")]
    return pl.Series(middle if n % 2 == 0 else middle[:1], dtype=pl.Float64).median()


@dataclasses.dataclass(frozen=True)
class Pricing:
    """What the casino gives back and how fast the table deals: the summary's rebates and loss per hour.

    ``rolling_rebate``: a share of every amount wagered; ``loss_rebate``: a
    share of what a session lost (its starting ``bankroll_micros`` less its
    final bankroll, where positive); both exact fractions of the rules.
    """

    bankroll_micros: int
    rolling_rebate: Fraction = Fraction(0)
    loss_rebate: Fraction = Fraction(0)
    hands_per_hour: float = HANDS_PER_HOUR


SESSION_COLUMNS = (
    "strategy",
    "session",
    "rounds_dealt",
    "rounds",
    "wagered",
    "net",
    "expected_net",
    "final_bankroll",
    "peak",
    "ruined",
    "rounds_to_ruin",
    "max_drawdown",
    "longest_losing_streak",
    "max_stake",
    "capped_bets",
    "stopped_by",
    "bankroll_needed",
)
"""Columns of the session table (folded while a run plays, :mod:`baccarat.results.statistics.folded`), in order."""


# Columns of SessionRows.values (baccarat.results.statistics.folded).
DEALT, ROUNDS, WAGERED, NET, FINAL, TO_RUIN, DRAWDOWN, STREAK, STAKE, CAPPED, PEAK, STOPPED, NEEDED = range(13)


@dataclasses.dataclass
class SessionTally:
    """Exact aggregates of one strategy's sessions (money in micro-units); :meth:`add` takes them a chunk at a time."""

    sessions: int = 0
    rounds: int = 0
    rounds_dealt: int = 0
    longest_session: int = 0
    wagered: int = 0
    net: int = 0
    moments: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((2, 2), dtype=object))
    """Sums of products of (net, wagered), session by session: ``[[Σnet², Σnet·wagered], [.., Σwagered²]]``."""
    final_sum: int = 0
    finals: Counts = dataclasses.field(default_factory=Counts)
    expected: FloatSum = dataclasses.field(default_factory=FloatSum)
    expected_squares: FloatSum = dataclasses.field(default_factory=FloatSum)
    """Σexpected_net², exact: with :attr:`expected_wagered` and :attr:`moments`, the spread of the expected edge."""
    expected_wagered: FloatSum = dataclasses.field(default_factory=FloatSum)
    """Σexpected_net·wagered (wagered in micro-units), exact."""
    expected_known: bool = False
    ruined: int = 0
    ruin_rounds: Counts = dataclasses.field(default_factory=Counts)
    drawdown_sum: int = 0
    drawdown_max: int = 0
    streak_max: int = 0
    stake_max: int = 0
    capped: int = 0
    in_profit: int = 0
    needed: Counts = dataclasses.field(default_factory=Counts)
    """The sessions' ``bankroll_needed`` where known (the others need more than any)."""

    def add(self, values: np.ndarray, expected: np.ndarray | None) -> None:
        """Add sessions: ``values`` as :class:`baccarat.results.statistics.folded.SessionRows` holds them, ``expected``
        their ``expected_net`` (None: not known)."""
        if not len(values):
            return
        first = self.sessions == 0
        self.sessions += len(values)
        self.rounds += exact_sum(values[:, ROUNDS])
        self.rounds_dealt += exact_sum(values[:, DEALT])
        self.longest_session = max(self.longest_session, int(values[:, DEALT].max()))
        self.wagered += exact_sum(values[:, WAGERED])
        self.net += exact_sum(values[:, NET])
        self.moments = self.moments + exact_gram(values[:, [NET, WAGERED]])
        self.final_sum += exact_sum(values[:, FINAL])
        self.finals.add(values[:, FINAL])
        if expected is not None:
            self.expected.add(expected)
            self.expected_squares.add_squares(expected)
            self.expected_wagered.add_products(expected, values[:, WAGERED].astype(np.float64))  # exact below 2**53 micro-units
            self.expected_known = True
        ruin = values[:, TO_RUIN]
        self.ruined += int((ruin >= 0).sum())
        self.ruin_rounds.add(ruin[ruin >= 0])
        self.drawdown_sum += exact_sum(values[:, DRAWDOWN])
        self.drawdown_max = int(values[:, DRAWDOWN].max()) if first else max(self.drawdown_max, int(values[:, DRAWDOWN].max()))
        self.streak_max = max(self.streak_max, int(values[:, STREAK].max()))
        self.stake_max = int(values[:, STAKE].max()) if first else max(self.stake_max, int(values[:, STAKE].max()))
        self.capped += exact_sum(values[:, CAPPED])
        self.in_profit += int((values[:, NET] > 0).sum())
        needed = values[:, NEEDED]
        self.needed.add(needed[needed >= 0])


@dataclasses.dataclass
class PairTally:
    """Exact aggregates of a strategy's sessions paired with the baseline's (the same session); :meth:`add` a chunk at a time."""

    pairs: int = 0
    sums: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(4, dtype=object))
    """Σnet, Σwagered, the baseline's Σnet, Σwagered (micro-units)."""
    gram: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((4, 4), dtype=object))
    """Sums of products of (net, wagered, baseline net, baseline wagered), pair by pair."""
    ruined: int = 0
    base_ruined: int = 0
    both_ruined: int = 0
    better: int = 0
    worse: int = 0
    expected: FloatSum = dataclasses.field(default_factory=FloatSum)
    base_expected: FloatSum = dataclasses.field(default_factory=FloatSum)
    expected_diff: FloatSum = dataclasses.field(default_factory=FloatSum)
    luck: FloatSum = dataclasses.field(default_factory=FloatSum)
    luck_squares: FloatSum = dataclasses.field(default_factory=FloatSum)
    expected_moments: dict[tuple[int, int], FloatSum] = dataclasses.field(
        default_factory=lambda: {pair: FloatSum() for pair in EXPECTED_PRODUCTS}
    )
    """Exact sums of the products of (expected net, wagered, the baseline's expected net, wagered) that hold an
    expected net (:data:`EXPECTED_PRODUCTS`; wagered in micro-units): with :attr:`gram`, the spread of the
    difference of expected edges."""
    expected_known: bool = True

    def add(self, values: np.ndarray, expected: np.ndarray | None, base: np.ndarray, base_expected: np.ndarray | None) -> None:
        """Add pairs of sessions: the strategy's rows and the baseline's of the same sessions, in the same order."""
        if not len(values):
            return
        self.pairs += len(values)
        money = np.stack([values[:, NET], values[:, WAGERED], base[:, NET], base[:, WAGERED]], axis=1)
        self.sums = self.sums + np.array([exact_sum(money[:, j]) for j in range(4)], dtype=object)
        self.gram = self.gram + exact_gram(money)
        ruined, base_ruined = values[:, TO_RUIN] >= 0, base[:, TO_RUIN] >= 0
        self.ruined += int(ruined.sum())
        self.base_ruined += int(base_ruined.sum())
        self.both_ruined += int((ruined & base_ruined).sum())
        self.better += int((values[:, NET] > base[:, NET]).sum())
        self.worse += int((values[:, NET] < base[:, NET]).sum())
        if expected is None or base_expected is None:
            self.expected_known = False
            return
        self.expected.add(expected)
        self.base_expected.add(base_expected)
        self.expected_diff.add(expected - base_expected)
        luck = ((money_floats(values[:, NET]) - money_floats(base[:, NET])) - expected) + base_expected
        self.luck.add(luck)
        self.luck_squares.add_squares(luck)
        columns = (expected, values[:, WAGERED].astype(np.float64), base_expected, base[:, WAGERED].astype(np.float64))
        for (a, b), total in self.expected_moments.items():
            if a == b:
                total.add_squares(columns[a])
            else:
                total.add_products(columns[a], columns[b])


EXPECTED_PRODUCTS = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 2), (2, 2), (2, 3))
"""The products of (expected net, wagered, baseline expected net, baseline wagered) a :class:`PairTally` sums as floats:
those holding an expected net (the others are in its :attr:`PairTally.gram`, as integers)."""


def pair_rows(session: np.ndarray, base_session: np.ndarray) -> tuple[np.ndarray | slice, np.ndarray | slice]:
    """Return the positions of the sessions two strategies both played, in each one's rows (sessions unique in each)."""
    if len(session) == len(base_session) and np.array_equal(session, base_session):
        return slice(None), slice(None)
    _, mine, theirs = np.intersect1d(session, base_session, assume_unique=True, return_indices=True)
    return mine, theirs


def combined_squares(coefficients: Sequence[Fraction], moments: dict[tuple[int, int], Fraction]) -> Fraction:
    """Return ``Σ_i (Σ_a c_a·x_ia)²`` exactly from the sums of products of the columns, ``moments[(a, b)] = Σ_i x_ia·x_ib`` (a <= b)."""
    total = Fraction(0)
    for (a, b), value in moments.items():
        total += (1 if a == b else 2) * coefficients[a] * coefficients[b] * value
    return total


def expected_edge_se(tally: SessionTally) -> float | None:
    """The delta-method standard error (clustered by session) of a strategy's expected edge, ``-Σexpected_net / Σwagered``.

    The sessions' expected nets are sums of exact per-bet values, but which
    bets were placed depends on the sample wherever the strategy's side or
    stake follows what it saw: this is how far the figure moves from sample
    to sample (0 for a strategy on one fixed bet, whose expected edge is
    that bet's). From exact sums; None below two sessions, without an
    expected value or without a bet.
    """
    k, w = tally.sessions, tally.wagered
    parts = (tally.expected.exact(), tally.expected_squares.exact(), tally.expected_wagered.exact())
    if not tally.expected_known or k < 2 or w <= 0 or any(part is None for part in parts):
        return None
    total, squares, cross = parts
    ratio = total / w
    spread = combined_squares([Fraction(1), -ratio], {(0, 0): squares, (0, 1): cross, (1, 1): Fraction(int(tally.moments[1][1]))})
    return MICROS_PER_UNIT * math.sqrt(k / (k - 1) * float(spread)) / w


def expected_edge_diff_se(tally: PairTally) -> float | None:
    """The paired delta-method standard error of the difference of expected edges (strategy minus baseline), from exact sums.

    Each pair's influence is ``-(e - Ra·w)/Wa + (eb - Rb·wb)/Wb`` (``e``,
    ``w``: its expected net and wagered; ``Ra = ΣE/ΣW``; ``b`` the
    baseline's). None below two pairs, without expected values or without bets.
    """
    k = tally.pairs
    _, w, _, bw = (int(v) for v in tally.sums)
    if not tally.expected_known or k < 2 or w <= 0 or bw <= 0:
        return None
    moments = {pair: total.exact() for pair, total in tally.expected_moments.items()}
    sums = (tally.expected.exact(), tally.base_expected.exact())
    if any(value is None for value in (*moments.values(), *sums)):
        return None
    moments |= {(1, 1): Fraction(int(tally.gram[1, 1])), (1, 3): Fraction(int(tally.gram[1, 3])), (3, 3): Fraction(int(tally.gram[3, 3]))}
    mine, theirs = sums[0] / w, sums[1] / bw
    coefficients = [Fraction(-1, w), mine / w, Fraction(1, bw), -theirs / bw]
    spread = combined_squares(coefficients, moments)
    return MICROS_PER_UNIT * math.sqrt(k / (k - 1) * float(spread))


def session_values(rows: pl.DataFrame) -> tuple[np.ndarray, np.ndarray | None]:
    """Return session-table rows as the integers of :class:`~baccarat.results.statistics.folded.SessionRows` and the
    ``expected_net`` floats (None when not known)."""
    values = np.zeros((rows.height, 13), dtype=np.int64)
    integers = {DEALT: "rounds_dealt", ROUNDS: "rounds", STREAK: "longest_losing_streak"}
    integers |= {CAPPED: "capped_bets"}
    for j, name in integers.items():
        if name in rows.columns:
            values[:, j] = rows.get_column(name).fill_null(0).to_numpy()
    values[:, TO_RUIN] = rows.get_column("rounds_to_ruin").fill_null(-1).to_numpy()
    money_columns = {WAGERED: "wagered", NET: "net", FINAL: "final_bankroll"}
    money_columns |= {DRAWDOWN: "max_drawdown", STAKE: "max_stake"}
    for j, name in money_columns.items():
        values[:, j] = money_micros(rows.get_column(name), 0)
    if "bankroll_needed" in rows.columns:  # a sessions.parquet written before the column has none: not known
        values[:, NEEDED] = money_micros(rows.get_column("bankroll_needed"))
    else:
        values[:, NEEDED] = -1
    expected = rows.get_column("expected_net").cast(pl.Float64)
    return values, (None if expected.null_count() == rows.height else expected.fill_null(0.0).to_numpy())
