"""What a saved ledger and session table must say, checked where they are read: one line naming the file and the row.

A run folder's manifest proves that its files are the ones the run wrote;
a manifest can be rewritten too, so ``load``, ``report`` and ``compare``
also check what the files say (:func:`check_ledger`, :func:`check_sessions`):

- no money missing (``stake``, ``net``, ``bankroll`` and every bet's stake and net);
- no stake below zero, and no round losing more than it staked;
- a round's stake and net are the sums of its bets' stakes and nets;
- every strategy of the experiment has rows, and no other strategy;
- every strategy's label is one line of printable text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from baccarat.errors import InputError
from baccarat.results.ledger import READ_ERRORS, read_error_reason

_UNPRINTABLE = r"[\p{Cc}\p{Zl}\p{Zp}]"

Problem = tuple[pl.Expr, Callable[[dict[str, object]], str]]

_LABEL_PROBLEM: Problem = (
    pl.col("strategy").str.contains(_UNPRINTABLE),
    lambda row: f"the strategy's label {row['strategy']!r} holds a control character; a label is one line of printable text",
)
"""Asked of the rows only when a label the file holds is unprintable (the labels are few; the rows are many)."""


def _printable(label: object) -> bool:
    return isinstance(label, str) and label.isprintable()


def _money_problems(schema: pl.Schema, money: Sequence[str], stakes: Sequence[str], nets: Sequence[str]) -> list[Problem]:
    problems: list[Problem] = [(pl.col("strategy").is_null(), lambda row: "the strategy is missing")]
    for name in money:
        problems.append((pl.col(name).is_null(), lambda row, name=name: f"{name} is missing (money is never null)"))
    for name in stakes:
        problems.append((pl.col(name) < 0, lambda row, name=name: f"{name} is {row[name]}; a stake is never negative"))
    if "stake" in schema and "net" in schema:
        problems.append(
            (
                pl.col("net") < -pl.col("stake"),
                lambda row: f"net is {row['net']} on a stake of {row['stake']}; a round loses at most its stake",
            )
        )
    bet_stakes = [name for name in stakes if name != "stake"]
    bet_nets = [name for name in nets if name != "net"]
    if bet_stakes and "stake" in schema:
        problems.append(
            (
                pl.sum_horizontal(bet_stakes) != pl.col("stake"),
                lambda row: f"stake is {row['stake']}, not the sum of its bets' stakes",
            )
        )
    if bet_nets and "net" in schema:
        problems.append((pl.sum_horizontal(bet_nets) != pl.col("net"), lambda row: f"net is {row['net']}, not the sum of its bets' nets"))
    return problems


def _first_bad_row(path: Path, problems: list[Problem], shown: str) -> tuple[str, int, str] | None:
    """Return (file, row from 1, what is wrong) of the first row where a problem holds, else None."""
    flags = [expr.fill_null(False).alias(f"_problem{k}") for k, (expr, _) in enumerate(problems)]
    files = sorted(path.rglob("*.parquet")) if path.is_dir() else [path]
    for file in files:  # one file at a time: the row is counted in the file that holds it
        found = (
            pl.scan_parquet(file)
            .with_row_index("_row")
            .with_columns(flags)
            .filter(pl.any_horizontal([pl.col(f"_problem{k}") for k in range(len(problems))]))
            .head(1)
            .collect()
        )
        if found.height:
            row = found.row(0, named=True)
            k = next(k for k in range(len(problems)) if row[f"_problem{k}"])
            name = shown if file == path else f"{shown}/{file.relative_to(path).as_posix()}"
            return name, int(row["_row"]) + 1, problems[k][1](row)
    return None


def _scan_problem(path: Path, problems: list[Problem], shown: str) -> tuple[str, int, str] | None:
    """Ask the whole dataset once whether any row is at fault; only then look for it file by file."""
    if not problems:
        return None
    bad = pl.any_horizontal([expr.fill_null(False) for expr, _ in problems])
    if not pl.scan_parquet(path).select(bad.any()).collect().item():
        return None
    return _first_bad_row(path, problems, shown)


def check_ledger(path: Path, labels: Sequence[str], shown: str = "ledger.parquet") -> None:
    """Refuse a ledger (a dataset folder or a file) whose rows break what every ledger holds; see the module's list.

    ``labels`` are the strategies of the run's experiment.
    """
    try:
        schema = pl.scan_parquet(path).collect_schema()
        money = [name for name in schema if name in ("stake", "net", "bankroll") or name.startswith(("stake_", "net_"))]
        stakes = [name for name in money if name == "stake" or name.startswith("stake_")]
        nets = [name for name in money if name == "net" or name.startswith("net_")]
        found = _scan_problem(path, _money_problems(schema, money, stakes, nets), shown)
        if found is not None:
            file, row, what = found
            raise InputError(f"row {row:,}: {what}; the run folder is damaged", path=str(path.parent / file))
        present = _labels(path, shown)
    except READ_ERRORS as exc:
        raise InputError(f"cannot be read as Parquet ({read_error_reason(exc)}); the run folder is damaged", path=str(path)) from None
    missing = [label for label in labels if label not in present]
    if missing:
        raise InputError(f"holds no row of strategy {missing[0]!r}, which the run played; the run folder is damaged", path=str(path))
    extra = sorted(str(label) for label in present - set(labels))
    if extra:
        raise InputError(f"holds rows of strategy {extra[0]!r}, which the run did not play; the run folder is damaged", path=str(path))


def _labels(path: Path, shown: str) -> set[object]:
    """Return the strategies a file (or dataset) holds; refuse, at its row, a label that is not printable text."""
    present = set(pl.scan_parquet(path).select(pl.col("strategy").unique()).collect().to_series().to_list())
    if not all(_printable(label) for label in present if label is not None):
        found = _first_bad_row(path, [_LABEL_PROBLEM], shown)
        if found is not None:
            file, row, what = found
            raise InputError(f"row {row:,}: {what}; the run folder is damaged", path=str(path.parent / file))
    return present


SESSION_MONEY = ("final_bankroll", "net", "wagered")
"""Money columns of ``sessions.parquet`` that every session has."""


def check_sessions(path: Path) -> None:
    """Refuse a ``sessions.parquet`` whose rows have money missing, a negative amount wagered or an unprintable label."""
    try:
        schema = pl.scan_parquet(path).collect_schema()
        money = [name for name in SESSION_MONEY if name in schema]
        problems = _money_problems(schema, money, [name for name in ("wagered",) if name in schema], [])
        found = _scan_problem(path, problems, path.name)
        if found is None and "strategy" in schema:
            _labels(path, path.name)
    except READ_ERRORS as exc:
        raise InputError(f"cannot be read as Parquet ({read_error_reason(exc)}); the run folder is damaged", path=str(path)) from None
    if found is not None:
        _, row, what = found
        raise InputError(f"row {row:,}: {what}; the run folder is damaged", path=str(path))


__all__ = ["check_ledger", "check_sessions"]
