"""Compare saved runs: their summaries side by side, paired when they played the very same rounds.

Two runs played the very same rounds when their rules and the settings that
cut sessions are the same and their ``rounds.parquet`` hold the same rounds
(whatever the shoes' source: a seeded run and the replay of its shoes from a
file pair; runs without rounds compare their shoes' settings): session ``s`` of one
then met exactly the cards of session ``s`` of the other, and strategies of
both are paired session by session (:func:`baccarat.results.comparisons.strategies.paired_comparison`),
as strategies within one run are. Otherwise the comparison is unpaired, with
independent-sample intervals (:func:`baccarat.results.comparisons.strategies.unpaired_comparison`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from baccarat.errors import InputError
from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.statistics import ledger_stats as stats


class SavedRun(Protocol):
    """What a comparison reads of a saved run (:class:`baccarat.api.Result`, from :func:`baccarat.load`)."""

    out_dir: Path | None
    experiment: Any
    sessions: pl.DataFrame

    def session_file(self) -> Path | None:
        """The run's ``sessions.parquet`` when it is the file the run wrote, else None."""

    def fixed_bets(self) -> dict[str, str | None]:
        """Each strategy's label mapped to the one bet it backs whenever it bets, or None."""


@dataclasses.dataclass(frozen=True)
class RunComparison:
    """Several runs compared: labels ``RUN: strategy``, one summary, one comparison with the baseline."""

    names: list[str]
    folders: list[Path]
    paired: bool
    reason: str
    """Why the runs pair (the same rounds) or do not (what differs)."""
    summary: pl.DataFrame
    comparison: pl.DataFrame


def run_names(folders: Sequence[Path]) -> list[str]:
    """Return a short name for each run: its folder's name, or the path as given when two names are the same."""
    names = [folder.name or str(folder) for folder in folders]
    return names if len(set(names)) == len(names) else [str(folder) for folder in folders]


def session_table_of(result: SavedRun) -> pl.DataFrame:
    """Return a saved run's session table: its ``sessions.parquet``, or folded from its ledger when it has none.

    A ``sessions.parquet`` changed since it was written (by its manifest) is
    not used: the table is folded from the ledger, which was checked.
    """
    path = result.session_file()
    if path is not None:
        return pl.read_parquet(path)
    return result.sessions


SESSION_CUTS = ("shoes_per_session", "rounds", "new_shoe")
"""The session settings that cut the rounds into sessions: runs whose sessions are cut otherwise do not pair."""

ROUND_KEYS = ("shoe", "hand", "outcome")
CARD_KEYS = ("player_cards", "banker_cards")


def _rounds_of(result: SavedRun) -> pl.DataFrame | None:
    """The rounds a saved run played, shoe by shoe (cards where it had them), or None when its folder holds none."""
    path = None if result.out_dir is None else result.out_dir / "rounds.parquet"
    if path is None or not path.exists():  # a dataset (folder) or a file
        return None
    frame = pl.read_parquet(path)
    cards = [key for key in CARD_KEYS if key in frame.columns and frame.get_column(key).null_count() < frame.height]
    return frame.select(*ROUND_KEYS, *cards).sort("shoe", "hand")


def _same_rounds(a: SavedRun, b: SavedRun) -> str | None:
    """Return None when runs ``a`` and ``b`` played the very same rounds, else what differs.

    The rounds decide, not where they came from: a seeded run and the replay of
    its own shoes from a file (``baccarat shoes generate``) hold the same rounds,
    and pair. Only when a folder holds no ``rounds.parquet`` do the shoes'
    settings (source, seed, count, file) decide.
    """
    ma, mb = a.experiment.to_mapping(), b.experiment.to_mapping()
    if ma["rules"] != mb["rules"]:
        return "their rules differ"
    cuts = [key for key in SESSION_CUTS if ma["session"].get(key) != mb["session"].get(key)]
    if cuts:
        return f"their sessions are cut differently ({', '.join(f'session.{key}' for key in cuts)})"
    shoes = [key for key in sorted(set(ma["shoes"]) | set(mb["shoes"])) if ma["shoes"].get(key) != mb["shoes"].get(key)]
    said = f"their shoes differ ({', '.join(f'shoes.{key}' for key in shoes)})" if shoes else ""
    rounds = [_rounds_of(a), _rounds_of(b)]
    if rounds[0] is None or rounds[1] is None:
        return said or None
    shared = [key for key in rounds[0].columns if key in rounds[1].columns]
    if rounds[0].select(shared).equals(rounds[1].select(shared)):
        return None
    return "their rounds.parquet hold different rounds" + (f": {said}" if said else "")


def check_run_count(run_dirs: Sequence[str | Path]) -> None:
    """Refuse fewer than two runs to compare, and the same folder given twice (``r r``, ``r ./r``, ``r r/``)."""
    if len(run_dirs) < 2:
        raise InputError("compare needs two run folders or more")
    seen: dict[Path, str | Path] = {}
    for folder in run_dirs:
        key = Path(folder).resolve()
        if key in seen:
            raise InputError(f"{seen[key]} and {folder} are the same run folder: compare needs different runs")
        seen[key] = folder


def compare_runs(run_dirs: Sequence[str | Path], results: Sequence[SavedRun], baseline: str | None = None) -> RunComparison:
    """Label each strategy of the loaded runs ``RUN: label`` and compare every one with ``baseline``.

    ``results`` are the runs of ``run_dirs`` loaded (:func:`baccarat.load`);
    ``baseline`` is a combined label (default: the first strategy of the first run).
    """
    check_run_count(run_dirs)
    folders = [Path(d) for d in run_dirs]
    names = run_names(folders)
    differ = [
        (name, why) for name, result in zip(names[1:], results[1:], strict=True) if (why := _same_rounds(results[0], result)) is not None
    ]
    paired = not differ
    if paired:
        reason = "the runs played the very same rounds (same rules, the same rounds shoe by shoe): sessions are paired"
    else:
        reason = "; ".join(f"{names[0]} and {name}: {why}" for name, why in differ)
        reason = f"the runs did not play the same rounds ({reason}), so the intervals are for independent samples"
    tables = [
        session_table_of(result).with_columns((pl.lit(f"{name}: ") + pl.col("strategy")).alias("strategy"))
        for name, result in zip(names, results, strict=True)
    ]
    sessions = pl.concat(tables, how="diagonal_relaxed")
    summary = stats.summary_table(sessions)
    compare = comparisons.paired_comparison if paired else comparisons.unpaired_comparison
    fixed = {f"{name}: {label}": bet for name, result in zip(names, results, strict=True) for label, bet in result.fixed_bets().items()}
    return RunComparison(names, folders, paired, reason, summary, compare(sessions, baseline, fixed))


def comparison_records(comparison: RunComparison) -> dict[str, Any]:
    """Return the comparison as JSON-ready data (``baccarat compare --json``)."""
    from baccarat.results.formatting import frame_records

    return {
        "runs": [{"name": n, "folder": str(f)} for n, f in zip(comparison.names, comparison.folders, strict=True)],
        "paired": comparison.paired,
        "reason": comparison.reason,
        "summary": frame_records(comparison.summary),
        "comparison": frame_records(comparison.comparison),
    }


def _expected_cell(row: dict[str, Any]) -> str:
    """The expected edge difference of a comparison row: exact, or estimated with the half-width of its 95% interval."""
    from baccarat.results.comparisons.verdict import same_edge
    from baccarat.results.formatting import fmt_edge, missing

    value, high = row["expected_edge_diff"], row.get("expected_edge_diff_ci_high")
    if row.get("verdict_basis") == "exact":
        return fmt_edge(0.0 if same_edge(value) else value)
    if missing(value) or missing(high):
        return fmt_edge(value)
    return f"{fmt_edge(value)} ± {100 * (high - value):.3f}%"


def format_comparison(comparison: RunComparison) -> str:
    """Return the comparison as text: the runs, whether they pair, the summaries side by side, the differences."""
    from baccarat.results.comparisons.verdict import explanation
    from baccarat.results.formatting import fmt_edge as _edge
    from baccarat.results.formatting import fmt_interval, fmt_money, format_summary

    lines = [
        f"runs: {', '.join(f'{n} ({f})' for n, f in zip(comparison.names, comparison.folders, strict=True))}",
        f"{'paired' if comparison.paired else 'unpaired'}: {comparison.reason}",
        "",
        format_summary(comparison.summary, limit=comparison.summary.height),
        "",
    ]
    table = comparison.comparison
    if not table.height:
        return "\n".join(lines)
    intervals = "paired 95% intervals" if comparison.paired else "independent-sample 95% intervals (Welch)"
    lines.append(f"each strategy minus {table.get_column('baseline')[0]}, {intervals}:")
    headers = ("strategy", "expected edge", "net per session", "= volume", "+ luck", "95% CI", "edge", "95% CI", "verdict")
    rows = []
    for r in table.iter_rows(named=True):
        rows.append(
            (
                r["strategy"],
                _expected_cell(r),
                fmt_money(r["net_diff_mean"]),
                fmt_money(r["expected_net_diff_mean"]),
                fmt_money(r["luck_diff_mean"]),
                fmt_interval(r["luck_diff_ci_low"], r["luck_diff_ci_high"]),
                _edge(r["edge_diff"]),
                fmt_interval(r["edge_diff_ci_low"], r["edge_diff_ci_high"], _edge),
                r["verdict"],
            )
        )
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    for cells in (headers, *rows):
        lines.append(
            "  ".join(c.ljust(w) if i in (0, 8) else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()
        )
    lines.append("")
    lines.extend(explanation(r) for r in table.iter_rows(named=True))
    lines.append("volume: the expected net per session (amount wagered x expected edge, exact); luck: the rest, with its interval;")
    lines.append("the verdict reads the expected edge: exact where both back one fixed bet; estimated from the sample (a selector")
    lines.append("whose side varies, a counter) or, where it is not known, the realised edge, each beyond chance with Holm's")
    lines.append("correction over the rows tested.")
    return "\n".join(lines)
