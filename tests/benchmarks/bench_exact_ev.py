"""Benchmark of the exact-EV view: time per round of ``view.exact_ev`` inside the engine, 8 decks.

Prints figures, asserts nothing. Run from the project folder:

    python tests/benchmarks/bench_exact_ev.py [--shoes N]

A strategy asks for the exact EV of bets every round, from the cards seen
so far in the shoe; the budget is 5 ms per round. Asking for the pair bets
only uses their closed form; any other bet takes the full enumeration.
"""

from __future__ import annotations

import argparse
import platform
import time

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.odds.settlement import settlement_table
from baccarat.plugin import Strategy
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset


class Ask(Strategy):
    """Ask the exact EV of ``bets`` every round; never bet."""

    name = "ask"
    params = {"bets": None}

    def bets(self, view):
        """Ask, then sit out."""
        view.exact_ev(self.bets_asked)
        return None

    def __init__(self, session, bets=None):
        super().__init__(session)
        self.bets_asked = bets


class Idle(Strategy):
    """Never ask, never bet (the engine's own cost)."""

    name = "idle"

    def bets(self, view):
        """Sit out."""
        return None


def per_round(cls, params, table, rules) -> float:
    """Return microseconds per round of ``cls`` walking ``table``."""
    config = SessionConfig(100_000, 1_000, 100_000, 1)
    start = time.perf_counter()
    run_strategy(StrategyRun(cls.name, cls, params), table, settlement_table(table, rules), rules, config, seed=1)
    return (time.perf_counter() - start) / len(table) * 1e6


def main() -> None:
    """Print the cost per round of the exact-EV view."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    for name in ("punto-banco-8-pairs", "ez-baccarat-8"):
        rules = preset(name)
        table = seeded_table(rules, 1, 1, args.shoes)
        idle = per_round(Idle, {}, table, rules)
        print(f"{name}: {len(table):,} rounds; engine alone {idle:.1f} us/round")
        side = [b for b in rules.side_bets]
        for label, bets in ((f"side bets {side}", side), ("every bet", None)):
            cost = per_round(Ask, {"bets": bets}, table, rules) - idle
            print(f"  exact_ev({label}): {cost:,.1f} us/round = {cost / 1000:.3f} ms (budget 5 ms)")


if __name__ == "__main__":
    main()
