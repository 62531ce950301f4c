"""Recorded shoes read from files, in the format the user names (never guessed).

Three formats (docs/game.md, and the README's "Recorded shoes"): ``cards`` (one shoe per line, cards in
dealing order), ``outcomes`` (one shoe per line of B, P, T) and ``rounds``
(CSV, one row per round). Cards are recorded in dealing order, burned cards
excluded; no burn and no cut card are applied: every recorded round is
played by the reference dealer.

Files are read line by line and turned into compact :class:`RoundTable`
chunks as they go, so a file of any size is checked in bounded memory
(:class:`ShoeScan`); :func:`read_shoes` joins the chunks for a run. Every
problem is a :class:`~baccarat.errors.ShoeError` naming file, line and
column; the whole file is checked before anything is run on it.

- :mod:`~baccarat.shoes.recorded.cards_format`: the ``cards`` format: one shoe per line, cards in dealing order.
- :mod:`~baccarat.shoes.recorded.outcomes_format`: the ``outcomes`` format: one shoe per line of winners, ``B``, ``P``
  or ``T``.
- :mod:`~baccarat.shoes.recorded.rounds_format`: the ``rounds`` format: CSV, one row per round, as exported from live
  tables.
- :mod:`~baccarat.shoes.recorded.text`: reading a shoe file as lines of UTF-8 text, with positions for every error.
- :mod:`~baccarat.shoes.recorded.validate`: checks shared by the shoe formats: card tokens, copies per deck, warnings.
- :mod:`~baccarat.shoes.recorded.write`: writing dealt shoes in the recorded formats, so that reading them back
  replays the same rounds.
- :mod:`~baccarat.shoes.recorded.split`: a recorded file cut into its first shoes and the rest held out, for
  ``baccarat search``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from baccarat.errors import ShoeError, did_you_mean
from baccarat.shoes.recorded.cards_format import cards_shoes
from baccarat.shoes.recorded.outcomes_format import outcomes_shoes
from baccarat.shoes.recorded.rounds_format import rounds_shoes
from baccarat.shoes.recorded.text import read_lines
from baccarat.shoes.recorded.validate import Warnings
from baccarat.shoes.rounds import RoundTable
from baccarat.table.dealer import Round
from baccarat.table.rules import Rules

FORMATS: tuple[str, ...] = ("cards", "outcomes", "rounds")
"""Recorded shoe formats, by the name an experiment or a command gives them."""

HAS_CARDS: dict[str, bool] = {"cards": True, "outcomes": False, "rounds": True}
"""Whether a format records the cards (else only the winners, and card-level bets cannot be settled)."""

CHUNK_ROUNDS = 50_000
"""Rounds gathered before they are packed into a table chunk."""


def check_format(fmt: str) -> str:
    """Return ``fmt`` when it names a shoe format; raise :class:`ShoeError` otherwise."""
    if fmt not in FORMATS:
        raise ShoeError(f"unknown shoe format {fmt!r}{did_you_mean(str(fmt), FORMATS)}; the formats are {', '.join(FORMATS)}")
    return fmt


def format_has_cards(fmt: str) -> bool:
    """Tell whether shoes of format ``fmt`` record cards (known before the file is read)."""
    return HAS_CARDS[check_format(fmt)]


@dataclass
class RecordedShoes:
    """Shoes read from a file: the round table and any warnings to show the user."""

    table: RoundTable
    shoes: int
    warnings: list[str] = field(default_factory=list)


class ShoeScan:
    """One pass over a shoe file: round-table chunks, then counts and warnings.

    Iterate :meth:`tables` to the end; ``shoes``, ``rounds`` and ``warnings``
    are complete once it is exhausted. An empty file is an error.
    """

    def __init__(self, path: str | Path, fmt: str, rules: Rules, chunk_rounds: int = CHUNK_ROUNDS) -> None:
        self.path = Path(path)
        self.fmt = check_format(fmt)
        self.rules = rules
        self.chunk_rounds = chunk_rounds
        self.shoes = 0
        self.rounds = 0
        self._warnings = Warnings()

    @property
    def has_cards(self) -> bool:
        """Whether the file records cards."""
        return HAS_CARDS[self.fmt]

    @property
    def warnings(self) -> list[str]:
        """Warnings about the file (trailing cards that cannot complete a round)."""
        return self._warnings.messages

    def each_shoe(self) -> Iterator[tuple[int, list[Round]] | tuple[int, list[int]]]:
        """Yield ``(shoe_id, rounds)`` for each shoe of the file, checked as read (outcome codes for ``outcomes``)."""
        where = str(self.path)
        lines = read_lines(self.path)
        if self.fmt == "cards":
            return cards_shoes(lines, where, self.rules, self._warnings)
        if self.fmt == "outcomes":
            return outcomes_shoes(lines, where, self.rules)
        return rounds_shoes(lines, where, self.rules)

    def tables(self) -> Iterator[RoundTable]:
        """Yield the file's rounds as table chunks of about ``chunk_rounds`` rounds, checking as it reads."""
        pack = RoundTable.from_rounds if self.has_cards else RoundTable.from_outcomes
        pending: list = []
        size = 0
        for shoe_id, rounds in self.each_shoe():
            self.shoes += 1
            self.rounds += len(rounds)
            pending.append((shoe_id, rounds))
            size += len(rounds)
            if size >= self.chunk_rounds:
                yield pack(pending)
                pending, size = [], 0
        if not self.shoes:
            raise ShoeError("holds no shoe: nothing in it records a round", path=str(self.path))
        if not self.rounds:
            raise ShoeError("holds no complete round: every shoe ends before its first round is dealt", path=str(self.path))
        if pending:
            yield pack(pending)


def read_shoes(path: str | Path, fmt: str, rules: Rules) -> RecordedShoes:
    """Read and check every shoe of ``path`` in the named format; return them as one round table."""
    scan = ShoeScan(path, fmt, rules)
    chunks = list(scan.tables())
    return RecordedShoes(chunks[0] if len(chunks) == 1 else _join(chunks), scan.shoes, scan.warnings)


def _join(chunks: list[RoundTable]) -> RoundTable:
    """Join table chunks column by column, releasing each chunk column once copied (peak: the table plus one column)."""
    joined: dict[str, np.ndarray] = {}
    for name in [f.name for f in dataclasses.fields(RoundTable) if f.name != "has_cards"]:
        joined[name] = np.concatenate([getattr(chunk, name) for chunk in chunks])
        for chunk in chunks:
            setattr(chunk, name, None)
    return RoundTable(**joined, has_cards=chunks[0].has_cards)


def read_cards(path: str | Path, rules: Rules) -> RecordedShoes:
    """Read a ``cards`` file (see :func:`read_shoes`)."""
    return read_shoes(path, "cards", rules)


__all__ = ["FORMATS", "HAS_CARDS", "RecordedShoes", "ShoeScan", "check_format", "format_has_cards", "read_cards", "read_shoes"]
