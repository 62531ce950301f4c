"""The compiled path's overflow guard bounds each session by its own length, not by all the rows of its chunk.

A session's bankroll is its own: what it can reach is its bankroll plus what
its longest session could win at the table maximum. A chunk of many short
sessions with a large bankroll stays on the compiled path (it once fell to
the reference with no message, the guard multiplying by every row of the chunk),
and plays exactly as the reference does.
"""

from __future__ import annotations

import numpy as np
import pytest

from baccarat.engine.compiled import play_compiled
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset


@pytest.mark.slow
def test_a_large_bankroll_over_many_short_sessions_plays_compiled_and_as_the_reference() -> None:
    rules = preset("punto-banco-8")
    table = seeded_table(rules, 3, 1, 400)  # about 32,000 rows: far more than one session's
    multipliers = settlement_table(table, rules)
    config = SessionConfig(1_000_000_000, 1_000, 100_000, 1)  # a bankroll of 10,000,000
    cls, params = registry().configure("martingale", {"side": "banker", "unit": 10})
    run = StrategyRun("martingale", cls, params)
    sessions = session_bounds(table, 1)
    compiled = play_compiled(run, table, multipliers, rules, config, 3, sessions)
    assert compiled is not None
    reference = run_strategy(run, table, multipliers, rules, config, 3, sessions)
    for name, column in reference.items():
        assert np.array_equal(np.asarray(compiled[name]), column), name
