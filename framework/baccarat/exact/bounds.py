"""The cost bounds of an exact analysis, and the reasons an analysis stops short of a result."""

from __future__ import annotations

from baccarat.errors import InputError

MAX_STATES = 3_000_000
"""Most (bankroll, progression state) pairs one analysis may hold at once (about 100 bytes each at the peak of a round)."""

MAX_ROUNDS = 1_000_000
"""Most rounds of a session an analysis follows (a million: twelve thousand eight-deck shoes; arrays of 8 MB each)."""

DENSE_CELLS = 4_000_000
"""Largest (progression state x grid point) space held as a dense array (and merged by counting); larger ones are sorted."""


class ExactLimitError(InputError):
    """An exact analysis would hold more states than :data:`MAX_STATES` allows."""


class Unplayable(Exception):
    """The strategy cannot be analysed under these settings (the reason is the message)."""


class TooDense(Exception):
    """The progression has too many states for the dense arrays of :class:`baccarat.exact.dense.DenseSession`."""
