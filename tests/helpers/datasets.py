"""The bytes of a run's Parquet datasets (``rounds.parquet/``, ``ledger.parquet/``), for tests that compare runs."""

from __future__ import annotations

from pathlib import Path


def dataset_bytes(path: Path) -> list[tuple[str, bytes]]:
    """Return ``(file name, bytes)`` of every part of a dataset folder, in name order (a single file: itself)."""
    if path.is_file():
        return [(path.name, path.read_bytes())]
    return [(part.name, part.read_bytes()) for part in sorted(path.iterdir())]


def first_part(path: Path) -> Path:
    """Return the first part of a dataset folder (a single file: itself)."""
    return path if path.is_file() else sorted(path.iterdir())[0]
