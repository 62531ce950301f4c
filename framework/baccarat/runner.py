"""Run an experiment: deal the shoes once, walk every strategy over them, write the results."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from baccarat import __version__
from baccarat.bets import check_bets_offered, settlement_table
from baccarat.engine import StrategyRun, run_strategy, session_bounds
from baccarat.errors import InputError, StrategyError
from baccarat.experiment import Experiment
from baccarat.ledger import ledger_frame
from baccarat.odds import expected_values
from baccarat.plugins import registry
from baccarat.recorded import format_has_cards, read_shoes
from baccarat.report import Analysis, write_results
from baccarat.rounds import RoundTable
from baccarat.shoes import seeded_table


@dataclasses.dataclass
class RunResult:
    """Frames of a finished run."""

    experiment: Experiment
    rounds: pl.DataFrame
    ledger: pl.DataFrame
    warnings: list[str]
    out_dir: Path | None = None
    analysis: Analysis | None = None


def strategy_runs(experiment: Experiment) -> list[StrategyRun]:
    """Resolve the experiment's strategies against the registry, checking their parameters."""
    reg = registry(experiment.plugins_dirs)
    runs = []
    labels: set[str] = set()
    for entry in experiment.strategies:
        cls, params = reg.configure(entry.use, entry.params)
        if entry.name in labels:
            raise StrategyError(f"two strategies are labelled {entry.name!r}; labels must be unique", path=experiment.path)
        labels.add(entry.name)
        runs.append(StrategyRun(entry.name, cls, params))
    return runs


def recorded_path(experiment: Experiment) -> Path:
    """Return the path of the experiment's recorded shoe file; a relative path is read from the experiment file's folder."""
    path = Path(str(experiment.shoes["path"])).expanduser()
    if path.is_absolute() or experiment.path == "<experiment>":
        return path
    return Path(experiment.path).parent / path


def deal(experiment: Experiment) -> tuple[RoundTable, list[str]]:
    """Return the round table of the experiment's shoes and any warnings about them."""
    shoes = experiment.shoes
    if shoes["source"] == "seeded":
        return seeded_table(experiment.rules, int(shoes["seed"]), 1, int(shoes["count"])), []
    recorded = read_shoes(recorded_path(experiment), shoes["format"], experiment.rules)
    return recorded.table, recorded.warnings


def run_experiment(experiment: Experiment, progress: Callable[[int], None] | None = None) -> RunResult:
    """Deal the shoes and play every strategy on them, once per seed; return rounds and ledger frames.

    With several seeds, the seeds' runs are joined in the order given, both
    frames gain a ``seed`` column, and shoe and session numbers continue from
    one seed to the next (seed 2's first shoe follows seed 1's last), so
    ``shoe`` and ``session`` stay unique; each seed's rounds and results are
    exactly those of a run with that seed alone.
    """
    if len(experiment.seeds) == 1:
        return _run_seed(experiment, progress)
    parts = [_run_seed(experiment.with_seed(seed), progress) for seed in experiment.seeds]
    shoes = sessions = 0
    rounds, ledgers = [], []
    for seed, part in zip(experiment.seeds, parts, strict=True):
        rounds.append(part.rounds.with_columns(pl.col("shoe") + shoes, pl.lit(seed, dtype=pl.Int64).alias("seed")))
        ledgers.append(part.ledger.with_columns(pl.col("shoe") + shoes, pl.col("session") + sessions,
                                                pl.lit(seed, dtype=pl.Int64).alias("seed")))
        if part.rounds.height:
            shoes += int(part.rounds["shoe"].max())
        if part.ledger.height:
            sessions += int(part.ledger["session"].max())
    warnings = list(dict.fromkeys(w for part in parts for w in part.warnings))
    return RunResult(experiment, pl.concat(rounds), pl.concat(ledgers), warnings)


def _run_seed(experiment: Experiment, progress: Callable[[int], None] | None = None) -> RunResult:
    """Run an experiment with a single seed.

    Bets the rules do not offer, and card-level bets on shoes that record only
    outcomes, are refused before any shoe is dealt or read.
    """
    runs = strategy_runs(experiment)
    used: set[str] = set()
    for run in runs:
        used |= run.cls.sides(run.params)
    shoes = experiment.shoes
    check_bets_offered(used, experiment.rules, shoes["source"] == "seeded" or format_has_cards(str(shoes["format"])))
    table, warnings = deal(experiment)
    warnings = registry(experiment.plugins_dirs).warnings + warnings
    multipliers = settlement_table(table, experiment.rules)
    bets = tuple(multipliers)
    expected = expected_values(experiment.rules)
    sessions = session_bounds(table, experiment.session.shoes_per_session)
    frames = []
    for run in runs:
        columns = run_strategy(run, table, multipliers, experiment.rules, experiment.session, experiment.seed, sessions)
        frames.append(ledger_frame(run.label, columns, bets, expected))
        if progress is not None:
            progress(1)
    return RunResult(experiment, table.to_frame(), pl.concat(frames), warnings)


def _resolved_yaml(experiment: Experiment) -> str:
    import yaml

    header = "# The resolved experiment: every default filled in, overrides and grids applied.\n"
    if experiment.overrides:
        header += "# Overrides: " + " ".join(f"--set {o}" for o in experiment.overrides) + "\n"
    return header + yaml.safe_dump(experiment.to_mapping(), sort_keys=False, allow_unicode=True)


def check_output_folder(out: Path) -> None:
    """Refuse an output folder that exists and does not hold a previous run (checked again before writing)."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / "manifest.json").is_file())):
        raise InputError(f"the output folder {out} exists and does not hold a previous run; choose another --out")


def write_run(result: RunResult, out_dir: str | Path, timings: Mapping[str, float]) -> Path:
    """Write rounds, ledger, experiment, manifest, summary, plots and report atomically into ``out_dir``.

    Everything is written to a temporary folder beside ``out_dir`` and renamed
    when complete, so an interrupted run leaves a complete folder or none.
    """
    out = Path(out_dir)
    check_output_folder(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        result.rounds.write_parquet(tmp / "rounds.parquet")
        result.ledger.write_parquet(tmp / "ledger.parquet")
        (tmp / "experiment.yaml").write_text(_resolved_yaml(result.experiment), encoding="utf-8")
        manifest = {
            "name": result.experiment.name,
            "seed": result.experiment.seed,
            "seeds": list(result.experiment.seeds),
            "source": result.experiment.path,
            "overrides": list(result.experiment.overrides),
            "versions": _versions(),
            "timings_seconds": dict(timings),
            "counts": {
                "seeds": len(result.experiment.seeds),
                "shoes": result.rounds["shoe"].n_unique(),
                "rounds": result.rounds.height,
                "strategies": len(result.experiment.strategies),
                "sessions": result.ledger["session"].n_unique() if result.ledger.height else 0,
                "ledger_rows": result.ledger.height,
            },
            "rounds": result.rounds.height,
            "ledger_rows": result.ledger.height,
            "strategies": [e.name for e in result.experiment.strategies],
            "warnings": result.warnings,
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        result.analysis = write_results(tmp, pl.scan_parquet(tmp / "ledger.parquet"), result.experiment)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    result.out_dir = out
    return out


def _versions() -> dict[str, str]:
    import platform

    import numpy
    import pluggy
    import yaml

    return {"baccarat": __version__, "python": platform.python_version(), "polars": pl.__version__,
            "numpy": numpy.__version__, "pluggy": pluggy.__version__, "pyyaml": yaml.__version__}


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """Call ``fn`` and return its result and the seconds it took."""
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start
