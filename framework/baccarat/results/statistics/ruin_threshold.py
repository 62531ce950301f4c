"""Each session's ``bankroll_needed``: the least starting bankroll, in whole table minimums, from which it is not ruined.

Called by the fold of each chunk's sessions (:func:`baccarat.results.statistics.folded.fold_sessions`),
compiled or as plain Python: the same figures either way. Definitions are in docs/results.md.
"""

from __future__ import annotations

import numpy as np

from baccarat.compiling import compiled
from baccarat.money import MICROS_PER_CENT


def _thresholds(first, length, stake, net, bankroll, initial, min_micros, out):
    """Write each session's ``bankroll_needed`` (micro-units, -1: more than its bankroll) into ``out``.

    Rows ``first[k]`` .. ``first[k] + length[k]`` are session ``k``'s rounds in
    order: ``stake`` and ``net`` of the bets as played from ``initial``, and
    the ``bankroll`` after each round (micro-units). From a bankroll ``B`` on
    the grid of table minimums (at most ``initial``), the session is replayed
    with the same outcomes and the same stakes: every bankroll is ``initial -
    B`` lower (the offset) until a stake exceeds the bankroll before it. Such
    a bet is cut to the whole bankroll (to the cent): lost, the session is
    ruined; won, it is paid in proportion and the offset grows by what the
    cut bet did not win; pushed, nothing changes. The session is ruined from
    ``B`` when a bankroll falls below the table minimum. The least grid
    bankroll from which it is not is found by bisection (a larger bankroll
    is taken to do at least as well). A leaf kernel (:func:`baccarat.compiling.compiled`).
    """
    for k in range(first.shape[0]):
        start, stop = first[k], first[k] + length[k]
        if min_micros <= 0:
            out[k] = 0
            continue
        top = initial // min_micros  # the grid: 1..top table minimums
        low, high = 0, top + 1  # ruined from low minimums (0: no bankroll), not ruined from high (top + 1: not known)
        while high - low > 1:
            middle = (low + high) // 2
            offset = initial - middle * min_micros
            ruined = False
            for i in range(start, stop):
                if stake[i] > 0:
                    before = bankroll[i] - net[i] - offset
                    if stake[i] > before:  # cut to the whole bankroll, to the cent
                        placed = (before // MICROS_PER_CENT) * MICROS_PER_CENT
                        if net[i] < 0:
                            ruined = True
                            break
                        if net[i] > 0:
                            offset += net[i] - int(net[i] * (placed / stake[i]))
                if bankroll[i] - offset < min_micros:
                    ruined = True
                    break
            if ruined:
                low = middle
            else:
                high = middle
        out[k] = -1 if high > top else high * min_micros


def ruin_thresholds(
    first: np.ndarray,
    length: np.ndarray,
    stake: np.ndarray,
    net: np.ndarray,
    bankroll: np.ndarray,
    initial: int,
    min_micros: int,
    kernel: bool,
) -> np.ndarray:
    """Return each session's ``bankroll_needed`` in micro-units, -1 where it needs more than ``initial`` (see :func:`_thresholds`).

    ``stake``, ``net`` and ``bankroll`` are int64 micro-units, sessions contiguous, rounds in order; with ``kernel``,
    compiled by numba (the same numbers).
    """
    out = np.zeros(len(first), dtype=np.int64)
    run = compiled(_thresholds) if kernel else _thresholds
    run(
        np.asarray(first, dtype=np.int64),
        np.asarray(length, dtype=np.int64),
        np.asarray(stake, dtype=np.int64),
        np.asarray(net, dtype=np.int64),
        np.asarray(bankroll, dtype=np.int64),
        int(initial),
        int(min_micros),
        out,
    )
    return out
