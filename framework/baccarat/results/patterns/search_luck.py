"""How far the best of N candidates rises by luck: in-sample against out-of-sample, deflated for the number tried.

A search plays N candidates on training shoes and keeps the best k by their
edge (the player's: net over wagered, negative when the house wins). Each in-sample edge is given *deflated* by the
expected maximum of N null results: its standard error times the expected
largest of N independent standard normal draws (:func:`expected_max_normal`),
what the best of N candidates with no edge at all gains by luck. The best k
are played again on fresh shoes (another seed), where luck does not follow
them: their out-of-sample edges fall back towards the house edge.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval (the summary's edge intervals)."""


def expected_max_normal(n: int) -> float:
    """The expected largest of ``n`` independent standard normal draws (numerical integration; 0 for n = 1)."""
    if n <= 1:
        return 0.0
    x = np.linspace(-8.0, 8.0, 16001)
    phi = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    density = n * phi * cdf ** (n - 1)
    return float(np.sum(x * density) * (x[1] - x[0]))


@dataclass(frozen=True)
class Candidate:
    """One candidate of a search: its edge in sample (with its interval and deflated) and, for the best k, out of sample."""

    strategy: str
    rank: int
    in_sample: float
    in_sample_low: float
    in_sample_high: float
    deflated: float
    expected: float | None
    """The exact expected edge of the bets it placed in sample: minus the house edge of those bets."""
    out_of_sample: float | None = None
    out_of_sample_low: float | None = None
    out_of_sample_high: float | None = None
    out_of_sample_expected: float | None = None


@dataclass(frozen=True)
class Search:
    """A search and its null twin: the best k of each, in sample and out of sample."""

    candidates: int
    top: int
    training_seed: int | None
    """The seed of the training shoes (None for a recorded file's first shoes)."""
    fresh_seed: int | None
    """The seed of the fresh shoes (None for a recorded file's held-out shoes)."""
    expected_max: float
    """The expected largest of ``candidates`` standard normal draws: the deflation, in standard errors."""
    best: list[Candidate]
    null_best: list[Candidate]
    verdict: str
    training: str = ""
    """The training shoes in words, e.g. ``the training shoes (seed 3)``."""
    fresh: str = ""
    """The fresh shoes in words, e.g. ``fresh shoes (seed 4)``."""
    method: str = "deflated = in-sample edge - its standard error x the expected maximum of N standard normal draws"

    def to_dict(self) -> dict[str, object]:
        """The search as plain JSON data."""
        return asdict(self)


def _player(x: object) -> float | None:
    """The player's side of a house figure of the summary (its negative), None when unknown."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else -float(x)  # type: ignore[arg-type]


def best_of(in_sample: list[dict], out_of_sample: dict[str, dict], top: int, n: int) -> list[Candidate]:
    """The ``top`` candidates of ``in_sample`` (summary rows) by the player's edge, with their rows of ``out_of_sample``.

    The summary's ``edge`` is the house's (what the player lost over what he
    wagered); a candidate's edge here is the player's, its negative: the
    best candidate has the highest.
    """
    shift = expected_max_normal(n)
    usable = [r for r in in_sample if r.get("edge") is not None and r.get("edge_ci_low") is not None]
    rows = sorted(usable, key=lambda r: float(r["edge"]))[:top]
    out = []
    for rank, row in enumerate(rows, start=1):
        low, high = -float(row["edge_ci_high"]), -float(row["edge_ci_low"])
        se = (high - low) / (2 * Z95)
        fresh = out_of_sample.get(row["strategy"], {})
        out.append(
            Candidate(
                strategy=row["strategy"],
                rank=rank,
                in_sample=-float(row["edge"]),
                in_sample_low=low,
                in_sample_high=high,
                deflated=-float(row["edge"]) - se * shift,
                expected=_player(row.get("expected_edge")),
                out_of_sample=_player(fresh.get("edge")),
                out_of_sample_low=_player(fresh.get("edge_ci_high")),
                out_of_sample_high=_player(fresh.get("edge_ci_low")),
                out_of_sample_expected=_player(fresh.get("expected_edge")),
            )
        )
    return out


def verdict(best: list[Candidate], null_best: list[Candidate], n: int) -> str:
    """One sentence: how far the best candidate rose in sample, where it fell out of sample, and what luck alone gives."""
    if not best:
        return "No candidate placed a bet: there is nothing to compare."
    b = best[0]
    text = f"The best of {n:,} candidates, {b.strategy}, had an edge of {b.in_sample:+.2%} in sample ({b.deflated:+.2%} deflated)"
    if b.out_of_sample is not None:
        text += f" and {b.out_of_sample:+.2%} on fresh shoes (95% interval {b.out_of_sample_low:+.2%} to {b.out_of_sample_high:+.2%})"
    if b.out_of_sample_expected is not None:
        text += f", where the house edge of the bets it placed makes {b.out_of_sample_expected:+.2%}"
    if null_best:
        z = null_best[0]
        text += f"; the best of {n:,} strategies with the house edge by construction reached {z.in_sample:+.2%} in sample by luck alone"
        if z.out_of_sample is not None:
            text += f" and {z.out_of_sample:+.2%} on fresh shoes"
    return text + "."
