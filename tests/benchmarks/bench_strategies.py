"""Benchmark of the strategy paths: the reference engine (any Python strategy) and the compiled compiled path.

    python tests/benchmarks/bench_strategies.py [--shoes 5000]

On one core, over seeded 8-deck shoes (one shoe a session), prints in
strategy-rounds per second (one strategy playing one round):

- the reference engine with third-party style strategies written in plain
  Python (a flat bettor, and a bettor that reads the shoe's history);
- every built-in strategy of the benchmark job on the reference engine and on
  the compiled path, with the ratio, after checking the two ledgers are identical.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from baccarat.engine.compiled import play_compiled  # noqa: E402
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds  # noqa: E402
from baccarat.odds.settlement import settlement_table  # noqa: E402
from baccarat.plugin import Strategy  # noqa: E402
from baccarat.plugin.manager import registry  # noqa: E402
from baccarat.shoes.compiled_deal import seeded_table_compiled  # noqa: E402
from baccarat.table.rules import preset  # noqa: E402


class FlatBanker(Strategy):
    """A plugin author's flat bettor: 10 on Banker every round."""

    name = "third-party-flat"

    def bets(self, view):
        """Ten on Banker."""
        return {"banker": 10}


class AfterTwoPlayers(Strategy):
    """A plugin author's pattern bettor: after two Player wins in a row in this shoe, 20 on Banker."""

    name = "third-party-after-two-players"

    def bets(self, view):
        """Twenty on Banker after two Player wins in a row, else sit out."""
        history = view.shoe_history
        if len(history) >= 2 and history[-1] == history[-2] == "player":
            return {"banker": 20}
        return None


def rate(fn, rounds: int, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return rounds / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=5_000)
    args = parser.parse_args()
    rules = preset("punto-banco-8")
    table = seeded_table_compiled(rules, 7, 1, args.shoes)
    multipliers = settlement_table(table, rules)
    config = SessionConfig(100_000, 1_000, 100_000, 1)
    sessions = session_bounds(table, 1)
    n = len(table)
    print(f"{args.shoes:,} seeded 8-deck shoes, {n:,} rounds, one shoe a session; CPU time of this process (one core)")
    for cls in (FlatBanker, AfterTwoPlayers):
        run = StrategyRun(cls.name, cls, {})
        speed = rate(lambda run=run: run_strategy(run, table, multipliers, rules, config, 7, sessions), n)
        print(f"  reference engine, {cls.name:32s} {speed / 1e6:6.2f} M strategy-rounds/s")
    found = registry()
    for use, params in (
        ("flat", {"side": "banker"}),
        ("martingale", {"side": "banker"}),
        ("paroli", {"side": "banker"}),
        ("flat", {"side": "follow-last"}),
    ):
        cls, full = found.configure(use, {**params, "unit": 10})
        run = StrategyRun(f"{use} {params['side']}", cls, full)
        fast = play_compiled(run, table, multipliers, rules, config, 7, sessions)
        reference = run_strategy(run, table, multipliers, rules, config, 7, sessions)
        assert fast is not None and all(np.array_equal(fast[k], reference[k]) for k in reference), run.label
        slow = rate(lambda run=run: run_strategy(run, table, multipliers, rules, config, 7, sessions), n)
        quick = rate(lambda run=run: play_compiled(run, table, multipliers, rules, config, 7, sessions), n)
        print(
            f"  built-in {run.label:23s} reference {slow / 1e6:6.2f} M/s, compiled path {quick / 1e6:7.2f} M/s "
            f"({quick / slow:4.0f}x), ledgers identical"
        )


if __name__ == "__main__":
    main()
