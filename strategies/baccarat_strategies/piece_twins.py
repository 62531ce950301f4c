"""Compiled twins of the built-in pieces, registered through the ``register_twins`` hook like any plugin's.

Each function follows its reference method in ``progressions``,
``selectors`` or ``stop_rules`` step for step, over the ``state`` and
``params`` arrays of :mod:`baccarat.plugin.twins`; the parity tests play every
piece on both paths over many seeds. Functions that others call are compiled
(``@njit``); this module is imported only when a run asks for compiled twins.
"""

from __future__ import annotations

from typing import Any

from baccarat.plugin.twins import (
    BANKER,
    DECIDED_IN_SHOE,
    LAST_DECIDED,
    MICROS_PER_CENT,
    PLAYER,
    PROFIT,
    ROUND,
    SIDES,
    SIT_OUT,
    STAKE,
    STREAK_LENGTH,
    ProgressionTwin,
    SelectorTwin,
    StopRuleTwin,
    cents,
    micros,
    njit,
    random,
)
from baccarat_strategies import progressions as p
from baccarat_strategies import selectors as s
from baccarat_strategies import stop_rules as r

# Progressions: params[0] is the unit in cents; state[STAKE] the next stake. ---------------------------------


@njit
def back_to_unit(state, params, net):
    """Martingale and Grand Martingale after a win: one unit."""
    state[STAKE] = params[0]


@njit
def double(state, params, net):
    """Martingale after a loss."""
    state[STAKE] *= 2


@njit
def double_plus_unit(state, params, net):
    """Grand Martingale after a loss."""
    state[STAKE] = 2 * state[STAKE] + params[0]


@njit
def paroli_restart(state, params):
    """One unit, no wins counted (state[1]: wins in a row; params[1]: ``wins``)."""
    state[STAKE] = params[0]
    state[1] = 0


@njit
def paroli_won(state, params, net):
    """Count the win; double, or start over after ``wins`` in a row."""
    state[1] += 1
    if state[1] >= params[1]:
        paroli_restart(state, params)
    else:
        state[STAKE] *= 2


@njit
def paroli_lost(state, params, net):
    """Back to one unit."""
    paroli_restart(state, params)


@njit
def fibonacci_restart(state, params):
    """The first term (state[1]: the term's index; state[2], state[3]: that term and the next, in units)."""
    state[1] = 0
    state[2] = 1
    state[3] = 1
    state[STAKE] = params[0]


@njit
def fibonacci_won(state, params, net):
    """Two terms back, not before the first."""
    for _ in range(2):
        if state[1] > 0:
            state[1] -= 1
            previous = state[3] - state[2]
            state[3] = state[2]
            state[2] = previous
    state[STAKE] = state[2] * params[0]


@njit
def fibonacci_lost(state, params, net):
    """One term on."""
    state[1] += 1
    following = state[2] + state[3]
    state[2] = state[3]
    state[3] = following
    state[STAKE] = state[2] * params[0]


@njit
def dalembert_won(state, params, net):
    """One unit less, not below one unit."""
    state[STAKE] = max(params[0], state[STAKE] - params[0])


@njit
def dalembert_lost(state, params, net):
    """One unit more."""
    state[STAKE] += params[0]


# Labouchere: params = [unit, n, line...] (cents); state = [stake, head, tail, numbers...]: the line is
# state[3 + head: 3 + tail]; a win moves head on (and tail back), a loss appends at tail.


@njit
def _labouchere_stake(state):
    head, tail = 3 + state[1], 3 + state[2]
    state[STAKE] = state[head] + state[tail - 1] if tail - head > 1 else state[head]


@njit
def labouchere_restart(state, params):
    """The line as given."""
    n = params[1]
    state[3 : 3 + n] = params[2 : 2 + n]
    state[1] = 0
    state[2] = n
    _labouchere_stake(state)


@njit
def labouchere_won(state, params, net):
    """Cross off the first and last numbers (the only one when one is left); restart an emptied line."""
    state[1] += 1
    if state[2] > state[1]:
        state[2] -= 1
    if state[2] == state[1]:
        labouchere_restart(state, params)
    else:
        _labouchere_stake(state)


@njit
def labouchere_lost(state, params, net):
    """Append the amount actually lost."""
    state[3 + state[2]] = -net // MICROS_PER_CENT
    state[2] += 1
    _labouchere_stake(state)


def labouchere_params(piece: Any) -> list[int]:
    """The unit, the line's length and the line, in cents."""
    return [cents(piece.unit), len(piece.start), *map(cents, piece.start)]


def labouchere_state_size(piece: Any, rounds: int) -> int:
    """Stake, head, tail, and room for the line plus one number per round."""
    return 3 + len(piece.start) + rounds + 1


@njit
def one_three_two_six_won(state, params, net):
    """Next step; after the fourth, back to the first (state[1]: the step; params[1:5]: 1, 3, 2, 6)."""
    state[1] = (state[1] + 1) % 4
    state[STAKE] = params[1 + state[1]] * params[0]


@njit
def one_three_two_six_restart(state, params):
    """The first step."""
    state[1] = 0
    state[STAKE] = params[0]


@njit
def one_three_two_six_lost(state, params, net):
    """Back to the first step."""
    one_three_two_six_restart(state, params)


@njit
def oscars_grind_restart(state, params):
    """A new series: one unit, nothing won or lost yet (state[1]: the series' net, micro-units)."""
    state[STAKE] = params[0]
    state[1] = 0


@njit
def oscars_grind_won(state, params, net):
    """Count the win; a series at +1 unit or more starts over, else one unit more, cut to what is needed."""
    state[1] += net
    needed = params[0] * MICROS_PER_CENT - state[1]
    if needed <= 0:
        oscars_grind_restart(state, params)
    else:
        state[STAKE] = min(state[STAKE] + params[0], max((needed + MICROS_PER_CENT - 1) // MICROS_PER_CENT, params[1]))


@njit
def oscars_grind_lost(state, params, net):
    """Count the loss; same stake."""
    state[1] += net


# Selectors -----------------------------------------------------------------------------------------------


@njit
def fixed_side(view, history, state, params, rng):
    """The fixed bet (params[0], its side code)."""
    return params[0]


@njit
def follow_last(view, history, state, params, rng):
    """The shoe's last decided winner; sit out before the first."""
    return view[LAST_DECIDED]


@njit
def chop(view, history, state, params, rng):
    """The side that did not win the last decided round; sit out before the first."""
    last = view[LAST_DECIDED]
    if last < 0:
        return SIT_OUT
    return PLAYER if last == BANKER else BANKER


@njit
def streak(view, history, state, params, rng):
    """The streaking side when its run is at least ``length`` (params[0]); else sit out."""
    return view[LAST_DECIDED] if view[STREAK_LENGTH] >= params[0] else SIT_OUT


@njit
def pattern(view, history, state, params, rng):
    """Letter number ``decided rounds so far in this shoe`` of the pattern (params: its side codes)."""
    return params[view[DECIDED_IN_SHOE] % params.shape[0]]


@njit
def coin(view, history, state, params, rng):
    """Banker when the session's stream gives ``random() < 0.5``, else Player."""
    return BANKER if random(rng) < 0.5 else PLAYER


# Stop rules (params[0]: the limit) ------------------------------------------------------------------------


@njit
def stop_loss(view, state, params):
    """Lost ``stop_loss`` or more (micro-units)."""
    return -view[PROFIT] >= params[0]


@njit
def stop_win(view, state, params):
    """Won ``stop_win`` or more (micro-units)."""
    return view[PROFIT] >= params[0]


@njit
def max_rounds(view, state, params):
    """Past round ``max_rounds``."""
    return view[ROUND] > params[0]


TWINS: dict[type, Any] = {
    p.Flat: ProgressionTwin(),
    p.Martingale: ProgressionTwin(won=back_to_unit, lost=double),
    p.GrandMartingale: ProgressionTwin(won=back_to_unit, lost=double_plus_unit),
    p.Paroli: ProgressionTwin(paroli_restart, paroli_won, paroli_lost, lambda piece: [cents(piece.unit), piece.wins], 2),
    p.Fibonacci: ProgressionTwin(fibonacci_restart, fibonacci_won, fibonacci_lost, state_size=4),
    p.Dalembert: ProgressionTwin(won=dalembert_won, lost=dalembert_lost),
    p.Labouchere: ProgressionTwin(labouchere_restart, labouchere_won, labouchere_lost, labouchere_params, labouchere_state_size),
    p.OneThreeTwoSix: ProgressionTwin(
        one_three_two_six_restart, one_three_two_six_won, one_three_two_six_lost, lambda piece: [cents(piece.unit), *piece.SEQUENCE], 2
    ),
    p.OscarsGrind: ProgressionTwin(
        oscars_grind_restart, oscars_grind_won, oscars_grind_lost, lambda piece: [cents(piece.unit), cents(piece.floor)], 2
    ),
    **{
        cls: SelectorTwin(fixed_side, lambda piece: [SIDES.index(piece.side)])
        for cls in (s.Banker, s.Player, s.Tie, s.PlayerPair, s.BankerPair, s.Dragon7, s.Panda8, *s.SIDE_BET_SELECTORS)
    },
    s.FollowLast: SelectorTwin(follow_last),
    s.Chop: SelectorTwin(chop),
    s.Streak: SelectorTwin(streak, lambda piece: [piece.length]),
    s.Pattern: SelectorTwin(pattern, lambda piece: [SIDES.index(side) for side in piece.pattern]),
    s.Random: SelectorTwin(coin, uses_rng=True),
    r.StopLoss: StopRuleTwin(stop_loss, lambda piece: [micros(piece.limit)]),
    r.StopWin: StopRuleTwin(stop_win, lambda piece: [micros(piece.goal)]),
    r.MaxRounds: StopRuleTwin(max_rounds, lambda piece: [piece.rounds]),
}
"""Every built-in piece with a compiled twin (the road selectors have none: they run on the reference engine)."""
