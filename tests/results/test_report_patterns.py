"""The report's section "The shoes against fair shoes": the same verdict and figures as ``baccarat patterns RUN_DIR --json``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from baccarat.cli import main
from baccarat.results.patterns import against_fair
from baccarat.results.patterns.against_fair import fmt_figure
from baccarat.results.patterns.fair_shoes import DRAWS
from baccarat.results.report.patterns_html import patterns_html

SHOES = Path(__file__).resolve().parents[2] / "configs" / "shoes"


def experiment(tmp_path: Path, shoes: dict, rules: str = "punto-banco-8") -> Path:
    path = tmp_path / "experiment.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "name": "patterns-report",
                "rules": rules,
                "shoes": shoes,
                "session": {"bankroll": 1000, "shoes_per_session": 1, "table_min": 10, "table_max": 1000},
                "strategies": [{"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}}],
            }
        ),
        encoding="utf-8",
    )
    return path


def run(capsys: pytest.CaptureFixture[str], path: Path, out: Path) -> dict:
    """``baccarat run PATH --out OUT --json``: what it prints."""
    assert main(["run", str(path), "--out", str(out), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def section(report: Path) -> str:
    """The report's section on the shoes against fair shoes, from its title to its embedded figures."""
    text = report.read_text(encoding="utf-8")
    pattern = r'<h2>The shoes against fair shoes</h2>.*?<script type="application/json" id="patterns-data">.*?</script>'
    found = re.search(pattern, text, re.S)
    assert found, "the report has no section on the shoes against fair shoes"
    return found.group(0)


def embedded(part: str) -> dict:
    return json.loads(re.search(r'id="patterns-data">(.*?)</script>', part, re.S).group(1))


def command(capsys: pytest.CaptureFixture[str], folder: Path) -> dict:
    """``baccarat patterns FOLDER --json``, with its default fair samples and pool seed (those of the report)."""
    assert main(["patterns", str(folder), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def rows(part: str) -> dict[str, list[str]]:
    """Each row of the section's table by statistic key: its cells as text."""
    return {key: re.findall(r"<td[^>]*>(.*?)</td>", cells) for key, cells in re.findall(r'<tr data-key="([^"]+)">(.*?)</tr>', part, re.S)}


def test_the_report_holds_the_verdict_and_figures_of_the_patterns_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    printed = run(capsys, experiment(tmp_path, {"source": "seeded", "seed": 5, "count": 30}), out)
    part = section(out / "report.html")
    tested = command(capsys, out)
    shown = embedded(part)
    assert tested["draws"] == shown["draws"] == DRAWS and tested["shoes"] == 30
    assert {k: v for k, v in shown.items() if k != "source"} == {k: v for k, v in tested.items() if k != "source"}
    assert printed["patterns"] == shown  # the same figures in `baccarat run --json`
    assert f"<b>{tested['verdict']}</b>" in part
    table = rows(part)
    assert list(table) == [s["key"] for s in tested["statistics"]]
    for s in tested["statistics"]:
        label, seen, fair, fair_range, exact, p, p_holm, flagged = table[s["key"]]
        assert (label, seen, fair, exact) == (s["label"], fmt_figure(s["observed"]), fmt_figure(s["fair_mean"]), fmt_figure(s["exact"]))
        assert fair_range == (f"{fmt_figure(s['fair_low'])} to {fmt_figure(s['fair_high'])}" if s["fair_low"] is not None else "-")
        assert (p, p_holm) == tuple("-" if x is None else f"{x:.3f}" for x in (s["p_value"], s["p_holm"]))
        assert flagged == ("unlike fair" if s["flagged"] else "no")

    before = (out / "report.html").read_text(encoding="utf-8")
    (out / "report.html").unlink()
    assert main(["report", str(out)]) == 0
    capsys.readouterr()
    assert section(out / "report.html") == part
    assert section(out / "report.html") in before


def test_a_run_of_recorded_outcomes_is_tested_without_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shoes = {"source": "recorded", "path": str(SHOES / "sample-outcomes.txt"), "format": "outcomes"}
    out = tmp_path / "run"
    printed = run(capsys, experiment(tmp_path, shoes), out)
    shown = embedded(section(out / "report.html"))
    assert shown["has_cards"] is False and shown["shoes"] == 3
    assert not any(s["key"].endswith("pair_share") for s in shown["statistics"])
    assert {k: v for k, v in command(capsys, out).items() if k != "source"} == {k: v for k, v in shown.items() if k != "source"}
    assert printed["patterns"] == shown


def test_a_run_above_the_size_says_how_to_get_the_test(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setattr(against_fair, "REPORT_MAX_SHOES", 2)
    out = tmp_path / "run"
    printed = run(capsys, experiment(tmp_path, {"source": "seeded", "seed": 5, "count": 3}), out)
    assert printed["patterns"] is None
    text = (out / "report.html").read_text(encoding="utf-8")
    assert patterns_html(None) in text and "<code>baccarat patterns RUN_DIR</code>" in patterns_html(None)
    assert 'id="patterns-data"' not in text
