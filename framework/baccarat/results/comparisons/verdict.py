"""The verdict of each comparison with the baseline: what a strategy changes, said on the right measure.

A progression, a selector or a stop rule changes how much is wagered and
how the results spread, never the house edge of the bets placed. So:

* where both expected edges are known (the ``expected_net`` of every bet,
  exact), the verdict compares them: ``same edge`` when they are equal,
  whatever the sample's luck; ``better`` (lower) or ``worse`` (higher) when
  they differ;
* where one is not known (a strategy that read the cards and bet without
  asking the view for exact odds), the realised edges are compared: ``better``
  or ``worse`` only when their difference is beyond chance after Holm's
  correction over the table's comparisons (family-wise rate 5%), else
  ``no clear difference``.

Holm rather than Bonferroni: both hold the family-wise error rate at 5%
whatever the dependence between the comparisons (they share a baseline, so
they are correlated), and Holm rejects everything Bonferroni rejects and
sometimes more. Definitions are in docs/results.md.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import polars as pl

from baccarat.results.statistics.ledger_stats import Z95

FAMILY_RATE = 0.05
"""Family-wise error rate of the realised-edge verdicts of one table."""

SAME_EDGE_TOLERANCE = 1e-9
"""Expected edges closer than this (a fraction of the amount wagered) are equal: sums of exact per-bet values in floating point."""


def two_sided_p(estimate: float | None, low: float | None, high: float | None) -> float | None:
    """Return the two-sided normal p-value of an estimate whose 95% interval is [low, high] (None when missing)."""
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (estimate, low, high)):
        return None
    se = (high - low) / (2 * Z95)
    if se <= 0:
        return 0.0 if estimate != 0 else 1.0
    return 2 * (1 - NormalDist().cdf(abs(estimate) / se))


def holm(p_values: list[float | None]) -> list[float | None]:
    """Return Holm's step-down adjusted p-values (None stays None; the family is the values given)."""
    present = [(p, k) for k, p in enumerate(p_values) if p is not None]
    m = len(present)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, k) in enumerate(sorted(present)):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[k] = running
    return adjusted


def _known(value: float | None) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def same_edge(expected_diff: float | None) -> bool:
    """Tell whether a known expected-edge difference is zero (within :data:`SAME_EDGE_TOLERANCE`)."""
    return _known(expected_diff) and abs(expected_diff) <= SAME_EDGE_TOLERANCE


def _verdict(expected_diff: float | None, edge_diff: float | None, p_holm: float | None) -> str:
    if _known(expected_diff):
        if same_edge(expected_diff):
            return "same edge"
        return "better" if expected_diff < 0 else "worse"
    if p_holm is None or not _known(edge_diff):
        return "not enough sessions to tell"
    if p_holm < FAMILY_RATE:
        return "better" if edge_diff < 0 else "worse"
    return "no clear difference"


def with_verdicts(comparison: pl.DataFrame) -> pl.DataFrame:
    """Add ``edge_diff_p_value``, ``edge_diff_p_holm`` and ``verdict`` to a comparison table.

    The p-value is that of the realised edge difference (normal, from its 95%
    interval); Holm's adjustment runs over every row of the table.
    """
    rows = comparison.select("expected_edge_diff", "edge_diff", "edge_diff_ci_low", "edge_diff_ci_high").rows()
    p_values = [two_sided_p(edge, low, high) for _, edge, low, high in rows]
    adjusted = holm(p_values)
    words = [_verdict(expected, edge, p) for (expected, edge, _, _), p in zip(rows, adjusted, strict=True)]
    unknown = ("expected_edge_diff", "expected_net_diff_mean", "luck_diff_mean", "luck_diff_ci_low", "luck_diff_ci_high")
    return comparison.with_columns(
        pl.col(unknown).fill_nan(None),  # NaN: an expected value not known
        pl.Series("edge_diff_p_value", p_values, dtype=pl.Float64),
        pl.Series("edge_diff_p_holm", adjusted, dtype=pl.Float64),
        pl.Series("verdict", words, dtype=pl.String),
    )


def explanation(row: dict) -> str:
    """Say in words what a comparison row means: the edge, then the net per session as volume plus luck."""
    from baccarat.results.report.formatting import fmt_edge, fmt_interval, fmt_money

    verdict, baseline = row["verdict"], row["baseline"]
    expected_diff = row.get("expected_edge_diff")
    if verdict == "same edge":
        said = f"the same expected edge as {baseline}"
    elif _known(expected_diff):
        said = f"expected edge {fmt_edge(abs(expected_diff))} {'lower' if expected_diff < 0 else 'higher'} than {baseline}'s"
    elif verdict in ("better", "worse"):
        said = f"expected edge not known; realised edge {'lower' if verdict == 'better' else 'higher'} beyond chance (Holm, 5% family-wise)"
    else:
        said = "expected edge not known; realised edge not different beyond chance (Holm, 5% family-wise)"
    parts = [f"{row['strategy']}: {verdict}, {said}"]
    volume, wagered = row.get("expected_net_diff_mean"), row.get("wagered_diff_mean")
    if _known(volume) and _known(wagered) and volume == 0 and wagered == 0:
        parts.append("the same expected net per session, wagering the same")
    elif _known(volume) and _known(wagered):
        more = "more" if volume < 0 else "less"
        bets = "more" if wagered > 0 else "less"
        parts.append(
            f"expected to lose {fmt_money(abs(volume))} {more} per session, wagering {fmt_money(abs(wagered))} {bets}"
            + (" (volume)" if verdict == "same edge" else "")
        )
    luck = row.get("luck_diff_mean")
    if _known(luck):
        parts.append(f"luck {fmt_money(luck)} {fmt_interval(row.get('luck_diff_ci_low'), row.get('luck_diff_ci_high'))}")
    return "; ".join(parts)
