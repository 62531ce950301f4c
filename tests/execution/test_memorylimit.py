"""Under an address-space limit: the allocators are told to reserve less, a value the user set is kept, running out is told."""

from __future__ import annotations

import os
import resource

import pytest

from baccarat.execution import memorylimit

SETTINGS = ("ARROW_DEFAULT_MEMORY_POOL", "MALLOC_ARENA_MAX", "OPENBLAS_NUM_THREADS")


def test_the_limit_is_read_from_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda which: (4 << 30, resource.RLIM_INFINITY))
    assert memorylimit.address_space_limit() == 4 << 30
    monkeypatch.setattr(resource, "getrlimit", lambda which: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert memorylimit.address_space_limit() is None


def test_under_a_limit_the_allocators_reserve_less_and_a_users_value_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")  # the user's
    monkeypatch.setattr(memorylimit, "address_space_limit", lambda: 4 << 30)
    memorylimit.fit_address_space_limit()
    assert [os.environ[name] for name in SETTINGS] == ["system", "4", "1"]


def test_without_a_limit_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(memorylimit, "address_space_limit", lambda: None)
    memorylimit.fit_address_space_limit()
    assert not any(name in os.environ for name in SETTINGS)


def test_what_says_that_memory_ran_out() -> None:
    assert memorylimit.ran_out(MemoryError())
    assert memorylimit.ran_out(RuntimeError("can't start new thread"))
    assert not memorylimit.ran_out(RuntimeError("something else"))
    assert memorylimit.ran_out(ImportError("libm.so: failed to map segment from shared object"))
    assert not memorylimit.ran_out(ImportError("No module named 'nothing'"))
    assert not memorylimit.ran_out(ValueError("can't start new thread"))
