"""Run an experiment: deal the shoes once, walk every strategy over them, write the results."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from contextlib import ExitStack, closing
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import polars as pl

from baccarat import __version__
from baccarat.compiling import plays_compiled
from baccarat.engine.reference import StrategyRun
from baccarat.errors import RulesError, StrategyError
from baccarat.execution.chunk_play import declared_sides
from baccarat.execution.chunks import (
    Chunk,
    ChunkOutput,
    RunPlan,
    resolve_strategies,
    rounds_per_shoe_estimate,
    seeded_chunks,
    table_chunks,
)
from baccarat.execution.datasets import (
    LEDGER_DATASET,
    ROUNDS_DATASET,
    PartsRecord,
    RunCounts,
    collect_outputs,
    write_parts,
)
from baccarat.execution.executor import execute
from baccarat.execution.folder_commit import folder_id, step
from baccarat.execution.manifest import folder_contents, record_files, write_manifest
from baccarat.execution.run_folder import atomic_folder
from baccarat.experiment.model import Experiment
from baccarat.experiment.report_facts import exact_analysis, fixed_bets, pricing_of, run_facts
from baccarat.interrupts import check
from baccarat.money import CENTS_PER_UNIT, EXACT
from baccarat.odds.fast_evs import expected_values
from baccarat.odds.settlement import bets_settled, check_bets_offered
from baccarat.plugin.compose import sides_under
from baccarat.plugin.manager import registry
from baccarat.results import collected
from baccarat.results.report.analysis import Analysis, write_results
from baccarat.results.statistics.folded import RunStatsCollector, session_frame
from baccarat.results.statistics.ledger_stats import stopped_sessions
from baccarat.shoes.recorded import format_has_cards, read_shoes


class RunResult:
    """A finished run: its rounds and ledger (in memory, or read from the run's folder when first asked for)."""

    def __init__(
        self,
        experiment: Experiment,
        rounds: pl.DataFrame | None = None,
        ledger: pl.DataFrame | None = None,
        warnings: list[str] | None = None,
        out_dir: Path | None = None,
        counts: RunCounts | None = None,
        analysis: Analysis | None = None,
        stops: pl.DataFrame | None = None,
    ) -> None:
        self.experiment = experiment
        self.analysis = analysis
        self.stops = stops
        """The sessions a stop rule ended (:func:`baccarat.results.statistics.ledger_stats.stopped_sessions`), for a run held in memory."""
        self._rounds = rounds
        self._ledger = ledger
        self.warnings = list(warnings or [])
        self.engines: dict[str, str] = {}
        """Which engine played each strategy, and why (a run written to a folder)."""
        self.out_dir = out_dir
        self.counts = counts if counts is not None else _frame_counts(rounds, ledger)
        self.played_seconds: float | None = None
        """Seconds the run took to deal and play its chunks, before its results were written: the report's run time."""

    @property
    def rounds(self) -> pl.DataFrame:
        """One row per dealt round."""
        if self._rounds is None:
            self._rounds = self.scan_rounds().collect()
        return self._rounds

    @property
    def ledger(self) -> pl.DataFrame:
        """One row per round per strategy per session."""
        if self._ledger is None:
            self._ledger = self.scan_ledger().collect()
        return self._ledger

    def scan_rounds(self) -> pl.LazyFrame:
        """The rounds as a lazy frame (read from the run's folder when it was written there)."""
        return self._rounds.lazy() if self._rounds is not None else pl.scan_parquet(self._folder() / ROUNDS_DATASET)

    def scan_ledger(self) -> pl.LazyFrame:
        """The ledger as a lazy frame: summaries of runs larger than memory stream from disk."""
        return self._ledger.lazy() if self._ledger is not None else pl.scan_parquet(self._folder() / LEDGER_DATASET)

    def _folder(self) -> Path:
        if self.out_dir is None:
            raise ValueError("this run was neither kept in memory nor written to a folder")
        return self.out_dir


def _frame_counts(rounds: pl.DataFrame | None, ledger: pl.DataFrame | None) -> RunCounts:
    if rounds is None or ledger is None:
        return RunCounts()
    return RunCounts(
        shoes=rounds["shoe"].n_unique() if rounds.height else 0,
        sessions=ledger["session"].n_unique() if ledger.height else 0,
        rounds=rounds.height,
        ledger_rows=ledger.height,
    )


def strategy_runs(experiment: Experiment) -> tuple[StrategyRun, ...]:
    """Return the experiment's strategies resolved against the plugins (:func:`~baccarat.execution.chunks.resolve_strategies`)."""
    try:
        return resolve_strategies(experiment.strategies, tuple(str(d) for d in experiment.plugins_dirs))
    except StrategyError as exc:
        raise StrategyError(exc.message, path=experiment.path) from None


def recorded_path(experiment: Experiment) -> Path:
    """Return the path of the experiment's recorded shoe file; a relative path is read from the experiment file's folder."""
    path = Path(str(experiment.shoes["path"])).expanduser()
    if path.is_absolute() or experiment.path == "<experiment>":
        return path
    return Path(experiment.path).parent / path


@dataclasses.dataclass(frozen=True)
class PreparedRun:
    """An experiment ready to run: the plan every chunk shares, the chunks, warnings about the shoes."""

    plan: RunPlan
    chunks: list[Chunk]
    warnings: list[str]

    @property
    def shoes(self) -> int:
        """Shoes dealt in all (every seed)."""
        return sum(chunk.shoes for chunk in self.chunks if chunk.plays_first())


def prepare(experiment: Experiment) -> PreparedRun:
    """Check the experiment's strategies and bets, read recorded shoes, and cut the run into chunks.

    Bets the rules do not offer, and card-level bets on shoes that record only
    outcomes, are refused before any shoe is dealt or read. With several seeds,
    the seeds' runs follow each other in the order given, both tables gain a
    ``seed`` column, and shoe and session numbers continue from one seed to the
    next (seed 2's first shoe follows seed 1's last), so ``shoe`` and
    ``session`` stay unique; each seed's rounds and results are exactly those
    of a run with that seed alone.
    """
    runs = strategy_runs(experiment)
    used: set[str] = set()
    for run in runs:
        used |= sides_under(run.cls, run.params, experiment.rules)
    shoes = experiment.shoes
    has_cards = shoes["source"] == "seeded" or format_has_cards(str(shoes["format"]))
    check_bets_offered(used, experiment.rules, has_cards)
    recorded = None if shoes["source"] == "seeded" else read_shoes(recorded_path(experiment), shoes["format"], experiment.rules)
    has_suits = recorded is None or recorded.table.has_suits()
    if has_cards and not has_suits:  # shoes recorded by rank only: bets that read suits are refused now
        try:
            check_bets_offered(used, experiment.rules, has_cards, has_suits)
        except RulesError as exc:
            raise RulesError(exc.message, path=str(recorded_path(experiment))) from None
    bets = bets_settled(experiment.rules, has_cards, has_suits)
    plan = RunPlan(
        experiment.rules,
        experiment.session,
        experiment.strategies,
        tuple(str(d) for d in experiment.plugins_dirs),
        bets,
        expected_values(experiment.rules),
        seed_column=len(experiment.seeds) > 1,
    )
    declared = [declared_sides(run) for run in runs]
    if all(sides is not None for sides in declared):
        backed = {bet for sides in declared for bet in sides}
        plan = dataclasses.replace(plan, backed=tuple(bet for bet in bets if bet in backed))
    rounds = int(shoes["count"]) * rounds_per_shoe_estimate(experiment.rules) if recorded is None else len(recorded.table)
    plan = dataclasses.replace(plan, compiled=plays_compiled(rounds * len(runs) * len(experiment.seeds)))
    warnings = list(registry(experiment.plugins_dirs).warnings)  # the chunks add the twins' (ChunkOutput.warnings)
    if recorded is None:
        return PreparedRun(plan, seeded_chunks(plan, experiment.seeds, int(shoes["count"])), warnings)
    return PreparedRun(plan, table_chunks(plan, experiment.seeds, recorded.table), warnings + recorded.warnings)


def run_experiment(
    experiment: Experiment, progress: Callable[[int], None] | None = None, workers: int = 1, executor: str = "local"
) -> RunResult:
    """Deal the shoes and play every strategy on them; return rounds and ledger frames held in memory.

    ``progress`` is called with the number of shoes done as chunks finish.
    For runs larger than memory, use :func:`run_to_folder`.
    """
    prepared = prepare(experiment)
    plan = dataclasses.replace(prepared.plan, gather_stats=True)  # for the sessions' stopped_by, which the ledger lacks
    gathered: list[list[Any]] = [[] for _ in plan.strategies]

    warnings = list(prepared.warnings)
    engines: dict[str, list[str]] = {}

    def gathering(outputs: Any) -> Any:
        for output in outputs:
            for k, rows in enumerate(output.session_rows, start=output.first_strategy):
                gathered[k].append(rows)
            warnings.extend(output.warnings)
            for label, engine in output.engines:
                if engine not in engines.setdefault(label, []):
                    engines[label].append(engine)
            yield output

    with closing(execute(plan, prepared.chunks, workers, executor)) as outputs:
        rounds, ledger = collect_outputs(gathering(outputs), progress)
    stops = stopped_sessions(session_frame([entry.name for entry in plan.strategies], gathered, True))
    result = RunResult(experiment, rounds, ledger, warnings, stops=stops)
    result.engines = {label: "; ".join(played) for label, played in engines.items()}
    return result


def _resolved_yaml(experiment: Experiment) -> str:
    import yaml

    header = "# The resolved experiment: every default filled in, overrides and grids applied.\n"
    if experiment.overrides:
        header += "# Overrides: " + " ".join(f"--set {o}" for o in experiment.overrides) + "\n"
    return header + yaml.safe_dump(experiment.to_mapping(), sort_keys=False, allow_unicode=True)


def run_to_folder(
    experiment: Experiment,
    out_dir: str | Path,
    workers: int = 1,
    executor: str = "local",
    progress: Callable[[int], None] | None = None,
    baseline: str | None = None,
    force: bool = False,
    report: bool | None = None,
    status: Callable[[str], None] | None = None,
    announce_compiling: bool = False,
) -> RunResult:
    """Run the experiment chunk by chunk straight into ``out_dir``: the ledger is never held in memory.

    ``baseline`` is the strategy the others are compared with (default: the first).
    ``workers`` threads or processes (or Ray tasks) play the chunks; the output is the
    same for any number of workers. ``progress`` is called with the number of
    shoes done as chunks finish. The summary and plots come from statistics
    the chunks gather as they play (:mod:`baccarat.results.statistics.folded`), not from reading
    the ledger back. The returned result reads its frames from the folder
    when asked. A previous run in ``out_dir`` is replaced only with ``force``.
    ``report`` (default: the experiment's ``report``) False skips the plots
    and report.html. ``status`` is told what the run does once the chunks
    are done (``"writing results"``). With ``announce_compiling``, a line on
    stderr says when kernels are being compiled (the first run after installing).
    """
    report = experiment.report if report is None else report
    start = time.perf_counter()
    prepared = prepare(experiment)
    announce_compiling = announce_compiling and prepared.plan.compiled  # a small run compiles nothing
    plan = dataclasses.replace(prepared.plan, gather_stats=True, announce_compiling=announce_compiling)
    if announce_compiling:
        from baccarat.execution.compile_notice import announce_compiling as announce

        announce()  # when this process compiles (it plays the chunks, or checks the twins for threads); workers say it too
    writer = RunWriter(
        experiment, out_dir, force=force, plots=report, baseline=baseline, warnings=prepared.warnings, workers=workers, executor=executor
    )
    with writer:
        statistics = writer.collect_statistics(bankrolls=report)
        with closing(execute(plan, prepared.chunks, workers, executor)) as outputs:  # workers stop on any error
            for output in outputs:
                writer.add_chunk(output)
                if progress is not None:
                    progress(output.shoes)
        writer.timings["run"] = time.perf_counter() - start
        if status is not None:
            status("writing results")
        bankroll = EXACT.divide(Decimal(experiment.session.bankroll_cents), CENTS_PER_UNIT)
        analysis = writer.finish(lambda: collected.results_of(statistics, bankroll))
    result = RunResult(experiment, warnings=writer.warnings, out_dir=writer.out_dir, counts=writer.counts, analysis=analysis)
    result.engines = {label: "; ".join(engines) for label, engines in writer.engines.items()}
    result.played_seconds = writer.timings["run"]
    return result


class RunWriter:
    """One run written into its folder: a temporary folder beside ``out_dir``, renamed into place when complete.

    ``with RunWriter(...) as writer:`` opens the temporary folder
    (:meth:`start`); :meth:`add_chunk` writes each chunk's Parquet parts as it
    arrives and hands its sessions to the statistics collector
    (:meth:`collect_statistics`); :meth:`finish` writes the experiment,
    manifest, summary, plots and report, then renames the folder into
    place. Leaving the block by an error or a stop (:meth:`abort`) removes
    the temporary folder: an interrupted or failed run leaves a complete
    folder or none (:func:`baccarat.execution.run_folder.atomic_folder`); a
    previous run there is replaced only with ``force``. The manifest lists
    every file the folder then holds (:mod:`baccarat.execution.manifest`):
    those written before the results are the run's data. ``run_info``
    (workers, executor) goes into the manifest.
    """

    def __init__(
        self,
        experiment: Experiment,
        out_dir: str | Path,
        force: bool = False,
        plots: bool = True,
        baseline: str | None = None,
        warnings: list[str] | None = None,
        **run_info: Any,
    ) -> None:
        self.experiment = experiment
        self.out_dir = Path(out_dir)
        self.force = force
        self.plots = plots
        self.baseline = baseline
        self.warnings = list(warnings or [])
        """The run's warnings: the plugins' and the shoes', then the chunks' as they arrive."""
        self.engines: dict[str, list[str]] = {}
        """Which engine played each strategy, and why (every different answer of the chunks, in order)."""
        self.run_info = run_info
        self.run_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.timings: dict[str, float] = {}
        self.counts = RunCounts()
        self.folder: Path | None = None
        """The temporary folder, while the run is written."""
        self.statistics: RunStatsCollector | None = None
        self.parts = PartsRecord([entry.name for entry in experiment.strategies])
        """The manifest's entries of the parts written by :meth:`add_chunk` (not read back)."""
        self._folder_scope = ExitStack()

    def __enter__(self) -> RunWriter:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool:
        if exc is not None:
            return self.abort(exc)
        if self.folder is not None:  # the block ended without finish(): nothing is renamed into place
            self.abort(RuntimeError("the run writer was left without finish()"))
        return False

    def start(self) -> Path:
        """Open the temporary folder beside ``out_dir`` and the datasets' folders in it; return it."""
        self.folder = self._folder_scope.enter_context(atomic_folder(self.out_dir, force=self.force))
        (self.folder / ROUNDS_DATASET).mkdir()
        (self.folder / LEDGER_DATASET).mkdir()
        return self.folder

    def collect_statistics(self, bankrolls: bool = True) -> RunStatsCollector:
        """Gather the statistics of every chunk added from now on (session rows, and bankrolls for the plots' bands)."""
        labels = [entry.name for entry in self.experiment.strategies]
        self.statistics = RunStatsCollector(
            self._open(),
            labels,
            bankrolls=bankrolls,
            baseline=self.baseline,
            fixed=fixed_bets(self.experiment),
            pricing=pricing_of(self.experiment),
        )
        return self.statistics

    def add_chunk(self, output: ChunkOutput) -> None:
        """Write one chunk's parts into the datasets, count it, and hand its sessions to the statistics collector."""
        write_parts(output, self._open(), self.parts)
        self.counts.add(output)
        if self.statistics is not None:
            self.statistics.add(output.session_rows, output.bankrolls, output.first_strategy)
        self.warnings.extend(output.warnings)
        for label, engine in output.engines:
            played = self.engines.setdefault(label, [])
            if engine not in played:
                played.append(engine)

    def finish(self, statistics: Callable[[], Mapping[str, Any]]) -> Analysis:
        """Write experiment, manifest, summary, plots and report, then rename the folder into place; return the analysis.

        ``statistics`` returns, once the manifest is written, what the run's
        collector made of its sessions (:func:`baccarat.results.collected.results_of`).
        """
        folder = self._open()
        check()  # a stop received while the last chunk was written: nothing more is done
        (folder / "experiment.yaml").write_text(_resolved_yaml(self.experiment), encoding="utf-8")
        manifest = self._manifest()
        write_manifest(folder, manifest)  # read by the report, which shows versions and timings
        data_files, _ = folder_contents(folder)
        made = statistics()
        check()
        exact = exact_analysis(self.experiment) if self.experiment.exact else None
        analysis = write_results(
            folder,
            run_facts(self.experiment, manifest["engines"]),
            made,
            exact=exact,
            plots=self.plots,
            manifest=manifest,
            formats=self.experiment.chart_formats,
            rules=self.experiment.rules,
        )
        # Parts described as they were written are not read back; a run written from memory is.
        details = None if self.parts.files else _ledger_rows_by_strategy(folder, self.experiment)
        record_files(folder, manifest, data_files, details, self.parts.files)
        step("the run's files and manifest written")
        self.folder = None
        self._folder_scope.close()  # the rename into place
        analysis.moved_to(self.out_dir)  # a large run's session table is read from the folder
        return analysis

    def abort(self, exc: BaseException) -> bool:
        """Remove the temporary folder because of ``exc``; return whether ``exc`` was dealt with (never: it goes on)."""
        self.folder = None
        return bool(self._folder_scope.__exit__(type(exc), exc, exc.__traceback__))

    def _open(self) -> Path:
        if self.folder is None:
            raise RuntimeError("the run writer is not started, or already finished")
        return self.folder

    def _manifest(self) -> dict[str, Any]:
        experiment, counts = self.experiment, self.counts
        return {
            "name": experiment.name,
            "run_at": self.run_at,
            "folder_id": folder_id(self._open()),
            "seed": experiment.seed,
            "seeds": list(experiment.seeds),
            "source": experiment.path,
            "overrides": list(experiment.overrides),
            "versions": _versions(),
            "timings_seconds": dict(self.timings),
            "counts": {
                "seeds": len(experiment.seeds),
                "shoes": counts.shoes,
                "rounds": counts.rounds,
                "strategies": len(experiment.strategies),
                "sessions": counts.sessions,
                "ledger_rows": counts.ledger_rows,
            },
            "rounds": counts.rounds,
            "ledger_rows": counts.ledger_rows,
            "strategies": [e.name for e in experiment.strategies],
            "warnings": self.warnings,
            "engines": {label: "; ".join(engines) for label, engines in self.engines.items()},
            **self.run_info,
        }


def _ledger_rows_by_strategy(folder: Path, experiment: Experiment) -> dict[str, dict[str, int]]:
    """Return the rows of the strategy each file of the ledger dataset holds (its number names it, :func:`part_name`)."""
    import pyarrow.parquet as pq

    labels = [e.name for e in experiment.strategies]
    ledger = folder / LEDGER_DATASET
    return {
        f"{LEDGER_DATASET}/{part.name}": {labels[int(part.name.split("-")[0])]: pq.read_metadata(part).num_rows}
        for part in sorted(ledger.iterdir())
    }


def _versions() -> dict[str, str]:
    import platform

    import numpy
    import pluggy
    import yaml

    return {
        "baccarat": __version__,
        "python": platform.python_version(),
        "polars": pl.__version__,
        "numpy": numpy.__version__,
        "pluggy": pluggy.__version__,
        "pyyaml": yaml.__version__,
    }
