"""The ledger's round columns of a set of sessions (:func:`baccarat.engine.bet_log.session_rows`)."""

from __future__ import annotations

import numpy as np
import pytest

from baccarat.engine.bet_log import session_rows
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset


@pytest.mark.parametrize(
    "sessions",
    [
        [(1, 0, 70), (2, 70, 150), (3, 150, 230)],  # one after the other: one range of rows
        [(4, 150, 230), (2, 0, 70)],  # out of order
        [(1, 0, 70), (3, 150, 230)],  # a gap
        [(5, 40, 40), (6, 40, 90)],  # an empty session
        [],
    ],
)
def test_the_columns_are_those_of_each_sessions_rows_in_turn(sessions: list[tuple[int, int, int]]) -> None:
    table = seeded_table_compiled(preset("punto-banco-8"), 3, 1, 4)
    rows = [row for _, start, stop in sessions for row in range(start, stop)]
    for given in (sessions, np.asarray(sessions, dtype=np.int64).reshape(-1, 3)):
        out = session_rows(table, given)
        assert out["session"].tolist() == [number for number, start, stop in sessions for _ in range(start, stop)]
        assert out["round"].tolist() == [k + 1 for _, start, stop in sessions for k in range(stop - start)]
        for name in ("shoe", "hand", "outcome"):
            assert out[name].dtype == np.int64
            assert out[name].tolist() == getattr(table, name)[rows].tolist()
            assert not np.shares_memory(out[name], getattr(table, name))  # a column of its own
        assert out["length"].tolist() == [stop - start for _, start, stop in sessions]
