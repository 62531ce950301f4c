"""``ev-counter``: bet a side bet only when its exact expected value, from the cards seen, is above a threshold.

Any bet the table offers can be watched: the pairs, the side bets of
``docs/side-bets.md``, a plugin's own bets.

Each round it asks the view for the exact EV of each bet it watches, given
the cards seen in the shoe (``view.exact_ev``: the turned burn card and the
cards dealt; the face-down burn is unseen, see ``baccarat.odds.counting``), and stakes ``unit`` on every one whose
EV is strictly above ``threshold`` (per unit staked; default 0, i.e. only
bets the player is expected to win). Close to the threshold the decision is
made with exact fractions, so a bet whose EV equals the threshold is never
placed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from baccarat.plugin import Bets, SessionInfo, Strategy, TableView, did_you_mean, ev_exceeds, positive_amount


def threshold_value(value: Any) -> Fraction:
    """Return an EV threshold (a number such as 0, 0.02 or -0.01) as an exact fraction, or raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ValueError(f"threshold must be a number such as 0 or 0.02 (EV per unit staked), not {value!r}")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"threshold must be a number such as 0 or 0.02 (EV per unit staked), not {value!r}") from None


def watched_bets(value: Any, known: Collection[str] | None = None) -> tuple[str, ...]:
    """Return the ``bets`` parameter as a tuple of bet names, or raise ValueError; each one of ``known`` when given."""
    names = (value,) if isinstance(value, str) else value
    if not isinstance(names, list | tuple) or not names:
        raise ValueError(f"bets must be a list of bets such as [player_pair, banker_pair], not {value!r}")
    for name in names if known is not None else ():
        if name not in known:
            raise ValueError(f"bets: unknown bet {name!r}{did_you_mean(str(name), known)}; bets are {', '.join(known)}")
    return tuple(dict.fromkeys(names))


class EvCounter(Strategy):
    """Bet ``unit`` on each watched bet whose exact EV from the cards seen exceeds ``threshold``."""

    name = "ev-counter"
    params = {"bets": ["player_pair", "banker_pair"], "threshold": 0, "unit": 10}
    description = "a side bet only when its exact EV from the cards seen exceeds `threshold`"

    def __init__(self, session: SessionInfo, bets: Any = ("player_pair", "banker_pair"), threshold: Any = 0, unit: Any = 10) -> None:
        super().__init__(session)
        self.watched = watched_bets(bets, tuple(session.rules.bet_registry))  # the bets the table knows
        for bet in self.watched:
            if not session.rules.offers(bet):
                raise ValueError(f"bets: the rules {session.rules.name!r} do not offer {bet!r}; they offer {', '.join(session.rules.bets)}")
        self.threshold = threshold_value(threshold)
        self.amount = positive_amount(unit, "unit")

    @classmethod
    def sides(cls, params: Mapping[str, Any]) -> set[str]:
        """The watched bets (checked against the table's before a run)."""
        return set(watched_bets(params.get("bets", cls.params["bets"])))

    def bets(self, view: TableView) -> Bets:
        """Stake ``unit`` on every watched bet whose exact EV is above the threshold; else sit out."""
        evs = view.exact_ev(self.watched)
        rules = self.session.rules
        counts = view.pricing_counts(self.watched)
        chosen = {bet: self.amount for bet, value in evs.items() if ev_exceeds(rules, counts, bet, value, self.threshold)}
        return chosen or None
