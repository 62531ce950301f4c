"""``baccarat run --no-report`` / ``report: false``, and the progress bar on a terminal."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from baccarat.cli import main

SMALL = (
    "name: small\nshoes: {seed: 5, count: 30}\nsession: {bankroll: 1000, table_min: 5, table_max: 200}\n"
    "strategies:\n  - name: flat banker\n    use: flat\n    params: {side: banker, unit: 10}\n"
    "  - use: martingale\n    params: {side: player, unit: 5}\n"
)
TABLES = ["comparison.csv", "experiment.yaml", "ledger.parquet", "manifest.json", "rounds.parquet", "sessions.parquet", "summary.csv"]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.yaml").write_text(SMALL)
    return tmp_path


@pytest.mark.slow
def test_no_report_writes_the_same_tables_and_neither_plots_nor_html(workdir: Path) -> None:
    assert main(["run", "small.yaml", "--out", "full", "--quiet"]) == 0
    assert main(["run", "small.yaml", "--out", "lean", "--quiet", "--no-report"]) == 0
    assert sorted(p.name for p in (workdir / "lean").iterdir()) == TABLES  # no spool of bankrolls left either
    # The report's run also keeps each round's bankroll counts, which a later report reads for the bands.
    assert sorted(p.name for p in (workdir / "full").iterdir()) == sorted([*TABLES, "report.html", "round_counts.parquet"])
    for name in ("summary.csv", "comparison.csv", "sessions.parquet"):
        assert (workdir / "lean" / name).read_bytes() == (workdir / "full" / name).read_bytes()


def test_report_false_in_the_experiment_skips_them_too_and_is_kept_in_the_resolved_experiment(workdir: Path) -> None:
    (workdir / "lean.yaml").write_text(SMALL + "report: false\n")
    assert main(["run", "lean.yaml", "--out", "lean", "--quiet"]) == 0
    assert sorted(p.name for p in (workdir / "lean").iterdir()) == TABLES
    assert "report: false" in (workdir / "lean" / "experiment.yaml").read_text()


def test_a_report_that_is_not_true_or_false_is_refused_at_its_line(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "bad.yaml").write_text(SMALL + "report: sometimes\n")
    assert main(["run", "bad.yaml", "--out", "bad", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "baccarat: error: bad.yaml:10:9: report must be true, false or a mapping such as {png: true}, not 'sometimes'\n"
    )
    assert not (workdir / "bad").exists()
    (workdir / "bad.yaml").write_text(SMALL + "report: {png: true, pdf: true}\n")
    assert main(["run", "bad.yaml", "--out", "bad", "--quiet"]) == 2
    assert capsys.readouterr().err == "baccarat: error: bad.yaml:10:21: report takes png and svg, not 'pdf'\n"
    assert not (workdir / "bad").exists()


@pytest.mark.slow
def test_report_png_in_the_experiment_writes_every_chart_as_png(workdir: Path) -> None:
    (workdir / "png.yaml").write_text(SMALL + "report:\n  png: true\n")
    assert main(["run", "png.yaml", "--out", "png", "--quiet"]) == 0
    written = sorted(p.name for p in (workdir / "png").glob("*.png"))
    assert written == sorted(f"{kind}.png" for kind in ("bankroll", "strategies", "ruin", "final", "comparison", "drawdown"))
    assert "png: true" in (workdir / "png" / "experiment.yaml").read_text()
    assert main(["run", "png.yaml", "--out", "png", "--quiet", "--force"]) == 0  # the folder is a run: replaced


def on_a_terminal(folder: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run the real command with stderr on a pseudo-terminal 120 columns wide; return its status and what it drew."""
    import fcntl
    import termios

    main_side, terminal = os.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a new terminal has no width
    process = subprocess.Popen(
        [sys.executable, "-m", "baccarat", *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=terminal,
        text=True,
        env={**os.environ, **(env or {})},
    )
    os.close(terminal)
    screen = b""
    while True:
        try:
            data = os.read(main_side, 4096)
        except OSError:  # the terminal closed: the command is done
            break
        if not data:
            break
        screen += data
    os.close(main_side)
    process.communicate(timeout=300)
    return process.returncode, screen.decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_first_run_says_it_compiles_then_the_bar_shows_from_the_start_to_every_shoe_and_the_writing(tmp_path: Path) -> None:
    from baccarat.execution.compile_notice import MESSAGE

    # 15,000 shoes of one strategy (over the line that compiles into an empty cache): chunks played by two workers;
    # kernels compiled into an empty cache first.
    (tmp_path / "bar.yaml").write_text(
        "name: bar\nshoes: {seed: 1, count: 15000}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"
    )
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "kernels")}
    status, cold = on_a_terminal(tmp_path, "run", "bar.yaml", "--out", "cold", "--workers", "2", env=cache)
    assert status == 0 and cold.count(MESSAGE) == 1, cold
    status, warm = on_a_terminal(tmp_path, "run", "bar.yaml", "--out", "warm", "--workers", "2", env=cache)
    assert status == 0 and MESSAGE not in warm, warm
    frames = [frame for frame in re.split(r"[\r\n]", warm) if "shoe" in frame]
    assert re.search(r"\b0%.*\b0/15000\b", frames[0]), frames  # drawn before any chunk is done
    last = frames[-1]
    assert "100%" in last and "15000/15000" in last and "writing results" in last, frames
