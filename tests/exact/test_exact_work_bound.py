"""``baccarat exact --rounds`` is bounded by the work it implies, estimated before anything is played.

The estimate is a closed-form sum over the rounds of the cells a session may hold; here it is held to the
plain sum it stands for, and the command's refusal to the bound it names.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from baccarat.exact import bounds
from baccarat.exact.analysis import _rounds_within
from baccarat.exact.dense import DenseSession
from baccarat.plugin.exact_forms import StopLimits

ROOT = Path(__file__).resolve().parents[2]


class _Config:
    def __init__(self, bankroll: int, table_min: int, table_max: int) -> None:
        self.bankroll_cents, self.table_min_cents, self.table_max_cents = bankroll * 100, table_min * 100, table_max * 100


def session(bankroll: int, table_min: int, table_max: int, grid: int, win: int | None, rounds: int | None, states: int) -> DenseSession:
    made = DenseSession.__new__(DenseSession)  # the estimate reads only these; no progression is needed
    made.config, made.grid, made.max_states = _Config(bankroll, table_min, table_max), grid, states
    made.outcomes = [(10_000, 0.45), (-10_000, 0.46), (0, 0.09)]
    made.limits = StopLimits(loss_micros=None, win_micros=win, rounds=rounds)
    return made


def brute_force(s: DenseSession, rounds: int) -> int:
    initial, minimum = s.config.bankroll_cents * 10_000, s.config.table_min_cents * 10_000
    below = max(0, (initial - minimum) // s.grid) + 1
    step = max(1, -(-s.config.table_max_cents * 10_000 // s.grid))
    widest = s.max_states
    if s.limits.win_micros is not None:
        widest = min(widest, below + -(-s.limits.win_micros // s.grid) + step)
    if s.limits.rounds is not None:
        rounds = min(rounds, s.limits.rounds + 1)
    return sum(min(widest, below + t * step) for t in range(1, rounds + 1))


@pytest.mark.parametrize(
    ("bankroll", "table_min", "table_max", "grid", "win", "stop_after", "states"),
    [
        (1000, 5, 1000, 250_000, None, None, 3_000_000),
        (1000, 5, 1000, 250_000, None, None, 50_000),
        (200, 10, 50, 2_500_000, 300 * 1_000_000, None, 3_000_000),
        (5000, 10, 10, 5_000_000, None, 40, 1_000_000),
        (10, 10, 500, 250_000, None, None, 10_000),
    ],
)
@pytest.mark.parametrize("rounds", [1, 7, 500, 3000])
def test_the_closed_form_is_the_sum_it_stands_for(bankroll, table_min, table_max, grid, win, stop_after, states, rounds) -> None:
    made = session(bankroll, table_min, table_max, grid, win, stop_after, states)
    assert made.estimated_updates(rounds) == brute_force(made, rounds)


def test_the_rounds_offered_are_the_most_within_the_bound() -> None:
    made = session(1000, 5, 1000, 250_000, None, None, 3_000_000)
    most = _rounds_within(made, bounds.MAX_UPDATES, 1_000_000)
    assert made.estimated_updates(most) <= bounds.MAX_UPDATES < made.estimated_updates(most + 1)


@pytest.mark.slow
def test_a_million_rounds_are_refused_at_once_in_one_line_with_the_estimate() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "exact", "configs/quickstart.yaml", "--rounds", "1000000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    found = re.search(
        r"1,000,000 rounds would take about ([\d.]+)e\+(\d+) updates \(about [\d.,]+ hours\).* at most about ([\d,]+) rounds", line
    )
    assert found, line
    assert float(found.group(1)) * 10 ** int(found.group(2)) > bounds.MAX_UPDATES
    assert 1_000 < int(found.group(3).replace(",", "")) < 1_000_000
