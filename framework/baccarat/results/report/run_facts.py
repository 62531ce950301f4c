"""The plain facts a report states about a run besides its statistics: what was played, on which table, with what money.

The caller (:mod:`baccarat.experiment.report_facts`) takes them from the run's
experiment, so that the results layer reads ledgers and facts, never an
experiment.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal


@dataclasses.dataclass(frozen=True)
class RunFacts:
    """What a run played, as its report states it."""

    name: str
    """The experiment's name (the report's title)."""
    rules: str
    """The rules' name (a preset's, or the rules file's)."""
    decks: int
    one_round_shoes: bool
    """Every shoe holds one round (a deck reshuffled after every round): the rounds are independent."""
    shoes: str
    """The shoes, described: ``1,000 seeded shoes, seed 7``, or the recorded file and its format."""
    bankroll: Decimal
    """Each session's initial bankroll."""
    table_min: Decimal
    table_max: Decimal
    shoes_per_session: int
    experiment_yaml: str
    """The experiment as YAML, its rules resolved (shown when the run folder holds no experiment.yaml)."""
    fixed_bets: Mapping[str, str | None] = dataclasses.field(default_factory=dict)
    """Each strategy's label mapped to the one bet it backs whenever it bets (a fixed-side selector), else None:
    :data:`baccarat.results.comparisons.verdict.FixedBets`."""
    session_length: str = ""
    """How long a session is, in words (``60 rounds per session``; empty: ``shoes_per_session`` whole shoes)."""
    session_rules: str = ""
    """The dealer's session rules, in words (``win goal 200, stop-loss 300``; empty: none)."""
    engines: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each strategy's label mapped to the engine that played it, and why (``compiled``, ``reference: ...``); empty
    when the run did not record it."""
