"""Selectors that read the scoreboard roads of the current shoe (``view.roads``).

A derived road's next mark depends on which side wins next, and the two
sides always give opposite colours ("ask Banker / ask Player" on a
scoreboard). These selectors back a side by what it would add to the derived
roads; they sit out until the roads they read have started in this shoe.
Conventions of the roads: ``docs/roads.md``.
"""

from __future__ import annotations

from typing import Any

from baccarat.plugin import BLUE, DERIVED_ROADS, RED, Selector, SessionInfo, TableView, did_you_mean

ROAD_NAMES: tuple[str, ...] = tuple(name for name, _ in DERIVED_ROADS)
"""The derived roads a selector can read."""

_SIDES = ("banker", "player")


def road_name(value: Any) -> str:
    """Return ``value`` as a derived road name, or raise ValueError with a suggestion."""
    if value not in ROAD_NAMES:
        raise ValueError(f"road must be one of {', '.join(ROAD_NAMES)}, not {value!r}{did_you_mean(str(value), ROAD_NAMES)}")
    return value


def colour_name(value: Any) -> str:
    """Return ``value`` as ``'red'`` or ``'blue'``, or raise ValueError."""
    if value not in (RED, BLUE):
        raise ValueError(f"colour must be red or blue, not {value!r}")
    return value


class RoadAsk(Selector):
    """Back the side whose next mark on a derived road would be ``colour``."""

    name = "road-ask"
    params = {"road": "big_eye_boy", "colour": "red"}
    description = "the side whose next mark on a derived road (`road`) would be `colour`"

    def __init__(self, session: SessionInfo, road: Any = "big_eye_boy", colour: Any = "red") -> None:
        super().__init__(session)
        self.road = road_name(road)
        self.colour = colour_name(colour)

    def choose(self, view: TableView) -> str | None:
        """The side that would give ``colour``; sit out until the road has started."""
        roads = view.roads
        for side in _SIDES:
            if roads.next_colour(self.road, side) == self.colour:
                return side
        return None


class RoadFollow(Selector):
    """Back the side that would repeat the last colour of a derived road (follow the road's trend)."""

    name = "road-follow"
    params = {"road": "big_eye_boy"}
    description = "the side that would repeat the last colour of a derived road (`road`)"

    def __init__(self, session: SessionInfo, road: Any = "big_eye_boy") -> None:
        super().__init__(session)
        self.road = road_name(road)

    def choose(self, view: TableView) -> str | None:
        """The side whose next mark equals the road's last mark; sit out while the road is empty."""
        roads = view.roads
        last = roads.last_mark(self.road)
        if last is None:
            return None
        for side in _SIDES:
            if roads.next_colour(self.road, side) == last:
                return side
        return None


class RoadConsensus(Selector):
    """Back the side that would add ``colour`` to at least ``agree`` of the three derived roads."""

    name = "road-consensus"
    params = {"colour": "red", "agree": 3}
    description = "the side that would add `colour` to at least `agree` (2 or 3) of the three derived roads"

    def __init__(self, session: SessionInfo, colour: Any = "red", agree: Any = 3) -> None:
        super().__init__(session)
        self.colour = colour_name(colour)
        if isinstance(agree, bool) or agree not in (2, 3):
            raise ValueError(f"agree must be 2 or 3 (of the three derived roads), not {agree!r}")
        self.agree = agree

    def choose(self, view: TableView) -> str | None:
        """The side with enough roads agreeing; sit out otherwise (or before the roads start)."""
        roads = view.roads
        for side in _SIDES:
            if sum(roads.next_colour(road, side) == self.colour for road in ROAD_NAMES) >= self.agree:
                return side
        return None


BUILT_IN = (RoadAsk, RoadFollow, RoadConsensus)
"""The road-reading selectors, in the order they are registered."""
