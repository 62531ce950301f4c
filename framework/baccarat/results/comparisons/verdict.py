"""The verdict of each comparison with the baseline: what a strategy changes, said on the right measure, with its basis.

A progression, a selector or a stop rule changes how much is wagered and
how the results spread, never the house edge of a bet. Each row's verdict
has one of three bases (``verdict_basis``), and says which:

* ``exact``: both strategies back one fixed bet every time they bet (a
  fixed-side selector: ``side: banker``), so both expected edges are that
  bet's exact edge whatever the sample. ``same edge`` when the bets are the
  same; ``better (exact)`` (lower) or ``worse (exact)`` (higher) when they
  differ. Nothing is tested: nothing depends on the sample.
* ``estimated``: the expected edges are known but at least one depends on
  the sample (a selector whose side varies, a counter pricing its bets from
  the cards seen, anything deciding from what it saw): the difference of
  expected edges is a paired estimate (independent samples for runs that
  did not play the same rounds) with its 95% interval, and ``better`` or
  ``worse`` needs it beyond chance.
* ``realised``: an expected edge is not known (a strategy that read the
  cards and bet without asking the view for exact odds): the realised edges
  are compared the same way.

The intervals of the tested differences (``expected_edge_diff``,
``edge_diff``) take Student's t quantile, not the normal one: their
standard errors are estimated from the same sessions (``k - 1`` degrees of
freedom for ``k`` pairs; Welch-Satterthwaite's for independent samples,
fewer for heavy-tailed sessions), and with 150 sessions the normal
quantile rejected a true null in 5.14% of simulated tables. A tested row's
p-value is Student's, from its interval.

A tested row is ``better``/``worse`` only when its p-value, adjusted by
Holm's method over the rows tested (the ``estimated`` and ``realised`` rows
of the table, never the exact ones), is below 5%; else ``no clear
difference``. Holm rather than Bonferroni: both hold the family-wise error
rate at 5% whatever the dependence between the comparisons (they share a
baseline, so they are correlated), and Holm rejects everything Bonferroni
rejects and sometimes more. Definitions are in docs/results.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import polars as pl

from baccarat.results.statistics import student_t

FAMILY_RATE = 0.05
"""Family-wise error rate of the tested verdicts of one table."""

SAME_EDGE_TOLERANCE = 1e-9
"""Expected edges closer than this (a fraction of the amount wagered) are equal: sums of exact per-bet values in floating point."""

EXACT, ESTIMATED, REALISED = "exact", "estimated", "realised"
"""The bases of a verdict (``verdict_basis``)."""

FixedBets = Mapping[str, str | None]
"""Each strategy's label mapped to the one bet it backs whenever it bets, fixed by what it is (a fixed-side
selector), or None when the bets it places depend on what it sees."""


TESTED_DF = ("edge_diff_df", "expected_edge_diff_df")
"""Columns a comparison table may carry for :func:`with_verdicts` (not written out): the degrees of freedom of the
Student's t intervals of ``edge_diff`` and ``expected_edge_diff``; without them, or where null, the intervals are
taken as normal."""


def two_sided_p(estimate: float | None, low: float | None, high: float | None, df: float | None = None) -> float | None:
    """Return the two-sided p-value of an estimate whose 95% interval is [low, high] (None when missing).

    The interval is Student's t with ``df`` degrees of freedom (None or
    infinite: the normal law): the p-value is below 5% exactly when the
    interval excludes 0.
    """
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (estimate, low, high)):
        return None
    df = math.inf if df is None or math.isnan(df) or df <= 0 else df
    se = (high - low) / (2 * student_t.quantile(0.975, df))
    if se <= 0:
        return 0.0 if estimate != 0 else 1.0
    return student_t.two_sided_p(abs(estimate) / se, df)


def holm(p_values: list[float | None]) -> list[float | None]:
    """Return Holm's step-down adjusted p-values (None stays None; the family is the values given that are not None)."""
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


def basis(strategy: str, baseline: str, fixed: FixedBets, expected_diff: float | None) -> str:
    """Return what a row's verdict rests on: ``exact``, ``estimated`` or ``realised`` (see the module docstring).

    ``exact`` needs both strategies to back a fixed bet (``fixed``, from what
    they are, not from the sample). Two that back the same fixed bet yet
    show different expected edges priced some bets from the cards seen (a
    stop rule reading the cards): their edges are then estimated.
    """
    mine, theirs = fixed.get(strategy), fixed.get(baseline)
    if not _known(expected_diff):
        return REALISED
    if mine is not None and theirs is not None and (mine != theirs or same_edge(expected_diff)):
        return EXACT
    return ESTIMATED


def verdict_word(row_basis: str, difference: float | None, p_holm: float | None) -> str:
    """Return a row's verdict: its word and, for a difference, its basis (``worse (exact)``, ``no clear difference (estimated)``)."""
    if row_basis == EXACT:
        return "same edge" if same_edge(difference) else f"{'better' if difference < 0 else 'worse'} ({EXACT})"
    if p_holm is None or not _known(difference):
        return "not enough sessions to tell"
    if p_holm < FAMILY_RATE:
        return f"{'better' if difference < 0 else 'worse'} ({row_basis})"
    return f"no clear difference ({row_basis})"


def verdict_direction(verdict: str | None) -> str:
    """Return ``better``, ``worse`` or ``""`` for a verdict (its first word when it names a direction)."""
    word = (verdict or "").split(" ", 1)[0]
    return word if word in ("better", "worse") else ""


def with_verdicts(comparison: pl.DataFrame, fixed: FixedBets | None = None) -> pl.DataFrame:
    """Add ``edge_diff_p_value``, ``verdict_basis``, ``verdict_p_value``, ``verdict_p_holm`` and ``verdict`` to a comparison table.

    ``fixed`` (:data:`FixedBets`; default: none known, so no row is exact)
    decides which rows are exact. A tested row's p-value is that of the
    expected edge difference (``estimated``) or of the realised one
    (``realised``), from its 95% interval: Student's t with the degrees of
    freedom of :data:`TESTED_DF` where the table carries them, else normal;
    Holm's adjustment runs over the tested rows only.
    """
    fixed = fixed or {}
    columns = ("strategy", "baseline", "expected_edge_diff", "expected_edge_diff_ci_low", "expected_edge_diff_ci_high")
    df = [pl.col(c) if c in comparison.columns else pl.lit(None, dtype=pl.Float64).alias(c) for c in TESTED_DF]
    rows = comparison.select(*columns, "edge_diff", "edge_diff_ci_low", "edge_diff_ci_high", *df).rows()
    realised_p = [two_sided_p(edge, low, high, edge_df) for *_, edge, low, high, edge_df, _ in rows]
    bases, differences, tested = [], [], []
    for (strategy, baseline, expected, e_low, e_high, edge, *_, e_df), p_realised in zip(rows, realised_p, strict=True):
        row_basis = basis(strategy, baseline, fixed, expected)
        bases.append(row_basis)
        differences.append(edge if row_basis == REALISED else expected)
        tested.append(None if row_basis == EXACT else p_realised if row_basis == REALISED else two_sided_p(expected, e_low, e_high, e_df))
    adjusted = holm(tested)
    words = [verdict_word(b, d, p) for b, d, p in zip(bases, differences, adjusted, strict=True)]
    unknown = ("expected_edge_diff", "expected_net_diff_mean", "luck_diff_mean", "luck_diff_ci_low", "luck_diff_ci_high")
    exact = pl.Series(bases, dtype=pl.String) == EXACT
    return comparison.with_columns(
        pl.col(unknown).fill_nan(None),  # NaN: an expected value not known
        # An exact difference has no interval: it holds whatever the sample.
        *(pl.when(pl.lit(exact)).then(None).otherwise(pl.col(c).fill_nan(None)).alias(c) for c in columns[3:]),
        pl.Series("edge_diff_p_value", realised_p, dtype=pl.Float64),
        pl.Series("verdict_basis", bases, dtype=pl.String),
        pl.Series("verdict_p_value", tested, dtype=pl.Float64),
        pl.Series("verdict_p_holm", adjusted, dtype=pl.Float64),
        pl.Series("verdict", words, dtype=pl.String),
    )


def explanation(row: dict) -> str:
    """Say in words what a comparison row means: the edge and what the verdict rests on, then the net per session as volume plus luck."""
    from baccarat.results.formatting import fmt_edge, fmt_interval, fmt_money, fmt_p_value

    verdict, baseline = row["verdict"], row["baseline"]
    expected_diff, row_basis = row.get("expected_edge_diff"), row.get("verdict_basis")
    holm_p = f"Holm-adjusted p {fmt_p_value(row.get('verdict_p_holm'))} over the rows tested"
    if verdict == "same edge":
        said = f"the same expected edge as {baseline}, exactly (both back the same fixed bet)"
    elif row_basis == EXACT:
        lower = "lower" if expected_diff < 0 else "higher"
        said = f"expected edge {fmt_edge(abs(expected_diff))} {lower} than {baseline}'s, exactly (fixed bets)"
    elif row_basis == ESTIMATED:
        interval = fmt_interval(row.get("expected_edge_diff_ci_low"), row.get("expected_edge_diff_ci_high"), fmt_edge)
        said = (
            f"expected edge (an estimate: it depends on the bets the sample led to) minus {baseline}'s: "
            f"{fmt_edge(expected_diff)} {interval}, "
            + ("beyond chance" if verdict_direction(verdict) else "not beyond chance")
            + f" ({holm_p})"
        )
    elif verdict_direction(verdict):
        lower = "lower" if verdict_direction(verdict) == "better" else "higher"
        said = f"expected edge not known; realised edge {lower} beyond chance ({holm_p})"
    else:
        said = f"expected edge not known; realised edge not different beyond chance ({holm_p})"
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
