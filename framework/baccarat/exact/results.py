"""The figures of an exact analysis: one strategy's session distribution, the experiment's analysis, the skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from baccarat.money import MICROS_PER_UNIT

QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
"""Quantiles of the final bankroll reported (the same as the report's bankroll bands)."""


@dataclass(frozen=True)
class Skipped:
    """A strategy the exact analysis cannot handle, and why."""

    strategy: str
    reason: str


@dataclass(frozen=True)
class ExactResult:
    """The exact distribution of one strategy's session: figures, ruin curve and (when asked) bankroll quantiles."""

    strategy: str
    rounds: int
    risk_of_ruin: float
    """Chance that the bankroll falls below the table minimum during the session."""
    p_profit: float
    """Chance that the session ends above the initial bankroll."""
    expected_net: float
    expected_wagered: float
    final_bankroll_quantiles: dict[str, float]
    ruin_curve: np.ndarray
    """Chance of ruin by the end of each round, round 0 (the start) first."""
    states: int
    """The most (bankroll, progression state) pairs held at once."""
    interpolated: float = 0.0
    """Probability moved between two neighbouring grid points, summed over rounds (0 when every bankroll stayed on the grid)."""
    bands: np.ndarray | None = None
    """With ``bands``: rows (round, 5%, 25%, 50%, 75%, 95% bankroll quantiles), round 0 first."""
    expected_rounds: float = float("nan")
    """Expected rounds in which the session bets (before ruin, a stop rule or a session rule ends its betting)."""
    p_win_goal: float | None = None
    """With ``session.win_goal``: the chance that the session reaches its goal (before the stop-loss, ruin or its end)."""
    p_stop_loss: float | None = None
    """With ``session.stop_loss``: the chance that the stop-loss ends the session (a bankroll below the table minimum is ruin)."""
    final_bankrolls: np.ndarray | None = None
    """The final bankrolls a session may end with (micro-units), each once; their chances are ``final_chances``."""
    final_chances: np.ndarray | None = None
    """The chance of each of ``final_bankrolls``."""

    @property
    def expected_loss(self) -> float:
        """The expected loss of a session (the expected net, negated)."""
        return -self.expected_net

    def chance_of_final(self, at_least: int | None = None, at_most: int | None = None) -> float:
        """Return the chance that the final bankroll (micro-units) is at least ``at_least`` and at most ``at_most``."""
        if self.final_bankrolls is None or self.final_chances is None:
            raise ValueError("this result holds no final distribution")
        keep = np.ones(len(self.final_bankrolls), dtype=bool)
        if at_least is not None:
            keep &= self.final_bankrolls >= at_least
        if at_most is not None:
            keep &= self.final_bankrolls <= at_most
        return float(self.final_chances[keep].sum())

    def expected_shortfall(self, below: int) -> float:
        """Return the expected amount (currency units) by which the final bankroll ends below ``below`` micro-units (0 above it)."""
        if self.final_bankrolls is None or self.final_chances is None:
            raise ValueError("this result holds no final distribution")
        short = np.maximum(below - self.final_bankrolls, 0)
        return float((short * self.final_chances).sum()) / MICROS_PER_UNIT

    def to_json(self) -> dict[str, Any]:
        """Return the figures as plain JSON data (``ruin_curve`` as a list, round 0 first)."""
        return {
            "strategy": self.strategy,
            "risk_of_ruin": self.risk_of_ruin,
            "p_profit": self.p_profit,
            "expected_net": self.expected_net,
            "expected_wagered": self.expected_wagered,
            "expected_rounds": self.expected_rounds,
            **({} if self.p_win_goal is None else {"p_win_goal": self.p_win_goal}),
            **({} if self.p_stop_loss is None else {"p_stop_loss": self.p_stop_loss}),
            "final_bankroll_quantiles": dict(self.final_bankroll_quantiles),
            "interpolated": self.interpolated,
            "ruin_curve": [float(x) for x in self.ruin_curve],
        }


@dataclass(frozen=True)
class ExactAnalysis:
    """The exact analysis of an experiment's strategies."""

    rules: str
    rounds: int
    exact: bool
    """True when the rounds are truly independent (one deck reshuffled after every round)."""
    results: list[ExactResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    rounds_from: str | None = None
    """Where ``rounds`` came from when no session length was given (:func:`baccarat.exact.analysis.default_session_rounds`)."""

    def to_json(self) -> dict[str, Any]:
        """Return the analysis as the object ``baccarat exact --json`` prints."""
        return {
            "rules": self.rules,
            "rounds": self.rounds,
            "exact": self.exact,
            "strategies": [r.to_json() for r in self.results],
            "skipped": [{"strategy": s.strategy, "reason": s.reason} for s in self.skipped],
        }
