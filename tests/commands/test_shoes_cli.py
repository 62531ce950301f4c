"""``baccarat shoes generate|check`` and replaying recorded shoes through ``baccarat run``."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from baccarat.cli import main
from baccarat.commands.shoes import FORMAT_NAMES
from baccarat.shoes.recorded import FORMATS, read_shoes
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import preset

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SAMPLES = {"cards": "sample-cards.txt", "outcomes": "sample-outcomes.txt", "rounds": "sample-rounds.csv"}


def test_the_command_knows_every_format() -> None:
    assert FORMAT_NAMES == FORMATS


@pytest.mark.parametrize("fmt", FORMATS)
def test_generate_then_check_gives_the_counts_of_the_seeded_run(tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shoes.dat"
    assert (
        main(
            ["shoes", "generate", "--rules", "punto-banco-6", "--count", "4", "--seed", "31", "--format", fmt, "--out", str(out), "--quiet"]
        )
        == 0
    )
    seeded = seeded_table(preset("punto-banco-6"), 31, 1, 4)
    assert f"4 shoes, {len(seeded)} rounds" in capsys.readouterr().out
    assert main(["shoes", "check", str(out), "--format", fmt, "--rules", "punto-banco-6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{out}: valid {fmt} file under punto-banco-6 (6 decks)"
    printed = {line.split()[0]: line.split()[1] for line in lines[1:]}
    counts = np.bincount(seeded.outcome, minlength=3).tolist()
    assert printed == {
        "shoes": "4",
        "rounds": f"{len(seeded):,}",
        "banker": f"{counts[0]:,}",
        "player": f"{counts[1]:,}",
        "tie": f"{counts[2]:,}",
    }


def test_generate_single_deck_writes_one_round_per_shoe(tmp_path: Path) -> None:
    out = tmp_path / "one.csv"
    assert (
        main(
            [
                "shoes",
                "generate",
                "--rules",
                "single-deck",
                "--count",
                "25",
                "--seed",
                "2",
                "--format",
                "rounds",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    rows = out.read_text().splitlines()
    assert rows[0] == "shoe,player,banker" and [r.split(",")[0] for r in rows[1:]] == [str(i) for i in range(1, 26)]
    table = read_shoes(out, "rounds", preset("single-deck")).table
    seeded = seeded_table(preset("single-deck"), 2, 1, 25)
    assert np.array_equal(table.player_cards, seeded.player_cards) and np.array_equal(table.banker_cards, seeded.banker_cards)


def test_generate_does_not_replace_a_file_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "real-shoes.txt"
    out.write_text("irreplaceable\n")
    args = ["shoes", "generate", "--rules", "punto-banco-8", "--count", "1", "--seed", "1", "--out", str(out), "--quiet"]
    assert main(args) == 2
    assert "exists already" in capsys.readouterr().err
    assert out.read_text() == "irreplaceable\n"
    assert main([*args, "--force"]) == 0
    assert out.read_text().startswith("# 1 seeded shoe(s)")
    assert [p.name for p in tmp_path.iterdir()] == ["real-shoes.txt"]  # no temporary file left


def _status(argv: list[str]) -> int:
    """Exit status of a command line, whether argparse exits or the command returns."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "expected a whole number from 1"),
        (["--seed", "-1"], "a seed is a whole number from 0"),
        (["--format", "card"], "invalid choice: 'card'"),
        (["--rules", "punto-banco-9"], "unknown rule preset 'punto-banco-9' (did you mean 'punto-banco-8'?)"),
    ],
)
def test_generate_refuses_bad_arguments(tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    options = {"--rules": "punto-banco-8", "--count": "2", "--seed": "1", "--out": str(tmp_path / "x.txt"), **dict([args])}
    assert _status(["shoes", "generate", *[x for kv in options.items() for x in kv]]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize(
    ("fmt", "text", "message"),
    [
        ("cards", "AS 2 3 4\n5 5 ZZ\n", ":2:5: invalid card 'ZZ'"),
        ("outcomes", "", "holds no shoe"),
        ("rounds", "shoe,player,banker\n1,6 K 2,7 K\n", ":2:3: shoe 1, round 1: Player stands on 6, but drew a third card"),
    ],
)
def test_check_reports_one_positioned_line(tmp_path: Path, fmt: str, text: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad"
    path.write_text(text)
    assert main(["shoes", "check", str(path), "--format", fmt]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"baccarat: error: {path}") and message in captured.err and captured.err.count("\n") == 1


def test_check_prints_warnings_for_trailing_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.txt"
    path.write_text("4 3 5 4 2 2\n")
    assert main(["shoes", "check", str(path), "--format", "cards"]) == 0
    captured = capsys.readouterr()
    assert "warning" in captured.err and "2 card(s) that cannot complete a round" in captured.err
    assert "rounds           1" in captured.out


@pytest.mark.parametrize("fmt", FORMATS)
def test_shipped_samples_are_what_the_generator_makes(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / SAMPLES[fmt]
    assert (
        main(
            ["shoes", "generate", "--rules", "punto-banco-8", "--count", "3", "--seed", "7", "--format", fmt, "--out", str(out), "--quiet"]
        )
        == 0
    )
    assert out.read_bytes() == (CONFIGS / "shoes" / SAMPLES[fmt]).read_bytes()
    assert main(["shoes", "check", str(CONFIGS / "shoes" / SAMPLES[fmt]), "--format", fmt]) == 0


def _experiment(shoes: dict, strategies: list[dict] | None = None, rules: str = "punto-banco-8") -> dict:
    return {
        "name": "replay",
        "rules": rules,
        "shoes": shoes,
        "session": {"bankroll": 1000, "shoes_per_session": 2, "table_min": 10, "table_max": 1000},
        "strategies": strategies
        or [
            {"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 10}},
            {"name": "mart", "use": "martingale", "params": {"side": "player", "unit": 10}},
        ],
    }


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_run_on_generated_shoes_equals_the_seeded_run(tmp_path: Path, fmt: str) -> None:
    shoes_file = tmp_path / "data" / "shoes.rec"
    assert (
        main(
            [
                "shoes",
                "generate",
                "--rules",
                "punto-banco-8",
                "--count",
                "5",
                "--seed",
                "77",
                "--format",
                fmt,
                "--out",
                str(shoes_file),
                "--quiet",
            ]
        )
        == 0
    )
    seeded = tmp_path / "seeded.yaml"
    seeded.write_text(yaml.safe_dump(_experiment({"source": "seeded", "seed": 77, "count": 5})))
    recorded = tmp_path / "recorded.yaml"
    recorded.write_text(yaml.safe_dump(_experiment({"source": "recorded", "path": "data/shoes.rec", "format": fmt})))
    assert main(["run", str(seeded), "--out", str(tmp_path / "a"), "--quiet"]) == 0
    assert main(["run", str(recorded), "--out", str(tmp_path / "b"), "--quiet"]) == 0
    rounds_a = pl.read_parquet(tmp_path / "a" / "rounds.parquet")
    rounds_b = pl.read_parquet(tmp_path / "b" / "rounds.parquet")
    if fmt == "outcomes":
        rounds_a = rounds_a.select("shoe", "hand", "outcome")
        rounds_b = rounds_b.select("shoe", "hand", "outcome")
    assert rounds_a.height > 300 and rounds_a.equals(rounds_b)
    ledger_a = pl.read_parquet(tmp_path / "a" / "ledger.parquet")
    ledger_b = pl.read_parquet(tmp_path / "b" / "ledger.parquet")
    assert ledger_a.height == 2 * rounds_a.height and ledger_a.equals(ledger_b)


def test_shipped_replay_experiment_runs_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(CONFIGS / "shoes" / "replay.yaml"), "--out", "out", "--quiet"]) == 0
    rounds = pl.read_parquet(tmp_path / "out" / "rounds.parquet")
    assert rounds.height == seeded_table(preset("punto-banco-8"), 7, 1, 3).__len__()


def test_a_relative_shoe_path_is_read_from_the_experiment_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "exp").mkdir()
    shutil.copy(CONFIGS / "shoes" / "sample-cards.txt", tmp_path / "sample-cards.txt")
    experiment = tmp_path / "exp" / "e.yaml"
    experiment.write_text(yaml.safe_dump(_experiment({"source": "recorded", "path": "sample-cards.txt", "format": "cards"})))
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert (
        f"e.yaml:10:9: the shoe file 'sample-cards.txt' does not exist (looked for {tmp_path / 'exp' / 'sample-cards.txt'}"
        in capsys.readouterr().err
    )
    experiment.write_text(yaml.safe_dump(_experiment({"source": "recorded", "path": "../sample-cards.txt", "format": "cards"})))
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 0


def test_card_bets_on_outcome_shoes_are_refused_before_the_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    experiment = tmp_path / "e.yaml"
    pairs = [{"name": "pairs", "use": "flat", "params": {"side": "player_pair", "unit": 10}}]
    # The shoe file does not even exist: the bet is refused first, and nothing is written.
    experiment.write_text(
        yaml.safe_dump(_experiment({"source": "recorded", "path": "missing.txt", "format": "outcomes"}, pairs, rules="punto-banco-8-pairs"))
    )
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the bet 'player_pair' needs the cards, but these shoes record outcomes only" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()
    # On the same outcomes, a Banker bet runs.
    shutil.copy(CONFIGS / "shoes" / "sample-outcomes.txt", tmp_path / "missing.txt")
    experiment.write_text(yaml.safe_dump(_experiment({"source": "recorded", "path": "missing.txt", "format": "outcomes"})))
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 0


def test_a_malformed_shoe_file_runs_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (CONFIGS / "shoes" / "sample-cards.txt").read_text().splitlines()
    lines[-1] = lines[-1] + " 7Q"
    (tmp_path / "s.txt").write_text("\n".join(lines) + "\n")
    experiment = tmp_path / "e.yaml"
    experiment.write_text(yaml.safe_dump(_experiment({"source": "recorded", "path": "s.txt", "format": "cards"})))
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"s.txt:{len(lines)}:{len(lines[-1]) - 1}: invalid card '7Q': unknown suit 'Q'" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("fmt", ["cards", "outcomes"])  # a rounds CSV holds no comment
def test_the_header_of_a_generated_file_says_what_it_holds(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "shoes.dat"
    assert (
        main(
            ["shoes", "generate", "--rules", "punto-banco-8", "--count", "1", "--seed", "7", "--format", fmt, "--out", str(out), "--quiet"]
        )
        == 0
    )
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("# 1 seeded shoe(s): rules punto-banco-8, seed 7; ")
    assert ("cards" in header) == (fmt == "cards")
    assert {"cards": "cards as dealt", "outcomes": "outcomes of the rounds as dealt"}[fmt] in header
