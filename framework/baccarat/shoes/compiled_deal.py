"""Bulk dealing: seeded shoes into round-table columns in one compiled pass.

Two numba kernels (compiled on first use, then cached on disk):

- the seeded shuffle, reproducing numpy bit for bit: each shoe's
  ``SeedSequence(seed, spawn_key=(shoe_id,))``, its ``PCG64`` stream and
  ``Generator.shuffle`` (Fisher-Yates with bounded integers drawn by masked
  rejection on 32-bit outputs). :func:`baccarat.shoes.seeded.shuffled_shoe` remains
  the definition of a seeded shoe: the first use in a process checks the
  kernel against it and falls back to numpy's shuffle should they differ.
- the dealer: the tableau of :func:`baccarat.table.dealer.play_round` with burn and
  cut card as in :func:`baccarat.shoes.seeded.deal_seeded_shoe`.

Both are checked round by round against the reference path in the tests.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from baccarat.shoes.rounds import RoundTable
from baccarat.streams import POOL_WORDS, seed_words
from baccarat.table.cards import BURN_COUNT, POINT_VALUE, full_deck
from baccarat.table.dealer import BANKER_DRAWS
from baccarat.table.rules import Rules

_M32 = np.uint64(0xFFFFFFFF)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_ONE = np.uint64(1)

# numpy.random.SeedSequence constants (pool of 4 words).
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_POOL = POOL_WORDS

# PCG64 (128-bit LCG, XSL-RR output): the default multiplier, high and low halves.
_PCG_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_PCG_MULT_LO = np.uint64(0x4385DF649FCCF645)

_VALUE = np.asarray(POINT_VALUE + (0, 0), dtype=np.int64)  # by rank (index 0 and 14-15 unused)
_BURN = np.asarray(BURN_COUNT + (0, 0), dtype=np.int64)
_BANKER_DRAWS = np.asarray([[v in BANKER_DRAWS.get(t, ()) for v in range(10)] for t in range(10)], dtype=np.bool_)


@njit(cache=True, inline="always")
def _hashmix(value, hash_const):
    value = (value ^ hash_const[0]) & _M32
    hash_const[0] = (hash_const[0] * _MULT_A) & _M32
    value = (value * hash_const[0]) & _M32
    return value ^ (value >> _S16)


@njit(cache=True, inline="always")
def _mix(x, y):
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return result ^ (result >> _S16)


@njit(cache=True, nogil=True)
def seed_state(words, n_words, out):
    """Write ``SeedSequence`` of the entropy ``words[:n_words]`` -> ``generate_state(4, uint64)`` into ``out``.

    ``words`` are 32-bit entropy words (in uint64): the seed's words padded to
    the pool size, then the spawn key's words, as numpy assembles them.
    """
    hash_const = np.empty(1, dtype=np.uint64)
    hash_const[0] = _INIT_A
    pool = np.empty(_POOL, dtype=np.uint64)
    for i in range(_POOL):
        pool[i] = _hashmix(words[i], hash_const)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                pool[i_dst] = _mix(pool[i_dst], _hashmix(pool[i_src], hash_const))
    for i_src in range(_POOL, n_words):
        for i_dst in range(_POOL):
            pool[i_dst] = _mix(pool[i_dst], _hashmix(words[i_src], hash_const))
    hash_b = _INIT_B
    for k in range(4):
        halves = np.empty(2, dtype=np.uint64)
        for h in range(2):
            value = pool[(2 * k + h) % _POOL]
            value = (value ^ hash_b) & _M32
            hash_b = (hash_b * _MULT_B) & _M32
            value = (value * hash_b) & _M32
            halves[h] = value ^ (value >> _S16)
        out[k] = halves[0] | (halves[1] << _S32)


@njit(cache=True, inline="always")
def put_int_words(words, at, value):
    """Write a non-negative int as numpy's entropy words (32 bits each, at least one) from ``at``; return the next index."""
    v = np.uint64(value)
    words[at] = v & _M32
    at += 1
    v >>= _S32
    while v:
        words[at] = v & _M32
        at += 1
        v >>= _S32
    return at


@njit(cache=True, nogil=True)
def _seed_sequence_state(run_words, shoe_id, out):
    """Write ``SeedSequence(seed, spawn_key=(shoe_id,)).generate_state(4, uint64)`` into ``out``."""
    n_run = run_words.shape[0]
    words = np.empty(n_run + 2, dtype=np.uint64)
    for i in range(n_run):  # a loop, not a slice assignment: numba compiles that one's shape checks for seconds
        words[i] = run_words[i]
    seed_state(words, put_int_words(words, n_run, shoe_id), out)


@njit(cache=True, inline="always")
def _mulhi64(a, b):
    a0 = a & _M32
    a1 = a >> _S32
    b0 = b & _M32
    b1 = b >> _S32
    p00 = a0 * b0
    p01 = a0 * b1
    p10 = a1 * b0
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    return a1 * b1 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)


@njit(cache=True, inline="always")
def pcg_next64(rng):
    """Advance PCG64 (``rng`` = [state_hi, state_lo, inc_hi, inc_lo]) and return its next 64-bit output."""
    _pcg_step(rng)
    hi = rng[0]
    x = hi ^ rng[1]
    rot = hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True, inline="always")
def _pcg_step(rng):
    """Advance the 128-bit LCG: state = state * MULT + inc (rng = [state_hi, state_lo, inc_hi, inc_lo, ...])."""
    hi = rng[0]
    lo = rng[1]
    new_hi = _mulhi64(lo, _PCG_MULT_LO) + lo * _PCG_MULT_HI + hi * _PCG_MULT_LO
    new_lo = lo * _PCG_MULT_LO
    total_lo = new_lo + rng[3]
    carry = _ONE if total_lo < new_lo else np.uint64(0)
    rng[0] = new_hi + rng[2] + carry
    rng[1] = total_lo


@njit(cache=True, nogil=True)
def pcg_seed(rng, state):
    """Seed PCG64 from SeedSequence output as numpy does (initstate = s0:s1, initseq = s2:s3)."""
    rng[2] = (state[2] << _ONE) | (state[3] >> np.uint64(63))
    rng[3] = (state[3] << _ONE) | _ONE
    rng[0] = np.uint64(0)
    rng[1] = np.uint64(0)
    _pcg_step(rng)
    lo = rng[1] + state[1]
    carry = _ONE if lo < rng[1] else np.uint64(0)
    rng[0] = rng[0] + state[0] + carry
    rng[1] = lo
    _pcg_step(rng)


@njit(cache=True, nogil=True)
def _shuffle_shoes(template, run_words, first_shoe, count, out):
    """Fill ``out[k]`` with shoe ``first_shoe + k`` shuffled as numpy's ``Generator.shuffle`` does.

    Fisher-Yates from the last card down; each index comes from
    ``random_interval``: masked rejection on 32-bit draws, two per PCG64 output
    (low half first).
    """
    n = template.shape[0]
    state = np.empty(4, dtype=np.uint64)
    rng = np.empty(4, dtype=np.uint64)
    for k in range(count):
        _seed_sequence_state(run_words, first_shoe + k, state)
        pcg_seed(rng, state)
        hi, lo, inc_hi, inc_lo = rng[0], rng[1], rng[2], rng[3]
        spare = np.uint64(0)
        has_spare = False
        row = out[k]
        for i in range(n):
            row[i] = template[i]
        for i in range(n - 1, 0, -1):
            bound = np.uint64(i)
            mask = bound
            mask |= mask >> np.uint64(1)
            mask |= mask >> np.uint64(2)
            mask |= mask >> np.uint64(4)
            mask |= mask >> np.uint64(8)
            mask |= mask >> _S16
            while True:
                if has_spare:
                    has_spare = False
                    value = spare & mask
                else:
                    # state = state * MULT + inc (128 bits), then the XSL-RR output of the new state.
                    new_hi = _mulhi64(lo, _PCG_MULT_LO) + lo * _PCG_MULT_HI + hi * _PCG_MULT_LO
                    new_lo = lo * _PCG_MULT_LO
                    lo = new_lo + inc_lo
                    hi = new_hi + inc_hi + (_ONE if lo < new_lo else np.uint64(0))
                    x = hi ^ lo
                    rot = hi >> np.uint64(58)
                    out64 = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
                    spare = out64 >> _S32
                    has_spare = True
                    value = out64 & mask
                if value <= bound:
                    break
            j = np.int64(value)
            tmp = row[j]
            row[j] = row[i]
            row[i] = tmp


@njit(cache=True, nogil=True)
def _deal_shoes(
    shoes,
    shoe_ids,
    burn,
    cut_card,
    reshuffle,
    value,
    burn_count,
    banker_draws,
    shoe_col,
    hand_col,
    outcome,
    player_cards,
    banker_cards,
    player_total,
    banker_total,
    natural,
    player_pair,
    banker_pair,
):
    """Play every round of every shoe (rows of ``shoes``) into the output columns; return the row count."""
    n_cards = shoes.shape[1]
    cut_position = n_cards - cut_card
    row = 0
    for s in range(shoes.shape[0]):
        cards = shoes[s]
        position = 0
        if burn and not reshuffle:
            position = 1 + burn_count[cards[0] % 16]
        hand = 0
        while True:
            if reshuffle:
                if hand == 1:
                    break
            elif position >= cut_position:
                break
            hand += 1
            p1 = cards[position]
            b1 = cards[position + 1]
            p2 = cards[position + 2]
            b2 = cards[position + 3]
            position += 4
            pt = (value[p1 % 16] + value[p2 % 16]) % 10
            bt = (value[b1 % 16] + value[b2 % 16]) % 10
            p3 = 0
            b3 = 0
            is_natural = pt >= 8 or bt >= 8
            if not is_natural:
                if pt <= 5:
                    p3 = cards[position]
                    position += 1
                    third = value[p3 % 16]
                    pt = (pt + third) % 10
                    draws = banker_draws[bt, third]
                else:
                    draws = bt <= 5
                if draws:
                    b3 = cards[position]
                    position += 1
                    bt = (bt + value[b3 % 16]) % 10
            shoe_col[row] = shoe_ids[s]
            hand_col[row] = hand
            outcome[row] = 0 if bt > pt else (1 if pt > bt else 2)
            player_cards[row, 0] = p1
            player_cards[row, 1] = p2
            player_cards[row, 2] = p3
            banker_cards[row, 0] = b1
            banker_cards[row, 1] = b2
            banker_cards[row, 2] = b3
            player_total[row] = pt
            banker_total[row] = bt
            natural[row] = is_natural
            player_pair[row] = p1 % 16 == p2 % 16
            banker_pair[row] = b1 % 16 == b2 % 16
            row += 1
    return row


def shoe_template(rules: Rules) -> np.ndarray:
    """Return the unshuffled cards of a shoe under ``rules`` (as :func:`baccarat.shoes.seeded.shuffled_shoe` starts)."""
    return np.tile(np.asarray(full_deck(), dtype=np.int8), rules.decks)


def shuffle_shoes_numpy(rules: Rules, seed: int, first_shoe: int, count: int) -> np.ndarray:
    """Return shoes ``first_shoe ..`` shuffled one by one by numpy (the definition), as rows of an int8 array."""
    from baccarat.shoes.seeded import shuffled_shoe

    out = np.empty((count, 52 * rules.decks), dtype=np.int8)
    for k in range(count):
        out[k] = shuffled_shoe(rules, seed, first_shoe + k)
    return out


def shuffle_shoes_compiled(rules: Rules, seed: int, first_shoe: int, count: int) -> np.ndarray:
    """Return shoes ``first_shoe ..`` shuffled by the compiled kernel, as rows of an int8 array."""
    out = np.empty((count, 52 * rules.decks), dtype=np.int8)
    _shuffle_shoes(shoe_template(rules), seed_words(seed), first_shoe, count, out)
    return out


@cache
def compiled_shuffle_agrees() -> bool:
    """Tell whether the compiled shuffle gives numpy's shoes here (checked once per process)."""
    from baccarat.table.rules import Rules

    for decks, seed, shoe_id in ((8, 0, 1), (1, 2**40 + 3, 2**33 + 5), (6, 12345, 77)):
        rules = Rules(decks=decks)
        if not np.array_equal(shuffle_shoes_compiled(rules, seed, shoe_id, 1), shuffle_shoes_numpy(rules, seed, shoe_id, 1)):
            return False
    return True


def shuffle_shoes(rules: Rules, seed: int, first_shoe: int, count: int) -> np.ndarray:
    """Return the seeded shoes ``first_shoe .. first_shoe + count - 1`` (rows, before burn), fast."""
    if compiled_shuffle_agrees():
        return shuffle_shoes_compiled(rules, seed, first_shoe, count)
    return shuffle_shoes_numpy(rules, seed, first_shoe, count)


def max_rounds(rules: Rules) -> int:
    """Return an upper bound on the rounds one shoe holds under ``rules``."""
    return 1 if rules.reshuffle_every_round else 52 * rules.decks // 4 + 1


def deal_shoes(shoes: np.ndarray, shoe_ids: np.ndarray, rules: Rules) -> RoundTable:
    """Deal shuffled shoes (rows of card codes, before burn) into a round table, as the reference dealer does."""
    n = shoes.shape[0] * max_rounds(rules)
    columns = {
        "shoe": np.empty(n, dtype=np.int64),
        "hand": np.empty(n, dtype=np.int32),
        "outcome": np.empty(n, dtype=np.int8),
        "player_cards": np.empty((n, 3), dtype=np.int8),
        "banker_cards": np.empty((n, 3), dtype=np.int8),
        "player_total": np.empty(n, dtype=np.int8),
        "banker_total": np.empty(n, dtype=np.int8),
        "natural": np.empty(n, dtype=np.bool_),
        "player_pair": np.empty(n, dtype=np.bool_),
        "banker_pair": np.empty(n, dtype=np.bool_),
    }
    rows = _deal_shoes(
        np.ascontiguousarray(shoes, dtype=np.int8),
        np.asarray(shoe_ids, dtype=np.int64),
        rules.burn,
        rules.cut_card,
        rules.reshuffle_every_round,
        _VALUE,
        _BURN,
        _BANKER_DRAWS,
        *columns.values(),
    )
    table = RoundTable(**{name: column[:rows] for name, column in columns.items()})
    if rules.burn and not rules.reshuffle_every_round:  # the turned card starts the burn, as in baccarat.shoes.seeded
        index = np.cumsum(np.r_[True, table.shoe[1:] != table.shoe[:-1]]) - 1  # row -> shoe (every shoe has a round)
        table.turned = np.ascontiguousarray(shoes[index, 0], dtype=np.int8)
    return table


def seeded_table_compiled(rules: Rules, seed: int, first_shoe: int, count: int) -> RoundTable:
    """Deal seeded shoes ``first_shoe .. first_shoe + count - 1`` into a round table (compiled path of ``seeded_table``)."""
    shoes = shuffle_shoes(rules, seed, first_shoe, count)
    return deal_shoes(shoes, np.arange(first_shoe, first_shoe + count, dtype=np.int64), rules)
