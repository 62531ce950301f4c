"""An exact analysis bounds its memory before allocating: a fine grid under a large bankroll is held as reached.

A flat bet of 0.01 from a bankroll of 100,000 puts 200 million grid points
between the bankroll and the table minimum; held dense, the first array
alone took 1.5 GB. Through the command line, under an address-space limit
of 2.5 GB, the analysis must finish, and its figures are those of the same
strategy on a small bankroll (100 rounds of 0.01 cannot come near either).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

LIMIT = 2560 << 20


def exact(tmp_path: Path, bankroll: str) -> dict:
    (tmp_path / "exp.yaml").write_text(
        "rules: single-deck\nshoes: {count: 2}\n"
        f"session: {{bankroll: {bankroll}, table_min: 0.01, table_max: 1000}}\n"
        "strategies:\n  - {name: flat, use: flat, params: {side: banker, unit: 0.01}}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "exact", "exp.yaml", "--rounds", "100", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT)),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the address-space limit is Linux's")
def test_a_fine_grid_under_a_large_bankroll_fits_in_memory(tmp_path: Path) -> None:
    large = exact(tmp_path, "100000")
    small = exact(tmp_path, "5")
    (figures,) = large["strategies"]
    (reference,) = small["strategies"]
    for key in ("risk_of_ruin", "p_profit", "expected_net", "expected_wagered"):
        assert figures[key] == pytest.approx(reference[key], rel=1e-6, abs=1e-12), key  # float sums at the scale of 100,000


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the address-space limit is Linux's")
def test_an_analysis_out_of_memory_names_what_the_analysis_can_change(tmp_path: Path) -> None:
    """Out of memory (here under 0.6 GB of address space), ``exact`` says what it can change, not "fewer shoes".

    D'Alembert from 0.01 under a bankroll of 1,000,000 reaches 3,000,000 states by round 190, and needs more than
    0.8 GB before that (measured); the command itself starts in under 0.45 GB.
    """
    limit = 600 << 20
    (tmp_path / "exp.yaml").write_text(
        "session: {bankroll: 1000000, table_min: 0.01, table_max: 1000000}\n"
        "strategies:\n  - {name: d, use: dalembert, params: {side: banker, unit: 0.01}}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "exact", "exp.yaml", "--rounds", "2000"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == (
        "baccarat: error: memory ran out within this process's limit of 0.6 GB of address space (ulimit -v); "
        "analyse fewer rounds (--rounds) or strategies, a smaller bankroll or a larger unit, or allow more memory\n"
    )
