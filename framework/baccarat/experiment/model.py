"""Experiments as resolved: rules, shoes, sessions and strategies, every value checked.

:func:`baccarat.experiment.load_experiment` makes an :class:`Experiment` from
a YAML file or a mapping (see :mod:`baccarat.experiment.resolution`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import yaml

from baccarat.engine.reference import SessionConfig
from baccarat.money import CENTS_PER_UNIT
from baccarat.table.pace import HANDS_PER_HOUR
from baccarat.table.rules import Rules

TOP_KEYS: tuple[str, ...] = ("name", "rules", "shoes", "session", "strategies", "plugins_dir", "exact", "report")
SHOE_KEYS: tuple[str, ...] = ("source", "seed", "count", "path", "format")
SESSION_KEYS: tuple[str, ...] = (
    "bankroll",
    "shoes_per_session",
    "rounds",
    "new_shoe",
    "table_min",
    "table_max",
    "win_goal",
    "stop_loss",
    "hands_per_hour",
)
STRATEGY_KEYS: tuple[str, ...] = ("name", "use", "params", "grid", "sample")
SOURCES: tuple[str, ...] = ("seeded", "recorded")
DEFAULT_RULES = "punto-banco-8"
DEFAULT_COUNT = 1000
DEFAULT_SESSION: dict[str, Any] = {"bankroll": 1000, "shoes_per_session": 1, "table_min": 10, "table_max": 1000}
MAX_SEED = 2**63 - 1
MAX_SHOES = 100_000_000
"""Most seeded shoes an experiment may deal (per seed), and most shoes a session may span."""
MAX_SESSION_ROUNDS = 100_000_000
"""Most rounds ``session.rounds`` may give a session."""


@dataclasses.dataclass(frozen=True)
class StrategyEntry:
    """One strategy of an experiment: its ledger label, registered name and full parameters."""

    name: str
    use: str
    params: dict[str, Any]
    where: tuple[str | None, int | None, int | None] | None = dataclasses.field(default=None, compare=False)
    """Where the entry was written (file, line, column of its ``use:``), for an error the strategy meets during the run."""


@dataclasses.dataclass(frozen=True)
class Experiment:
    """A resolved experiment: rules, shoes, sessions and strategies, every value checked."""

    name: str
    rules: Rules
    shoes: dict[str, Any]
    session: SessionConfig
    strategies: tuple[StrategyEntry, ...]
    source: dict[str, Any]
    path: str = "<experiment>"
    seeds: tuple[int, ...] = (0,)
    overrides: tuple[str, ...] = ()
    plugins_dirs: tuple[str, ...] = ()
    """Plugin folders loaded for this experiment (``plugins_dir:``, then ``--plugins-dir``), absolute."""
    plugins_dirs_written: tuple[str, ...] = ()
    """The same folders as the user wrote them, relative to the experiment file (``--plugins-dir`` ones made relative to it):
    what :meth:`to_mapping` records, so that a run folder names no absolute path of the machine that played it."""
    exact: bool = False
    """Whether the report sets the exact analysis (``baccarat exact``) beside the simulation (``exact: true``)."""
    report: bool = True
    """Whether a run draws the charts and writes report.html (``report: false`` skips them, as ``--no-report`` does)."""
    chart_formats: tuple[str, ...] = ()
    """File formats every chart is also written in (``report: {png: true, svg: true}``): ``png``, ``svg``."""

    @property
    def seed(self) -> int:
        """The seed of the shoes (the first one when the experiment has several)."""
        return self.seeds[0]

    def with_seed(self, seed: int) -> Experiment:
        """Return this experiment with the single seed ``seed``."""
        return dataclasses.replace(self, seeds=(seed,), shoes={**self.shoes, "seed": seed})

    def to_mapping(self) -> dict[str, Any]:
        """Return the resolved experiment as plain YAML-ready data: running it again gives the same results."""
        shoes = dict(self.shoes)
        shoes["seed"] = list(self.seeds) if len(self.seeds) > 1 else self.seeds[0]
        return {
            "name": self.name,
            "rules": self.rules.to_mapping(),
            "shoes": shoes,
            "session": session_mapping(self.session),
            "strategies": [{"name": e.name, "use": e.use, "params": _plain(e.params)} for e in self.strategies],
            **({"plugins_dir": list(self.plugins_dirs_written or self.plugins_dirs)} if self.plugins_dirs else {}),
            **({"exact": True} if self.exact else {}),
            **({} if self.report else {"report": False}),
            **({"report": {fmt: True for fmt in self.chart_formats}} if self.report and self.chart_formats else {}),
        }


def session_mapping(config: SessionConfig) -> dict[str, Any]:
    """Return the ``session:`` section of a session configuration, as an experiment file writes it (unset rules left out)."""
    out: dict[str, Any] = {"bankroll": _plain_cents(config.bankroll_cents)}
    if config.rounds is None:
        out["shoes_per_session"] = config.shoes_per_session
    else:
        out["rounds"] = config.rounds
        if config.new_shoe:
            out["new_shoe"] = True
    out["table_min"] = _plain_cents(config.table_min_cents)
    out["table_max"] = _plain_cents(config.table_max_cents)
    if config.win_goal_cents is not None:
        out["win_goal"] = _plain_cents(config.win_goal_cents)
    if config.stop_loss_cents is not None:
        out["stop_loss"] = _plain_cents(config.stop_loss_cents)
    if config.hands_per_hour != HANDS_PER_HOUR:
        out["hands_per_hour"] = config.hands_per_hour
    return out


def _plain_cents(cents: int) -> int | float:
    return cents // CENTS_PER_UNIT if cents % CENTS_PER_UNIT == 0 else cents / CENTS_PER_UNIT


def yaml_ready(value: Any) -> bool:
    """Tell whether a parameter's value can be written to ``experiment.yaml`` (and read back the same)."""

    try:
        yaml.safe_dump(_plain(value))
    except (yaml.YAMLError, RecursionError, TypeError, ValueError):
        return False
    return True


def _plain(value: Any) -> Any:
    """Return ``value`` as data ``yaml.safe_dump`` can write (Decimals and Fractions as numbers)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal | Fraction):
        return int(value) if value == int(value) else float(value)
    return value
