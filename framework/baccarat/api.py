"""The Python API: run an experiment, or load a saved run, and get its frames and plots.

>>> import baccarat
>>> result = baccarat.run("configs/quickstart.yaml")        # or a dict, or out="results/qs"
>>> result.summary                                          # polars frames
>>> result.chart("bankroll")                                # a Vega-Altair chart: shown in a notebook, .save("x.png")
>>> again = baccarat.load("results/qs")                     # a folder written by `baccarat run`
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from baccarat.errors import InputError
from baccarat.experiment import Experiment, load_experiment
from baccarat.experiment.report_facts import exact_analysis, pricing_of, run_facts
from baccarat.results.collected import replayed
from baccarat.results.ledger import READ_ERRORS, read_error_reason
from baccarat.results.report.analysis import Analysis, analyse, write_results
from baccarat.results.report.html import render_html
from baccarat.results.statistics.saved_counts import ROUND_COUNTS_FILE

if TYPE_CHECKING:
    import altair as alt


class Result:
    """A run: its experiment, ``rounds`` and ``ledger`` frames, statistics and plots.

    Frames of a saved run are read from its folder when first asked for;
    statistics are computed from a lazy scan of the ledger.
    """

    def __init__(
        self,
        experiment: Experiment,
        *,
        rounds: pl.DataFrame | None = None,
        ledger: pl.DataFrame | None = None,
        out_dir: Path | None = None,
        warnings: list[str] | None = None,
        baseline: str | None = None,
        analysis: Analysis | None = None,
        stops: pl.DataFrame | None = None,
        identity: str | None = None,
    ) -> None:
        self.experiment = experiment
        self._identity = identity
        """The run a loaded folder held when it was loaded (:func:`run_identity`): its files are read only while it still holds it."""
        self.out_dir = out_dir
        self.warnings = list(warnings or [])
        self.baseline = baseline
        self._rounds = rounds
        self._ledger = ledger
        self._analysis = analysis
        self._stops = stops

    def stops(self) -> pl.DataFrame | None:
        """The sessions a stop rule ended, as the engines reported them (the ledger does not hold them)."""
        if self._stops is None:
            from baccarat.results.report.analysis import saved_stops

            path = self.session_file()
            self._stops = saved_stops(path) if path is not None else None
        return self._stops

    def session_file(self) -> Path | None:
        """The run folder's ``sessions.parquet`` when it is the file the run wrote (by its manifest), else None."""
        from baccarat.results.report.analysis import SESSIONS_FILE

        return self.saved_file(SESSIONS_FILE)

    def saved_file(self, name: str) -> Path | None:
        """The run folder's file ``name`` when it is the file the run (or its last report) wrote, by its manifest, else None."""
        from baccarat.execution.manifest import unchanged

        path = None if self.out_dir is None else self.out_dir / name
        self._check_same_run()
        return path if path is not None and path.is_file() and unchanged(path) else None

    def _file(self, name: str) -> Path:
        if self.out_dir is None:
            raise InputError(f"this result was not saved, so it has no {name}")
        self._check_same_run()
        return self.out_dir / name

    def _check_same_run(self) -> None:
        """Refuse to read a loaded folder that another run has since replaced (its files would not be this run's)."""
        if self._identity is not None and self.out_dir is not None and run_identity(self.out_dir) != self._identity:
            raise InputError("holds another run since it was loaded; load it again with baccarat.load", path=str(self.out_dir))

    @property
    def rounds(self) -> pl.DataFrame:
        """One row per dealt round (the ``rounds.parquet`` columns of docs/results.md)."""
        if self._rounds is None:
            with self._reading():
                self._rounds = pl.read_parquet(self._file("rounds.parquet"))
        return self._rounds

    @property
    def ledger(self) -> pl.DataFrame:
        """One row per round per strategy per session, money as exact decimals."""
        if self._ledger is None:
            with self._reading():
                self._ledger = pl.read_parquet(self._file("ledger.parquet"))
        return self._ledger

    def _reading(self) -> AbstractContextManager[None]:
        """The saved run's reading lock (:func:`baccarat.execution.folder_lock.reading_lock`): no commit replaces it meanwhile."""
        from baccarat.execution.folder_lock import reading_lock

        return nullcontext() if self.out_dir is None else reading_lock(self.out_dir)

    def scan_ledger(self) -> pl.LazyFrame:
        """Return the ledger as a lazy frame (a Parquet scan for a saved run: nothing read until collected).

        A scan of a saved run reads its files when collected: collect it before
        another command may replace the run (or use :attr:`ledger`, read whole
        under the folder's reading lock).
        """
        if self._ledger is None and self.out_dir is not None:
            return pl.scan_parquet(self._file("ledger.parquet"))
        return self.ledger.lazy()

    @property
    def analysis(self) -> Analysis:
        """Every statistic of the run (see :class:`baccarat.results.report.analysis.Analysis`), its ledger replayed
        through the statistics collector (:func:`baccarat.results.collected.replayed`) when first asked for."""
        if self._analysis is None:
            with self._reading():  # the run checked and every file read under the lock: no commit swaps in another run
                ledger = self._file("ledger.parquet") if self._ledger is None and self.out_dir is not None else self.ledger
                self._analysis = analyse(self._replayed(ledger), *self._money())
        return self._analysis

    def _money(self) -> tuple[Any, Any]:
        facts = run_facts(self.experiment)
        return facts.bankroll, facts.table_min

    def _replayed(self, ledger: pl.DataFrame | Path, folder: Path | None = None) -> dict[str, Any]:
        """The statistics of the ledger replayed through the collector (``sessions.parquet`` written in ``folder``, if any)."""
        facts = run_facts(self.experiment)
        labels = [entry.name for entry in self.experiment.strategies]
        saved = self.session_file() if isinstance(ledger, Path) else None  # the run's own session rows, replayed as they are
        counts = self.saved_file(ROUND_COUNTS_FILE) if saved is not None else None  # and its bands' counts: no bankroll read
        return replayed(
            ledger,
            labels,
            facts.bankroll,
            facts.table_min,
            self.baseline,
            facts.fixed_bets,
            self.stops(),
            folder,
            sessions=saved,
            pricing=pricing_of(self.experiment),
            counts=counts,
        )

    def fixed_bets(self) -> dict[str, str | None]:
        """Each strategy's label mapped to the one bet it backs whenever it bets, or None (its expected edge depends on the sample)."""
        return run_facts(self.experiment).fixed_bets

    @property
    def summary(self) -> pl.DataFrame:
        """One row per strategy: the columns of ``summary.csv``."""
        return self.analysis.summary

    @property
    def comparison(self) -> pl.DataFrame:
        """Each strategy against the baseline, paired session by session: the columns of ``comparison.csv``."""
        return self.analysis.comparison

    @property
    def sessions(self) -> pl.DataFrame:
        """One row per strategy and session: the per-session figures the summary is made of."""
        return self.analysis.sessions

    def chart(self, kind: str) -> alt.TopLevelMixin:
        """Return one chart of the run as a Vega-Altair chart: ``bankroll``, ``strategies``, ``ruin``, ``final``,
        ``comparison``, ``drawdown`` or ``grid`` (:data:`baccarat.results.report.analysis.CHART_KINDS`).

        A notebook draws it; it can be restyled like any Altair chart (``.properties(width=...)``,
        ``.configure_axis(...)``) and written with ``.save("ruin.png")``, ``.save("ruin.svg")`` or ``.save("ruin.html")``.
        """
        return self.analysis.chart(kind)

    def charts(self) -> dict[str, alt.TopLevelMixin]:
        """Return every chart the run has, by kind (see :meth:`chart`)."""
        return self.analysis.charts()

    def plot(self, kind: str | None = None) -> alt.TopLevelMixin | dict[str, alt.TopLevelMixin]:
        """Deprecated: use :meth:`chart` (one chart) or :meth:`charts` (all of them); ``plot`` goes in version 0.3.

        Returns the same Vega-Altair charts (``final`` is still accepted for the final bankrolls).
        """
        import warnings

        warnings.warn(
            "Result.plot() is deprecated and goes in baccarat 0.3: use Result.chart(kind) or Result.charts()",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.charts() if kind is None else self.chart(kind)

    def report_html(self) -> str:
        """Return the self-contained, interactive HTML report of the run as a string."""
        yaml_path = None if self.out_dir is None else self.out_dir / "experiment.yaml"
        if yaml_path is not None and yaml_path.is_file():
            text = yaml_path.read_text(encoding="utf-8")
        else:
            text = run_facts(self.experiment).experiment_yaml
        engines = None
        if self.out_dir is not None:
            from baccarat.execution.manifest import MANIFEST_FILE, read_manifest

            engines = (read_manifest(self.out_dir / MANIFEST_FILE) or {}).get("engines")
        return render_html(self.analysis, run_facts(self.experiment, engines), self.analysis.charts(), text)

    def save_results(
        self, roads: Sequence[int] = (), exact: bool | None = None, formats: Sequence[str] | None = None, force: bool = False
    ) -> Path:
        """Rebuild ``sessions.parquet``, ``summary.csv``, ``comparison.csv`` and ``report.html`` of the run folder.

        ``roads`` lists shoes whose scoreboard roads the report shows; with
        ``exact`` (default: the experiment's ``exact:``) the report sets the
        exact analysis beside the simulation; ``formats`` (``png``, ``svg``;
        default: the experiment's ``report:``) also writes every chart as a file.
        A file of those names that the run did not write (a file of the user's)
        is refused unless ``force``. The folder is replaced in one step
        (:func:`baccarat.execution.run_folder.rewritten_folder`): stopped at any
        point, it holds the run as it was.
        """
        from baccarat.execution.folder_lock import folder_lock
        from baccarat.execution.manifest import MANIFEST_FILE, file_difference, listed_files, read_manifest
        from baccarat.execution.run_folder import rewritten_folder
        from baccarat.results.report.analysis import CHART_KINDS, COMPARISON_FILE, REPORT_FILE, SESSIONS_FILE, SUMMARY_FILE

        out = self._file("report.html").parent
        formats = tuple(self.experiment.chart_formats if formats is None else formats)
        rebuilt = {SESSIONS_FILE, ROUND_COUNTS_FILE, SUMMARY_FILE, COMPARISON_FILE, REPORT_FILE} | {
            f"{kind}.{fmt}" for kind in CHART_KINDS for fmt in formats
        }
        with folder_lock(out):  # no other command writes the folder meanwhile
            self._check_same_run()
            manifest = read_manifest(out / MANIFEST_FILE) or {}
            listed = listed_files(out, manifest)
            users = sorted(name for name in rebuilt if os.path.lexists(out / name) and name not in listed)
            if users and not force:
                raise InputError(
                    f"{users[0]} is not a file baccarat wrote, and the report would replace it; move it away, "
                    "or give --force to replace it",
                    path=str(out),
                )
            sessions = out / SESSIONS_FILE
            if SESSIONS_FILE in listed and sessions.is_file() and file_difference(sessions, listed[SESSIONS_FILE]) is not None:
                raise InputError(
                    f"{SESSIONS_FILE} is not the file the run wrote, and which stop rule ended each session is kept only "
                    "there, so a rebuilt report would lose it; put the run's file back, or run the experiment again",
                    path=str(out),
                )
            if SESSIONS_FILE in listed and not sessions.is_file():
                import sys

                print(
                    f"baccarat: warning: {out}: {SESSIONS_FILE} was removed, and which stop rule ended each session was kept "
                    "only there: the rebuilt table's stopped_by is empty",
                    file=sys.stderr,
                )
            stops = self.stops()  # before sessions.parquet is rebuilt: which stop rule ended a session is kept only there
            with rewritten_folder(out, rebuilt) as new:
                self._save_results(new, manifest, roads, exact, formats)
        self._identity = run_identity(out)
        self._stops = stops
        self._analysis.moved_to(out)
        return out

    def _save_results(self, new: Path, manifest: dict[str, Any], roads: Sequence[int], exact: bool | None, formats: Sequence[str]) -> None:
        """Write the rebuilt results and the manifest into the new folder ``new`` (the run's other files are linked there)."""
        from baccarat.execution.folder_commit import folder_id
        from baccarat.execution.manifest import RESULTS, describe_file, folder_contents, write_manifest

        before = {name: os.lstat(new / name).st_ino for name in folder_contents(new)[0]}
        show_exact = self.experiment.exact if exact is None else exact
        self._analysis = write_results(
            new,
            run_facts(self.experiment, manifest.get("engines")),
            self._replayed(new / "ledger.parquet", new),
            roads,
            exact_analysis(self.experiment) if show_exact else None,
            manifest=manifest,
            formats=formats,
            rules=self.experiment.rules,
        )
        files = dict(manifest.get("files") or {})
        now = folder_contents(new)[0]
        for name in list(files):
            if name not in now:
                del files[name]
        for name in now:
            if before.get(name) != os.lstat(new / name).st_ino:  # written by this report
                files[name] = {"kind": RESULTS, **describe_file(new / name)}
        write_manifest(new, {**manifest, "files": files, "folder_id": folder_id(new)})

    def _repr_html_(self) -> str:
        from html import escape

        from baccarat.results.report.html import summary_html

        where = f" in {escape(str(self.out_dir))}" if self.out_dir else ""
        return (
            f"<p><b>{escape(self.experiment.name)}</b>{where}: {len(self.experiment.strategies)} strategies</p>{summary_html(self.summary)}"
        )

    def __repr__(self) -> str:
        from baccarat.results.formatting import format_summary

        where = f" in {self.out_dir}" if self.out_dir else ""
        head = f"<baccarat.Result {self.experiment.name!r}: {len(self.experiment.strategies)} strategies{where}>"
        try:
            return f"{head}\n{format_summary(self.summary)}"
        except (InputError, OSError, *READ_ERRORS):  # a damaged folder: the repr still says what the result is
            return head


def _experiment(source: str | Path | Mapping[str, Any] | Experiment) -> Experiment:
    import os

    from baccarat.errors import ExperimentError

    if isinstance(source, Experiment):
        return source
    if not isinstance(source, str | os.PathLike | Mapping):
        raise ExperimentError(
            f"an experiment is a YAML file's path, a mapping shaped like the YAML or an Experiment, not a {type(source).__name__}"
        )
    return load_experiment(source)


def run(
    experiment: str | Path | Mapping[str, Any] | Experiment,
    out: str | Path | None = None,
    baseline: str | None = None,
    progress: bool = False,
    workers: int = 1,
    force: bool = False,
) -> Result:
    """Run an experiment (a YAML path, a mapping shaped like the YAML, or an :class:`Experiment`).

    With ``out``, the run folder is written as by ``baccarat run --out``: the
    run streams into it chunk by chunk (the ledger is never held in memory) and the frames are
    read from it when first used; without, the frames are kept in memory.
    A previous run in ``out`` is replaced only with ``force`` (and only when
    the folder holds that run and nothing else).
    ``workers`` processes play the chunks (the results are the same for any
    number); with more than one, call ``run`` under ``if __name__ == "__main__":``.

    Signals keep the script's own handlers. Ctrl-C raises the usual
    ``KeyboardInterrupt`` within a second, once the temporary folder and
    the folder's lock are removed (``out`` is left as it was), even while a
    plugin's compiled twin never returns: compiled code plays on a thread
    of its own, which goes on until the process ends (a line on stderr says
    so; a worker process is stopped). SIGTERM and SIGHUP end the script at
    once, as Python's defaults do; the next run into the same ``out``
    removes the temporary folder a dead process left. The library takes no
    signal from the script: taking SIGTERM would change how the whole
    program ends, and no handler can end compiled code inside the process.
    """
    from baccarat.execution.main_guard import check_main_guard
    from baccarat.execution.runner import run_experiment, run_to_folder

    check_main_guard(workers)
    exp = _experiment(experiment)
    shoes = int(exp.shoes["count"]) * len(exp.seeds) if exp.shoes["source"] == "seeded" else None

    def play(update: Any) -> Any:
        if out is not None:
            return run_to_folder(exp, out, workers=workers, progress=update, force=force)
        return run_experiment(exp, progress=update, workers=workers)

    if progress:
        import sys

        from tqdm import tqdm

        with tqdm(total=shoes, unit="shoe", desc=exp.name, file=sys.stderr) as bar:
            result = play(bar.update)
    else:
        result = play(None)
    analysis = result.analysis if baseline is None else None
    if out is not None:
        identity = run_identity(result.out_dir)
        return Result(exp, out_dir=result.out_dir, warnings=result.warnings, baseline=baseline, analysis=analysis, identity=identity)
    return Result(
        exp, rounds=result.rounds, ledger=result.ledger, warnings=result.warnings, baseline=baseline, analysis=analysis, stops=result.stops
    )


def load(run_dir: str | Path, baseline: str | None = None) -> Result:
    """Open a run folder written by ``baccarat run``; frames are read when first used.

    The folder is refused unless its data files (ledger, rounds, experiment,
    ...) are the very files the run wrote, as its manifest records them
    (:func:`baccarat.execution.manifest.check_data`): a ledger cut short, edited,
    rewritten with other types or taken from another run is named. What the
    ledger and the session table say is checked too
    (:mod:`baccarat.results.ledger_checks`). The folder is read under its
    reading lock (:func:`baccarat.execution.folder_lock.reading_lock`): a
    command replacing it meanwhile waits, or is waited for.
    """
    from baccarat.execution.folder_lock import reading_lock

    folder = Path(run_dir)
    if not folder.is_dir():
        _put_back(folder)
    with reading_lock(folder):
        return _load(folder, baseline)


def _put_back(folder: Path) -> None:
    """Put back a run folder that a command killed while replacing it left aside (when no command writes it now)."""
    from baccarat.errors import OutputError
    from baccarat.execution.folder_commit import recover
    from baccarat.execution.folder_lock import folder_lock

    try:
        with folder_lock(folder):
            recover(Path(os.path.abspath(folder)))
    except (OutputError, InputError):
        pass


def _load(folder: Path, baseline: str | None) -> Result:
    from baccarat.execution.manifest import MANIFEST_FILE, check_data, read_manifest, unchanged
    from baccarat.results.ledger_checks import check_ledger, check_sessions
    from baccarat.results.report.analysis import SESSIONS_FILE

    if not folder.is_dir():
        raise InputError("no such run folder", path=str(folder))
    for name in ("ledger.parquet", "experiment.yaml", MANIFEST_FILE):
        if not (folder / name).exists():
            raise InputError(f"not a run folder: {name} is missing", path=str(folder))
    check_data(folder, read_manifest(folder / MANIFEST_FILE) or {})
    check_ledger_file(folder / "ledger.parquet")
    experiment = load_experiment(folder / "experiment.yaml", shoe_file_needed=False, strategies_needed=False)
    check_ledger(folder / "ledger.parquet", [entry.name for entry in experiment.strategies])
    if (folder / SESSIONS_FILE).is_file() and unchanged(folder / SESSIONS_FILE):
        check_sessions(folder / SESSIONS_FILE)
    return Result(experiment, out_dir=folder, baseline=baseline, identity=run_identity(folder))


def run_identity(folder: Path) -> str:
    """Return what identifies the run a folder holds: its manifest's time of the run and records of its data files."""
    import json

    from baccarat.execution.manifest import MANIFEST_FILE, read_manifest

    try:
        manifest = read_manifest(folder / MANIFEST_FILE) or {}
    except InputError:
        manifest = {}
    files = manifest.get("files")
    data = {name: entry for name, entry in files.items() if name.startswith(RUN_DATA)} if isinstance(files, dict) else None
    return json.dumps([manifest.get("run_at"), data], sort_keys=True, default=str)


RUN_DATA = ("ledger.parquet", "rounds.parquet", "experiment.yaml")
"""The files (or dataset folders) of a run folder that make the run: its results are rebuilt from them."""


LEDGER_COLUMNS: tuple[str, ...] = ("strategy", "session", "round", "stake", "net", "bankroll")
"""Ledger columns every statistic needs."""


def check_ledger_file(path: Path) -> None:
    """Refuse a ``ledger.parquet`` (a dataset folder, or a single file) that cannot be read as Parquet or lacks the ledger's columns."""
    try:
        schema = pl.read_parquet_schema(path)
    except READ_ERRORS as exc:
        raise InputError(f"cannot be read as Parquet ({read_error_reason(exc)}); the run folder is damaged", path=str(path)) from None
    missing = [name for name in LEDGER_COLUMNS if name not in schema]
    if missing:
        raise InputError(f"is not a ledger: it has no {', '.join(missing)} column{'s' if len(missing) > 1 else ''}", path=str(path))
