"""Draw a shoe's roads as a scoreboard PNG (matplotlib, Agg, no display needed).

Panels, top to bottom: bead plate (filled discs lettered B, P, T), big road
(hollow rings, a green slash per tie, the count when more than one; pair
dots: Banker pair red at top left, Player pair blue at bottom right), big eye
boy (hollow rings), small road (discs), cockroach pig (slashes), and the
"ask" line: what each derived road would record if Banker or Player won next.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path

from baccarat.table.roads import DERIVED_ROADS, Roads

SIDE_COLOUR = {"banker": "#d62728", "player": "#1f5fbf", "tie": "#2ca02c", "red": "#d62728", "blue": "#1f5fbf"}
_LETTER = {"banker": "B", "player": "P", "tie": "T"}
_TITLES = {"big_eye_boy": "Big eye boy", "small_road": "Small road", "cockroach_pig": "Cockroach pig"}


def _grid(ax, cols: int, rows: int, title: str) -> None:
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks([x - 0.5 for x in range(cols + 1)], minor=True)
    ax.set_yticks([y - 0.5 for y in range(rows + 1)], minor=True)
    ax.grid(which="minor", color="#cccccc", linewidth=0.5)
    ax.tick_params(which="both", length=0, labelbottom=False, labelleft=False)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title, loc="left", fontsize=9)


def _pair_dots(ax, x: float, y: float, hand: int, pairs: tuple[Sequence[bool], Sequence[bool]] | None, size: float) -> None:
    from matplotlib.patches import Circle

    if pairs is None:
        return
    player_pair, banker_pair = pairs
    if banker_pair[hand - 1]:
        ax.add_patch(Circle((x - 0.3, y - 0.3), size, color=SIDE_COLOUR["banker"]))
    if player_pair[hand - 1]:
        ax.add_patch(Circle((x + 0.3, y + 0.3), size, color=SIDE_COLOUR["player"]))


def draw_roads(road: Roads, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None,
               min_columns: int = 20):
    """Return a matplotlib Figure of every road of ``road``.

    ``pairs``, when known, is ``(player_pair, banker_pair)``: one flag per
    round of the shoe, drawn as dots on the bead plate and the big road.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    rows = road.rows
    panels = [("Bead plate", road.bead_plate), ("Big road", road.big_road)]
    panels += [(_TITLES[name], road.derived(name)) for name, _ in DERIVED_ROADS]
    cols = max([min_columns] + [max((c.col for c in cells), default=0) + 1 for _, cells in panels])
    width = min(max(6.0, 0.32 * cols + 0.6), 60.0)
    height = 0.32 * rows * len(panels) + 0.45 * len(panels) + 1.1
    fig = Figure(figsize=(width, height), dpi=100)
    axes = fig.subplots(len(panels), 1)
    for ax, (name, cells) in zip(axes, panels, strict=True):
        _grid(ax, cols, rows, name)
        if name == "Bead plate":
            for c in cells:
                ax.add_patch(Circle((c.col, c.row), 0.42, color=SIDE_COLOUR[c.outcome]))
                ax.text(c.col, c.row, _LETTER[c.outcome], ha="center", va="center", color="white", fontsize=7, weight="bold")
                _pair_dots(ax, c.col, c.row, c.hand, pairs, 0.1)
        elif name == "Big road":
            for c in cells:
                ax.add_patch(Circle((c.col, c.row), 0.38, fill=False, linewidth=1.8, color=SIDE_COLOUR[c.mark]))
                if c.ties:
                    ax.plot([c.col - 0.35, c.col + 0.35], [c.row + 0.35, c.row - 0.35], color=SIDE_COLOUR["tie"], linewidth=1.6)
                    if c.ties > 1:
                        ax.text(c.col, c.row, str(c.ties), ha="center", va="center", color=SIDE_COLOUR["tie"], fontsize=7)
                _pair_dots(ax, c.col, c.row, c.hand, pairs, 0.1)
            if not cells and road.leading_ties:
                ax.plot([-0.35, 0.35], [0.35, -0.35], color=SIDE_COLOUR["tie"], linewidth=1.6)
        elif name == "Big eye boy":
            for c in cells:
                ax.add_patch(Circle((c.col, c.row), 0.34, fill=False, linewidth=1.6, color=SIDE_COLOUR[c.mark]))
        elif name == "Small road":
            for c in cells:
                ax.add_patch(Circle((c.col, c.row), 0.34, color=SIDE_COLOUR[c.mark]))
        else:
            for c in cells:
                ax.plot([c.col - 0.34, c.col + 0.34], [c.row + 0.34, c.row - 0.34], color=SIDE_COLOUR[c.mark], linewidth=2.2)
    asks = []
    for side in ("banker", "player"):
        colours = road.next_colours(side)
        asks.append(f"if {side} next: " + ", ".join(f"{_TITLES[n].lower()} {colours[n] or '-'}" for n, _ in DERIVED_ROADS))
    decided = len(road.big_road)
    counts = {o: road.outcomes.count(o) for o in ("banker", "player", "tie")}
    header = f"{title}  " if title else ""
    header += f"{len(road.outcomes)} rounds: B {counts['banker']}, P {counts['player']}, T {counts['tie']}; {decided} decided"
    fig.suptitle(header, x=0.01, ha="left", fontsize=10)
    fig.text(0.01, 0.005, "   |   ".join(asks), fontsize=8, ha="left", va="bottom")
    fig.subplots_adjust(left=0.01, right=0.99, top=1 - 0.75 / height, bottom=0.4 / height, hspace=0.35)
    return fig


def save_roads_png(road: Roads, path: str | Path, title: str = "",
                   pairs: tuple[Sequence[bool], Sequence[bool]] | None = None) -> Path:
    """Draw the roads of one shoe and write them to ``path`` as PNG; return the path."""
    path = Path(path)
    path.write_bytes(roads_png_bytes(road, title, pairs))
    return path


def roads_png_bytes(road: Roads, title: str = "", pairs: tuple[Sequence[bool], Sequence[bool]] | None = None) -> bytes:
    """Return the roads of one shoe drawn as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = draw_roads(road, title, pairs)
    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def load_shoe(source: str | Path, shoe: int, fmt: str | None = None,
              rules: str = "punto-banco-8") -> tuple[list[str], tuple[list[bool], list[bool]] | None]:
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
        frame = (pl.scan_parquet(rounds_file).filter(pl.col("shoe") == shoe).sort("hand")
                 .select("outcome", "player_pair", "banker_pair").collect())
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
