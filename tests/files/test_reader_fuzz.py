"""Every reader of user files, fed arbitrary text or bytes, answers with data or one positioned InputError: never a traceback.

Shoe files are fuzzed in test_recorded_fuzz.py; here: experiment files,
rules files, ``--set`` overrides, and the files of a run folder read by
``baccarat report``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from baccarat.cli import main
from baccarat.errors import InputError
from baccarat.experiment import load_experiment, parse_override
from baccarat.table.rules import load_rules

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# Pieces of real experiment files, so that the fuzzing reaches past the YAML parser into the checks.
PIECES = [
    "name: x\n",
    "rules: punto-banco-8\n",
    "rules: {decks: 6, commission: 4%}\n",
    "shoes:\n",
    "  seed: 7\n",
    "  count: 3\n",
    "  source: recorded\n",
    "  format: cards\n",
    "  path: s.txt\n",
    "session:\n",
    "  bankroll: 100\n",
    "  table_min: 10\n",
    "  table_max: 50\n",
    "  shoes_per_session: 2\n",
    "strategies:\n",
    "  - use: flat\n",
    "  - use: martingale\n",
    "    params: {side: banker, unit: 10}\n",
    "    params: {side: streak, length: 0}\n",
    "    grid: {unit: [10, 20]}\n",
    "    name: a\n",
    "plugins_dir: .\n",
    "&a ",
    "*a\n",
    "!!python/name:os.system ",
    "- ",
    "? ",
    ": ",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    "\t",
    "\n",
    " ",
    "-1",
    "1e9",
    "nan",
    "~",
    "yes",
    "9:1",
    "\ufeff",
]
yamlish = st.lists(st.sampled_from(PIECES), max_size=25).map("".join)


def read_experiment(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "exp.yaml"
        path.write_bytes(data)
        try:
            load_experiment(path)
        except InputError as exc:
            assert "\n" not in str(exc)


@pytest.mark.slow
@FUZZ
@given(data=st.binary(max_size=400))
def test_experiment_reader_on_arbitrary_bytes(data: bytes) -> None:
    read_experiment(data)


@pytest.mark.slow
@FUZZ
@given(text=st.text(max_size=300))
def test_experiment_reader_on_arbitrary_text(text: str) -> None:
    read_experiment(text.encode("utf-8", errors="surrogatepass"))


@pytest.mark.slow
@FUZZ
@given(text=yamlish)
def test_experiment_reader_on_text_made_of_experiment_pieces(text: str) -> None:
    read_experiment(text.encode("utf-8"))


@pytest.mark.slow
@FUZZ
@given(text=st.one_of(st.text(max_size=120), yamlish))
def test_rules_file_reader_on_arbitrary_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_rules(str(path))
        except InputError as exc:
            assert "\n" not in str(exc)


@pytest.mark.slow
@FUZZ
@given(
    text=st.one_of(
        st.text(max_size=80),
        st.builds(
            lambda k, v: f"{k}={v}",
            st.sampled_from(["session.bankroll", "strategies.0.params.unit", "shoes.seed", "rules.decks", "strategies.5", "", ".", "a..b"]),
            yamlish,
        ),
    )
)
def test_overrides_on_arbitrary_text(text: str) -> None:
    try:
        parse_override(text)
    except InputError as exc:
        assert "\n" not in str(exc)
    experiment = {"strategies": [{"use": "flat"}], "shoes": {"count": 1}}
    try:
        load_experiment(experiment, overrides=[text])
    except InputError as exc:
        assert "\n" not in str(exc)


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("run") / "run"
    experiment = folder.parent / "exp.yaml"
    experiment.write_text("shoes: {seed: 1, count: 2}\nstrategies:\n  - use: flat\n")
    assert main(["run", str(experiment), "--out", str(folder), "--quiet"]) == 0
    return folder


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(["ledger.parquet/00000-0000000.parquet", "manifest.json", "experiment.yaml", "rounds.parquet/0000000.parquet"]),
    data=st.one_of(st.binary(max_size=300), st.text(max_size=200).map(str.encode)),
    keep=st.integers(0, 4000),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=20),
)
def test_report_on_a_damaged_run_folder(
    run_folder: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes, keep: int, flips: list[tuple[int, int]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        damaged = Path(folder) / "run"
        shutil.copytree(run_folder, damaged)
        original = (run_folder / name).read_bytes()
        if flips and name.endswith(".parquet"):  # bytes flipped inside a real file: its footer may still read
            raw = bytearray(original)
            for at, bits in flips:
                raw[at % len(raw)] ^= bits
            data = bytes(raw)
        elif keep and not data:
            data = original[:keep]  # a file cut short
        (damaged / name).write_bytes(data)
        status = main(["report", str(damaged), "--quiet", "--roads", "1"])
        err = capsys.readouterr().err
        assert status in (0, 2), err
        lines = err.splitlines()
        assert "Traceback" not in err and all(line.startswith("baccarat: warning: ") for line in lines[:-1] if status), err
        assert (
            (len(lines) >= 1 and lines[-1].startswith("baccarat: error: "))
            if status
            else all(line.startswith("baccarat: warning: ") for line in lines)
        ), err


# Command lines -------------------------------------------------------------------------------

TOKENS = [
    "odds",
    "shoes",
    "check",
    "generate",
    "roads",
    "report",
    "strategies",
    "--json",
    "--rules",
    "--decks",
    "--remaining",
    "--format",
    "cards",
    "outcomes",
    "rounds",
    "--shoe",
    "--count",
    "--seed",
    "--out",
    "--force",
    "--baseline",
    "--roads",
    "--plugins-dir",
    "punto-banco-8",
    "single-deck",
    "x.yaml",
    "shoes.txt",
    "run-folder",
    "0",
    "1",
    "-1",
    "8",
    "9",
    "A=0",
    "T=300,K=-2",
    "1,x",
    "",
    " ",
    "--",
    "-h",
    "\u00e9",
    "nan",
    "1e99",
]


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    args=st.builds(
        lambda first, rest: first + rest,
        st.sampled_from([["odds"], ["shoes", "check"], ["shoes", "generate"], ["roads"], ["report"], ["strategies"]]),
        st.lists(st.sampled_from(TOKENS), max_size=7),
    )
)
def test_any_command_line_gives_a_result_or_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("decks: 6\n")
    (tmp_path / "shoes.txt").write_text("AS 2H 3D 4C 5S 6H\nBPT\n")
    (tmp_path / "run-folder").mkdir(exist_ok=True)
    try:
        status = main(args)
    except SystemExit as exc:  # argparse: --help, or a bad option
        status = exc.code
    out, err = capsys.readouterr()
    event(f"exit status {status}")
    assert status in (0, 1, 2), (args, err)
    assert "Traceback" not in err
    if status:
        assert err.count("\n") == 1 + sum(line.startswith("baccarat: warning:") for line in err.splitlines()), (args, err)
