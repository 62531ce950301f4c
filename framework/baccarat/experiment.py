"""Experiment files: YAML in, a resolved :class:`Experiment` out.

Safe YAML only: a file can never construct Python objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from baccarat.engine import SessionConfig
from baccarat.errors import InputError, did_you_mean
from baccarat.rules import Rules, load_rules


@dataclasses.dataclass(frozen=True)
class StrategyEntry:
    """One strategy line of an experiment."""

    name: str
    use: str
    params: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Experiment:
    """A resolved experiment: rules, shoes, sessions and strategies."""

    name: str
    rules: Rules
    shoes: dict[str, Any]
    session: SessionConfig
    strategies: tuple[StrategyEntry, ...]
    source: dict[str, Any]
    path: str = "<experiment>"

    @property
    def seed(self) -> int:
        """The experiment seed (0 when the shoes are recorded and no seed is given)."""
        return int(self.shoes.get("seed", 0))


TOP_KEYS = ("name", "rules", "shoes", "session", "strategies")
SHOE_KEYS = ("source", "seed", "count", "path", "format")
SESSION_KEYS = ("bankroll", "shoes_per_session", "table_min", "table_max")
STRATEGY_KEYS = ("name", "use", "params")


def _cents(value: Any, what: str, path: str) -> int:
    try:
        if isinstance(value, bool):
            raise InvalidOperation
        cents = Decimal(str(value)) * 100
    except InvalidOperation:
        raise InputError(f"{what} must be an amount, not {value!r}", path=path) from None
    if cents != cents.to_integral_value():
        raise InputError(f"{what} must be a whole number of cents, not {value!r}", path=path)
    return int(cents)


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], where: str, path: str) -> None:
    for key in data:
        if key not in allowed:
            raise InputError(f"unknown key {key!r} in {where}{did_you_mean(str(key), allowed)}", path=path)


def load_experiment(source: str | Path | Mapping[str, Any]) -> Experiment:
    """Read and resolve an experiment from a YAML file path or a mapping."""
    if isinstance(source, Mapping):
        data, path = dict(source), "<experiment>"
    else:
        path = str(source)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read experiment: {exc.strerror}", path=path) from None
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise InputError(f"not valid YAML: {getattr(exc, 'problem', None) or exc}", path=path,
                             line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None) from None
    if not isinstance(data, Mapping):
        raise InputError("an experiment must be a mapping with keys " + ", ".join(TOP_KEYS), path=path)
    return resolve(data, path)


def resolve(data: Mapping[str, Any], path: str) -> Experiment:
    """Check an experiment mapping and resolve rules, shoes, session and strategies."""
    _check_keys(data, TOP_KEYS, "the experiment", path)
    rules = load_rules(data.get("rules", "punto-banco-8"))
    shoes = dict(data.get("shoes") or {})
    _check_keys(shoes, SHOE_KEYS, "shoes", path)
    shoes.setdefault("source", "seeded")
    if shoes["source"] == "seeded":
        shoes.setdefault("seed", 0)
        shoes.setdefault("count", 1000)
    elif shoes["source"] == "recorded":
        for key in ("path", "format"):
            if key not in shoes:
                raise InputError(f"recorded shoes need shoes.{key}", path=path)
    else:
        raise InputError(f"shoes.source must be seeded or recorded, not {shoes['source']!r}", path=path)
    session = dict(data.get("session") or {})
    _check_keys(session, SESSION_KEYS, "session", path)
    config = SessionConfig(
        bankroll_cents=_cents(session.get("bankroll", 1000), "session.bankroll", path),
        table_min_cents=_cents(session.get("table_min", 10), "session.table_min", path),
        table_max_cents=_cents(session.get("table_max", 1000), "session.table_max", path),
        shoes_per_session=int(session.get("shoes_per_session", 1)),
    )
    entries = []
    for item in data.get("strategies") or []:
        _check_keys(item, STRATEGY_KEYS, "a strategy", path)
        use = str(item.get("use", ""))
        entries.append(StrategyEntry(str(item.get("name", use)), use, dict(item.get("params") or {})))
    if not entries:
        raise InputError("the experiment has no strategies", path=path)
    return Experiment(str(data.get("name", Path(path).stem)), rules, shoes, config, tuple(entries), dict(data), path)
