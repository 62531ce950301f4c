"""Compiled twins of plugin pieces: what a plugin author writes to run a progression, selector or stop rule compiled.

A compiled twin is a few plain Python functions over small ``int64`` numpy
arrays, handed to the ``register_twins`` hook. baccarat compiles them with
numba (the first run caches the machine code next to the plugin's file) and
calls them from its own compiled session loop, which does everything else:
the shoe, the view, the stop order, table limits, caps, ruin and the ledger.
``docs/plugins.md`` shows a complete example.

Every function receives ``params``, the ``int64`` array of the piece's
parameters (made once per strategy by the twin's ``params(piece)`` from the
reference piece, so the reference reads and checks them), and ``state``, an
``int64`` array of the piece's own, zeroed at the start of every session.

- A progression's ``restart(state, params)`` starts a series: it sets
  ``state[STAKE]``, the next stake in cents (before the first ``restart`` of
  a session, ``state[STAKE]`` holds the unit, as in the reference);
  ``won(state, params, net)`` and ``lost(state, params, net)`` move it on
  after a bet won or lost ``net`` micro-units.
- A selector's ``choose(view, history, state, params, rng)`` returns the side
  to back, one of the side codes below, or ``SIT_OUT``; ``history`` holds the
  outcome codes (``BANKER``, ``PLAYER``, ``TIE``) of the current shoe's
  rounds so far, oldest first; ``rng`` is the session's random stream for
  :func:`random` (only when the twin says ``uses_rng=True``).
- A stop rule's ``stop(view, state, params)`` returns True to end the
  session's betting.

``view`` is an ``int64`` array read by the slot names below (``view[ROUND]``,
``view[PROFIT]``...): the facts of :class:`baccarat.plugin.TableView` as
integers. Nothing in it or in ``history`` comes from a round not yet dealt.

The twin must give the reference's ledger bit for bit: before a run plays a
strategy compiled, baccarat plays both on seeded shoes and compares them, and
``baccarat strategies check NAME`` shows the first difference.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from baccarat import money
from baccarat.plugin.strategy import FIXED_SIDES

if TYPE_CHECKING:  # at run time they come from __getattr__ below, so that importing this module does not load numba
    from baccarat.plugin.twin_helpers import njit, random

__all__ = [
    "BANKER",
    "BANKER_PAIR",
    "BANKROLL",
    "DECIDED_IN_SHOE",
    "DRAGON7",
    "HAND",
    "LAST_DECIDED",
    "MICROS_PER_CENT",
    "PANDA8",
    "PLAYER",
    "PLAYER_PAIR",
    "PROFIT",
    "ROUND",
    "SESSION",
    "SHOE",
    "SIDES",
    "SIT_OUT",
    "STAKE",
    "STREAK_LENGTH",
    "TABLE_MAX",
    "TABLE_MIN",
    "TIE",
    "VIEW_SIZE",
    "ProgressionTwin",
    "SelectorTwin",
    "StopRuleTwin",
    "cents",
    "first_stake",
    "keep",
    "micros",
    "njit",
    "random",
]

SIT_OUT = -1
"""What a compiled selector returns to sit the round out (``None`` in the reference)."""

BANKER, PLAYER, TIE, PLAYER_PAIR, BANKER_PAIR, DRAGON7, PANDA8 = range(7)
"""Side codes a compiled selector returns: the position of the bet in :data:`SIDES`; the first three are outcome codes too."""

SIDES: tuple[str, ...] = FIXED_SIDES
"""Every side by its code: ``SIDES[BANKER] == "banker"``."""

SESSION, ROUND, SHOE, HAND, BANKROLL, PROFIT, TABLE_MIN, TABLE_MAX, LAST_DECIDED, DECIDED_IN_SHOE, STREAK_LENGTH = range(11)
"""Slots of ``view``: session number; round in the session (from 1); shoe id and hand (from 1) of the round about to be
dealt; bankroll and profit in micro-units; table limits in cents; the shoe's last decided winner (``BANKER``,
``PLAYER``, or -1 before the first); the shoe's decided rounds so far; how many in a row ``LAST_DECIDED`` has won."""

VIEW_SIZE = 11

STAKE = 0
"""The slot of a progression's ``state`` that holds the next stake, in cents."""

MICROS_PER_CENT = money.MICROS_PER_CENT
"""Micro-units in a cent (from :mod:`baccarat.money`): ``net`` and ``view[BANKROLL]`` are micro-units, stakes are cents."""

cents = money.decimal_to_cents
"""``cents(amount)``: a reference piece's exact amount (``piece.unit``) as the twins' integer cents, for ``params()``."""

micros = money.decimal_to_micros
"""``micros(amount)``: a reference piece's exact amount (a stop rule's limit) as the twins' integer micro-units."""

assert SIDES[:3] == ("banker", "player", "tie") and SIDES[DRAGON7] == "dragon7" and SIDES[PANDA8] == "panda8"


def _unit(piece: Any) -> Sequence[int]:
    return [cents(piece.unit)]


def _no_params(piece: Any) -> Sequence[int]:
    return []


def first_stake(state: Any, params: Any) -> None:
    """The default ``restart``: one unit (``params[0]``, the unit in cents, as the default ``params`` gives it)."""
    state[STAKE] = params[0]


def keep(state: Any, params: Any, net: int) -> None:
    """The default ``won`` and ``lost``: nothing changes."""


@dataclass(frozen=True, eq=False)
class ProgressionTwin:
    """The compiled twin of a :class:`baccarat.plugin.Progression`.

    ``params(progression)`` gives the parameters from the reference piece
    (default: ``[cents(progression.unit)]``, its unit in cents); ``state_size`` is the length of ``state``,
    or ``state_size(progression, rounds)`` of a session of at most ``rounds``
    rounds.
    """

    restart: Callable[..., None] = first_stake
    won: Callable[..., None] = keep
    lost: Callable[..., None] = keep
    params: Callable[[Any], Sequence[int]] = _unit
    state_size: int | Callable[[Any, int], int] = 1


@dataclass(frozen=True, eq=False)
class SelectorTwin:
    """The compiled twin of a :class:`baccarat.plugin.Selector`; ``choose`` returns a side code or ``SIT_OUT``.

    ``uses_rng``: the reference draws from ``session.rng``; the twin draws
    the same numbers with :func:`random`.
    """

    choose: Callable[..., int]
    params: Callable[[Any], Sequence[int]] = _no_params
    state_size: int | Callable[[Any, int], int] = 0
    uses_rng: bool = False


@dataclass(frozen=True, eq=False)
class StopRuleTwin:
    """The compiled twin of a :class:`baccarat.plugin.StopRule`; ``stop`` returns True to end the session's betting."""

    stop: Callable[..., bool]
    params: Callable[[Any], Sequence[int]] = _no_params
    state_size: int | Callable[[Any, int], int] = 0


TWIN_KINDS: dict[str, type] = {"progression": ProgressionTwin, "selector": SelectorTwin, "stop-rule": StopRuleTwin}
"""Kind of registered piece -> the class of its compiled twin."""


RENAMED: dict[str, str] = {"CompiledProgression": "ProgressionTwin", "CompiledSelector": "SelectorTwin", "CompiledStopRule": "StopRuleTwin"}
"""The 0.2 names of the twin classes (deprecated in 0.3, removed in 0.5) -> their names now."""


def __getattr__(name: str) -> Any:
    """``random`` and ``njit`` load numba, so they are imported only by the modules that use them; the 0.2 class names warn."""
    if name in ("random", "njit"):
        from baccarat.plugin import twin_helpers

        return getattr(twin_helpers, name)
    if name in RENAMED:
        warnings.warn(
            f"baccarat.plugin.twins.{name} is deprecated and will be removed in baccarat 0.5: use {RENAMED[name]} (CHANGELOG.md, 0.3.0)",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
