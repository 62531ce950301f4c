"""``baccarat patterns``: the sample shoes in each recorded format, a run folder, seeded shoes, the JSON and the chart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat.cli import main
from baccarat.execution.runner import run_to_folder
from baccarat.experiment import load_experiment

SHOES = Path(__file__).resolve().parents[2] / "configs" / "shoes"


def patterns_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["patterns", *argv, "--draws", "199", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("name", "fmt"), [("sample-cards.txt", "cards"), ("sample-outcomes.txt", "outcomes"), ("sample-rounds.csv", "rounds")]
)
def test_each_recorded_format(capsys: pytest.CaptureFixture[str], name: str, fmt: str) -> None:
    data = patterns_json(capsys, str(SHOES / name), "--format", fmt)
    assert data["shoes"] >= 3
    assert data["has_cards"] is (fmt != "outcomes")
    keys = {s["key"] for s in data["statistics"]}
    assert {"banker_share", "chop_share", "streak_lengths", "goes_on_after_8", "cockroach_pig_red"} <= keys
    assert ("player_pair_share" in keys) is (fmt != "outcomes")
    assert data["correction"] == "Holm"
    assert data["verdict"].startswith(f"These {data['shoes']} shoes")
    banker = next(s for s in data["statistics"] if s["key"] == "banker_share")
    assert banker["exact"] == pytest.approx(0.4585974226, abs=1e-9)  # 8 decks, off the top
    for s in data["statistics"]:
        assert s["p_holm"] is None or s["p_holm"] >= s["p_value"]


@pytest.mark.slow
def test_the_cards_and_outcomes_of_the_same_shoes_agree(capsys: pytest.CaptureFixture[str]) -> None:
    cards = patterns_json(capsys, str(SHOES / "sample-cards.txt"), "--format", "cards")
    outcomes = patterns_json(capsys, str(SHOES / "sample-outcomes.txt"), "--format", "outcomes")
    # The sample files hold the same three seeded shoes (seed 7): the outcome statistics are the same.
    seen = {s["key"]: s["observed"] for s in outcomes["statistics"]}
    for s in cards["statistics"]:
        if s["key"] in seen:
            assert s["observed"] == seen[s["key"]]


def run_folder(folder: Path, rules: str, count: int) -> Path:
    """A run of flat Banker on ``count`` seeded shoes (seed 11) under ``rules``, written to ``folder``."""
    experiment = {
        "name": "patterns-test",
        "rules": rules,
        "shoes": {"source": "seeded", "seed": 11, "count": count},
        "strategies": [{"name": "flat", "use": "flat", "params": {"side": "banker", "unit": 10}}],
    }
    run_to_folder(load_experiment(experiment), folder)
    return folder


@pytest.mark.slow
def test_a_run_folder_and_seeded_shoes_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = patterns_json(capsys, str(run_folder(tmp_path / "run", "punto-banco-8", 4)))
    seeded = patterns_json(capsys, "--count", "4", "--seed", "11")
    assert run["shoes"] == seeded["shoes"] == 4
    assert [s["observed"] for s in run["statistics"]] == [s["observed"] for s in seeded["statistics"]]


@pytest.mark.slow
def test_a_run_folder_is_tested_under_its_own_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A single-deck run: its fair shoes and exact chances are single-deck ones (as seeded single-deck shoes'), not 8 decks'."""
    run = patterns_json(capsys, str(run_folder(tmp_path / "run", "single-deck", 40)))
    seeded = patterns_json(capsys, "--count", "40", "--seed", "11", "--rules", "single-deck")
    assert run["rules"] == "single-deck" and run["shoes"] == seeded["shoes"] == 40
    for mine, theirs in zip(run["statistics"], seeded["statistics"], strict=True):
        assert (mine["key"], mine["observed"], mine["fair_mean"], mine["exact"]) == (
            theirs["key"],
            theirs["observed"],
            theirs["fair_mean"],
            theirs["exact"],
        )
    banker = next(s for s in run["statistics"] if s["key"] == "banker_share")
    assert banker["exact"] != pytest.approx(0.4585974226, abs=1e-6)  # not 8 decks' off the top
    assert main(["patterns", str(tmp_path / "run"), "--rules", "punto-banco-8"]) == 2
    err = capsys.readouterr().err
    assert "dealt under the rules single-deck, not punto-banco-8: leave out --rules" in err and err.count("\n") == 1


def test_text_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "patterns.json"
    assert main(["patterns", "--count", "3", "--seed", "2", "--draws", "99", "--chart", str(chart)]) == 0
    out = capsys.readouterr().out
    assert "streak goes on after 8" in out and "p Holm" in out and "fairly shuffled" in out
    spec = json.loads(chart.read_text())
    assert "facet" in spec and len(spec["datasets"][spec["data"]["name"]]) == 19


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["configs/shoes/sample-cards.txt"], "name its format with --format"),
        (["no-such-file.txt", "--format", "cards"], "no such file or folder"),
        (["--seed", "20261207"], "seed of the fair shoes too"),
        (["--count", "3", "--chart", "x.html"], "ending in .png, .svg or .json"),
    ],
)
def test_bad_input_is_one_sentence(capsys: pytest.CaptureFixture[str], argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SHOES.parents[1])
    assert main(["patterns", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
