"""The rebate rule fields: read like the commission, written only when set, and not part of settlement."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from baccarat.errors import RulesError
from baccarat.experiment import load_experiment
from baccarat.table.rules import Rules, load_rules, rules_from_mapping


def test_rebates_read_as_shares_and_written_back_only_when_set() -> None:
    rules = load_rules({"rolling_rebate": "1%", "loss_rebate": "1/10"})
    assert (rules.rolling_rebate, rules.loss_rebate) == (Fraction(1, 100), Fraction(1, 10))
    written = rules.to_mapping()
    assert written["rolling_rebate"] == "1/100" and written["loss_rebate"] == "1/10"
    assert rules_from_mapping(written) == rules
    plain = load_rules("punto-banco-8").to_mapping()
    assert "rolling_rebate" not in plain and "loss_rebate" not in plain  # a run's experiment.yaml is as before


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("rolling_rebate", Fraction(3, 20000), "rolling_rebate 0.00015 is not a whole number of basis points"),
        ("loss_rebate", Fraction(1), "loss_rebate must be at least 0 and below 1, not 1"),
        ("loss_rebate", Fraction(-1, 100), "loss_rebate must be at least 0 and below 1, not -0.01"),
    ],
)
def test_a_rebate_outside_0_to_1_or_finer_than_a_basis_point_is_refused(field: str, value: Fraction, said: str) -> None:
    with pytest.raises(RulesError, match=said):
        Rules(**{field: value})


def test_an_experiment_gives_the_rebates_in_its_rules_and_keeps_them(tmp_path) -> None:
    path = tmp_path / "experiment.yaml"
    path.write_text(
        yaml.safe_dump({"rules": {"preset": "punto-banco-8", "rolling_rebate": "0.8%"}, "strategies": [{"name": "flat", "use": "flat"}]}),
        encoding="utf-8",
    )
    experiment = load_experiment(path)
    assert experiment.rules.rolling_rebate == Fraction(8, 1000)
    assert experiment.to_mapping()["rules"]["rolling_rebate"] == "1/125"
