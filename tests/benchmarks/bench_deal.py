"""Benchmark of bulk dealing: the compiled dealer against the reference dealer, on one core.

    python tests/benchmarks/bench_deal.py [--shoes 130000]

Prints, for seeded 8-deck shoes (about 80 rounds each; the default deals more
than 10^7 rounds): the cost of the seeded shuffle per shoe (numpy, the
definition, and the compiled kernel that reproduces it), the dealing rate of
the compiled kernel without and with the shuffle, and the rate of the
reference dealer (``shoes.seeded_table``) on a sample, with the ratio. The
compiled rounds are checked against the reference on that sample.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from baccarat.shoes import compiled_deal  # noqa: E402
from baccarat.shoes.seeded import seeded_table  # noqa: E402
from baccarat.table.rules import preset  # noqa: E402


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=130_000)
    parser.add_argument("--sample", type=int, default=2_000, help="shoes dealt by the reference dealer")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chunk", type=int, default=4_000, help="shoes dealt per call, as a run deals them")
    args = parser.parse_args()
    rules = preset("punto-banco-8")
    compiled_deal.seeded_table_compiled(rules, args.seed, 1, 10)  # compile or load the cached kernels

    numpy_shoes, numpy_seconds = timed(lambda: compiled_deal.shuffle_shoes_numpy(rules, args.seed, 1, args.sample))
    shuffle_seconds = deal_seconds = 0.0
    rounds = 0
    first_chunk = None
    for first in range(1, args.shoes + 1, args.chunk):
        count = min(args.chunk, args.shoes + 1 - first)
        shoes, seconds = timed(lambda first=first, count=count: compiled_deal.shuffle_shoes(rules, args.seed, first, count))
        shuffle_seconds += seconds
        ids = np.arange(first, first + count, dtype=np.int64)
        table, seconds = timed(lambda shoes=shoes, ids=ids: compiled_deal.deal_shoes(shoes, ids, rules))
        deal_seconds += seconds
        rounds += len(table)
        if first_chunk is None:
            first_chunk = table
            assert np.array_equal(shoes[: args.sample], numpy_shoes)

    reference, reference_seconds = timed(lambda: seeded_table(rules, args.seed, 1, args.sample))
    sample_rows = len(reference)
    for name in ("shoe", "hand", "outcome", "player_cards", "banker_cards", "player_total", "banker_total"):
        assert np.array_equal(getattr(first_chunk, name)[:sample_rows], getattr(reference, name)), name

    per_shoe_numpy = numpy_seconds / args.sample * 1e6
    per_shoe_compiled = shuffle_seconds / args.shoes * 1e6
    reference_rate = sample_rows / reference_seconds
    print(f"bulk dealing, {args.shoes:,} seeded 8-deck shoes in chunks of {args.chunk:,}, {rounds:,} rounds, one core")
    print(f"  seeded shuffle per shoe: numpy {per_shoe_numpy:.1f} us, compiled {per_shoe_compiled:.1f} us (identical shoes)")
    print(f"  compiled dealer, shoes already shuffled: {rounds / deal_seconds / 1e6:6.2f} M rounds/s")
    print(f"  compiled dealer with the compiled shuffle: {rounds / (deal_seconds + shuffle_seconds) / 1e6:6.2f} M rounds/s")
    numpy_total = deal_seconds + per_shoe_numpy * args.shoes / 1e6
    print(f"  compiled dealer with numpy's shuffle:      {rounds / numpy_total / 1e6:6.2f} M rounds/s")
    print(f"  reference dealer (shuffle included), {args.sample:,} shoes: {reference_rate / 1e6:6.2f} M rounds/s")
    print(
        f"  ratio, with the shuffle: {rounds / (deal_seconds + shuffle_seconds) / reference_rate:.0f}x the reference; "
        f"{sample_rows:,} rounds identical"
    )


if __name__ == "__main__":
    main()
