"""Benchmark: a plain-Python plugin strategy, end to end through ``baccarat run``, against a naive hand-written loop.

    python tests/benchmarks/bench_plain_python.py [--shoes 10000] [--naive ../shared/benchmarks/naive_loop.py]

The yardstick is ``naive_loop.py`` ("a hand-written loop"): it deals seeded
8-deck shoes with a plain dealer and plays four strategies inline (flat
Banker, Martingale Banker, Paroli Banker, flat follow-last), keeping its rows
in a list; it prints its strategy-rounds and the seconds of its loop alone.

Beside it, in this script, ``baccarat run`` plays the same four strategies
written as a plugin author writes them in plain Python, with no compiled
twin (a plugins folder written here), over the same number of shoes, one
shoe a session, ``--workers 1 --no-report``: the whole command is timed
(start-up, dealing, the four strategies, rounds, ledger and session table
written to Parquet, the summary; no plots, as the naive loop draws none).
The same four strategies from the built-in library (compiled) run through
the same command too, showing what the rest of the command costs.
All are timed in CPU seconds of their whole process tree (start-up
included, so the machine's other load does not count), ``--repeat`` times,
interleaved, and the best of each kept.
It prints both rates in strategy-rounds per second and their ratio (aim: at
least 1.5x the naive loop).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT.parent / "shared" / "benchmarks" / "naive_loop.py"

PLUGIN = """
from baccarat.plugin import Strategy, hookimpl


class FlatBanker(Strategy):
    name = "py-flat"

    def bets(self, view):
        return {"banker": 10}


class MartingaleBanker(Strategy):
    name = "py-martingale"

    def __init__(self, session, **params):
        super().__init__(session)
        self.stake = 10

    def bets(self, view):
        if self.stake > 1000:
            self.stake = 10
        return {"banker": self.stake}

    def settle(self, view, nets):
        net = nets["banker"]
        if net > 0:
            self.stake = 10
        elif net < 0:
            self.stake *= 2


class ParoliBanker(Strategy):
    name = "py-paroli"

    def __init__(self, session, **params):
        super().__init__(session)
        self.stake, self.streak = 10, 0

    def bets(self, view):
        return {"banker": self.stake}

    def settle(self, view, nets):
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
    name = "py-follow-last"

    def bets(self, view):
        last = view.last_decided
        return {"banker" if last is None else last: 10}


@hookimpl
def register_strategies(register):
    for cls in (FlatBanker, MartingaleBanker, ParoliBanker, FollowLast):
        register(cls)
"""

EXPERIMENT = """
name: plain-python
rules: punto-banco-8
shoes: {{source: seeded, seed: 1, count: {shoes}}}
session: {{bankroll: 1000000, shoes_per_session: 1, table_min: 10, table_max: 1000}}
strategies:
  - {{name: flat banker, use: py-flat}}
  - {{name: martingale banker, use: py-martingale}}
  - {{name: paroli banker, use: py-paroli}}
  - {{name: flat follow-last, use: py-follow-last}}
"""


def children_cpu() -> float:
    """CPU seconds (user and system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


BUILT_IN = """
name: built-in
rules: punto-banco-8
shoes: {{source: seeded, seed: 1, count: {shoes}}}
session: {{bankroll: 1000000, shoes_per_session: 1, table_min: 10, table_max: 1000}}
strategies:
  - {{name: flat banker, use: flat, params: {{side: banker, unit: 10}}}}
  - {{name: martingale banker, use: martingale, params: {{side: banker, unit: 10}}}}
  - {{name: paroli banker, use: paroli, params: {{side: banker, unit: 10}}}}
  - {{name: flat follow-last, use: flat, params: {{side: follow-last, unit: 10}}}}
"""
"""The same four strategies from the built-in library (compiled): what the rest of the command costs."""


def naive_rate(naive: Path, shoes: int) -> float:
    """Strategy-rounds per CPU second of the naive loop (the whole process: start-up, loop, exit)."""
    before = children_cpu()
    done = subprocess.run([sys.executable, str(naive), str(shoes)], capture_output=True, text=True, check=True)
    seconds = children_cpu() - before
    found = re.search(r"strategy_rounds=(\d+)", done.stdout)
    if found is None:
        sys.exit(f"unexpected output of {naive}: {done.stdout}")
    return int(found.group(1)) / seconds


def baccarat_rate(folder: Path, experiment: str) -> float:
    """Strategy-rounds per CPU second of the whole ``baccarat run`` command (every process it starts included)."""
    out = folder / "out"
    command = [sys.executable, "-m", "baccarat", "run", experiment, "--plugins-dir", "plugins", "--workers", "1"]
    command += ["--quiet", "--force", "--no-report", "--out", str(out)]
    before = children_cpu()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    seconds = children_cpu() - before
    if done.returncode:
        sys.exit(f"baccarat run failed:\n{done.stderr}")
    import polars as pl

    rows = pl.scan_parquet(out / "ledger.parquet").select(pl.len()).collect().item()
    return rows / seconds


def main() -> None:
    """Time both, interleaved, and print the rates and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive", type=Path, default=NAIVE)
    args = parser.parse_args()
    if not args.naive.is_file():
        sys.exit(f"the yardstick {args.naive} is missing: give its place with --naive")
    with tempfile.TemporaryDirectory(prefix="bench-plain-") as tmp:
        folder = Path(tmp)
        (folder / "plugins").mkdir()
        (folder / "plugins" / "plain.py").write_text(PLUGIN, encoding="utf-8")
        (folder / "experiment.yaml").write_text(textwrap.dedent(EXPERIMENT.format(shoes=args.shoes)), encoding="utf-8")
        (folder / "built-in.yaml").write_text(textwrap.dedent(BUILT_IN.format(shoes=args.shoes)), encoding="utf-8")
        naive_best = engine_best = compiled_best = 0.0
        for _ in range(args.repeat):
            naive_best = max(naive_best, naive_rate(args.naive, args.shoes))
            engine_best = max(engine_best, baccarat_rate(folder, "experiment.yaml"))
            compiled_best = max(compiled_best, baccarat_rate(folder, "built-in.yaml"))
    print(f"naive hand-written loop ({args.naive.name}): {naive_best:,.0f} strategy-rounds/s")
    print(f"baccarat run, plain-Python plugin strategies: {engine_best:,.0f} strategy-rounds/s")
    print(f"baccarat run, the same strategies built in (compiled): {compiled_best:,.0f} strategy-rounds/s")
    print(f"plain Python through baccarat run vs the naive loop: {engine_best / naive_best:.2f}x")
    print(f"built-in (compiled) through baccarat run vs the naive loop: {compiled_best / naive_best:.2f}x")


if __name__ == "__main__":
    main()
