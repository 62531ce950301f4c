"""A shoe's roads as a scoreboard chart (Vega-Lite, made with Vega-Altair): in the report, or as PNG or SVG.

Panels, top to bottom: bead plate (filled discs lettered B, P, T), big road
(hollow rings, a green slash per tie, the count when more than one; pair
dots: Banker pair red at top left, Player pair blue at bottom right), big eye
boy (hollow rings), small road (discs), cockroach pig (slashes); the subtitle
gives the "ask": what each derived road would record if Banker or Player won next.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import altair as alt
import polars as pl

from baccarat.results.charts.pieces import unchecked
from baccarat.table.roads import DERIVED_ROADS, Roads

SIDE_COLOUR = {"banker": "#d62728", "player": "#1f5fbf", "tie": "#2ca02c", "red": "#d62728", "blue": "#1f5fbf"}
GRID_COLOUR = "#cccccc"
_LETTER = {"banker": "B", "player": "P", "tie": "T"}
_TITLES = {"big_eye_boy": "Big eye boy", "small_road": "Small road", "cockroach_pig": "Cockroach pig"}

CELL = 18
"""Pixels of a cell of the scoreboard's grids."""
MAX_WIDTH = 1150
"""Pixels: the widest scoreboard; beyond it the cells shrink."""

SLASH = "M -0.8 0.8 L 0.8 -0.8"
"""The cockroach pig's mark and the big road's tie: a slash (an SVG path in a unit square)."""


def _cells(road: Roads, pairs: tuple[Sequence[bool], Sequence[bool]] | None) -> pl.DataFrame:
    """Every mark of every road as one row: ``road``, ``col``, ``row``, ``mark``, ``letter``, ``hand``, ``ties``, pair flags."""
    player_pair, banker_pair = pairs if pairs is not None else ((), ())
    rows = []

    def flags(hand: int) -> dict[str, bool]:
        return {
            "banker_pair": bool(banker_pair[hand - 1]) if 0 < hand <= len(banker_pair) else False,
            "player_pair": bool(player_pair[hand - 1]) if 0 < hand <= len(player_pair) else False,
        }

    for c in road.bead_plate:
        rows.append(
            {
                "road": "Bead plate",
                "col": c.col,
                "row": c.row,
                "mark": c.outcome,
                "letter": _LETTER[c.outcome],
                "hand": c.hand,
                "ties": 0,
                **flags(c.hand),
            }
        )
    for c in road.big_road:
        rows.append(
            {"road": "Big road", "col": c.col, "row": c.row, "mark": c.mark, "letter": "", "hand": c.hand, "ties": c.ties, **flags(c.hand)}
        )
    if not road.big_road and road.leading_ties:
        rows.append({"road": "Big road", "col": 0, "row": 0, "mark": "tie", "letter": "", "hand": 0, "ties": road.leading_ties, **flags(0)})
    for name, _ in DERIVED_ROADS:
        for c in road.derived(name):
            rows.append(
                {"road": _TITLES[name], "col": c.col, "row": c.row, "mark": c.mark, "letter": "", "hand": c.hand, "ties": 0, **flags(0)}
            )
    schema = {
        "road": pl.String,
        "col": pl.Int64,
        "row": pl.Int64,
        "mark": pl.String,
        "letter": pl.String,
        "hand": pl.Int64,
        "ties": pl.Int64,
    }
    schema |= {"banker_pair": pl.Boolean, "player_pair": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


@unchecked
def roads_chart(
    road: Roads, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None, min_columns: int = 20
) -> alt.VConcatChart:
    """Return every road of ``road`` as one scoreboard chart, a panel per road.

    ``pairs``, when known, is ``(player_pair, banker_pair)``: one flag per
    round of the shoe, drawn as dots on the bead plate and the big road.
    """
    data = _cells(road, pairs)
    rows = road.rows
    cols = max(min_columns, int(data.get_column("col").max() or 0) + 1 if data.height else 0)
    cell = min(CELL, MAX_WIDTH // cols)
    colour = alt.Color("mark:N", scale=alt.Scale(domain=list(SIDE_COLOUR), range=list(SIDE_COLOUR.values())), legend=None)
    grid = alt.Axis(grid=True, ticks=False, labels=False, title=None, domain=False, bandPosition=0, gridColor=GRID_COLOUR)
    x = alt.X("col:O", scale=alt.Scale(domain=list(range(cols)), paddingInner=0, paddingOuter=0), axis=grid)
    y = alt.Y("row:O", scale=alt.Scale(domain=list(range(rows)), paddingInner=0, paddingOuter=0), axis=grid)
    tips = [alt.Tooltip("road:N"), alt.Tooltip("hand:Q"), alt.Tooltip("mark:N"), alt.Tooltip("ties:Q")]
    size = (cell * 0.8) ** 2
    panels = []
    for name in ("Bead plate", "Big road", *(_TITLES[n] for n, _ in DERIVED_ROADS)):
        base = alt.Chart(data).transform_filter(alt.datum.road == name).encode(x=x, y=y, tooltip=tips)
        if name == "Bead plate":
            layers = [
                base.mark_circle(size=size, opacity=1).encode(color=colour),
                base.mark_text(color="white", fontWeight="bold", fontSize=cell * 0.5).encode(text=alt.Text("letter:N")),
            ]
        elif name == "Big road":
            ties = base.transform_filter(alt.datum.ties > 0)
            layers = [
                base.transform_filter(alt.datum.mark != "tie")
                .mark_point(size=size * 0.85, filled=False, strokeWidth=2, opacity=1)
                .encode(color=colour),
                ties.mark_point(shape=SLASH, size=size * 0.6, strokeWidth=2, color=SIDE_COLOUR["tie"], opacity=1),
                ties.transform_filter(alt.datum.ties > 1)
                .mark_text(color=SIDE_COLOUR["tie"], fontSize=cell * 0.45, dx=cell * 0.3, dy=-cell * 0.3)
                .encode(text=alt.Text("ties:Q")),
            ]
        elif name == "Big eye boy":
            layers = [base.mark_point(size=size * 0.7, filled=False, strokeWidth=1.6, opacity=1).encode(color=colour)]
        elif name == "Small road":
            layers = [base.mark_circle(size=size * 0.7, opacity=1).encode(color=colour)]
        else:
            layers = [base.mark_point(shape=SLASH, size=size * 0.7, strokeWidth=2.2, opacity=1).encode(color=colour)]
        if name in ("Bead plate", "Big road") and pairs is not None:
            layers += [
                base.transform_filter(alt.datum.banker_pair).mark_circle(
                    size=size * 0.06, color=SIDE_COLOUR["banker"], opacity=1, xOffset=-cell * 0.3, yOffset=-cell * 0.3
                ),
                base.transform_filter(alt.datum.player_pair).mark_circle(
                    size=size * 0.06, color=SIDE_COLOUR["player"], opacity=1, xOffset=cell * 0.3, yOffset=cell * 0.3
                ),
            ]
        panels.append(
            alt.layer(*layers).properties(title=alt.TitleParams(name, anchor="start", fontSize=11), width=cols * cell, height=rows * cell)
        )
    counts = {o: road.outcomes.count(o) for o in ("banker", "player", "tie")}
    header = (f"{title}  " if title else "") + (
        f"{len(road.outcomes)} rounds: B {counts['banker']}, P {counts['player']}, T {counts['tie']}; {len(road.big_road)} decided"
    )
    asks = []
    for side in ("banker", "player"):
        colours = road.next_colours(side)
        asks.append(f"if {side} next: " + ", ".join(f"{_TITLES[n].lower()} {colours[n] or '-'}" for n, _ in DERIVED_ROADS))
    return (
        alt.vconcat(*panels, spacing=8)
        .properties(title=alt.TitleParams(header, subtitle=asks, anchor="start"))
        .configure_view(stroke=GRID_COLOUR)
    )


def save_roads(road: Roads, path: str | Path, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None) -> Path:
    """Draw the roads of one shoe and write them to ``path``: SVG when its name ends in ``.svg``, else PNG; return the path."""
    from baccarat.results.charts.export import chart_bytes

    path = Path(path)
    path.write_bytes(chart_bytes(roads_chart(road, title, pairs), "svg" if path.suffix.lower() == ".svg" else "png"))
    return path


def load_shoe(
    source: str | Path, shoe: int, fmt: str | None = None, rules: str = "punto-banco-8"
) -> tuple[list[str], tuple[list[bool], list[bool]] | None]:
    """Return ``(outcomes, pairs)`` of shoe ``shoe`` from a run folder or a recorded shoe file.

    ``pairs`` is ``(player_pair, banker_pair)`` per round, or None when the
    shoe has no cards.
    """
    from baccarat.errors import InputError

    path = Path(source)
    if path.is_dir():
        return run_shoe(path, shoe)
    if not path.exists():
        raise InputError(f"no such file or folder: {path}")
    if fmt is None:
        raise InputError(f"{path} is a shoe file: name its format with --format (cards, outcomes or rounds)")
    from baccarat.shoes.recorded import read_shoes
    from baccarat.table.dealer import OUTCOMES
    from baccarat.table.rules import load_rules

    recorded = read_shoes(path, fmt, load_rules(rules))
    for warning in recorded.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    table = recorded.table
    rows = (table.shoe == shoe).nonzero()[0]
    if len(rows) == 0:
        raise InputError(f"{path} holds shoes 1 to {recorded.shoes}; there is no shoe {shoe}")
    outcomes = [OUTCOMES[c] for c in table.outcome[rows].tolist()]
    pairs = (table.player_pair[rows].tolist(), table.banker_pair[rows].tolist()) if table.has_cards else None
    return outcomes, pairs


def run_shoe(path: str | Path, shoe: int) -> tuple[list[str], tuple[list[bool], list[bool]] | None]:
    """Return ``(outcomes, pairs)`` of shoe ``shoe`` from the ``rounds.parquet`` of run folder ``path``."""
    import polars as pl

    from baccarat.errors import InputError

    rounds_file = Path(path) / "rounds.parquet"
    if not rounds_file.exists():
        raise InputError(f"{path} is not a run folder: it has no rounds.parquet")
    try:
        frame = (
            pl.scan_parquet(rounds_file)
            .filter(pl.col("shoe") == shoe)
            .sort("hand")
            .select("outcome", "player_pair", "banker_pair")
            .collect()
        )
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as exc:
        from baccarat.results.ledger import read_error_reason

        raise InputError(f"cannot read {rounds_file}: {read_error_reason(exc)}") from None
    if frame.height == 0:
        last = pl.scan_parquet(rounds_file).select(pl.col("shoe").max()).collect().item()
        raise InputError(f"{rounds_file} holds shoes 1 to {last}; there is no shoe {shoe}")
    outcomes = [str(o) for o in frame["outcome"].to_list()]
    if frame["player_pair"].null_count():
        return outcomes, None
    return outcomes, (frame["player_pair"].to_list(), frame["banker_pair"].to_list())


def run_roads_charts(run_dir: str | Path, shoes: Sequence[int]) -> dict[int, alt.VConcatChart]:
    """Return the roads of each of ``shoes`` of a run folder as charts, by shoe id."""
    from baccarat.table.roads import roads

    charts = {}
    for shoe in shoes:
        outcomes, pairs = run_shoe(run_dir, shoe)
        charts[shoe] = roads_chart(roads(outcomes), f"shoe {shoe}", pairs)
    return charts
