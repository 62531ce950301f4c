"""Figures as people read them: money, percentages, counts, intervals, the one-screen summary, JSON-ready rows."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import polars as pl

if TYPE_CHECKING:
    pass


def frame_records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """Return a frame's rows as JSON-ready dicts: exact decimals as numbers, NaN and missing values as null."""
    floats = frame.with_columns(pl.col(pl.Decimal).cast(pl.Float64)).fill_nan(None)
    return list(floats.iter_rows(named=True))


# Formatting -------------------------------------------------------------------------------------------


def missing(value: Any) -> bool:
    """Tell whether a figure is missing (None or NaN)."""
    return value is None or (isinstance(value, float) and value != value)


def fmt_money(value: Any) -> str:
    """Format an amount with thousands separators and two decimals (``-`` when missing)."""
    return "-" if missing(value) else f"{float(value):,.2f}"


def fmt_percent(value: Any, digits: int = 1) -> str:
    """Format a fraction as a percentage (``-`` when missing)."""
    return "-" if missing(value) else f"{100 * float(value):.{digits}f}%"


def fmt_count(value: Any) -> str:
    """Format a count or a number of rounds (``-`` when missing)."""
    if missing(value):
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{float(value):,.1f}"


def fmt_interval(low: Any, high: Any, fmt: Any = fmt_money) -> str:
    """Format a confidence interval as ``[low, high]`` (``-`` when missing)."""
    return "-" if missing(low) or missing(high) else f"[{fmt(low)}, {fmt(high)}]"


def fmt_edge(value: Any) -> str:
    """Format an edge as a percentage with three decimals."""
    return fmt_percent(value, 3)


def fmt_p_value(value: Any) -> str:
    """Format a p-value to three significant digits, ``< 0.001`` below that (``-`` when missing)."""
    if missing(value):
        return "-"
    return "< 0.001" if float(value) < 0.001 else f"{float(value):.3g}"


COUNT_COLUMNS = frozenset({"sessions", "rounds", "capped_bets", "longest_losing_streak"})
"""Columns that count sessions, bets or rounds (besides every ``rounds_...`` column)."""


def column_format(name: str) -> Callable[[Any], str]:
    """Return the format of a summary or comparison column by what it holds, read from its name.

    p-values (``..._p_value``, ``..._p_holm``) as p-values, edges as edges,
    shares (risk of ruin, ``sessions_...`` shares) as percentages, counts as
    counts, any other figure as money. An interval's bounds (``..._ci_low``,
    ``..._ci_high``) take the format of their figure.
    """
    base = re.sub(r"_ci(_low|_high)?$", "", name)
    if base.endswith(("_p_value", "_p_holm")):
        return fmt_p_value
    if base in COUNT_COLUMNS or base.startswith("rounds"):
        return fmt_count
    if "edge" in base:
        return fmt_edge
    if base.startswith(("risk_of_ruin", "sessions_")):
        return fmt_percent
    return fmt_money


def fmt_edge_pm(row: Mapping[str, Any]) -> str:
    """Format a summary row's edge with the half-width of its 95% interval."""
    if missing(row["edge"]):
        return "-"
    if missing(row["edge_ci_low"]) or missing(row["edge_ci_high"]):
        return fmt_edge(row["edge"])
    return f"{fmt_edge(row['edge'])} ± {100 * (row['edge_ci_high'] - row['edge']):.3f}%"


def fmt_expected_pm(row: Mapping[str, Any]) -> str:
    """Format a summary row's expected edge, with the half-width of its 95% interval where it is an estimate (not 0.000%)."""
    value, high = row["expected_edge"], row.get("expected_edge_ci_high")
    if missing(value) or missing(high) or round(100 * (high - value), 3) == 0:
        return fmt_edge(value)
    return f"{fmt_edge(value)} ± {100 * (high - value):.3f}%"


def format_summary(summary: pl.DataFrame, width: int = 40, limit: int = 20) -> str:
    """Return the summary as a plain-text table that fits one screen (printed after ``baccarat run``).

    Labels print whole: the first column is as wide as the longest label, up
    to ``width`` characters; a longer label has a line of its own, its
    figures on the next line. The edge is shown with the half-width of its
    95% interval; past ``limit`` strategies, a last line says how many more
    are in summary.csv. The rows' small-sample notes (summary.csv's ``notes``) follow, each once.
    The columns that are summary.csv's are named as there (``sessions``, ``rounds``, ``wagered``, ``net``).
    """
    headers = ("strategy", "sessions", "rounds", "wagered", "net", "edge ± 95% CI", "expected", "ruin", "in profit")
    rows = []
    for r in summary.head(limit).iter_rows(named=True):
        rows.append(
            (
                r["strategy"],
                fmt_count(r["sessions"]),
                fmt_count(r["rounds"]),
                fmt_money(r["wagered"]),
                fmt_money(r["net"]),
                fmt_edge_pm(r),
                fmt_expected_pm(r),
                fmt_percent(r["risk_of_ruin"]),
                fmt_percent(r["sessions_in_profit"]),
            )
        )
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(headers)]
    widths[0] = max(len(headers[0]), min(widths[0], width))

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    lines = [line(headers)]
    for row in rows:
        if len(row[0]) > widths[0]:
            lines.append(row[0])
            row = ("", *row[1:])
        lines.append(line(row))
    if summary.height > limit:
        lines.append(f"... and {summary.height - limit} more strategies (see summary.csv and report.html)")
    notes = dict.fromkeys(note for r in summary.iter_rows(named=True) for note in (r.get("notes") or "").split("; ") if note)
    lines.extend(f"note: {note}." for note in notes)
    lines.append("rounds: rounds with a bet; edge: share of the amount wagered that was lost; expected: house edge of the bets as placed")
    lines.append(
        "(± where it is an estimate); ruin: sessions whose bankroll fell below the table minimum; in profit: sessions that ended up."
    )
    return "\n".join(line.rstrip() for line in lines)


def verdict_class(word: Any) -> str:
    """Return the CSS class of a comparison's verdict (:mod:`baccarat.results.comparisons.verdict`): ``better``, ``worse`` or none."""
    first = str(word or "").split(" ", 1)[0]
    return first if first in ("better", "worse") else ""
