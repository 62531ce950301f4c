"""Side selectors of docs/strategies.md: the value of a composed strategy's ``side``.

Fixed sides back one bet every round. Pattern selectors read the current
shoe only (their history restarts with every shoe, also inside a multi-shoe
session), skip ties, and sit out (``None``) until the shoe has the history
they need. ``docs/strategies.md`` gives the exact rules as a table.
"""

from __future__ import annotations

from typing import Any

from baccarat.plugin import OPPOSITE, FixedSideSelector, Selector, SessionInfo, TableView, positive_int


class FixedSide(FixedSideSelector):
    """Back the same bet every round."""


class Banker(FixedSide):
    """Banker every round."""

    name = side = "banker"
    description = "Banker every round"


class Player(FixedSide):
    """Player every round."""

    name = side = "player"
    description = "Player every round"


class Tie(FixedSide):
    """Tie every round."""

    name = side = "tie"
    description = "Tie every round"


class PlayerPair(FixedSide):
    """Player Pair every round."""

    name = side = "player_pair"
    description = "Player Pair every round"


class BankerPair(FixedSide):
    """Banker Pair every round."""

    name = side = "banker_pair"
    description = "Banker Pair every round"


class Dragon7(FixedSide):
    """EZ Baccarat's Dragon 7 every round."""

    name = side = "dragon7"
    description = "Dragon 7 (EZ Baccarat) every round"


class Panda8(FixedSide):
    """EZ Baccarat's Panda 8 every round."""

    name = side = "panda8"
    description = "Panda 8 (EZ Baccarat) every round"


def _fixed(bet: str, label: str) -> type[FixedSide]:
    return type(
        bet.title().replace("_", ""),
        (FixedSide,),
        {"name": bet, "side": bet, "description": f"{label} every round", "__doc__": f"{label} every round.", "__module__": __name__},
    )


SIDE_BET_SELECTORS: tuple[type[FixedSide], ...] = tuple(
    _fixed(bet, label)
    for bet, label in (
        ("dragon_bonus_player", "Dragon Bonus on Player"),
        ("dragon_bonus_banker", "Dragon Bonus on Banker"),
        ("either_pair", "Either Pair"),
        ("perfect_pair", "Perfect Pair"),
        ("big", "Big"),
        ("small", "Small"),
        ("lucky_6", "Lucky 6"),
        ("super_six", "the Super Six side bet"),
    )
)
"""Fixed sides for the side bets of ``docs/side-bets.md``."""
globals().update({cls.__name__: cls for cls in SIDE_BET_SELECTORS})


class FollowLast(Selector):
    """Back the shoe's last decided winner (ties skipped)."""

    name = "follow-last"
    description = "the shoe's last decided winner"

    def choose(self, view: TableView) -> str | None:
        """The last decided winner of this shoe; sit out before the first."""
        return view.last_decided


class Chop(Selector):
    """Back the opposite of the shoe's last decided winner (ties skipped)."""

    name = "chop"
    description = "the opposite of the shoe's last decided winner"

    def choose(self, view: TableView) -> str | None:
        """The side that did not win the last decided round; sit out before the first."""
        last = view.last_decided
        return None if last is None else OPPOSITE[last]


class Streak(Selector):
    """Back a side once it has won ``length`` decided rounds in a row in this shoe (ties skipped)."""

    name = "streak"
    params = {"length": 3}
    description = "a side that has won `length` decided rounds in a row"

    def __init__(self, session: SessionInfo, length: Any = 3) -> None:
        super().__init__(session)
        self.length = positive_int(length, "length")

    def choose(self, view: TableView) -> str | None:
        """The streaking side when its run is at least ``length``; else sit out."""
        return view.last_decided if view.streak_length >= self.length else None


class Pattern(Selector):
    """Follow a string of B and P, one letter per decided round of the shoe, repeating."""

    name = "pattern"
    params = {"pattern": "BP"}
    description = "a repeating string of B and P, indexed by the shoe's decided rounds"

    def __init__(self, session: SessionInfo, pattern: Any = "BP") -> None:
        super().__init__(session)
        letters = pattern.replace(" ", "").replace(",", "").upper() if isinstance(pattern, str) else None
        if not letters or set(letters) - {"B", "P"}:
            raise ValueError(f"pattern must be a string of B and P such as 'BBP', not {pattern!r}")
        self.pattern = tuple("banker" if letter == "B" else "player" for letter in letters)

    def choose(self, view: TableView) -> str | None:
        """Letter number ``decided rounds so far in this shoe`` (from 0), wrapping round the pattern."""
        return self.pattern[view.decided_in_shoe % len(self.pattern)]


class Random(Selector):
    """Flip a seeded coin between Banker and Player every round (a baseline)."""

    name = "random"
    description = "a seeded coin: Banker or Player"

    def choose(self, view: TableView) -> str | None:
        """Banker when the session's stream gives ``random() < 0.5``, else Player."""
        return "banker" if self.session.rng.random() < 0.5 else "player"


BUILT_IN = (Banker, Player, Tie, PlayerPair, BankerPair, Dragon7, Panda8, *SIDE_BET_SELECTORS, FollowLast, Chop, Streak, Pattern, Random)
"""Built-in selectors, in the order `baccarat strategies` lists them."""
