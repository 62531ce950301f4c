"""Checking an experiment's values where they were written: one message at ``FILE:LINE:COL`` for each mistake.

:class:`Checker` holds the document being checked and the folder relative
paths start from; its methods read one value each (text, a whole number, an
amount of money, a name, a local file, a mapping section) and raise an
:class:`~baccarat.errors.InputError` pointing at the value at fault.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from baccarat.errors import InputError, did_you_mean
from baccarat.files.yamlfile import Document, KeyPath
from baccarat.money import EXACT, MAX_AMOUNT, AmountError, decimal_to_cents, parse_amount
from baccarat.plugin.manager import plugins_folder


def shown(value: Any) -> str:
    """Describe a value in an error message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def is_number(value: Any) -> bool:
    """Tell whether ``value`` is a number (a bool is not)."""
    return isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool)


_NUMBER_TEXT = re.compile(r"[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?")


def number_text(value: Any) -> Any:
    """Return a number written as text (``1e6`` is text in YAML, ``"1000"`` when quoted) as a Decimal; else ``value``."""
    if isinstance(value, str) and any(c.isdigit() for c in value) and _NUMBER_TEXT.fullmatch(value.strip()):
        text = value.strip().replace("_", "")
        try:
            return Decimal(text, EXACT)  # exact (the context only reports an exponent no Decimal can hold)
        except ArithmeticError:
            return Decimal(
                "-Infinity" if text.startswith("-") and "e-" not in text.lower() else "0" if "e-" in text.lower() else "Infinity"
            )
    return value


FORMULA_STARTS = ("=", "+", "-", "@")
"""First characters that make a spreadsheet read a cell of a CSV file as a formula."""


def name_problem(text: str) -> str | None:
    """Return what makes ``text`` unfit for a name or label (shown on one line, written to files), else None.

    Control characters (NUL, line breaks, tabs, escapes), line and paragraph
    separators and lone surrogates (``"\\ud800"`` in YAML, half of a
    character that no file can hold) are refused.
    """
    for char in text:
        kind = unicodedata.category(char)
        if kind == "Cs":
            return f"holds U+{ord(char):04X}, a lone surrogate (half of a character), which no file can hold"
        if kind in ("Zl", "Zp"):
            return f"holds a line break (U+{ord(char):04X}); a name must be one line of text"
        if kind == "Cc":
            shown = {"\0": "a NUL byte", "\n": "a line break", "\r": "a carriage return", "\t": "a tab"}.get(char)
            return f"holds {shown or f'the control character U+{ord(char):04X}'}; a name must be one line of text"
    return None


def label_value(value: Any) -> str:
    """Write a parameter value as it appears in a grid label (``unit=10``, ``line=[1,2,3]``)."""
    if isinstance(value, list | tuple):
        return "[" + ",".join(label_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Checker:
    """Reads the values of one experiment document, checking each where it was written."""

    def __init__(
        self,
        doc: Document,
        folder: Path,
        stem: str,
        overrides: tuple[str, ...],
        plugins_dirs: Iterable[str | Path] = (),
        shoe_file_needed: bool = True,
        strategies_needed: bool = True,
    ) -> None:
        self.doc = doc
        self.folder = folder
        self.stem = stem
        self.overrides = overrides

        self.extra_plugins_dirs = tuple(plugins_folder(d) for d in plugins_dirs)
        self.plugins_dirs: tuple[str, ...] = self.extra_plugins_dirs
        self.trial_shoe: tuple[Any, dict[str, np.ndarray]] | None = None
        self.shoe_file_needed = shoe_file_needed
        self.strategies_needed = strategies_needed
        self.plugins_written: tuple[str, ...] = ()

    def error(self, path: KeyPath, message: str, key: bool = False, cls: type[InputError] = InputError) -> InputError:
        """Return the error to raise for the value (or, with ``key``, the key) at ``path``."""
        return self.doc.error(path, message, key=key, cls=cls)

    def line_of(self, path: KeyPath) -> str:
        """Return where ``path`` was written, as ``line N`` (or the source when it has no line)."""
        where = self.doc.where(path)
        return f"line {where.line}" if where.line is not None else where.source

    def section(self, path: KeyPath, value: Any, allowed: Sequence[str], what: str) -> dict[str, Any]:
        """Return a mapping section (empty when absent), refusing other types, unknown keys and a key left empty."""
        if value is None:
            if self.written(path):
                raise self.error(path, f"{what} is empty; give its keys ({', '.join(allowed)}) or leave it out")
            return {}
        if not isinstance(value, dict):
            raise self.error(path, f"{what} must be a mapping of {', '.join(allowed)}, not {shown(value)}")
        for key in value:
            if key not in allowed:
                raise self.error(
                    path + (key,), f"unknown key {key!r} in {what}{did_you_mean(key, allowed)}; the keys are {', '.join(allowed)}", key=True
                )
        return value

    def written(self, path: KeyPath) -> bool:
        """Tell whether ``path`` was written in the file or an override (an empty ``shoes:`` is written)."""
        return path in self.doc.values and path != ()

    def text(self, path: KeyPath, value: Any, what: str) -> str:
        """Return ``value`` as non-empty text (a number or a date is taken as written), else raise."""
        if isinstance(value, str) and value.strip():
            return value.strip()
        if is_number(value) or isinstance(value, datetime.date):
            return str(value)
        if isinstance(value, str):
            raise self.error(path, f"{what} is empty")
        raise self.error(path, f"{what} must be text, not {shown(value)}" + ("; put it in quotes" if isinstance(value, bool) else ""))

    def check_name(self, path: KeyPath, name: str, what: str, label: bool = False) -> None:
        """Refuse a name that cannot be shown on one line or written to a file; a label a spreadsheet would run."""
        problem = name_problem(name)
        if problem is not None:
            raise self.error(path, f"{what} {name!r} {problem}")
        if label and name.startswith(FORMULA_STARTS):
            raise self.error(
                path,
                f"{what} {name!r} starts with {name[0]!r}, which a spreadsheet opening summary.csv "
                "would take for a formula; start it with a letter or a digit",
            )

    def integer(self, path: KeyPath, value: Any, what: str, minimum: int, maximum: int) -> int:
        """Return ``value`` as a whole number from ``minimum`` to ``maximum``, else raise."""
        given, value = value, number_text(value)
        if isinstance(value, Decimal) and value.is_infinite() and isinstance(given, str):  # "1e99999999999999999999"
            bound = f"at least {minimum}" if value < 0 else f"at most {maximum:,}"
            raise self.error(path, f"{what} must be {bound}, not {given.strip()}")
        if isinstance(value, float | Decimal) and Decimal(value).is_finite():
            if value < minimum:  # the range first: int(Decimal("1e999999999")) would not end
                raise self.error(path, f"{what} must be at least {minimum}, not {value}")
            if value > maximum:
                raise self.error(path, f"{what} must be at most {maximum:,}, not {value}")
            if value == int(value):
                value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(path, f"{what} must be a whole number, not {shown(value)}")
        if value < minimum:
            raise self.error(path, f"{what} must be at least {minimum}, not {value}")
        if value > maximum:
            raise self.error(path, f"{what} must be at most {maximum:,}, not {value}")
        return value

    def cents(self, path: KeyPath, value: Any, what: str, allow_zero: bool = False) -> int:
        """Return an amount of money (``1000``, ``12.50``) as whole cents, positive (or zero with ``allow_zero``)."""
        given, value = value, number_text(value)
        if isinstance(value, Decimal) and value.is_infinite() and isinstance(given, str):  # "1e99999999999999999999"
            raise self.error(path, f"{what} must be at most {MAX_AMOUNT:,}, not {given.strip()}")
        if not is_number(value):
            raise self.error(path, f"{what} must be an amount such as 1000 or 12.50, not {shown(value)}")
        try:
            return decimal_to_cents(parse_amount(value, allow_zero))
        except AmountError as exc:
            reason = exc.reason
        if reason == "not a number":
            raise self.error(path, f"{what} must be an amount such as 1000 or 12.50, not {shown(value)}")
        if reason == "not finite":
            raise self.error(path, f"{what} must be a finite amount, not {value}")
        if reason in ("negative", "zero"):
            raise self.error(path, f"{what} must be {'at least 0' if allow_zero else 'more than 0'}, not {value}")
        if reason == "too large":
            raise self.error(path, f"{what} must be at most {MAX_AMOUNT:,}, not {value}")
        raise self.error(path, f"{what} must be a whole number of cents, not {value}")

    def local_file(self, path: KeyPath, value: Any, what: str) -> Path:
        """Return the regular file ``value`` names, looked for beside the experiment file first, then here."""
        name = self.text(path, value, what)
        given = Path(name).expanduser()
        places = [given] if given.is_absolute() else [self.folder / given, Path.cwd() / given]
        for file in places:
            if file.is_file():
                return file.resolve()
        if places[0].is_dir():
            raise self.error(path, f"{what} {name!r} is a folder, not a file")
        special = next((file for file in places if file.exists()), None)
        if special is not None:  # /dev/zero, a named pipe: read without end, or blocking
            raise self.error(path, f"{what} {name!r} is not a regular file (a device, a pipe or a socket)")
        looked = " or ".join(dict.fromkeys(str(p) for p in places))
        raise self.error(path, f"{what} {name!r} does not exist (looked for {looked})")
