"""The ``predicted`` selector: back the side a predictor of the next round favours, Banker or Player.

Any built-in predictor (``baccarat predict`` lists them) backs a strategy
without more code: ``side: predicted`` with ``predictor: NAME``. The
predictor is made afresh for each shoe, as ``baccarat predict`` makes it,
and asked before every round with what has been dealt of the shoe
(:class:`baccarat.plugin.Dealt`, built from the table view): the selector
backs Banker when the predictor gives Banker at least Player's chance,
else Player. No predictor can beat the house edge (``baccarat predict``
scores them): the verdict of such a strategy says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baccarat.plugin import Dealt, Predictor, Selector, SessionInfo, TableView
from baccarat_strategies import predictors


class Predicted(Selector):
    """Back the side (Banker or Player) a predictor gives the higher chance to."""

    name = "predicted"
    params = {"predictor": "follow-streak"}
    description = "the side a predictor favours (Banker or Player); predictor: its name"

    def __init__(self, session: SessionInfo, predictor: Any = "follow-streak") -> None:
        super().__init__(session)
        found = {cls.name: cls for cls in predictors.BUILT_IN}
        if predictor not in found:
            raise ValueError(f"predictor must be one of {', '.join(found)}, not {predictor!r}")
        self.made: type[Predictor] = found[predictor]
        self.current: Predictor | None = None
        self.shoe: int | None = None

    def choose(self, view: TableView) -> str | None:
        """Ask the shoe's predictor for the next round's chances; Banker when its chance is at least Player's."""
        if self.current is None or self.shoe != view.shoe:
            self.current, self.shoe = self.made(), view.shoe
        remaining = np.array(view.unseen_counts(), dtype=np.int64) if self.made.needs_cards else None
        if remaining is not None:
            remaining.flags.writeable = False
        dealt = Dealt(self.session.rules, view.hand, view.shoe_history, view.roads, remaining)
        banker, player, _ = self.current.predict(dealt)
        return "banker" if banker >= player else "player"
