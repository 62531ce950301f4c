"""Benchmark: a plain-Python plugin strategy, end to end through ``baccarat run``, against a naive hand-written loop.

    python tests/benchmarks/bench_plain_python.py [--shoes 20000] [--naive ../shared/benchmarks/naive_loop.py]

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

What it measures, and why. CPU time, not wall time: on a shared machine the
wall clock drifts 2-3x from run to run, while the CPU a command spends is its
work. One worker: with the default workers the same rounds are played by
several processes, each with its own start-up, so their CPU adds up to at
least one worker's (their wall time may be shorter on an idle machine, which
this script does not claim). 20,000 shoes by default (about 1.6 M rounds,
6.4 M strategy-rounds): a backtest of the size a user runs, where the
command's fixed cost (start-up, imports, the compiled dealer loaded from its
cache, the files written) is a small part; the naive loop's process is timed
whole too. The fixed cost is shown apart: both commands run over one shoe
(``baccarat run`` on the compiled dealer's path, as the full run takes it),
and a second ratio compares the rates with that cost subtracted from each
(a diagnostic of where the time goes; the headline ratio is the whole command).
Last, the CPU of a strategy-round split in two: the command with the
strategies compiled (what the command costs around them), and what the
plain-Python strategies on the reference engine add; the first alone bounds
how fast plain Python through the command can go.
"""

from __future__ import annotations

import argparse
import os
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


def naive_run(naive: Path, shoes: int) -> tuple[int, float]:
    """Strategy-rounds and CPU seconds of the naive loop (the whole process: start-up, loop, exit)."""
    before = children_cpu()
    done = subprocess.run([sys.executable, str(naive), str(shoes)], capture_output=True, text=True, check=True)
    seconds = children_cpu() - before
    found = re.search(r"strategy_rounds=(\d+)", done.stdout)
    if found is None:
        sys.exit(f"unexpected output of {naive}: {done.stdout}")
    return int(found.group(1)), seconds


def baccarat_run(folder: Path, experiment: str, compiled_path: bool = False) -> tuple[int, float]:
    """Strategy-rounds and CPU seconds of the whole ``baccarat run`` command (every process it starts included).

    ``compiled_path``: deal with the compiled dealer whatever the run's size, as a run of the default size does
    (a run of one shoe would otherwise deal in plain Python and skip loading the compiled kernels).
    """
    out = folder / "out"
    command = [sys.executable, "-m", "baccarat", "run", experiment, "--plugins-dir", "plugins", "--workers", "1"]
    command += ["--quiet", "--force", "--no-report", "--out", str(out)]
    before = children_cpu()
    env = {**os.environ, "BACCARAT_COMPILED_FROM": "0"} if compiled_path else None
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env)
    seconds = children_cpu() - before
    if done.returncode:
        sys.exit(f"baccarat run failed:\n{done.stderr}")
    import polars as pl

    rows = pl.scan_parquet(out / "ledger.parquet").select(pl.len()).collect().item()
    return rows, seconds


def without_fixed(whole: tuple[int, float], fixed: tuple[int, float]) -> float:
    """Strategy-rounds per CPU second once the cost of the same command over one shoe is taken away."""
    return (whole[0] - fixed[0]) / max(whole[1] - fixed[1], 1e-9)


def main() -> None:
    """Time both, interleaved, and print the rates and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive", type=Path, default=NAIVE)
    args = parser.parse_args()
    if not args.naive.is_file():
        sys.exit(f"the yardstick {args.naive} is missing: give its place with --naive")
    with tempfile.TemporaryDirectory(prefix="bench-plain-") as tmp:
        folder = Path(tmp)
        (folder / "plugins").mkdir()
        (folder / "plugins" / "plain.py").write_text(PLUGIN, encoding="utf-8")
        for name, text in (("experiment", EXPERIMENT), ("built-in", BUILT_IN)):
            for shoes, suffix in ((args.shoes, ""), (1, "-one-shoe")):
                (folder / f"{name}{suffix}.yaml").write_text(textwrap.dedent(text.format(shoes=shoes)), encoding="utf-8")
        best: dict[str, tuple[int, float]] = {}

        def keep(what: str, result: tuple[int, float]) -> None:
            if what not in best or result[1] < best[what][1]:
                best[what] = result

        for _ in range(args.repeat):
            keep("naive", naive_run(args.naive, args.shoes))
            keep("engine", baccarat_run(folder, "experiment.yaml"))
            keep("compiled", baccarat_run(folder, "built-in.yaml"))
            keep("naive fixed", naive_run(args.naive, 1))
            keep("engine fixed", baccarat_run(folder, "experiment-one-shoe.yaml", compiled_path=True))
    naive, engine, compiled = (best[what][0] / best[what][1] for what in ("naive", "engine", "compiled"))
    print(f"naive hand-written loop ({args.naive.name}): {naive:,.0f} strategy-rounds/s")
    print(f"baccarat run, plain-Python plugin strategies: {engine:,.0f} strategy-rounds/s")
    print(f"baccarat run, the same strategies built in (compiled): {compiled:,.0f} strategy-rounds/s")
    print(f"plain Python through baccarat run vs the naive loop: {engine / naive:.2f}x")
    print(f"built-in (compiled) through baccarat run vs the naive loop: {compiled / naive:.2f}x")
    fixed = best["engine fixed"][1]
    print(
        f"fixed cost, one shoe: baccarat run {fixed:.2f} s CPU ({fixed / best['engine'][1]:.0%} of its run above), "
        f"the naive loop {best['naive fixed'][1]:.2f} s"
    )
    ratio = without_fixed(best["engine"], best["engine fixed"]) / without_fixed(best["naive"], best["naive fixed"])
    print(f"plain Python vs the naive loop, each without its one-shoe cost: {ratio:.2f}x")
    print_wall(naive, engine, compiled)


def print_wall(naive: float, engine: float, compiled: float) -> None:
    """Say how the plain-Python run's CPU splits, per strategy-round, and how fast the rest of the command lets it go.

    The built-in run plays the same rounds through the same command with the strategies compiled: its CPU a
    strategy-round is the command's cost around the strategies, plus their compiled play (on the compiled path, about a
    tenth of a microsecond a strategy-round: ``bench_strategies.py``). Plain Python through the command can go
    no faster than the command around it.
    """
    whole, rest = 1e6 / engine, 1e6 / compiled
    print(
        f"CPU a strategy-round: the naive loop {1e6 / naive:.2f} us; baccarat run with plain Python {whole:.2f} us: "
        f"the same command with the strategies compiled {rest:.2f} us ({rest / whole:.0%} of it), and the plain-Python "
        f"strategies on the reference engine in place of the compiled ones {whole - rest:.2f} us more ({(whole - rest) / whole:.0%})"
    )
    print(
        f"the command with the strategies compiled runs at {compiled / naive:.2f}x the naive loop, about the most plain "
        f"Python through it can reach; 1.5x the naive loop leaves the whole run {1e6 / naive / 1.5:.2f} us a strategy-round"
    )


if __name__ == "__main__":
    main()
