"""Benchmark: the reference engine with plain-Python plugin strategies against a heavier pure-Python simulator.

The simulator here (``baseline_pure_python.py``: string-seeded shuffles, card records, per-bet ledger
columns) is about 4x slower than a hand-written loop; ``bench_plain_python.py`` measures against that
yardstick (``naive_loop.py``), end to end through ``baccarat run``.

    python tests/benchmarks/bench_reference.py [--shoes 2000]

Both play the same four strategies (flat Banker, Martingale Banker, Paroli
Banker, flat follow-last) on seeded 8-deck shoes, one shoe a session, in this
one process, one after the other, and count strategy-rounds (one strategy
playing one round) per second of CPU time:

- the heavier simulator (``baseline_pure_python.py``) shuffles, deals and plays
  every strategy inline, keeping its ledger rows in a list;
- the reference engine deals with the compiled dealer and plays the four
  strategies written as a plugin author writes them in plain Python, with no
  compiled twin: as free-form strategies, and as plain-Python progressions
  and selectors composed by baccarat.

Each is timed ``--repeat`` times, interleaved, and the best time of each
kept. It prints both rates and their ratio, after checking that each
reference ledger's total net is the simulator's on the same shoes
(``--shuffle numpy``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_pure_python as naive  # noqa: E402

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds  # noqa: E402
from baccarat.odds.settlement import settlement_table  # noqa: E402
from baccarat.plugin import Progression, Selector, Strategy  # noqa: E402
from baccarat.plugin.compose import compose  # noqa: E402
from baccarat.shoes.compiled_deal import seeded_table_compiled  # noqa: E402
from baccarat.table.rules import preset  # noqa: E402


class FlatBanker(Strategy):
    """Ten on Banker every round."""

    name = "py-flat"

    def bets(self, view):
        """Ten on Banker."""
        return {"banker": 10}


class MartingaleBanker(Strategy):
    """Ten on Banker, doubled after each loss, back to ten after a win."""

    name = "py-martingale"

    def __init__(self, session, **params):
        super().__init__(session)
        self.stake = 10

    def bets(self, view):
        """The stake, back to ten when it would pass the table maximum."""
        if self.stake > view.table_max:
            self.stake = 10
        return {"banker": self.stake}

    def settle(self, view, nets):
        """Double after a loss, ten after a win."""
        net = nets["banker"]
        if net > 0:
            self.stake = 10
        elif net < 0:
            self.stake *= 2


class ParoliBanker(MartingaleBanker):
    """Ten on Banker, doubled after each win; back to ten after three wins in a row or a loss."""

    name = "py-paroli"

    def __init__(self, session, **params):
        super().__init__(session)
        self.streak = 0

    def settle(self, view, nets):
        """Double after a win, ten after the third win or a loss."""
        net = nets["banker"]
        if net > 0:
            self.streak += 1
            if self.streak == 3:
                self.stake, self.streak = 10, 0
            else:
                self.stake *= 2
        elif net < 0:
            self.stake, self.streak = 10, 0


class FollowLast(Strategy):
    """Ten on the shoe's last decided winner."""

    name = "py-follow-last"

    def bets(self, view):
        """Ten on the last decided winner; sit out before the first."""
        last = view.last_decided
        return None if last is None else {last: 10}


class PyMartingale(Progression):
    """A plugin's plain-Python Martingale (no compiled twin)."""

    name = "py-martingale-progression"

    def won(self, net):
        """Back to one unit."""
        self.stake = self.unit

    def lost(self, net):
        """Double."""
        self.stake *= 2


class PyParoli(Progression):
    """A plugin's plain-Python Paroli, three wins (no compiled twin)."""

    name = "py-paroli-progression"

    def restart(self):
        """One unit, no wins counted."""
        self.stake, self.streak = self.unit, 0

    def won(self, net):
        """Double, or start over after three wins."""
        self.streak += 1
        if self.streak == 3:
            self.restart()
        else:
            self.stake *= 2

    def lost(self, net):
        """Back to one unit."""
        self.restart()


class PyFlat(Progression):
    """A plugin's plain-Python flat stake (no compiled twin)."""

    name = "py-flat-progression"


class PyBanker(Selector):
    """Banker every round (no compiled twin)."""

    name = "py-banker"

    def choose(self, view):
        """Banker."""
        return "banker"


class PyFollowLast(Selector):
    """The shoe's last decided winner (no compiled twin)."""

    name = "py-follow-last"

    def choose(self, view):
        """The last decided winner."""
        return view.last_decided


SELECTORS = (PyBanker, PyFollowLast)
FREE_FORM = {
    "flat banker": FlatBanker,
    "martingale banker": MartingaleBanker,
    "paroli banker": ParoliBanker,
    "flat follow-last": FollowLast,
}
COMPOSED = {
    "flat banker": (PyFlat, "py-banker"),
    "martingale banker": (PyMartingale, "py-banker"),
    "paroli banker": (PyParoli, "py-banker"),
    "flat follow-last": (PyFlat, "py-follow-last"),
}


def play_reference(runs: list[StrategyRun], seed: int, shoes: int) -> tuple[int, dict[str, int]]:
    """Deal ``shoes`` seeded shoes and play every run on them; return the rounds and each run's total net."""
    rules = preset("punto-banco-8")
    config = SessionConfig(naive.BANKROLL, naive.TABLE_MIN, naive.TABLE_MAX, 1)
    table = seeded_table_compiled(rules, seed, 1, shoes)
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, 1)
    nets = {}
    for run in runs:
        nets[run.label] = int(run_strategy(run, table, multipliers, rules, config, seed, sessions)["net"].sum())
    return len(table), nets


def timed(fn):
    """Return ``fn()`` and the CPU time it took."""
    start = time.process_time()
    result = fn()
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    free_form = [StrategyRun(label, cls, {}) for label, cls in FREE_FORM.items()]
    composed = [
        StrategyRun(label, compose(prog, SELECTORS), {"side": side, "unit": naive.UNIT // 100}) for label, (prog, side) in COMPOSED.items()
    ]
    play_reference(free_form + composed, args.seed, 20)  # warm up: compile the dealer, import everything
    # The same shoes both ways first: the totals must agree.
    _, check = timed(lambda: naive.simulate(args.seed, 50, naive.numpy_shoe))
    (rounds, ledger), _ = timed(lambda: naive.simulate(args.seed, 50, naive.numpy_shoe))
    expected: dict[str, int] = {}
    for row in ledger:
        expected[row[0]] = expected.get(row[0], 0) + row[7]
    for runs in (free_form, composed):
        _, nets = play_reference(runs, args.seed, 50)
        assert nets == expected, (nets, expected)
    kinds = {"naive": None, "free-form plain-Python strategies": free_form, "plain-Python progressions + selectors": composed}
    best = dict.fromkeys(kinds, float("inf"))
    for _ in range(args.repeat):  # interleaved, best of each: the machine's load changes from second to second
        for what, runs in kinds.items():
            if runs is None:
                (rounds, _), seconds = timed(lambda: naive.simulate(args.seed, args.shoes))
                n = len(rounds)
            else:
                (n, _), seconds = timed(lambda runs=runs: play_reference(runs, args.seed, args.shoes))
            best[what] = min(best[what], seconds / (n * 4))
    naive_rate = 1 / best.pop("naive")
    print(
        f"{args.shoes:,} seeded 8-deck shoes, one shoe a session, 4 strategies; CPU time of this process (one core), best of {args.repeat}"
    )
    print(f"  heavier pure-Python simulator (baseline_pure_python.py) {naive_rate / 1e6:6.3f} M strategy-rounds/s")
    for what, seconds in best.items():
        rate = 1 / seconds
        print(f"  reference engine, {what:37s} {rate / 1e6:6.3f} M strategy-rounds/s  ({rate / naive_rate:.2f}x the heavier simulator)")
    print("  (the totals of both agree on the same shoes)")


if __name__ == "__main__":
    main()
