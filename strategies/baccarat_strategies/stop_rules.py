"""Stop rules of docs/strategies.md: each ends a composed strategy's betting for the rest of the session.

They are checked before every round, before the selector; once one fires,
the strategy sits out the rest of the session.
"""

from __future__ import annotations

from typing import Any

from baccarat.plugin import EXACT, SessionInfo, StopRule, TableView, positive_amount, positive_int


class StopLoss(StopRule):
    """Stop once the session has lost ``stop_loss`` or more."""

    name = "stop_loss"
    params = {"stop_loss": None}
    description = "stop once the session has lost this much or more"

    def __init__(self, session: SessionInfo, stop_loss: Any = None) -> None:
        super().__init__(session)
        self.limit = positive_amount(stop_loss, "stop_loss")
        self._floor = EXACT.minus(self.limit)

    def stop(self, view: TableView) -> bool:
        """Bankroll at or below the starting bankroll minus ``stop_loss``."""
        return view.profit <= self._floor


class StopWin(StopRule):
    """Stop once the session has won ``stop_win`` or more."""

    name = "stop_win"
    params = {"stop_win": None}
    description = "stop once the session has won this much or more"

    def __init__(self, session: SessionInfo, stop_win: Any = None) -> None:
        super().__init__(session)
        self.goal = positive_amount(stop_win, "stop_win")

    def stop(self, view: TableView) -> bool:
        """Bankroll at or above the starting bankroll plus ``stop_win``."""
        return view.profit >= self.goal


class MaxRounds(StopRule):
    """Bet in the session's first ``max_rounds`` rounds only."""

    name = "max_rounds"
    params = {"max_rounds": None}
    description = "bet in the session's first N rounds only (rounds sat out count)"

    def __init__(self, session: SessionInfo, max_rounds: Any = None) -> None:
        super().__init__(session)
        self.rounds = positive_int(max_rounds, "max_rounds")

    def stop(self, view: TableView) -> bool:
        """The session's round number is past ``max_rounds``."""
        return view.round > self.rounds


BUILT_IN = (StopLoss, StopWin, MaxRounds)
"""Built-in stop rules, in the order they are checked."""
