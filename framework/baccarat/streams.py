"""Every random stream of a run, defined once: a seeded shoe's and a strategy's, and their encoding for the compiled kernels.

A stream is numpy's ``PCG64`` seeded by ``SeedSequence(seed, spawn_key=key)``
where ``seed`` is the experiment's seed and ``key`` names the stream:

- shoe ``n`` (from 1): ``(n,)``;
- strategy ``label`` in session ``k``: ``(STRATEGY_STREAM, crc32(label), k)``.

Streams are numbered, never drawn from a shared generator, so any number of
workers deals the same shoes and a strategy meets the same luck in a session
whatever else runs. The compiled kernels (:mod:`baccarat.shoes.compiled_deal`,
:mod:`baccarat.engine.twin_play`) seed the same ``PCG64`` from the same
SeedSequence entropy words: :func:`seed_words` of the seed, then the key's
words (the session's appended by the kernel).
"""

from __future__ import annotations

import zlib

import numpy as np

STRATEGY_STREAM = 0
"""First word of every strategy stream's key: no shoe is numbered 0, so no strategy stream is a shoe's."""

POOL_WORDS = 4
"""SeedSequence's pool size: the seed's entropy words are padded to it."""


def shoe_rng(seed: int, shoe_id: int) -> np.random.Generator:
    """Return the random stream of shoe ``shoe_id`` (from 1) under experiment ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe_id,))))


def label_word(label: str) -> int:
    """Return the key word of strategy ``label``: the CRC-32 of its UTF-8 bytes."""
    return zlib.crc32(label.encode("utf-8"))


def strategy_rng(seed: int, label: str, session: int) -> np.random.Generator:
    """Return the random stream of strategy ``label`` in ``session`` under experiment ``seed``."""
    key = (STRATEGY_STREAM, label_word(label), session)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def seed_words(seed: int) -> np.ndarray:
    """Return the experiment seed as SeedSequence entropy words, padded to the pool size (uint32 values in uint64)."""
    if seed < 0:
        raise ValueError("a seed must be a non-negative integer")
    words = [seed & 0xFFFFFFFF]
    seed >>= 32
    while seed:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
    words += [0] * (POOL_WORDS - len(words))
    return np.asarray(words, dtype=np.uint64)


def strategy_words(seed: int, label: str) -> tuple[np.ndarray, int]:
    """Return the entropy words of strategy ``label``'s streams and how many are set; the kernel appends the session's.

    The array has room for the session's words after the seed's, ``STRATEGY_STREAM`` and :func:`label_word`.
    """
    seed_part = seed_words(seed)
    words = np.zeros(len(seed_part) + 6, dtype=np.uint64)
    words[: len(seed_part)] = seed_part
    words[len(seed_part)] = STRATEGY_STREAM
    words[len(seed_part) + 1] = label_word(label)
    return words, len(seed_part) + 2
