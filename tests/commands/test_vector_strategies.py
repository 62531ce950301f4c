"""Vectorised strategies from a plugin folder, through the real command (``python -m baccarat``).

The same strategy written per session and vectorised gives the same ledger,
row for row, on the same seeded shoes; a vectorised flat Banker gives the
built-in ``flat``'s; results do not depend on the number of workers; a bad
return ends the run in one line naming the strategy and where; ``baccarat
strategies``, ``trace`` and ``exact`` know the kind.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from helpers.vector_plugin import PLUGIN

pytestmark = pytest.mark.slow  # runs of the real command, in processes of their own


SESSION = "session: {bankroll: 300, table_min: 10, table_max: 500, shoes_per_session: 3}\n"


def folder(tmp_path: Path, strategies: str, count: int = 120) -> Path:
    (tmp_path / "plugins").mkdir(exist_ok=True)
    (tmp_path / "plugins" / "vec.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(f"name: vec\nshoes: {{seed: 3, count: {count}}}\n{SESSION}strategies:\n{strategies}")
    return tmp_path


def baccarat(where: Path, *args: str, python: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [*(python or [sys.executable, "-m", "baccarat"]), *args]
    return subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=600, check=False)


def run(where: Path, out: str = "out", *options: str, python: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return baccarat(where, "run", "exp.yaml", "--plugins-dir", "plugins", "--out", out, "--quiet", "--no-report", *options, python=python)


def ledger_of(where: Path, label: str, out: str = "out") -> pl.DataFrame:
    return pl.read_parquet(where / out / "ledger.parquet").filter(pl.col("strategy") == label).drop("strategy")


PAIRS = """  - {name: per-session, use: follow-martingale}
  - {name: vectorised, use: vec-follow-martingale}
  - {name: flat, use: flat, params: {side: banker, unit: 10}}
  - {name: vec-flat, use: vec-flat}
"""


def test_a_vectorised_strategy_gives_the_ledger_of_the_same_strategy_per_session_and_of_the_built_in(tmp_path: Path) -> None:
    where = folder(tmp_path, PAIRS)
    done = run(where)
    assert done.returncode == 0, done.stderr
    per_session, vectorised = ledger_of(where, "per-session"), ledger_of(where, "vectorised")
    assert per_session.height > 9_000 and per_session.equals(vectorised)  # every row, every column
    assert per_session["stake"].max() >= 160 and (per_session["stake"] == 10).any()  # it doubled, and came back: state carried right
    assert (per_session["stake_player"] > 0).any()  # and followed Player too
    flat, vec_flat = ledger_of(where, "flat"), ledger_of(where, "vec-flat")
    assert flat.height > 9_000 and flat.equals(vec_flat)
    sessions = pl.read_parquet(where / "out" / "sessions.parquet")
    assert (
        sessions.filter(pl.col("strategy") == "per-session")
        .drop("strategy")
        .equals(sessions.filter(pl.col("strategy") == "vectorised").drop("strategy"))
    )


DOCS = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"


def docs_block(first_line: str) -> str:
    """The code block of docs/plugins.md whose first line is ``first_line``."""
    found = re.search(rf"```\w+\n({re.escape(first_line)}\n.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert found is not None, first_line
    return found.group(1)


def test_the_docs_strategy_per_session_vectorised_and_compiled_gives_one_ledger(tmp_path: Path) -> None:
    (tmp_path / "vectorised").mkdir()
    (tmp_path / "vectorised" / "follow_martingale.py").write_text(docs_block("# vectorised/follow_martingale.py"))
    (tmp_path / "follow.yaml").write_text(docs_block("# follow.yaml"))
    done = baccarat(tmp_path, "run", "follow.yaml", "--plugins-dir", "vectorised", "--out", "out", "--quiet", "--no-report")
    assert done.returncode == 0, done.stderr
    per_session, vectorised, compiled = (ledger_of(tmp_path, label) for label in ("per session", "vectorised", "compiled"))
    assert per_session.height > 10_000 and per_session.equals(vectorised) and per_session.equals(compiled)
    assert per_session["stake"].max() >= 160 and (per_session["stake"] == 0).any()  # doubled; sat out before a decided round


SMALL_CHUNKS = (
    "import sys; from baccarat.execution import chunks; from baccarat.cli import main; "
    "chunks.LEDGER_ROWS_PER_CHUNK = 3000; sys.exit(main())"
)


def test_a_vectorised_strategy_drawing_from_its_chunk_stream_gives_the_same_results_for_any_number_of_workers(
    tmp_path: Path,
) -> None:
    where = folder(tmp_path, "  - {name: coin, use: vec-coin}\n  - {name: vectorised, use: vec-follow-martingale}\n")
    for workers in ("1", "2"):
        done = run(where, f"w{workers}", "--workers", workers, python=[sys.executable, "-c", SMALL_CHUNKS])
        assert done.returncode == 0, done.stderr
        assert len(list((where / f"w{workers}" / "rounds.parquet").iterdir())) > 3  # several chunks, shared out
    for label in ("coin", "vectorised"):
        assert ledger_of(where, label, "w1").equals(ledger_of(where, label, "w2")), label
    coin = ledger_of(where, "coin", "w1")
    assert 0.4 < (coin["stake_banker"] > 0).mean() < 0.6  # both sides drawn, about evenly (thousands of rounds)


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("unoffered", "bet on side index 7, which the table does not offer (0: banker, 1: player, 2: tie"),
        ("fraction", "bet an invalid amount on banker: 0.125 is not a whole number of cents"),
        ("negative", "bet a negative amount (-20.0) on banker"),
        ("below", "bet 2.00 on banker, below the table minimum 10.00"),
        ("length", "returned sides of shape ("),
    ],
)
def test_a_bad_return_ends_the_run_in_one_line_naming_the_strategy_and_where(tmp_path: Path, fault: str, said: str) -> None:
    where = folder(tmp_path, f"  - {{name: bad, use: vec-faulty, params: {{fault: {fault}, at: 2}}}}\n")
    done = run(where)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"strategy 'bad' {said}" in done.stderr, done.stderr
    if fault == "length":  # the whole call is at fault: said at the first session, the longest (sessions of 3 shoes)
        assert re.search(r"\(\d+,\), not \(\d+,\): one per session still playing \(session \d+, shoe \d+, hand 3, round 3\)", done.stderr)
    else:
        assert "(session 2, shoe 4, hand 3, round 3)" in done.stderr, done.stderr
    assert not (where / "out").exists()


def test_a_bad_return_on_the_sample_shoe_is_refused_where_the_strategy_is_written(tmp_path: Path) -> None:
    where = folder(tmp_path, "  - {name: bad, use: vec-faulty, params: {fault: below, at: 1}}\n")
    done = run(where)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("baccarat: error: exp.yaml:5:") and "strategy 'bad' bet 2.00 on banker" in done.stderr, done.stderr
    assert "on a sample shoe tried before the run" in done.stderr


def test_a_vectorised_strategy_drawing_from_a_stream_not_its_own_is_refused_in_one_line(tmp_path: Path) -> None:
    where = folder(tmp_path, "  - {name: global, use: vec-global-coin}\n")
    done = run(where)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "strategy 'vec-global-coin' played the same sample shoe in two fresh players and bet differently" in done.stderr


def test_strategies_lists_it_trace_plays_one_session_of_it_and_exact_says_it_has_no_exact_form(tmp_path: Path) -> None:
    where = folder(tmp_path, PAIRS)
    listed = baccarat(where, "strategies", "--plugins-dir", "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    described = {entry["name"]: entry["description"] for entry in json.loads(listed.stdout)}
    assert described["vec-follow-martingale"] == "(vectorised) The same, every session of the chunk at once."
    assert described["follow-martingale"].startswith("Back this shoe's last winner")
    traces = []
    for label in ("per-session", "vectorised"):
        traced = baccarat(where, "trace", "exp.yaml", "--plugins-dir", "plugins", "--strategy", label, "--session", "2")
        assert traced.returncode == 0, traced.stderr
        traces.append([line.split()[:8] for line in traced.stdout.splitlines()[2:] if line.strip()])
    assert len(traces[0]) > 150 and traces[0] == traces[1]  # the same rounds, bets, stakes, nets and bankrolls
    assert "stake=" in traced.stdout and "last=" in traced.stdout  # the vectorised state, at this session
    plan = baccarat(where, "plan", "--strategy", "vec-flat", "--plugins-dir", "plugins", "--hands", "50")
    assert plan.returncode == 0, plan.stderr
    assert "skipped vec-flat: a vectorised strategy" in plan.stdout and "nor can it be simulated (it takes no stop rule" in plan.stdout
    exact = baccarat(where, "exact", "exp.yaml", "--plugins-dir", "plugins")
    assert "skipped vectorised: a vectorised strategy: its bets are its own code, which has no exact form" in exact.stdout, exact
