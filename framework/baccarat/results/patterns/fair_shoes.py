"""What fairly shuffled shoes show: a pool of seeded shoes under the same rules, resampled to the sample's size.

A sample of S shoes is compared with many samples of S fair shoes. Those are
drawn (with replacement) from a pool of seeded shoes dealt under the same
rules, at least :data:`POOL_PER_SHOE` times as many as the sample holds (and
never fewer than :data:`MIN_POOL`), so that the pool's own chance variation
is small beside the sample's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from baccarat.results.patterns.shoe_counts import COUNTS, shoe_counts
from baccarat.table.rules import Rules

MIN_POOL = 20_000
"""The fewest fair shoes a pool holds."""

POOL_PER_SHOE = 20
"""Fair shoes in the pool per shoe of the sample tested."""

DEAL_BATCH = 20_000
"""Shoes dealt at a time while the pool is built (bounds its memory)."""

DRAWS = 1999
"""Fair samples drawn by default: the smallest two-sided p-value is then 2/2000 = 0.001."""

POOL_SEED = 20_261_207
"""Seed of the pool of fair shoes by default (the shoes tested must come from another seed)."""


@dataclass(frozen=True)
class FairSamples:
    """Sums of :data:`~baccarat.results.patterns.shoe_counts.COUNTS` over each of ``draws`` fair samples of ``shoes`` shoes."""

    sums: np.ndarray
    """(draws, len(COUNTS)) int64."""
    pool_totals: np.ndarray
    """The counts summed over the whole pool (len(COUNTS)), for shares the pool estimates."""
    pool_shoes: int
    pool_seed: int
    shoes: int
    draws: int


def pool_size(shoes: int) -> int:
    """The fair shoes a pool holds to test a sample of ``shoes`` shoes."""
    return max(MIN_POOL, POOL_PER_SHOE * shoes)


def fair_pool(rules: Rules, size: int, seed: int = POOL_SEED) -> np.ndarray:
    """Deal ``size`` seeded shoes under ``rules`` (seed ``seed``) and return their counts, one row per shoe."""
    # Imported here: the compiled dealer loads numba (about 1 s), which nothing else of a small run needs.
    from baccarat.shoes.compiled_deal import seeded_table_compiled

    parts = []
    for first in range(1, size + 1, DEAL_BATCH):
        count = min(DEAL_BATCH, size + 1 - first)
        parts.append(shoe_counts(seeded_table_compiled(rules, seed, first, count)))
    return np.concatenate(parts) if parts else np.zeros((0, len(COUNTS)), dtype=np.int64)


def resample(pool: np.ndarray, shoes: int, draws: int = DRAWS, seed: int = POOL_SEED, pool_seed: int = POOL_SEED) -> FairSamples:
    """Draw ``draws`` samples of ``shoes`` shoes from ``pool`` (with replacement) and return each sample's sums."""
    if shoes < 1 or len(pool) == 0:
        raise ValueError("a fair sample needs at least one shoe and a pool of shoes")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(shoes,)))
    batch = max(1, 4_000_000 // (shoes * pool.shape[1]))
    sums = np.empty((draws, pool.shape[1]), dtype=np.int64)
    for start in range(0, draws, batch):
        stop = min(draws, start + batch)
        picks = rng.integers(0, len(pool), size=(stop - start, shoes))
        sums[start:stop] = pool[picks].sum(axis=1)
    return FairSamples(sums, pool.sum(axis=0), len(pool), pool_seed, shoes, draws)


_LAST_POOL: dict[tuple[str, int, int], np.ndarray] = {}
"""The last pool dealt, by rules, size and seed: a process testing shoes under the same rules again (a run and its
report rebuilt, a notebook, the tests) deals it once."""


def fair_samples(rules: Rules, shoes: int, draws: int = DRAWS, seed: int = POOL_SEED) -> FairSamples:
    """Fair samples of ``shoes`` shoes under ``rules``: a pool of :func:`pool_size` seeded shoes, resampled ``draws`` times."""
    key = (json.dumps(rules.to_mapping(), sort_keys=True, default=str), pool_size(shoes), seed)
    pool = _LAST_POOL.get(key)
    if pool is None:
        pool = fair_pool(rules, key[1], seed)
        pool.flags.writeable = False
        _LAST_POOL.clear()
        _LAST_POOL[key] = pool
    return resample(pool, shoes, draws, seed, seed)
