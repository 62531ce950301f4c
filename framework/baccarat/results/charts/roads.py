"""Draw a shoe's roads as a scoreboard PNG with Pillow.

Panels, top to bottom: bead plate (filled discs lettered B, P, T), big road
(hollow rings, a green slash per tie, the count when more than one; pair
dots: Banker pair red at top left, Player pair blue at bottom right), big eye
boy (hollow rings), small road (discs), cockroach pig (slashes), and the
"ask" line: what each derived road would record if Banker or Player won next.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from baccarat.table.roads import DERIVED_ROADS, Roads

if TYPE_CHECKING:
    from PIL import Image

SIDE_COLOUR = {"banker": "#d62728", "player": "#1f5fbf", "tie": "#2ca02c", "red": "#d62728", "blue": "#1f5fbf"}
GRID_COLOUR = "#cccccc"
_LETTER = {"banker": "B", "player": "P", "tie": "T"}
_TITLES = {"big_eye_boy": "Big eye boy", "small_road": "Small road", "cockroach_pig": "Cockroach pig"}

CELL = 0.32
"""Inches of a cell of the scoreboard's grids."""
MAX_WIDTH = 60.0
"""Inches: the widest scoreboard; beyond it the cells shrink."""


def draw_roads(  # noqa: C901 - the scoreboard drawer
    road: Roads, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None, min_columns: int = 20
) -> Image.Image:
    """Return every road of ``road`` drawn as a Pillow image.

    ``pairs``, when known, is ``(player_pair, banker_pair)``: one flag per
    round of the shoe, drawn as dots on the bead plate and the big road.
    """
    from PIL import Image, ImageDraw

    from baccarat.results.charts.drawing import SCALE, font, line_height, one_line, px
    from baccarat.results.charts.model import DPI

    rows = road.rows
    panels = [("Bead plate", road.bead_plate), ("Big road", road.big_road)]
    panels += [(_TITLES[name], road.derived(name)) for name, _ in DERIVED_ROADS]
    cols = max([min_columns] + [max((c.col for c in cells), default=0) + 1 for _, cells in panels])
    inch = DPI * SCALE  # pixels of the drawing per inch
    width = min(max(6.0, CELL * cols + 0.6), MAX_WIDTH) * inch
    margin = 0.1 * inch
    cell = min(CELL * inch, (width - 2 * margin) / cols)
    head, panel_title, foot = line_height(10) + px(10), line_height(9) + px(4), line_height(8) + px(8)
    height = head + len(panels) * (panel_title + rows * cell + px(6)) + foot
    image = Image.new("RGB", (round(width), round(height)), "white")
    draw = ImageDraw.Draw(image)

    def ring(x: float, y: float, radius: float, colour: str, thick: float | None = None) -> None:
        box = [x - radius * cell, y - radius * cell, x + radius * cell, y + radius * cell]
        if thick is None:
            draw.ellipse(box, fill=colour)
        else:
            draw.ellipse(box, outline=colour, width=max(1, round(px(thick))))

    def slash(x: float, y: float, half: float, colour: str, thick: float) -> None:
        draw.line([x - half * cell, y + half * cell, x + half * cell, y - half * cell], fill=colour, width=max(1, round(px(thick))))

    def pair_dots(x: float, y: float, hand: int) -> None:
        if pairs is None:
            return
        player_pair, banker_pair = pairs
        if banker_pair[hand - 1]:
            ring(x - 0.3 * cell, y - 0.3 * cell, 0.1, SIDE_COLOUR["banker"])
        if player_pair[hand - 1]:
            ring(x + 0.3 * cell, y + 0.3 * cell, 0.1, SIDE_COLOUR["player"])

    counts = {o: road.outcomes.count(o) for o in ("banker", "player", "tie")}
    header = f"{title}  " if title else ""
    header += f"{len(road.outcomes)} rounds: B {counts['banker']}, P {counts['player']}, T {counts['tie']}; {len(road.big_road)} decided"
    draw.text((margin, px(6)), one_line(header), font=font(10), fill="black", anchor="la")
    top = head
    marks = font(7)
    for name, cells in panels:
        draw.text((margin, top), name, font=font(9), fill="black", anchor="la")
        top += panel_title
        thin = max(1, round(px(0.5)))
        for c in range(cols + 1):
            draw.line([margin + c * cell, top, margin + c * cell, top + rows * cell], fill=GRID_COLOUR, width=thin)
        for r in range(rows + 1):
            draw.line([margin, top + r * cell, margin + cols * cell, top + r * cell], fill=GRID_COLOUR, width=thin)

        def centre(col: int, row: int, top: float = top) -> tuple[float, float]:
            return margin + (col + 0.5) * cell, top + (row + 0.5) * cell

        for c in cells:
            x, y = centre(c.col, c.row)
            if name == "Bead plate":
                ring(x, y, 0.42, SIDE_COLOUR[c.outcome])
                draw.text((x, y), _LETTER[c.outcome], font=marks, fill="white", anchor="mm", stroke_width=1, stroke_fill="white")
                pair_dots(x, y, c.hand)
            elif name == "Big road":
                ring(x, y, 0.38, SIDE_COLOUR[c.mark], 1.8)
                if c.ties:
                    slash(x, y, 0.35, SIDE_COLOUR["tie"], 1.6)
                    if c.ties > 1:
                        draw.text((x, y), str(c.ties), font=marks, fill=SIDE_COLOUR["tie"], anchor="mm")
                pair_dots(x, y, c.hand)
            elif name == "Big eye boy":
                ring(x, y, 0.34, SIDE_COLOUR[c.mark], 1.6)
            elif name == "Small road":
                ring(x, y, 0.34, SIDE_COLOUR[c.mark])
            else:
                slash(x, y, 0.34, SIDE_COLOUR[c.mark], 2.2)
        if name == "Big road" and not cells and road.leading_ties:
            slash(*centre(0, 0), 0.35, SIDE_COLOUR["tie"], 1.6)
        top += rows * cell + px(6)
    asks = []
    for side in ("banker", "player"):
        colours = road.next_colours(side)
        asks.append(f"if {side} next: " + ", ".join(f"{_TITLES[n].lower()} {colours[n] or '-'}" for n, _ in DERIVED_ROADS))
    draw.text((margin, height - px(4)), "   |   ".join(asks), font=font(8), fill="black", anchor="ld")
    return image.reduce(SCALE) if SCALE > 1 else image


def save_roads_png(road: Roads, path: str | Path, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None) -> Path:
    """Draw the roads of one shoe and write them to ``path`` as PNG; return the path."""
    path = Path(path)
    path.write_bytes(roads_png_bytes(road, title, pairs))
    return path


def roads_png_bytes(road: Roads, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None) -> bytes:
    """Return the roads of one shoe drawn as PNG bytes."""
    from baccarat.results.charts.drawing import encode_png

    return encode_png(draw_roads(road, title, pairs))


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


def run_roads_images(run_dir: str | Path, shoes: Sequence[int]) -> dict[int, bytes]:
    """Return the roads of each of ``shoes`` of a run folder, drawn as PNG bytes, by shoe id."""
    from baccarat.table.roads import roads

    images = {}
    for shoe in shoes:
        outcomes, pairs = run_shoe(run_dir, shoe)
        images[shoe] = roads_png_bytes(roads(outcomes), f"shoe {shoe}", pairs)
    return images
