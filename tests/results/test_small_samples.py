"""Small samples are flagged beside their figures in the summary, the report and ``--json``; bounds of 0 are printed as 0."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
import yaml

from baccarat import cli

SESSIONS = 20
EXPERIMENT = {
    "name": "small",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 4, "count": SESSIONS},
    "session": {"bankroll": 1000, "shoes_per_session": 1, "table_min": 10, "table_max": 1000},
    "strategies": [
        {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
        {"name": "martingale", "use": "martingale", "params": {"side": "banker", "unit": 10}},
    ],
}
SHORT = f"{SESSIONS} sessions: normal 95% intervals cover less than 95%"
"""The note of a sample whose normal intervals are known to cover less than they say."""
NO_BOUND = "bankroll for ruin at most 5%: its 95% interval has no upper bound below 72 sessions"
"""The note of a bankroll-for-ruin interval the sessions cannot give (the order statistics it needs do not exist)."""


@pytest.mark.slow
def test_a_small_sample_is_flagged_everywhere_and_a_bound_of_0_is_0(tmp_path: Path, capsys) -> None:
    """20 one-shoe sessions: each strategy's row carries the notes in summary.csv, --json, the printed summary and the report.

    Flat Banker (unit 10, bankroll 1,000, one shoe) cannot be ruined: its Wilson interval of the risk of ruin starts at 0
    exactly, written as 0 (not 1e-19) in summary.csv, --json and the report.
    """
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(EXPERIMENT), encoding="utf-8")
    out = tmp_path / "run"
    assert cli.main(["run", str(path), "--out", str(out), "--json"]) == 0
    printed = {row["strategy"]: row for row in json.loads(capsys.readouterr().out)["summary"]}
    with (out / "summary.csv").open(encoding="utf-8") as f:
        written = {row["strategy"]: row for row in csv.DictReader(f)}
    assert set(printed) == set(written) == {"flat banker", "martingale"}
    for label in printed:
        for row in (printed[label], written[label]):
            assert SHORT in row["notes"] and NO_BOUND in row["notes"], (label, row["notes"])
    assert printed["flat banker"]["risk_of_ruin"] == 0 and printed["flat banker"]["risk_of_ruin_ci_low"] == 0
    assert float(written["flat banker"]["risk_of_ruin_ci_low"]) == 0 and "e" not in written["flat banker"]["risk_of_ruin_ci_low"]
    report = (out / "report.html").read_text(encoding="utf-8")
    summary = report[report.index('<table id="summary">') : report.index("</table>", report.index('<table id="summary">'))]
    assert SHORT in summary and NO_BOUND in summary
    assert re.search(r"Risk of ruin, 95% CI</td><td>\[0\.0%, ", summary), "flat Banker's lower bound of 0 is 0.0%"
    assert not re.search(r"\de-\d", summary), "no figure of the summary in exponent form"
    assert cli.main(["run", str(path), "--out", str(tmp_path / "again")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"note: {SHORT} below 100 (flat Tie at 30: about 90%)." in lines and f"note: {NO_BOUND}." in lines
