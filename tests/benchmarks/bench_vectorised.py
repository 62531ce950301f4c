"""Benchmark: the same four strategies per session in plain Python, vectorised with numpy, and built in (compiled), against the naive loop.

    python tests/benchmarks/bench_vectorised.py [--shoes 10000] [--large] [--repeat 2] [--naive ../shared/benchmarks/naive_loop.py]

The yardstick is ``naive_loop.py`` (a hand-written loop: a plain dealer, four
strategies inline, flat Banker, Martingale Banker, Paroli Banker, flat
follow-last, rows in a list, nothing written), run in this script. Beside it,
``baccarat run`` plays the same four strategies three ways, over the same
number of shoes, one shoe a session:

- per session, as a plain-Python plugin (the plugin of ``bench_plain_python.py``);
- vectorised, as a plugin of :class:`baccarat.plugin.VectorStrategy` (below):
  one numpy call per round for every session of a chunk;
- the built-in strategies (compiled), for what the rest of the command costs.

Wall time of each whole command with the default workers (start-up, dealing,
the strategies, rounds, ledger and session table written), with the report
and with ``--no-report``, ``--repeat`` times interleaved, the best kept; beside
each, the CPU seconds of its processes (the lock-step's waits, the dealer for
a player's answer and back, count in the wall time only: on a loaded machine
each wake-up waits for a core, so the two tell apart the work and the waits). It
prints each rate in strategy-rounds per second and its ratio to the naive
loop (target for the vectorised plugin: at least 3x, aim 5x), at 10,000 shoes
and, with ``--large``, 100,000 too. It first checks that the per-session and
vectorised runs give the same session table, so the speeds compare the same
work.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_plain_python import BUILT_IN, EXPERIMENT, NAIVE, PLUGIN, children_cpu  # noqa: E402

VECTORISED = """
import numpy as np

from baccarat.plugin import VectorStrategy, hookimpl

BANKER, PLAYER, NO_BET = 0, 1, -1  # outcome codes of Rounds.outcome (-1: no round yet)


class VecFlat(VectorStrategy):
    name = "vec-flat"

    def __init__(self, chunk, **params):
        super().__init__(chunk)
        self.sides = np.full(chunk.size, chunk.side("banker"))
        self.stakes = np.full(chunk.size, 10)

    def bets(self, rounds):
        return self.sides[: rounds.n], self.stakes[: rounds.n]


class VecMartingale(VecFlat):
    name = "vec-martingale"

    def bets(self, rounds):
        n = rounds.n
        stake = self.stakes[:n]
        stake[rounds.net > 0] = 10
        stake[rounds.net < 0] *= 2
        stake[stake > 1000] = 10
        return self.sides[:n], stake


class VecParoli(VecFlat):
    name = "vec-paroli"

    def __init__(self, chunk, **params):
        super().__init__(chunk)
        self.streak = np.zeros(chunk.size, np.int64)

    def bets(self, rounds):
        n = rounds.n
        stake, streak = self.stakes[:n], self.streak[:n]
        won, lost = rounds.net > 0, rounds.net < 0
        streak[won] += 1
        stake[won] *= 2
        done = lost | (streak == 3)
        stake[done] = 10
        streak[done] = 0
        return self.sides[:n], stake


class VecFollowLast(VecFlat):
    name = "vec-follow-last"

    def __init__(self, chunk, **params):
        super().__init__(chunk)
        self.last = np.full(chunk.size, NO_BET, np.int64)
        self.banker, self.player = chunk.side("banker"), chunk.side("player")

    def bets(self, rounds):
        n = rounds.n
        last = self.last[:n]
        decided = (rounds.outcome == BANKER) | (rounds.outcome == PLAYER)
        last[decided] = rounds.outcome[decided]
        last[rounds.new_shoe] = NO_BET
        return np.where(last == PLAYER, self.player, self.banker), self.stakes[:n]


@hookimpl
def register_strategies(register):
    for cls in (VecFlat, VecMartingale, VecParoli, VecFollowLast):
        register(cls)
"""

VECTORISED_EXPERIMENT = EXPERIMENT.replace("use: py-", "use: vec-")
"""The per-session experiment with the vectorised strategies, under the same labels."""

WAYS = {"per-session": "experiment.yaml", "vectorised": "vectorised.yaml", "built-in": "built-in.yaml"}


Timing = tuple[int, float, float]
"""Strategy-rounds, wall seconds and CPU seconds (every process of the command, waited for) of one command."""


def naive_run(naive: Path, shoes: int) -> Timing:
    """Strategy-rounds, wall and CPU seconds of the naive loop's whole process."""
    before, started = children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, str(naive), str(shoes)], capture_output=True, text=True, check=True)
    seconds, cpu = time.perf_counter() - started, children_cpu() - before
    found = re.search(r"strategy_rounds=(\d+)", done.stdout)
    if found is None:
        sys.exit(f"unexpected output of {naive}: {done.stdout}")
    return int(found.group(1)), seconds, cpu


def baccarat_run(folder: Path, experiment: str, report: bool) -> Timing:
    """Strategy-rounds, wall and CPU seconds of ``baccarat run`` with the default workers, with the report or ``--no-report``."""
    out = folder / f"out-{experiment}"
    command = [sys.executable, "-m", "baccarat", "run", experiment, "--plugins-dir", "plugins", "--quiet", "--force", "--out", str(out)]
    if not report:
        command.append("--no-report")
    before, started = children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - started, children_cpu() - before
    if done.returncode:
        sys.exit(f"baccarat run failed:\n{done.stderr}")
    import polars as pl

    return pl.scan_parquet(out / "ledger.parquet").select(pl.len()).collect().item(), seconds, cpu


def same_sessions(folder: Path) -> bool:
    """Tell whether the per-session and vectorised runs wrote the same session table (the same strategies, played alike)."""
    import polars as pl

    tables = [pl.read_parquet(folder / f"out-{WAYS[way]}" / "sessions.parquet") for way in ("per-session", "vectorised")]
    return tables[0].equals(tables[1])


def measure(folder: Path, shoes: int, repeat: int, naive: Path) -> None:
    """Time the naive loop and the three ways, with and without the report, interleaved; print rates and ratios."""
    for name, text in (("experiment", EXPERIMENT), ("vectorised", VECTORISED_EXPERIMENT), ("built-in", BUILT_IN)):
        (folder / f"{name}.yaml").write_text(textwrap.dedent(text.format(shoes=shoes)), encoding="utf-8")
    best: dict[str, Timing] = {}

    def keep(what: str, result: Timing) -> None:
        if what not in best or result[1] < best[what][1]:
            best[what] = result

    for _ in range(repeat):
        keep("naive", naive_run(naive, shoes))
        for report in (True, False):
            for way, experiment in WAYS.items():
                keep(f"{way}, {'report' if report else '--no-report'}", baccarat_run(folder, experiment, report))
    alike = same_sessions(folder)
    rate = {what: rows / seconds for what, (rows, seconds, _) in best.items()}
    cpu_rate = {what: rows / cpu for what, (rows, _, cpu) in best.items()}
    print(f"{shoes:,} shoes, wall time of each whole command, default workers, best of {repeat} (CPU of its processes beside it)")
    print(
        f"  naive hand-written loop ({naive.name}): {rate['naive']:,.0f} strategy-rounds/s "
        f"({best['naive'][1]:.1f} s; CPU {best['naive'][2]:.1f} s)"
    )
    for what in best:
        if what != "naive":
            print(
                f"  baccarat run, {what}: {rate[what]:,.0f} strategy-rounds/s ({best[what][1]:.1f} s): "
                f"{rate[what] / rate['naive']:.2f}x (CPU {best[what][2]:.1f} s: {cpu_rate[what] / cpu_rate['naive']:.2f}x)"
            )
    print(f"  per-session and vectorised session tables identical: {'yes' if alike else 'NO'}")
    for report in ("report", "--no-report"):
        vectorised, per_session = rate[f"vectorised, {report}"], rate[f"per-session, {report}"]
        print(f"  {report}: vectorised {vectorised / rate['naive']:.2f}x the naive loop, {vectorised / per_session:.2f}x per session")


def main() -> None:
    """Time every way at 10,000 shoes (and 100,000 with ``--large``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000)
    parser.add_argument("--large", action="store_true", help="also 100,000 shoes")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--naive", type=Path, default=NAIVE)
    args = parser.parse_args()
    if not args.naive.is_file():
        sys.exit(f"the yardstick {args.naive} is missing: give its place with --naive")
    with tempfile.TemporaryDirectory(prefix="bench-vectorised-") as tmp:
        folder = Path(tmp)
        (folder / "plugins").mkdir()
        (folder / "plugins" / "plain.py").write_text(PLUGIN, encoding="utf-8")
        (folder / "plugins" / "vectorised.py").write_text(VECTORISED, encoding="utf-8")
        for shoes in (args.shoes, 100_000) if args.large else (args.shoes,):
            measure(folder, shoes, args.repeat, args.naive)


if __name__ == "__main__":
    main()
