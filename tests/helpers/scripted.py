"""Play a strategy on scripted outcomes ("BPTB...") through the reference engine, and read stakes and money back."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np

from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.plugin.registry import default_session
from baccarat.shoes.rounds import OUTCOME_CODE, RoundTable
from baccarat.table.rules import preset

LETTER = {"B": "banker", "P": "player", "T": "tie"}


def scripted(outcomes: str, shoe_lengths: list[int] | None = None) -> RoundTable:
    codes = [OUTCOME_CODE[LETTER[c]] for c in outcomes]
    shoe_lengths = shoe_lengths or [len(codes)]
    assert sum(shoe_lengths) == len(codes)
    shoes, start = [], 0
    for shoe_id, length in enumerate(shoe_lengths, start=1):
        shoes.append((shoe_id, codes[start : start + length]))
        start += length
    return RoundTable.from_outcomes(shoes)


def play(
    use: str,
    outcomes: str | RoundTable,
    bankroll: float = 1000,
    table_min: float = 10,
    table_max: float = 1000,
    shoes_per_session: int = 1,
    shoe_lengths: list[int] | None = None,
    rules: str = "punto-banco-8",
    label: str | None = None,
    seed: int = 1,
    plugins_dirs: tuple[Path, ...] = (),
    **params,
) -> dict[str, np.ndarray]:
    """Play strategy ``use`` (with the plugins of ``plugins_dirs`` too) on scripted outcomes; return its ledger columns."""
    the_rules = preset(rules)
    table = outcomes if isinstance(outcomes, RoundTable) else scripted(outcomes, shoe_lengths)
    config = SessionConfig(
        int(Decimal(str(bankroll)) * 100), int(Decimal(str(table_min)) * 100), int(Decimal(str(table_max)) * 100), shoes_per_session
    )
    probe = default_session(the_rules, config.bankroll_cents, config.table_min_cents, config.table_max_cents)
    cls, full = (registry(list(plugins_dirs)) if plugins_dirs else registry()).resolve(use, params, probe)
    run = StrategyRun(label or use, cls, full)
    return run_strategy(run, table, settlement_table(table, the_rules), the_rules, config, seed=seed)


def stakes(cols) -> list[float]:
    return [v / 100 for v in cols["stake"].tolist()]


def money(cols, key: str) -> list[float]:
    return [v / 1_000_000 for v in cols[key].tolist()]


def sides(cols) -> list[str]:
    """The side bet each round ('-' when sitting out)."""
    out = []
    for i in range(len(cols["stake"])):
        placed = [bet for bet in ("banker", "player", "tie") if cols[f"stake_{bet}"][i]]
        out.append(placed[0][0].upper() if placed else "-")
    return out
