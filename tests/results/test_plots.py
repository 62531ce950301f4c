"""The charts are valid Vega-Lite specifications whose data are the run's statistics, within Altair's row limit at any size."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from helpers.collected import collected
from helpers.handmade import flat_ledger
from helpers.ledger_reference import final_quantiles

from baccarat.errors import InputError
from baccarat.results.charts import plots
from baccarat.results.report.analysis import CHART_KINDS

STRATEGIES = ["flat banker", "martingale", "sits out"]


def ledger():
    return flat_ledger(
        {
            "flat banker": ["WLLTWLWWLW", "LLLWWLWLWW", "WWWWLLLTTW", "LWLWLWLWLW"],
            "martingale": ["WLLLLLLLLL", "LLWWWWLWLW", "WWLLLLLLLL", "TTTTTLLLLL"],
            "sits out": ["----------", "---", "-----", "--"],
        },
        initial=60,
    )


@pytest.fixture(scope="module")
def analysis():
    return collected(ledger(), 60, 10)


def rows(spec: dict) -> list[dict]:
    """Every data row of a specification (its datasets, concatenated)."""
    return [row for data in spec.get("datasets", {}).values() for row in data]


@pytest.mark.slow
def test_every_chart_is_a_valid_specification_of_every_strategy(analysis) -> None:
    charts = analysis.charts()
    assert list(charts) == [k for k in CHART_KINDS if k != "grid"]  # no grid: the names sweep nothing
    for kind, chart in charts.items():
        spec = chart.to_dict()  # validates against the Vega-Lite schema
        names = {row.get("strategy") for row in rows(spec)} - {None}
        expected = set(STRATEGIES) - ({"flat banker"} if kind == "comparison" else set())
        assert names == expected, kind


def test_the_bankroll_chart_draws_the_bands_and_isolates_a_strategy_from_the_legend(analysis) -> None:
    spec = analysis.chart("bankroll").to_dict()
    drawn = pl.DataFrame([r for r in rows(spec) if "strategy" in r]).sort("strategy", "round")
    bands = analysis.bands.sort("strategy", "round")
    assert drawn.get_column("round").to_list() == bands.get_column("round").to_list()
    for column in ("p5", "p25", "p50", "p75", "p95"):
        assert np.allclose(drawn.get_column(column).to_numpy(), bands.get_column(column).to_numpy(), atol=0.005)
    params = {p["name"]: p for p in spec.get("params", []) + [p for layer in spec["layer"] for p in layer.get("params", [])]}
    assert params["pick"]["select"] == {"type": "point", "fields": ["strategy"]} and params["pick"]["bind"] == "legend"
    assert params["zoom"]["select"] == {"type": "interval", "encodings": ["x"]} and params["zoom"]["bind"] == "scales"
    lines = {r["line"]: r["y"] for r in rows(spec) if "line" in r}
    assert lines == {"initial bankroll": 60.0, "ruin (table minimum)": 10.0}


def test_the_survival_chart_is_one_minus_the_ruin_curve_at_every_step(analysis) -> None:
    drawn = pl.DataFrame(rows(analysis.chart("ruin").to_dict()))
    for row in drawn.iter_rows(named=True):
        curve = analysis.ruin.filter((pl.col("strategy") == row["strategy"]) & (pl.col("round") == row["round"]))
        assert row["surviving"] == pytest.approx(1 - curve.get_column("ruined").item())
    # Only the rounds where the curve steps are kept, and the last: the same step curve.
    martingale = analysis.ruin.filter(pl.col("strategy") == "martingale")
    steps = 1 + int((martingale.get_column("ruined").diff().drop_nulls() != 0).sum())
    assert steps <= drawn.filter(pl.col("strategy") == "martingale").height <= steps + 1


def test_final_bankrolls_side_by_side_are_the_quantiles_of_the_sessions(analysis) -> None:
    drawn = {row["strategy"]: row for row in rows(analysis.chart("final").to_dict()) if "strategy" in row}
    for name in STRATEGIES:
        finals = analysis.sessions.filter(pl.col("strategy") == name).get_column("final_bankroll").cast(pl.Float64).to_numpy()
        assert drawn[name]["median"] == pytest.approx(np.median(finals))
        assert drawn[name]["p25"] == pytest.approx(np.percentile(finals, 25))
        assert drawn[name]["p95"] == pytest.approx(np.percentile(finals, 95))
        assert drawn[name]["mean"] == pytest.approx(finals.mean(), abs=0.005)
        assert drawn[name]["sessions"] == len(finals) == 4


def test_the_paired_difference_chart_draws_the_comparison_intervals(analysis) -> None:
    drawn = {row["strategy"]: row for row in rows(analysis.chart("comparison").to_dict()) if "strategy" in row}
    for row in analysis.comparison.iter_rows(named=True):
        for column in ("net_diff_mean", "net_diff_ci_low", "net_diff_ci_high"):
            if row[column] is None:
                assert drawn[row["strategy"]][column] is None
            else:
                assert drawn[row["strategy"]][column] == pytest.approx(row[column], abs=1e-4)


def test_drawdown_is_the_band_of_the_sample_sessions_falls_below_their_own_peaks(analysis) -> None:
    drawn = pl.DataFrame(rows(analysis.chart("drawdown").to_dict()))
    paths = analysis.paths
    assert drawn.select("strategy", "round").is_unique().all()  # one line per strategy, not one per session
    for row in drawn.iter_rows(named=True):
        falls = []
        for _, path in paths.filter(pl.col("strategy") == row["strategy"]).group_by("session"):
            path = path.sort("round")
            bankroll = path.get_column("bankroll").cast(pl.Float64).to_numpy()
            below = bankroll - np.maximum.accumulate(bankroll)
            falls += [below[i] for i, r in enumerate(path.get_column("round")) if r == row["round"]]
        assert row["sessions"] == len(falls) > 0
        assert (row["deepest"], row["shallowest"]) == pytest.approx((min(falls), max(falls)), abs=0.005)
    assert (drawn.get_column("deepest") <= drawn.get_column("shallowest")).all() and (drawn.get_column("shallowest") <= 0).all()


@pytest.mark.parametrize("count", [3, 12, 20, 21, 30, 100])
def test_no_two_strategies_share_a_colour_and_dash_on_a_chart_of_lines(count: int) -> None:
    from baccarat.results.charts import pieces

    names = [f"s{i}" for i in range(count)]
    colours = 10 if count <= 10 else 20  # the colours of tableau10, of tableau20
    dashes = pieces.strategy_dashes(names)
    styles = {(i % colours, tuple(dash)) for i, dash in enumerate(dashes)}
    assert len(styles) == count and pieces.alike(names) == []
    encoding = pieces.line_style(names)
    assert ("strokeDash" in encoding) == (count > 20)
    if count > 20:  # one legend: colour and dash of each strategy together
        dash = encoding["strokeDash"].to_dict()
        assert dash["scale"]["range"] == dashes and dash["legend"] == encoding["color"].to_dict()["legend"]
    # Past 100 strategies the styles repeat, and say which are alike.
    assert pieces.alike([f"s{i}" for i in range(102)]) == [["s0", "s100"], ["s1", "s101"]]


def test_an_unknown_chart_is_a_clear_error(analysis) -> None:
    with pytest.raises(InputError, match=r"unknown chart 'ruins' \(did you mean 'ruin'\?\)"):
        analysis.chart("ruins")
    with pytest.raises(InputError, match="this run has no grid chart"):
        analysis.chart("grid")
    solo = collected(flat_ledger({"solo": ["WLW", "LLW"]}), 100, 10)
    assert "comparison" not in solo.charts()


def synthetic(strategies: int, rounds: int, sessions: int = 100_000) -> dict[str, pl.DataFrame]:
    """Aggregates of a run of ``sessions`` sessions of ``rounds`` rounds for ``strategies`` strategies, as the run computes them."""
    names = [f"martingale[unit={5 * (1 + i % 4)},side={('banker', 'player')[i // 4 % 2]},cap={i // 8}]" for i in range(strategies)]
    rng = np.random.default_rng(7)
    points = min(rounds, 400)
    grid = np.unique(np.linspace(1, rounds, points).round().astype(np.int64))
    base = 1000 + np.cumsum(rng.normal(0, 5, size=(strategies, grid.size)), axis=1)
    bands = pl.concat(
        pl.DataFrame({"strategy": name, "round": grid, **{f"p{q}": base[i] + (q - 50) * 4.0 for q in (5, 25, 50, 75, 95)}})
        for i, name in enumerate(names)
    )
    paths = pl.concat(
        pl.DataFrame(
            {"strategy": name, "session": s, "round": np.arange(rounds + 1), "bankroll": 1000 + np.cumsum(rng.normal(0, 10, rounds + 1))}
        )
        for name in names
        for s in range(1, 6)
    )
    ruin = pl.concat(
        pl.DataFrame(
            {"strategy": name, "round": np.arange(rounds + 1), "ruined": np.minimum(1.0, np.arange(rounds + 1) / (sessions / (i + 1)))}
        )
        for i, name in enumerate(names)
    )
    finals = rng.normal(1000, 200, size=strategies * 2000)
    sessions_frame = pl.DataFrame({"strategy": np.repeat(names, 2000), "final_bankroll": finals})
    summary = pl.DataFrame({"strategy": names, "risk_of_ruin": rng.random(strategies), "edge": rng.random(strategies) / 100})
    comparison = pl.DataFrame(
        {"strategy": names[1:], "baseline": names[0], "net_diff_mean": rng.normal(0, 1, strategies - 1)}
    ).with_columns((pl.col("net_diff_mean") - 1).alias("net_diff_ci_low"), (pl.col("net_diff_mean") + 1).alias("net_diff_ci_high"))
    return {"bands": bands, "paths": paths, "ruin": ruin, "sessions": sessions_frame, "summary": summary, "comparison": comparison}


@pytest.mark.slow
@pytest.mark.parametrize(("strategies", "rounds"), [(1, 80), (12, 5000), (30, 2000)])
def test_no_chart_reaches_altair_s_row_limit_at_any_size(strategies: int, rounds: int) -> None:
    data = synthetic(strategies, rounds)
    charts = [
        plots.bankroll_chart(data["bands"], 1000, 10),
        plots.small_multiples(data["bands"], data["paths"], 1000, 10),
        plots.ruin_chart(data["ruin"]),
        plots.final_chart(final_quantiles(data["sessions"]), 1000, 10),
        plots.drawdown_chart(data["paths"]),
    ]
    if strategies > 1:
        charts.append(plots.comparison_chart(data["comparison"]))
        charts.append(plots.grid_chart(data["summary"]))
    for chart in charts:
        spec = chart.to_dict()  # Altair refuses more than 5,000 rows: it would raise here
        assert all(len(rows) <= plots.ROW_BUDGET for rows in spec["datasets"].values())
        drawn = {row["strategy"] for row in rows(spec) if "strategy" in row}
        assert len(drawn) == strategies - (1 if "net_diff_mean" in str(spec) else 0) or "measure" in str(spec)


def test_the_grid_heatmap_reads_the_swept_parameters_and_offers_every_measure() -> None:
    summary = pl.DataFrame(
        {
            "strategy": [f"martingale[unit={u},cap={c}]" for u in (5, 10) for c in (2, 4, 8)] + ["flat"],
            "risk_of_ruin": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0],
            "edge": [0.01] * 7,
        }
    )
    params = plots.grid_params(summary.get_column("strategy").to_list())
    assert params.columns == ["strategy", "grid", "unit", "cap"] and params.height == 6
    spec = plots.grid_chart(summary).to_dict()
    cells = [r for r in rows(spec) if r["measure"] == "risk of ruin"]
    assert {(r["unit"], r["cap"], r["value"]) for r in cells} == {
        ("5", "2", 0.1),
        ("5", "4", 0.2),
        ("5", "8", 0.3),
        ("10", "2", 0.4),
        ("10", "4", 0.5),
        ("10", "8", 0.6),
    }
    select = next(p for p in spec["spec"]["layer"][0].get("params", []) + spec.get("params", []) if p["name"] == "measure")
    assert select["bind"]["options"] == ["risk of ruin", "edge"]  # in words, and the title names the one shown
    assert spec["title"] == {"text": {"expr": 'measure + " over unit and cap"'}}
    assert plots.grid_params(["flat", "martingale[unit=5]", "martingale[unit=10]"]) is None  # one swept parameter: no heatmap


@pytest.mark.slow
def test_the_report_of_100000_sessions_of_12_strategies_stays_under_3_mb(tmp_path) -> None:
    from helpers.large_run import large_analysis, small_run

    from baccarat.experiment.report_facts import run_facts
    from baccarat.results.report.html import render_html

    run = small_run(tmp_path / "run")
    analysis = large_analysis(run, 100_000)
    assert analysis.sessions.height == 12 * 100_000 and analysis.bands.get_column("round").max() > 400
    page = render_html(analysis, run_facts(run.experiment), analysis.charts(), "name: large\n").encode("utf-8")
    assert len(page) < 3_000_000, f"report.html is {len(page) / 1e6:.2f} MB"
    final = next(c for c in analysis.chart("final").to_dict()["datasets"].values() if "sessions" in c[0])
    assert {row["sessions"] for row in final} == {100_000}


def test_the_grid_heatmap_orders_numbers_by_size() -> None:
    summary = pl.DataFrame({"strategy": [f"m[unit={u},cap={c}]" for u in (100, 25, 5) for c in ("b", "a")], "risk_of_ruin": [0.1] * 6})
    spec = plots.grid_chart(summary).to_dict()
    encoding = spec["spec"]["layer"][0]["encoding"] if "encoding" in spec["spec"]["layer"][0] else spec["spec"]["encoding"]
    assert encoding["x"]["sort"] == ["5", "25", "100"] and encoding["y"]["sort"] == ["a", "b"]


def test_money_climbing_decades_above_the_start_is_drawn_on_a_symlog_scale() -> None:
    rounds = np.arange(1, 101)
    modest = pl.DataFrame({"strategy": "a", "round": rounds, **{f"p{q}": 100.0 + q for q in (5, 25, 50, 75, 95)}})
    steep = modest.with_columns(pl.Series("p95", 100.0 * rounds))  # up to 100 times the initial bankroll

    def scale(bands: pl.DataFrame) -> dict:
        layer = plots.bankroll_chart(bands, 100, 10).to_dict()["layer"][0]
        return layer["encoding"]["y"].get("scale", {})

    assert scale(modest).get("type") is None
    assert scale(steep) == {"type": "symlog", "constant": 10.0}


def test_the_exact_chart_draws_the_exact_ruin_curve_and_median_beside_the_simulated_ones(analysis) -> None:
    from types import SimpleNamespace

    curve = np.array([0.0, 0.0, 0.1, 0.1, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.6])
    bands = np.column_stack([np.arange(11), *(np.full(11, 60.0 + k) for k in range(5))])
    exact = [SimpleNamespace(strategy="martingale", ruin_curve=curve, bands=bands)]
    spec = plots.exact_chart(analysis.ruin, analysis.bands, exact).to_dict()
    drawn = [row for rows in spec["datasets"].values() for row in rows]
    exact_ruin = {row["round"]: row["ruined"] for row in drawn if row.get("source") == "exact" and "ruined" in row}
    for round_, value in exact_ruin.items():
        assert value == pytest.approx(curve[round_])
    assert sorted(exact_ruin) == [0, 2, 4, 7, 10]  # the steps, and the last round
    medians = {row["round"]: row["bankroll"] for row in drawn if row.get("source") == "exact" and "bankroll" in row}
    assert medians == {r: 62.0 for r in range(11)}
    simulated = [row for row in drawn if row.get("source") == "simulated" and "ruined" in row]
    assert {row["strategy"] for row in simulated} == {"martingale"}


def test_the_roads_chart_holds_every_mark_of_every_road() -> None:
    from baccarat.results.charts.scoreboard import roads_chart
    from baccarat.table.roads import roads

    road = roads(list("BBPBTTPPPBBBPT"))
    spec = roads_chart(road, "shoe 1").to_dict()
    cells = [row for rows in spec["datasets"].values() for row in rows]
    by_road = {}
    for row in cells:
        by_road.setdefault(row["road"], []).append((row["col"], row["row"], row["mark"]))
    assert sorted(by_road["Bead plate"]) == sorted((c.col, c.row, c.outcome) for c in road.bead_plate)
    assert sorted(by_road["Big road"]) == sorted((c.col, c.row, c.mark) for c in road.big_road)
    assert sorted(by_road.get("Big eye boy", [])) == sorted((c.col, c.row, c.mark) for c in road.derived("big_eye_boy"))
    ties = {(row["col"], row["row"]): row["ties"] for row in cells if row["road"] == "Big road"}
    assert sum(ties.values()) == road.outcomes.count("tie") - road.leading_ties


def test_chart_titles_name_their_measure_and_give_no_instruction(analysis) -> None:
    # PNG and SVG files carry the title alone: nothing there can be clicked, hovered or chosen.
    names = {
        "bankroll": "bankroll",
        "strategies": "median",
        "ruin": "not ruined",
        "final": "Final bankroll",
        "comparison": "Net per session minus the baseline's",
        "drawdown": "below its own peak",
    }
    summary = pl.DataFrame({"strategy": [f"m[unit={u},cap={c}]" for u in (5, 10) for c in (2, 4)], "risk_of_ruin": [0.1] * 4})
    charts = {**analysis.charts(), "grid": plots.grid_chart(summary)}
    for count in (3, 30):
        charts[f"bankroll-{count}"] = plots.bankroll_chart(synthetic(count, 50)["bands"], 1000, 10)
        names[f"bankroll-{count}"] = "bankroll"
    for kind, chart in charts.items():
        title = chart.to_dict()["title"]
        text = title if isinstance(title, str) else str(title.get("text"))
        assert not re.search(r"click|choose|hover|drag|pick|legend for|below the chart", text, re.I), (kind, text)
        if kind == "grid":
            assert title["text"] == {"expr": 'measure + " over unit and cap"'}  # the measure chosen, in words
        else:
            assert names[kind] in text, (kind, text)


def test_the_exact_chart_says_which_strategies_share_a_colour_past_20(analysis) -> None:
    # Its dash tells exact from simulated, so colours alone tell the strategies apart: past 20 they repeat, and it says which.
    from types import SimpleNamespace

    names = [f"s{i}" for i in range(22)]
    ruin = pl.DataFrame({"strategy": np.repeat(names, 3), "round": np.tile([0, 1, 2], 22), "ruined": 0.0})
    exact = [SimpleNamespace(strategy=name, ruin_curve=np.zeros(3), bands=None) for name in names]
    title = plots.exact_chart(ruin, None, exact).to_dict()["title"]
    assert title["subtitle"] == ["Alike in colour: s0 and s20; s1 and s21"]
    twenty = ruin.filter(pl.col("strategy").is_in(names[:20]))
    assert not plots.exact_chart(twenty, None, exact[:20]).to_dict()["title"].get("subtitle")  # 20 colours: none alike


def test_the_search_chart_draws_each_kept_candidate_with_its_fresh_interval_and_the_expectation() -> None:
    """One point per candidate that has a fresh-shoe edge, from both searches, its bar, and the exact expectation's line."""
    from baccarat.results.charts.in_out_sample import search_chart

    def row(name: str, edge: float | None, expected: float | None = None) -> dict:
        low = None if edge is None else edge - 0.01
        high = None if edge is None else edge + 0.01
        fresh = {"out_of_sample": edge, "out_of_sample_low": low, "out_of_sample_high": high}
        return {"strategy": name, "in_sample": 0.02, **fresh, "out_of_sample_expected": expected}

    best = [row("a", -0.011, -0.0106), row("b", -0.02), row("unreplayed", None)]
    spec = search_chart(best, [row("coin 1", -0.012)], "title").to_dict(validate=True)
    rows = [r for values in spec["datasets"].values() for r in values]
    points = {r["strategy"]: r for r in rows if "strategy" in r}
    assert set(points) == {"a", "b", "coin 1"}
    assert points["coin 1"]["search"] == "coins (house edge)" and points["a"]["search"] == "candidates"
    assert (points["b"]["fresh_low"], points["b"]["fresh_high"]) == pytest.approx((-0.03, -0.01))
    assert [r["y"] for r in rows if set(r) == {"y"}] == [-0.0106]
    assert spec["title"] == "title"
