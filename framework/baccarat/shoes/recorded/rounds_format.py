"""The ``rounds`` format: CSV, one row per round, as exported from live tables.

The header names the columns ``shoe``, ``player`` and ``banker`` (any case,
any order; other columns are ignored). ``shoe`` is the shoe's number (a
whole number from 1); a shoe's rows are together, in dealing order.
``player`` and ``banker`` hold each hand's cards in dealing order, as in the
``cards`` format, separated by spaces (``AS 10h``; commas only inside a
quoted field). Blank lines, rows of empty fields and lines starting with
``#`` are ignored.

Every row is checked against the tableau: a hand that drew where the rules
stand, or stood where they draw, is an error naming the shoe, the round and
the rule broken.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from baccarat.errors import ShoeError, did_you_mean
from baccarat.shoes.recorded.text import token_columns
from baccarat.shoes.recorded.validate import CARD_CODES, CopyCounter, card_token_error
from baccarat.table.cards import hand_total, value_of
from baccarat.table.dealer import Round, banker_draws, play_round, player_draws
from baccarat.table.rules import Rules

COLUMNS: tuple[str, ...] = ("shoe", "player", "banker")
"""The columns a ``rounds`` file must have."""

MAX_SHOE_ID = 2**63 - 1


def split_csv_line(text: str, path: str, line: int) -> list[tuple[str, int]]:
    """Split one CSV line into ``(field, column)`` pairs; double quotes may enclose a field (``""`` is a quote)."""
    fields: list[tuple[str, int]] = []
    position = 0
    length = len(text)
    while True:
        if position < length and text[position] == '"':
            start = position
            chunks: list[str] = []
            position += 1
            while True:
                close = text.find('"', position)
                if close < 0:
                    raise ShoeError("this quoted field has no closing quote", path=path, line=line, column=start + 1)
                chunks.append(text[position:close])
                if close + 1 < length and text[close + 1] == '"':
                    chunks.append('"')
                    position = close + 2
                    continue
                position = close + 1
                break
            fields.append(("".join(chunks), start + 2))
            if position < length and text[position] != ",":
                raise ShoeError(
                    f"unexpected {text[position]!r} after a quoted field; expected a comma", path=path, line=line, column=position + 1
                )
        else:
            comma = text.find(",", position)
            stop = length if comma < 0 else comma
            fields.append((text[position:stop], position + 1))
            position = stop
        if position >= length:
            return fields
        position += 1  # the comma
        if position == length:
            fields.append(("", position + 1))
            return fields


def _header(fields: list[tuple[str, int]], path: str, line: int) -> dict[str, int]:
    names = [name.strip().lower() for name, _ in fields]
    index: dict[str, int] = {}
    for i, (name, (_, column)) in enumerate(zip(names, fields, strict=True)):
        if name in COLUMNS:
            if name in index:
                raise ShoeError(f"the header names the column {name!r} twice", path=path, line=line, column=column)
            index[name] = i
    for name in COLUMNS:
        if name not in index:
            close = [i for i, n in enumerate(names) if n not in COLUMNS and did_you_mean(n, [name])]
            hint = f" (is {names[close[0]]!r} meant to be {name!r}?)" if close else ""
            raise ShoeError(
                f"the header has no column {name!r}{hint}; the first line of a rounds file names the columns {', '.join(COLUMNS)}",
                path=path,
                line=line,
                column=fields[close[0]][1] if close else None,
            )
    return index


def _shoe_id(text: str, column: int, path: str, line: int) -> int:
    value = text.strip()
    if not (value.isascii() and value.isdigit()) or int(value) < 1 or int(value) > MAX_SHOE_ID:
        raise ShoeError(f"invalid shoe number {text!r}; expected a whole number from 1", path=path, line=line, column=column)
    return int(value)


def _hand(who: str, field: str, column: int, path: str, line: int) -> tuple[int, ...]:
    cards = tuple(map(CARD_CODES.get, field.replace(",", " ").split()))
    if None in cards:
        token, offset = next((t, o) for t, o in token_columns(field) if t not in CARD_CODES)
        raise ShoeError(card_token_error(token), path=path, line=line, column=column + offset - 1)
    if not 2 <= len(cards) <= 3:
        raise ShoeError(f"{who}'s hand must hold 2 or 3 cards, not {len(cards)}", path=path, line=line, column=column)
    return cards  # type: ignore[return-value]


def _card_column(field: str, column: int, index: int) -> int:
    """Column of the ``index``-th card of a hand field that starts at ``column``."""
    offsets = [offset for _, offset in token_columns(field)]
    return column + offsets[index] - 1


def _fields(text: str, path: str, line: int) -> list[tuple[str, int]]:
    """Split a row: a compiled path for rows without quotes, :func:`split_csv_line` otherwise."""
    if '"' in text:
        return split_csv_line(text, path, line)
    fields = []
    column = 1
    for value in text.split(","):
        fields.append((value, column))
        column += len(value) + 1
    return fields


def dealing_order(player: tuple[int, ...], banker: tuple[int, ...]) -> list[int]:
    """Return the cards of two recorded hands in the order they left the shoe (P, B, P, B, then thirds)."""
    return [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]


def played_as_recorded(player: tuple[int, ...], banker: tuple[int, ...]) -> Round | None:
    """Play two recorded hands with the reference dealer; return the round, or None when the tableau deals otherwise.

    The recorded cards are dealt in dealing order; the round follows the
    tableau when each hand takes exactly the cards recorded for it.
    """
    dealt = dealing_order(player, banker)
    try:
        rnd = play_round(dealt)
    except IndexError:
        return None
    if len(rnd.player) == len(player) and len(rnd.banker) == len(banker):
        return rnd
    return None


def broken_rule(player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[str, str]:
    """Return ``(hand, rule broken)`` for two hands that break the tableau, named by the dealer's draw decisions."""
    p_total = hand_total(player[:2])
    b_total = hand_total(banker[:2])
    if p_total >= 8 or b_total >= 8:
        natural = f"Player has a natural {p_total}" if p_total >= 8 else f"Banker has a natural {b_total}"
        who = "player" if len(player) == 3 else "banker"
        return who, f"{who.title()} drew a third card, but {natural} and nobody draws"
    if player_draws(p_total) and len(player) == 2:
        return "player", f"Player with {p_total} must draw a third card, but stood"
    if not player_draws(p_total) and len(player) == 3:
        return "player", f"Player stands on {p_total}, but drew a third card"
    third = value_of(player[2]) if len(player) == 3 else None
    when = "when Player stands" if third is None else f"when Player's third card is {third}"
    if banker_draws(b_total, third):
        if len(banker) == 2:
            return "banker", f"Banker with {b_total} must draw {when}, but stood"
    elif len(banker) == 3:
        return "banker", f"Banker stands on {b_total} {when}, but drew a third card"
    raise ValueError("the hands follow the tableau")


def rounds_shoes(lines: Iterable[tuple[int, str]], path: str, rules: Rules) -> Iterator[tuple[int, list[Round]]]:
    """Yield ``(shoe_id, rounds)`` for every shoe of a ``rounds`` file, checking each row against the tableau."""
    columns: dict[str, int] | None = None
    seen: set[int] = set()
    shoe_id = 0
    current = None  # the shoe field's text on the previous row
    rounds: list[Round] = []
    counter = CopyCounter(rules)
    for line, text in lines:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = _fields(text, path, line)
        if all(not value.strip() for value, _ in fields):
            continue  # a row of empty fields, as spreadsheets export after the data
        if columns is None:
            columns = _header(fields, path, line)
            width = len(fields)
            shoe_at, player_at, banker_at = columns["shoe"], columns["player"], columns["banker"]
            continue
        if len(fields) != width:
            column = fields[width][1] if len(fields) > width else len(text.rstrip()) + 1  # the first extra, or where one is missing
            raise ShoeError(f"this row has {len(fields)} field(s) but the header has {width}", path=path, line=line, column=column)
        shoe_text, shoe_column = fields[shoe_at]
        if shoe_text != current:
            row_shoe = _shoe_id(shoe_text, shoe_column, path, line)
            if row_shoe != shoe_id:
                if row_shoe in seen:
                    raise ShoeError(
                        f"shoe {row_shoe} appears again after shoe {shoe_id}; the rows of a shoe must be together",
                        path=path,
                        line=line,
                        column=shoe_column,
                    )
                if rounds:
                    yield shoe_id, rounds
                seen.add(row_shoe)
                shoe_id, rounds, counter = row_shoe, [], CopyCounter(rules)
            current = shoe_text
        player = _hand("Player", *fields[player_at], path, line)
        banker = _hand("Banker", *fields[banker_at], path, line)
        for index, card in enumerate(player + banker):
            message = counter.add(card, shoe_id)
            if message is not None:
                field, column = fields[player_at] if index < len(player) else fields[banker_at]
                raise ShoeError(
                    message, path=path, line=line, column=_card_column(field, column, index if index < len(player) else index - len(player))
                )
        rnd = played_as_recorded(player, banker)
        if rnd is None:
            hand, rule = broken_rule(player, banker)
            raise ShoeError(
                f"shoe {shoe_id}, round {len(rounds) + 1}: {rule}",
                path=path,
                line=line,
                column=fields[player_at if hand == "player" else banker_at][1],
            )
        rounds.append(rnd)
    if rounds:
        yield shoe_id, rounds
