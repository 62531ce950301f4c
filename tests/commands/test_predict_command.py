"""``baccarat predict``: an experiment's shoes, every predictor scored, the JSON, and bad input in one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat.cli import main

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def test_json_holds_every_score_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["predict", str(CONFIGS / "quickstart.yaml"), "--set", "shoes.count=3", "--predictors", "off-the-top,follow-streak", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in data["scores"]] == ["exact", "off-the-top", "follow-streak"]
    assert data["shoes"] == 3 and data["rounds"] > 200
    exact = data["scores"][0]
    assert exact["log_loss_vs_exact"] == 0 and exact["brier_vs_exact"] == 0
    for s in data["scores"][1:]:
        assert s["log_loss_vs_exact_low"] <= s["log_loss_vs_exact"] <= s["log_loss_vs_exact_high"]
        assert s["log_loss"] - exact["log_loss"] == pytest.approx(s["log_loss_vs_exact"])
    assert data["verdict"].startswith(f"On {data['rounds']:,} rounds of 3 shoes")


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["predict", str(CONFIGS / "quickstart.yaml"), "--set", "shoes.count=2", "--predictors", "follow-chop"]) == 0
    out = capsys.readouterr().out
    assert "follow-chop" in out and "log-loss" in out and "the exact predictor" not in out.splitlines()[0]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--predictors", "folow-streak"], "unknown predictor 'folow-streak' (did you mean 'follow-streak'?)"),
    ],
)
def test_bad_input_is_one_sentence(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    assert main(["predict", str(CONFIGS / "quickstart.yaml"), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_shoes_without_cards_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shoes = CONFIGS / "shoes" / "sample-outcomes.txt"
    (tmp_path / "e.yaml").write_text(
        f"name: e\nshoes: {{source: recorded, path: {shoes}, format: outcomes}}\nstrategies: [{{use: flat}}]\n", encoding="utf-8"
    )
    assert main(["predict", str(tmp_path / "e.yaml")]) == 2
    assert "recorded without cards: the exact predictor needs the cards dealt" in capsys.readouterr().err
