"""Statistics gathered during a run equal those computed from its ledger afterwards (the definition)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from baccarat import executor, report, runstats, stats
from baccarat.experiment import load_experiment
from baccarat.recorded.write import write_shoes
from baccarat.runner import run_to_folder
from baccarat.shoes import seeded_rounds

STRATEGIES = [
    {"name": "martingale", "use": "martingale", "params": {"side": "banker", "unit": 10}},
    {"name": "labouchere chop", "use": "labouchere", "params": {"side": "chop", "unit": 10, "stop_win": 60}},
    {"name": "random flat", "use": "flat", "params": {"side": "random", "unit": 25, "stop_loss": 100}},
    {"name": "pairs", "use": "flat", "params": {"side": "player_pair", "unit": 10, "max_rounds": 40}},
]


def experiment(**changes):
    data = {"name": "gathered", "rules": "punto-banco-8-pairs", "shoes": {"source": "seeded", "seed": [3, 8], "count": 30},
            "session": {"bankroll": 250, "shoes_per_session": 2, "table_min": 10, "table_max": 160},
            "strategies": STRATEGIES, **changes}
    return load_experiment(data)


def assert_same_analysis(gathered: report.Analysis, reference: report.Analysis) -> None:
    for name in ("sessions", "summary", "comparison", "bands", "ruin"):
        assert_frame_equal(getattr(gathered, name), getattr(reference, name), check_exact=True)


@pytest.mark.parametrize("workers", [1, 2])
def test_statistics_gathered_while_playing_equal_the_ledger_definition(tmp_path: Path, workers: int,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executor, "LEDGER_ROWS_PER_CHUNK", 2_000)  # several chunks
    if workers == 1:  # bands in many small blocks, the spool read a few sessions at a time
        monkeypatch.setattr(stats, "BAND_CELLS", 100)
        monkeypatch.setattr(runstats, "READ_ROWS", 37)
    exp = experiment()
    result = run_to_folder(exp, tmp_path / "run", workers=workers)
    reference = report.analyse_experiment(pl.scan_parquet(tmp_path / "run" / "ledger.parquet"), exp)
    assert result.analysis is not None and result.analysis.sessions.height == 4 * 2 * 15
    assert result.analysis.sessions["ruined"].any()
    assert_same_analysis(result.analysis, reference)
    assert not [p.name for p in (tmp_path / "run").iterdir() if p.name.startswith(".")]


def test_a_plugin_strategy_on_the_reference_path_and_recorded_shoes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executor, "LEDGER_ROWS_PER_CHUNK", 1_000)  # several chunks, played by worker processes
    exp = experiment()
    write_shoes(tmp_path / "shoes.txt", "cards", seeded_rounds(exp.rules, 5, 1, 8))
    plugin = tmp_path / "plugins"
    plugin.mkdir()
    (plugin / "every_other.py").write_text(
        "from baccarat import hookimpl\n"
        "from baccarat.strategy import Strategy\n\n\n"
        "class EveryOther(Strategy):\n"
        "    name = 'every-other'\n\n"
        "    def bets(self, view):\n"
        "        return {'banker': 10, 'tie': 10} if view.round % 2 else None\n\n\n"
        "@hookimpl\n"
        "def register_strategies(register):\n"
        "    register(EveryOther)\n")
    exp = experiment(shoes={"source": "recorded", "path": str(tmp_path / "shoes.txt"), "format": "cards"},
                     strategies=[*STRATEGIES[:2], {"name": "every other", "use": "every-other"}],
                     plugins_dir=str(plugin))
    result = run_to_folder(exp, tmp_path / "run", workers=2)
    reference = report.analyse_experiment(pl.scan_parquet(tmp_path / "run" / "ledger.parquet"), exp)
    assert_same_analysis(result.analysis, reference)
    ledger = pl.read_parquet(tmp_path / "run" / "ledger.parquet")
    assert ledger.filter(pl.col("strategy") == "every other")["stake_tie"].cast(pl.Float64).max() == 10
