"""Writing dealt shoes in the recorded formats, so that reading them back replays the same rounds.

Shoes are written as dealt, burned cards excluded, one shoe at a time (any
number of shoes in bounded memory), to a temporary file renamed into place
when complete: an interrupted or failed write leaves the old file or none,
never half a file (:func:`baccarat.files.outfolder.atomic_file`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from baccarat.files.outfolder import atomic_file
from baccarat.shoes.recorded import check_format
from baccarat.shoes.recorded.rounds_format import COLUMNS, dealing_order
from baccarat.table.cards import labels
from baccarat.table.dealer import OUTCOMES, Round

OUTCOME_LETTER: dict[str, str] = {"banker": "B", "player": "P", "tie": "T"}
"""Outcome name -> its letter in the ``outcomes`` format."""


def shoe_lines(fmt: str, shoe_id: int, rounds: Sequence[Round] | Sequence[int]) -> list[str]:
    """Return the lines that record one shoe in format ``fmt`` (without line ends).

    An ``outcomes`` shoe may be given as outcome codes (as the format is read), the others as rounds.
    """
    if fmt == "cards":
        return [" ".join(" ".join(labels(dealing_order(r.player, r.banker))) for r in rounds)]
    if fmt == "outcomes":
        return ["".join(OUTCOME_LETTER[OUTCOMES[r] if isinstance(r, int) else r.outcome] for r in rounds)]
    return [f"{shoe_id},{' '.join(labels(r.player))},{' '.join(labels(r.banker))}" for r in rounds]


def write_shoes(
    path: str | Path, fmt: str, shoes: Iterable[tuple[int, Sequence[Round] | Sequence[int]]], comment: str | None = None
) -> tuple[int, int]:
    """Write ``(shoe_id, rounds)`` pairs to ``path`` in format ``fmt``; return the numbers of shoes and rounds written.

    ``comment`` opens ``cards`` and ``outcomes`` files as ``#`` lines; a
    ``rounds`` file opens with its CSV header. ``cards`` and ``outcomes``
    files number shoes by line, so their shoe ids must run 1, 2, 3, ...
    """
    check_format(fmt)
    shoes_written = rounds_written = 0
    with atomic_file(path, "the shoe file") as tmp, tmp.open("w", encoding="utf-8", newline="\n") as handle:
        if fmt == "rounds":
            handle.write(",".join(COLUMNS) + "\n")
        elif comment:
            handle.writelines(f"# {text}\n" for text in comment.splitlines())
        for shoe_id, rounds in shoes:
            if fmt != "rounds" and shoe_id != shoes_written + 1:
                raise ValueError(f"the {fmt} format numbers shoes by line: shoe {shoe_id} cannot be line {shoes_written + 1}")
            handle.writelines(line + "\n" for line in shoe_lines(fmt, shoe_id, rounds))
            shoes_written += 1
            rounds_written += len(rounds)
    return shoes_written, rounds_written
