"""Every random stream of a run, defined once: a seeded shoe's and a strategy's, and their encoding for the compiled kernels.

A stream is numpy's ``PCG64`` seeded by ``SeedSequence(seed, spawn_key=key)``
where ``seed`` is the experiment's seed and ``key`` names the stream:

- shoe ``n`` (from 1): ``(n,)``;
- strategy ``label`` in session ``k``: seeded instead by ``SeedSequence(key, spawn_key=(k,))``, where ``key`` is
  :func:`strategy_key` of the seed and the label, a one-way function: a strategy's code is given the key, never the
  seed, so it cannot deal the shoes it plays.

Streams are numbered, never drawn from a shared generator, so any number of
workers deals the same shoes and a strategy meets the same luck in a session
whatever else runs. The compiled kernels (:mod:`baccarat.shoes.compiled_deal`,
:mod:`baccarat.engine.twin_play`) seed the same ``PCG64`` from the same
SeedSequence entropy words: :func:`seed_words` of the seed (of the strategy's key), then the spawn key's
words (the session's appended by the kernel).
"""

from __future__ import annotations

import hashlib

import numpy as np

POOL_WORDS = 4
"""SeedSequence's pool size: the seed's entropy words are padded to it."""


def shoe_rng(seed: int, shoe_id: int) -> np.random.Generator:
    """Return the random stream of shoe ``shoe_id`` (from 1) under experiment ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe_id,))))


def strategy_key(seed: int, label: str) -> int:
    """Return the key of strategy ``label``'s streams under experiment ``seed``: 128 bits of a SHA-256 of both.

    A one-way function: a strategy's code is given the key (through
    ``session.rng``), never the seed, and cannot recover the seed from it,
    so it cannot deal the shoes it plays.
    """
    digest = hashlib.sha256(f"baccarat strategy stream\0{seed}\0{label}".encode()).digest()
    return int.from_bytes(digest[:16], "little")


def keyed_strategy_rng(key: int, session: int) -> np.random.Generator:
    """Return the random stream of session ``session`` of the strategy whose key is ``key`` (:func:`strategy_key`)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(key, spawn_key=(session,))))


def strategy_rng(seed: int, label: str, session: int) -> np.random.Generator:
    """Return the random stream of strategy ``label`` in ``session`` under experiment ``seed``."""
    return keyed_strategy_rng(strategy_key(seed, label), session)


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

    The words are those of :func:`strategy_key` (as :func:`seed_words` pads a seed), with room for the session's.
    """
    key_part = seed_words(strategy_key(seed, label))
    words = np.zeros(len(key_part) + 4, dtype=np.uint64)
    words[: len(key_part)] = key_part
    return words, len(key_part)
