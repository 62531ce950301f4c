"""The Python API: run from a dict or a path, load a saved run, frames and plots."""

from __future__ import annotations

import subprocess
import sys

import altair as alt
import polars as pl
import pytest
import yaml
from helpers.png import png_size

import baccarat
from baccarat.errors import InputError

EXPERIMENT = {
    "name": "api-test",
    "shoes": {"source": "seeded", "seed": 5, "count": 6},
    "session": {"bankroll": 200, "shoes_per_session": 2, "table_min": 10, "table_max": 500},
    "strategies": [
        {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
        {"name": "martingale banker", "use": "martingale", "params": {"side": "banker", "unit": 10}},
    ],
}


@pytest.fixture(scope="module")
def in_memory():
    return baccarat.run(EXPERIMENT)


def test_import_baccarat_loads_neither_polars_nor_an_imaging_library() -> None:
    code = "import sys, baccarat; print(sorted(m for m in ('polars', 'matplotlib', 'numpy', 'PIL') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_run_from_a_dict_gives_polars_frames(in_memory) -> None:
    result = in_memory
    assert isinstance(result.rounds, pl.DataFrame) and isinstance(result.ledger, pl.DataFrame)
    assert result.ledger.height == 2 * result.rounds.height
    assert result.summary.get_column("strategy").to_list() == ["flat banker", "martingale banker"]
    assert result.summary.get_column("sessions").to_list() == [3, 3]  # six shoes, two per session
    assert result.comparison.get_column("baseline").to_list() == ["flat banker"]
    assert result.sessions.height == 6
    assert result.out_dir is None


def test_summary_agrees_with_the_ledger(in_memory) -> None:
    ledger = in_memory.ledger
    flat = in_memory.summary.row(0, named=True)
    mine = ledger.filter(pl.col("strategy") == "flat banker")
    assert flat["wagered"] == mine.get_column("stake").sum()
    assert flat["net"] == mine.get_column("net").sum()
    assert flat["rounds"] == mine.filter(pl.col("stake") > 0).height


@pytest.mark.slow
def test_chart_gives_altair_charts_that_save_as_png_and_svg(in_memory, tmp_path) -> None:
    charts = in_memory.charts()
    assert set(charts) == {"bankroll", "strategies", "ruin", "final", "comparison", "drawdown"}
    assert all(isinstance(c, alt.TopLevelMixin) for c in charts.values())
    ruin = in_memory.chart("ruin")
    spec = ruin.to_dict()  # a valid Vega-Lite specification
    rows = spec["datasets"][spec["data"]["name"]]
    assert {r["strategy"] for r in rows} == {"flat banker", "martingale banker"}
    ruin.save(tmp_path / "ruin.png")
    assert png_size((tmp_path / "ruin.png").read_bytes())[0] > 300
    ruin.save(tmp_path / "ruin.svg")
    assert (tmp_path / "ruin.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    with pytest.raises(InputError, match=r"unknown chart 'ruins' \(did you mean 'ruin'\?\)"):
        in_memory.chart("ruins")


def test_plot_still_works_and_names_its_successor(in_memory) -> None:
    with pytest.warns(DeprecationWarning, match=r"Result\.chart"):
        ruin = in_memory.plot("ruin")
    assert ruin.to_dict(validate=False) == in_memory.chart("ruin").to_dict(validate=False)
    with pytest.warns(DeprecationWarning):
        assert set(in_memory.plot()) == set(in_memory.charts())


def test_report_html_and_notebook_display(in_memory) -> None:
    page = in_memory.report_html()
    assert page.startswith("<!DOCTYPE html>") and "martingale banker" in page and "window.vegaEmbed=" in page
    assert "data:image/png" not in page and page.count("window.vegaEmbed=") == 1
    shown = in_memory._repr_html_()
    assert "flat banker" in shown and '<table id="summary">' in shown
    text = repr(in_memory)
    assert text.startswith("<baccarat.Result 'api-test': 2 strategies>")
    assert "martingale banker" in text and "edge" in text  # the one-screen summary follows


def test_run_from_a_path_with_out_then_load(tmp_path, in_memory) -> None:
    path = tmp_path / "api.yaml"
    path.write_text(yaml.safe_dump(EXPERIMENT), encoding="utf-8")
    saved = baccarat.run(path, out=tmp_path / "run")
    assert saved.out_dir == tmp_path / "run" and (saved.out_dir / "report.html").is_file()
    assert saved.summary.equals(in_memory.summary)
    loaded = baccarat.load(tmp_path / "run")
    assert loaded.summary.equals(in_memory.summary)
    assert loaded.ledger.equals(in_memory.ledger)
    assert loaded.rounds.height == in_memory.rounds.height
    assert isinstance(loaded.scan_ledger(), pl.LazyFrame)


def test_baseline_can_be_chosen(in_memory) -> None:
    result = baccarat.run(EXPERIMENT, baseline="martingale banker")
    row = result.comparison.row(0, named=True)
    assert (row["strategy"], row["baseline"]) == ("flat banker", "martingale banker")
    assert row["net_diff"] == -in_memory.comparison.row(0, named=True)["net_diff"]


def test_load_refuses_a_folder_that_is_not_a_run(tmp_path) -> None:
    with pytest.raises(InputError, match="no such run folder"):
        baccarat.load(tmp_path / "missing")
    with pytest.raises(InputError, match="ledger.parquet is missing"):
        baccarat.load(tmp_path)


def test_an_unsaved_result_has_no_files(in_memory) -> None:
    with pytest.raises(InputError, match="not saved"):
        in_memory.save_results()


SCRIPT = """
import baccarat

EXPERIMENT = {"shoes": {"seed": 1, "count": 4}, "strategies": [{"use": "flat", "params": {"side": "banker", "unit": 10}}]}
{body}
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "guarded"),
    [
        ("result = baccarat.run(EXPERIMENT, workers=2)\nprint(len(result.ledger))", False),
        ("def main():\n    return baccarat.run(EXPERIMENT, workers=2)\n\n\nprint(len(main().ledger))", False),
        ('if __name__ == "__main__":\n    print(len(baccarat.run(EXPERIMENT, workers=2).ledger))', True),
    ],
)
def test_a_script_running_workers_without_the_main_guard_is_told_in_one_line_what_to_add(tmp_path, body, guarded) -> None:
    script = tmp_path / "my_backtest.py"
    script.write_text(SCRIPT.replace("{body}", body), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    if guarded:
        assert done.returncode == 0, done.stderr
        assert int(done.stdout) > 100
    else:
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"{script}, line " in done.stderr and 'put the call under `if __name__ == "__main__":`' in done.stderr
