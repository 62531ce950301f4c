"""The run folder's results: summary.csv, comparison.csv, a self-contained interactive report.html, charts as files on request."""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal
from html.parser import HTMLParser

import polars as pl
import pytest
from helpers.collected import collected_summary
from helpers.handmade import flat_ledger
from helpers.ledger_reference import session_table, summarize
from helpers.png import png_size

from baccarat import cli
from baccarat.experiment import load_experiment
from baccarat.experiment.report_facts import run_facts
from baccarat.results.collected import replayed
from baccarat.results.comparisons import strategies as comparisons
from baccarat.results.formatting import format_summary
from baccarat.results.report.analysis import write_results
from baccarat.results.report.html import SUMMARY_ROWS
from baccarat.results.statistics import ledger_stats as stats

EXPERIMENT = {
    "name": "report-test",
    "rules": "punto-banco-8",
    "shoes": {"source": "seeded", "seed": 11, "count": 12},
    "session": {"bankroll": 150, "shoes_per_session": 1, "table_min": 10, "table_max": 200},
    "strategies": [
        {"name": "flat banker", "use": "flat", "params": {"side": "banker", "unit": 10}},
        {"name": "martingale <player> & co", "use": "martingale", "params": {"side": "player", "unit": 10}},
        {"name": "flat tie", "use": "flat", "params": {"side": "tie", "unit": 10}},
    ],
}
LABELS = [s["name"] for s in EXPERIMENT["strategies"]]
VOID = {"meta", "img", "br", "hr", "link", "input", "wbr"}


class Page(HTMLParser):
    """Collects tags, checks they nest properly, and gathers the text of table header cells and images."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.images: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.headers: dict[str, list[str]] = {}
        self.table: str | None = None
        self.in_header_cell = False
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "table":
            self.table = attrs.get("id")
        if tag in ("th",):
            self.in_header_cell = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()
        if tag == "th":
            self.in_header_cell = False

    def handle_data(self, data):
        self.text.append(data)
        if self.in_header_cell and self.table:
            self.headers.setdefault(self.table, []).append(data)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "report-test"
    import baccarat

    baccarat.run(EXPERIMENT, out=out)
    return out


def parse(path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.mark.slow
def test_the_run_folder_holds_summary_comparison_and_report(run_dir) -> None:
    for name in ("sessions.parquet", "summary.csv", "comparison.csv", "report.html"):
        assert (run_dir / name).is_file(), name
    assert not list(run_dir.glob("*.png")) and not list(run_dir.glob("*.svg")), "no chart is rendered unless asked for"
    assert not list(run_dir.glob(".*")), "no temporary file is left behind"


def test_summary_csv_is_the_summary_of_the_saved_ledger(run_dir) -> None:
    csv = pl.read_csv(run_dir / "summary.csv")
    assert csv.columns == list(stats.SUMMARY_COLUMNS)
    assert csv.get_column("strategy").to_list() == LABELS
    ledger = pl.read_parquet(run_dir / "ledger.parquet")
    by_strategy = ledger.group_by("strategy").agg(pl.col("stake").sum(), pl.col("net").sum(), (pl.col("stake") > 0).sum().alias("bets"))
    for row in by_strategy.iter_rows(named=True):
        line = csv.filter(pl.col("strategy") == row["strategy"]).row(0, named=True)
        assert line["wagered"] == pytest.approx(float(row["stake"]))
        assert line["net"] == pytest.approx(float(row["net"]))
        assert line["rounds"] == row["bets"]
        assert line["sessions"] == 12


def test_sessions_parquet_is_the_table_the_summary_is_made_from(run_dir) -> None:
    from baccarat.results.report.analysis import SESSION_FILE_COLUMNS

    sessions = pl.read_parquet(run_dir / "sessions.parquet")
    assert sessions.columns == list(SESSION_FILE_COLUMNS)
    ledger = pl.read_parquet(run_dir / "ledger.parquet")
    definition = session_table(ledger, 150, 10)
    assert sessions.equals(definition.select(SESSION_FILE_COLUMNS))
    assert pl.read_csv(run_dir / "summary.csv").get_column("net").to_list() == pytest.approx(
        stats.summary_table(sessions).get_column("net").cast(pl.Float64).to_list()
    )
    # One row per strategy and session; the peak, by hand from the ledger: the highest bankroll, the initial 150 counted.
    assert sessions.height == len(LABELS) * 12
    peaks = ledger.group_by("strategy", "session").agg(pl.col("bankroll").max().alias("top"))
    for row in sessions.join(peaks, on=["strategy", "session"]).iter_rows(named=True):
        assert row["peak"] == max(row["top"], 150) >= row["final_bankroll"]
        assert row["max_drawdown"] <= row["peak"]
        assert row["ruined"] == (row["rounds_to_ruin"] is not None)


def test_comparison_csv_pairs_every_strategy_with_the_first(run_dir) -> None:
    csv = pl.read_csv(run_dir / "comparison.csv")
    assert csv.columns == list(comparisons.COMPARISON_COLUMNS)
    assert csv.get_column("strategy").to_list() == LABELS[1:]
    assert set(csv.get_column("baseline")) == {"flat banker"}


def test_report_is_well_formed_html_holding_every_strategy(run_dir) -> None:
    page = parse(run_dir / "report.html")
    assert not page.errors and not page.stack
    assert page.headers["summary"] == ["measure", *LABELS]
    text = "".join(page.text)
    for label in LABELS:
        assert label in text
    comparison_text = (run_dir / "report.html").read_text(encoding="utf-8").split('id="comparison"')[1].split("</table>")[0]
    assert "martingale &lt;player&gt; &amp; co" in comparison_text and "flat tie" in comparison_text
    for _, label, _ in SUMMARY_ROWS:
        assert label in text


def test_report_shows_the_wilson_intervals_of_summary_csv(run_dir) -> None:
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    summary = html.split('id="summary"')[1].split("</table>")[0]
    for row in pl.read_csv(run_dir / "summary.csv").iter_rows(named=True):
        for share in ("risk_of_ruin", "sessions_in_profit"):
            low, high = row[f"{share}_ci_low"], row[f"{share}_ci_high"]
            assert 0 <= low <= row[share] <= high <= 1
            assert f"[{100 * low:.1f}%, {100 * high:.1f}%]" in summary


def _table_cells(html_text: str, table_id: str) -> tuple[list[str], list[list[str]]]:
    """The header texts and the body rows' cell texts (the figure before any interval) of one table of the report."""
    table = html_text.split(f'id="{table_id}"')[1].split("</table>")[0]
    head, body = table.split("</thead>")
    headers = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    rows = [[re.sub(r"<[^>]+>", "", c.split("<span")[0]) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)] for row in body.split("</tr>")]
    return headers, [row for row in rows if row]


@pytest.mark.slow
def test_report_shows_p_values_as_p_values_and_each_further_column_in_its_own_unit(run_dir, capsys) -> None:
    assert cli.main(["report", str(run_dir), "--quiet"]) == 0
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    headers, rows = _table_cells(page, "comparison")
    more_headers, more_rows = _table_cells(page, "comparison-more")
    csv = pl.read_csv(run_dir / "comparison.csv")
    assert len(rows) == len(more_rows) == csv.height
    # The columns named in words (comparison.csv keeps the names of its columns).
    assert not [h for h in headers + more_headers if "_" in h]
    words = {"edge_diff_p_value": "realised edge difference, p-value", "verdict_p_value": "p-value of the verdict's test"}
    words |= {"verdict_p_holm": "p-value, Holm-corrected"}
    for row, more, line in zip(rows, more_rows, csv.iter_rows(named=True), strict=True):
        cell = {html.unescape(h): c for h, c in [*zip(headers, row, strict=True), *zip(more_headers, more, strict=True)]}
        assert html.unescape(cell["strategy"]) == line["strategy"] and cell["verdict"] == line["verdict"]
        for name in ("edge_diff_p_value", "verdict_p_value", "verdict_p_holm"):
            shown, p = cell[words[name]], line[name]
            if p is None:  # an exact verdict: nothing tested
                assert line["verdict_basis"] == "exact" and shown == "-"
                continue
            assert 0 <= p <= 1
            if p < 0.001:
                assert shown == "< 0.001"
            else:  # three significant digits, not money's two decimals
                assert float(shown) == pytest.approx(p, rel=5e-3) and len(shown.replace("0.", "").lstrip("0")) <= 3
        assert cell["expected edge difference"] == f"{100 * line['expected_edge_diff']:.3f}%"
        assert cell["wagered per session minus baseline"] == f"{line['wagered_diff_mean']:,.2f}"
        assert cell["of which volume (expected)"] == f"{line['expected_net_diff_mean']:,.2f}"


def test_p_values_and_column_units() -> None:
    from baccarat.results.formatting import column_format, fmt_p_value

    assert [fmt_p_value(p) for p in (0.0004, 0.001, 0.012345, 0.5, 1.0, None, float("nan"))] == [
        "< 0.001",
        "0.001",
        "0.0123",
        "0.5",
        "1",
        "-",
        "-",
    ]
    assert column_format("edge_diff_p_holm")(0.04567) == "0.0457"
    assert column_format("sessions_better")(0.25) == "25.0%"
    assert column_format("risk_of_ruin_diff_ci_low")(-0.125) == "-12.5%"
    assert column_format("sessions")(1200) == "1,200"
    assert column_format("rounds_to_ruin_median")(37) == "37"
    assert column_format("expected_edge_diff")(-0.0106) == "-1.060%"
    assert column_format("luck_diff_ci_high")(1234.5) == "1,234.50"


def test_report_is_self_contained(run_dir) -> None:
    from baccarat.results.charts.export import javascript_bundle

    html = (run_dir / "report.html").read_text(encoding="utf-8")
    page = parse(run_dir / "report.html")
    assert page.images == []
    # The Vega JavaScript once, the script drawing the charts, and one JSON specification per chart; none loaded from elsewhere.
    assert html.count(javascript_bundle()) == 1
    assert all("src" not in attrs for attrs in page.scripts)
    data = [a["id"] for a in page.scripts if a.get("type") == "application/json"]
    specs = [name for name in data if name.startswith("spec-")]
    charts = ["spec-bankroll", "spec-strategies", "spec-ruin", "spec-final", "spec-comparison", "spec-drawdown", "spec-patterns"]
    assert specs == charts
    assert [name for name in data if name not in specs] == ["patterns-data"]  # the figures of the shoes against fair shoes
    assert len(page.scripts) == len(data) + 2
    outside = html.replace(javascript_bundle(), "")
    assert not re.search(r"(src|href)\s*=\s*\"(https?:)?//", outside)
    assert "<link" not in outside and "@import" not in outside and "url(" not in outside
    for name in specs:
        spec = json.loads(html.split(f'id="{name}">')[1].split("</script>")[0])
        assert "url" not in spec.get("data", {}) and all(isinstance(rows, list) for rows in spec["datasets"].values())


def test_report_shows_the_experiment_and_its_setup(run_dir) -> None:
    text = "".join(parse(run_dir / "report.html").text)
    assert "seed: 11" in text and "count: 12" in text  # experiment.yaml
    assert "12 seeded shoes, seed 11" in text
    assert "bankroll 150.00" in text and "table minimum 10.00" in text


@pytest.mark.slow
def test_report_command_rebuilds_the_results_of_a_saved_run(run_dir, capsys) -> None:
    before = (run_dir / "summary.csv").read_text()
    for name in ("sessions.parquet", "summary.csv", "comparison.csv", "report.html"):
        (run_dir / name).unlink()
    assert cli.main(["report", str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert (run_dir / "summary.csv").read_text() == before
    assert (run_dir / "report.html").is_file() and not list(run_dir.glob("*.png"))
    assert "report.html" in out and "flat banker" in out


@pytest.mark.slow
def test_report_command_writes_the_charts_as_png_and_svg_when_asked(run_dir, capsys) -> None:
    from baccarat.api import load

    assert cli.main(["report", str(run_dir), "--png", "--svg", "--quiet"]) == 0
    kinds = ("bankroll", "strategies", "ruin", "final", "comparison", "drawdown")
    for kind in kinds:
        width, height = png_size((run_dir / f"{kind}.png").read_bytes())
        assert width >= 600 and height >= 150, kind
        assert (run_dir / f"{kind}.svg").read_text(encoding="utf-8").lstrip().startswith("<svg"), kind
    assert "charts ->" in capsys.readouterr().out
    load(run_dir)  # the manifest lists the new files: the folder is still a run
    for kind in kinds:
        (run_dir / f"{kind}.png").unlink()
        (run_dir / f"{kind}.svg").unlink()
    assert cli.main(["report", str(run_dir), "--quiet"]) == 0


@pytest.mark.slow
def test_report_command_takes_another_baseline(run_dir, capsys) -> None:
    assert cli.main(["report", str(run_dir), "--baseline", "flat tie", "--quiet"]) == 0
    csv = pl.read_csv(run_dir / "comparison.csv")
    assert csv.get_column("strategy").to_list() == LABELS[:2] and set(csv.get_column("baseline")) == {"flat tie"}
    assert cli.main(["report", str(run_dir), "--quiet"]) == 0


def test_report_command_errors_are_one_line(tmp_path, run_dir, capsys) -> None:
    assert cli.main(["report", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such run folder" in err
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "ledger.parquet is missing" in capsys.readouterr().err
    assert cli.main(["report", str(run_dir), "--baseline", "flat banekr"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean 'flat banker'" in err


@pytest.mark.slow
def test_run_prints_the_summary_table(tmp_path, capsys) -> None:
    path = tmp_path / "exp.yaml"
    import yaml

    path.write_text(yaml.safe_dump(EXPERIMENT), encoding="utf-8")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    out = capsys.readouterr().out
    for label in LABELS:
        assert label in out
    assert "edge ± 95% CI" in out


def test_format_summary_fits_one_screen() -> None:
    ledger = flat_ledger({"flat banker": ["WLLW", "LLLL"], "a very long strategy label indeed, really": ["WW", "TL"]})
    summary = collected_summary(ledger, 100, 10)
    text = format_summary(summary)
    notes = [line for line in text.splitlines() if line.startswith("note: ")]
    lines = [line for line in text.splitlines() if not line.startswith("note: ")]
    assert len(lines) == 6
    assert all(len(line) <= 140 for line in lines + notes)
    assert len(notes) == 3 and notes[0].startswith("note: 2 sessions: ")  # two sessions: small-sample notes, once
    assert "flat banker" in lines[1] and lines[2] == "a very long strategy label indeed, really"  # 41 > 40: own line
    assert "-40.00" in lines[1]  # net of flat banker: 0 in the first session, -40 in the second
    many = collected_summary(flat_ledger({f"s{i}": ["WL"] for i in range(25)}), 100, 10)
    lines = [line for line in format_summary(many).splitlines() if not line.startswith("note: ")]
    assert len(lines) == 1 + 20 + 1 + 2 and "5 more strategies" in lines[21]


def test_format_summary_prints_labels_whole_even_past_its_width() -> None:
    labels = ["martingale[unit=10,side=banker]", "martingale[unit=10,side=player]", "x" * 70]
    summary = collected_summary(flat_ledger({label: ["WL", "LW"] for label in labels}), 100, 10)
    lines = format_summary(summary).splitlines()
    assert lines[1].startswith(labels[0] + "  ") and lines[2].startswith(labels[1] + "  ")
    assert lines[3] == labels[2]  # too long for the column: a line of its own, its figures below
    assert lines[4].startswith(" " * len(labels[0])) and lines[4].split() == lines[1].split()[1:]
    assert all(len(line) <= 140 for line in lines)


@pytest.mark.slow
def test_write_results_works_without_experiment_files(tmp_path) -> None:
    ledger = flat_ledger({"a": ["WLW", "LL"], "b": ["TTT", "WW"]})
    experiment = load_experiment(
        {
            "name": "bare",
            "session": {"bankroll": 100, "table_min": 10},
            "strategies": [{"name": "a", "use": "flat"}, {"name": "b", "use": "flat"}],
        }
    )
    analysis = write_results(tmp_path, run_facts(experiment), replayed(ledger.lazy(), ["a", "b"], Decimal(100), Decimal(10)))
    assert analysis.summary.equals(summarize(ledger, 100, 10))
    page = parse(tmp_path / "report.html")
    assert not page.errors and page.headers["summary"] == ["measure", "a", "b"]
