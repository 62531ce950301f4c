"""Every shipped experiment in configs/ runs, scaled down with the same ``--set`` overrides users have."""

from __future__ import annotations

from pathlib import Path

import pytest

from baccarat.execution.runner import run_to_folder
from baccarat.experiment import load_experiment

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SHIPPED = sorted(str(p.relative_to(CONFIGS)) for p in CONFIGS.rglob("*.yaml") if p.parent.name != "rules")


@pytest.mark.slow
def test_every_rule_preset_has_a_shipped_experiment() -> None:
    used = {load_experiment(CONFIGS / name).rules.name for name in SHIPPED}
    assert used >= {"punto-banco-8", "single-deck", "punto-banco-6", "punto-banco-8-pairs", "ez-baccarat-8", "super-6-8"}


@pytest.mark.slow
@pytest.mark.parametrize("config", SHIPPED)
def test_shipped_config_runs(config: str, tmp_path: Path) -> None:
    source = load_experiment(CONFIGS / config)
    overrides = []
    if source.shoes["source"] == "seeded":
        overrides.append(f"shoes.count={200 if source.rules.reshuffle_every_round else 4}")
    experiment = load_experiment(CONFIGS / config, overrides)
    result = run_to_folder(experiment, tmp_path / "run")
    out = result.out_dir
    assert {"rounds.parquet", "ledger.parquet", "experiment.yaml", "manifest.json"} <= {p.name for p in out.iterdir()}
    labels = [s.name for s in experiment.strategies]
    assert result.ledger["strategy"].unique(maintain_order=True).to_list() == labels
    assert result.ledger.height == len(labels) * result.rounds.height > 0
    if experiment.shoes["source"] == "seeded":
        assert result.rounds["shoe"].n_unique() == experiment.shoes["count"] * len(experiment.seeds)
    assert (result.ledger["stake"] > 0).any()


def test_the_quickstart_runs_whole_as_the_readme_says() -> None:
    experiment = load_experiment(CONFIGS / "quickstart.yaml")
    assert experiment.shoes["count"] == 1000 and experiment.rules.decks == 8
    assert [s.use for s in experiment.strategies] == ["flat", "martingale"]


def test_the_recorded_replay_reads_the_shipped_sample() -> None:
    experiment = load_experiment(CONFIGS / "recorded-replay.yaml")
    assert Path(experiment.shoes["path"]).is_file() and experiment.shoes["format"] in ("cards", "outcomes", "rounds")
