"""The plain conclusion a run opens with, and the strategies whose expected edge is fixed by what they are."""

from __future__ import annotations

import polars as pl
import pytest

import baccarat
from baccarat.plugin.compose import fixed_bet
from baccarat.plugin.manager import registry
from baccarat.results.comparisons.conclusion import NO_CHANGE, conclusion


def experiment(strategies: list[dict], shoes: int = 60) -> dict:
    return {
        "name": "conclusion",
        "rules": "punto-banco-8",
        "shoes": {"source": "seeded", "seed": 4, "count": shoes},
        "session": {"bankroll": 1000, "shoes_per_session": 1, "table_min": 5, "table_max": 1000},
        "strategies": strategies,
    }


BANKER = {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}}


def test_fixed_bets_are_decided_from_the_strategies() -> None:
    found = registry()
    for use, params, bet in (
        ("flat", {"side": "banker"}, "banker"),
        ("martingale", {"side": "tie", "stop_loss": 100}, "tie"),
        ("flat", {"side": "random"}, None),
        ("paroli", {"side": "follow-last"}, None),
        ("ev-counter", {"bets": ["player_pair"]}, None),
    ):
        cls, full = found.configure(use, params)
        assert fixed_bet(cls, full) == bet, (use, params)


@pytest.mark.slow
def test_progressions_on_one_bet_change_nothing_and_a_worse_bet_is_named_with_its_edge() -> None:
    martingale = {"name": "martingale banker", "use": "martingale", "params": {"side": "banker", "unit": 10}}
    result = baccarat.run(experiment([BANKER, martingale]))
    assert conclusion(result.summary, result.comparison) == NO_CHANGE
    tie = {"name": "flat tie", "use": "flat", "params": {"side": "tie", "unit": 10}}
    result = baccarat.run(experiment([BANKER, martingale, tie]))
    said = conclusion(result.summary, result.comparison)
    difference = result.comparison.filter(pl.col("strategy") == "flat tie").get_column("expected_edge_diff")[0]
    assert said.startswith(
        f"flat tie has a higher expected house edge than flat banker, by {100 * difference:.3f}% of what it wagers (exactly)"
    )
    assert said.endswith("The others differ in how much they wager and how they spread the results.")


@pytest.mark.slow
def test_the_report_opens_with_the_conclusion(tmp_path) -> None:
    baccarat.run(
        experiment([BANKER, {"name": "paroli banker", "use": "paroli", "params": {"side": "banker", "unit": 10}}]), out=tmp_path / "r"
    )
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert page.index(NO_CHANGE) < page.index("<h2>At a glance</h2>") < page.index("expected to lose") < page.index("ended in profit")
