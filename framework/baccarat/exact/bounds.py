"""The cost bounds of an exact analysis, and the reasons an analysis stops short of a result."""

from __future__ import annotations

from baccarat.errors import InputError

MAX_STATES = 3_000_000
"""Most (bankroll, progression state) pairs one analysis may hold at once (about 100 bytes each at the peak of a round)."""

MAX_ROUNDS = 1_000_000
"""Most rounds of a session an analysis follows (a million: twelve thousand eight-deck shoes; arrays of 8 MB each)."""

MAX_UPDATES = 200_000_000_000
"""Most updates of a (bankroll, progression state) cell one analysis may make, estimated before it starts
(:meth:`baccarat.exact.sparse.SparseSession.estimated_updates`): about ten minutes at the
:data:`SECONDS_PER_UPDATE` measured here. Without it, ``--rounds`` near :data:`MAX_ROUNDS` would run for days."""

SECONDS_PER_UPDATE = 3e-9
"""About what one cell update costs on a 2-core machine (3.5 to 4 ns measured under heavy load: 40 s for the 9.6e9
estimated updates of the quickstart's two strategies over 2,000 rounds, 118 s for 3.4e10 over 6,000): the time the
refusal quotes."""

DENSE_CELLS = 4_000_000
"""Largest (progression state x grid point) space held as a dense array (and merged by counting); larger ones are sorted."""


class ExactLimitError(InputError):
    """An exact analysis would hold more states than :data:`MAX_STATES` allows."""


class ExactWorkError(ExactLimitError):
    """An exact analysis would take more cell updates than :data:`MAX_UPDATES` allows (estimated before it starts)."""


class Unplayable(Exception):
    """The strategy cannot be analysed under these settings (the reason is the message)."""


class TooDense(Exception):
    """The progression has too many states for the dense arrays of :class:`baccarat.exact.dense.DenseSession`."""
