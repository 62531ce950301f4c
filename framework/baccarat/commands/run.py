"""``baccarat run EXPERIMENT.yaml [--out DIR] [--set key.path=value ...] [--quiet]``."""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat run``."""
    parser.add_argument("experiment", help="experiment file (YAML)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: results/NAME-TIMESTAMP)")
    parser.add_argument("--set", metavar="KEY.PATH=VALUE", action="append", default=[], dest="overrides",
                        help="override a value of the experiment, e.g. --set shoes.count=100 "
                             "--set strategies.0.params.unit=5 (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def default_out(name: str, now: datetime | None = None, root: Path = Path("results")) -> Path:
    """Return ``results/NAME-TIMESTAMP``, made unique with ``-2``, ``-3``... when it already exists."""
    safe = re.sub(r"[^\w.+-]+", "-", name).strip("-.") or "experiment"
    base = root / f"{safe}-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    out, n = base, 1
    while out.exists():
        n += 1
        out = base.with_name(f"{base.name}-{n}")
    return out


def run(args: argparse.Namespace) -> int:
    """Check the experiment, run it, write its results atomically and print a summary table."""
    from tqdm import tqdm

    from baccarat.experiment import load_experiment
    from baccarat.runner import check_output_folder, run_experiment, timed, write_run

    experiment = load_experiment(args.experiment, overrides=args.overrides)
    out = Path(args.out) if args.out else default_out(experiment.name)
    check_output_folder(out)  # before the run, not only before writing
    show = not args.quiet and sys.stderr.isatty()
    total = len(experiment.strategies) * len(experiment.seeds)
    bar = tqdm(total=total, unit="run", desc=experiment.name, disable=not show, file=sys.stderr, delay=0.5, leave=False)
    with bar:
        result, seconds = timed(lambda: run_experiment(experiment, progress=bar.update))
    for warning in result.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    written, write_seconds = timed(lambda: write_run(result, out, {"run": seconds}))
    print(summary_table(result))
    print(f"{result.rounds.height:,} rounds x {len(experiment.strategies)} strategies in {seconds + write_seconds:.1f} s "
          f"-> {written}")
    return 0


def summary_table(result: Any, limit: int = 20) -> str:
    """Return a one-screen table of the run: one line per strategy (the first ``limit``)."""
    import polars as pl

    ledger = result.ledger
    table_min = result.experiment.session.table_min_cents / 100
    per_session = (
        ledger.sort("session", "round")
        .group_by("strategy", "session", maintain_order=True)
        .agg(pl.col("bankroll").last().cast(pl.Float64).alias("final"),
             (pl.col("bankroll").cast(pl.Float64) < table_min).any().alias("ruined"))
        .group_by("strategy", maintain_order=True)
        .agg(pl.len().alias("sessions"), pl.col("final").mean().alias("final"), pl.col("ruined").mean().alias("ruin"))
    )
    totals = ledger.group_by("strategy", maintain_order=True).agg(
        (pl.col("stake") > 0).sum().alias("bets"),
        pl.col("stake").sum().cast(pl.Float64).alias("wagered"),
        pl.col("net").sum().cast(pl.Float64).alias("net"),
    )
    rows = totals.join(per_session, on="strategy", how="left", maintain_order="left")
    header = ("strategy", "sessions", "bets", "wagered", "net", "edge", "mean final", "ruined")
    lines = []
    for r in rows.head(limit).iter_rows(named=True):
        edge = f"{-r['net'] / r['wagered']:.2%}" if r["wagered"] else "-"
        lines.append((r["strategy"], f"{r['sessions']:,}", f"{r['bets']:,}", f"{r['wagered']:,.2f}", f"{r['net']:+,.2f}",
                      edge, f"{r['final']:,.2f}", f"{r['ruin']:.1%}"))
    widths = [max(len(header[i]), *(len(line[i]) for line in lines)) for i in range(len(header))]
    widths[0] = min(widths[0], 40)

    def fmt(cells: tuple[str, ...]) -> str:
        first = cells[0] if len(cells[0]) <= widths[0] else cells[0][: widths[0] - 1] + "…"
        return "  ".join([first.ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)])

    out = [fmt(header), *(fmt(line) for line in lines)]
    if rows.height > limit:
        out.append(f"... and {rows.height - limit} more strategies (see summary.csv and report.html)")
    return "\n".join(out)
