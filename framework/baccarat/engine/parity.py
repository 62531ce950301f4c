"""The parity check that gates the compiled path: a strategy's twin and the reference play the same seeded shoes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccarat.engine.differences import first_difference
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.engine.strategy_twin import TwinError, twin_of
from baccarat.engine.twin_play import play_twin
from baccarat.errors import BaccaratError
from baccarat.table.rules import Rules

CHECK_SHOES = 16
"""Seeded shoes of the parity check that gates the compiled path (more when a session holds more shoes)."""


_PARITY: dict[tuple[Any, ...], str | None] = {}


def parity_failure(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int, bets: Sequence[str]) -> str | None:
    """Check ``run``'s compiled twin against the reference on seeded shoes (once per process); return why it failed.

    None when it passed. A strategy without a twin, or one the reference
    reports an error for on those shoes, is "not covered": the reason is ``""``.
    """
    key = (run.cls, run.label, repr(sorted(run.params.items())), repr(rules), rules.bet_registry, config, seed, tuple(bets))
    if key not in _PARITY:
        _PARITY[key] = _check_parity(run, rules, config, seed, tuple(bets))
    return _PARITY[key]


def _check_parity(run: StrategyRun, rules: Rules, config: SessionConfig, seed: int, bets: tuple[str, ...]) -> str | None:
    from baccarat.engine.sessions import sessions_of
    from baccarat.odds.settlement import settlement_table
    from baccarat.shoes.compiled_deal import seeded_table_compiled

    try:
        twin = twin_of(run, rules, config, seed)
    except TwinError as exc:
        return exc.message
    if twin is None:
        return ""
    table = seeded_table_compiled(rules, seed, 1, max(CHECK_SHOES, min(2 * config.shoes_per_session, 4 * CHECK_SHOES)))
    settled = settlement_table(table, rules)
    if not set(bets) <= set(settled):
        return ""
    multipliers = {bet: settled[bet] for bet in bets}
    sessions = sessions_of(table, config)
    try:
        played = play_twin(twin, run, table, multipliers, config, seed, sessions)
    except TwinError as exc:
        return exc.message
    if played is None:
        return ""
    try:
        reference = run_strategy(run, table, multipliers, rules, config, seed, sessions)
    except BaccaratError:
        return ""  # the run reports it where it happens
    row = first_difference(played[0], reference)
    if row is None:
        return None
    return (
        f"its compiled twin differs from the reference at session {reference['session'][row]}, "
        f"shoe {reference['shoe'][row]}, hand {reference['hand'][row]}, round {reference['round'][row]}"
    )
