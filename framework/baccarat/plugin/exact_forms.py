"""Exact forms of plugin pieces: what a plugin gives so that ``baccarat exact`` can analyse its strategies.

``baccarat exact`` (:mod:`baccarat.exact.analysis`) computes the distribution of a
session by a dynamic program over (bankroll, progression state), round by
round. It can do so for a composed strategy when each of its pieces has an
exact form, handed to the ``register_exact_forms`` hook by the plugin that
registers the piece (``docs/exact.md`` explains the method):

- :class:`ExactProgression`: the progression's state space and transition.
  The state is the tuple of the named attributes of a progression instance,
  and those attributes must hold all of its state; the transition is the
  progression's own ``restart``, ``won(net)`` and ``lost(net)``, called on an
  instance set to that state. So the analysis moves a progression exactly as
  a run does. ``reads_net`` says whether ``won``/``lost`` read the amount
  (Labouchere appends the amount lost, Oscar's Grind counts the series' net):
  a progression that ignores it is moved once per state, not once per amount.
- :class:`ExactSelector`: the chance of each side backed in a round, which
  must not depend on the rounds already dealt (a fixed side; a coin).
- :class:`ExactStopRule`: the stop rule as limits on the session's profit and
  round number (:class:`StopLimits`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class ExactProgression:
    """Exact form of a progression: the attributes that hold all of its state, and whether its moves read the net."""

    state: tuple[str, ...]
    """Names of the instance attributes that hold the progression's whole state (``stake`` among them)."""
    reads_net: bool = False
    """Whether ``won(net)`` / ``lost(net)`` depend on the amount won or lost, not only on the stake asked."""


@dataclass(frozen=True)
class ExactSelector:
    """Exact form of a selector: the chance of each side it backs in any round, whatever came before."""

    sides: Callable[[Any], Mapping[str, Fraction]]
    """Given the selector instance of a session, return ``{side: probability}`` (summing to 1)."""


@dataclass(frozen=True)
class StopLimits:
    """When a stop rule ends betting, as limits: any that is set and reached stops the session's betting."""

    loss_micros: int | None = None
    """Stop before a round when the session has lost this much or more (micro-units)."""
    win_micros: int | None = None
    """Stop before a round when the session has won this much or more (micro-units)."""
    rounds: int | None = None
    """Stop before a round whose number in the session is above this."""


@dataclass(frozen=True)
class ExactStopRule:
    """Exact form of a stop rule: its limits, read from the rule instance of a session."""

    limits: Callable[[Any], StopLimits]


EXACT_FORM_KINDS: dict[str, type] = {"progression": ExactProgression, "selector": ExactSelector, "stop-rule": ExactStopRule}
"""Kind of registered piece -> the class of its exact form."""
