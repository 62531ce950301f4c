"""A recorded file cut in two: its first shoes to train on, the rest held out, each written as a file of the same format.

``baccarat search`` trains its candidates on the first part and replays the
best on the held-out part, which none of them saw: the recorded counterpart
of fresh seeded shoes. The shoes keep their order (the held-out part is the
file's last shoes, as a later period of play) and their rounds exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from baccarat.errors import InputError
from baccarat.shoes.recorded import ShoeScan
from baccarat.shoes.recorded.write import write_shoes
from baccarat.table.rules import Rules


@dataclass(frozen=True)
class ShoeSplit:
    """The two files a recorded file was cut into, and how many shoes each holds."""

    training: Path
    held_out: Path
    training_shoes: int
    held_out_shoes: int


def held_out_count(shoes: int, fraction: float) -> int:
    """The number of a file's ``shoes`` to hold out: ``fraction`` of them rounded, at least one, leaving at least one."""
    return min(shoes - 1, max(1, round(shoes * fraction)))


def split_shoes(path: str | Path, fmt: str, rules: Rules, fraction: float, folder: Path) -> ShoeSplit:
    """Cut the shoe file ``path`` into its first shoes and its last ``fraction`` of them, written into ``folder``.

    Every shoe is read and checked as ``baccarat run`` reads it. A file of a
    single shoe cannot be cut: an :class:`InputError` says so.
    """
    shoes = list(ShoeScan(path, fmt, rules).each_shoe())
    if len(shoes) < 2:
        raise InputError(f"holds {len(shoes)} shoe: a search needs at least two, to hold some out", path=str(path))
    cut = len(shoes) - held_out_count(len(shoes), fraction)
    suffix = Path(path).suffix
    parts = []
    for name, part in (("training", shoes[:cut]), ("held-out", shoes[cut:])):
        target = folder / f"{name}{suffix}"
        numbered = part if fmt == "rounds" else [(k, rounds) for k, (_, rounds) in enumerate(part, start=1)]
        write_shoes(target, fmt, numbered)
        parts.append(target)
    return ShoeSplit(parts[0], parts[1], cut, len(shoes) - cut)


__all__ = ["ShoeSplit", "held_out_count", "split_shoes"]
