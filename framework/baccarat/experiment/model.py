"""Experiment files: YAML in, a validated and resolved :class:`Experiment` out.

Every mistake is reported as one sentence at ``FILE:LINE:COL`` of the key or
value at fault, with a "did you mean" where a close name exists; nothing is
run and nothing is written. Safe YAML only (see :mod:`baccarat.files.yamlfile`).

``--set key.path=value`` overrides are applied to the file's data before it
is checked, so a bad override is reported against the override itself.
A strategy entry may hold a ``grid:`` of parameter lists: it becomes one
strategy per combination, labelled ``NAME[key=value,...]``. ``shoes.seed``
may be a list: the experiment runs once per seed (see :mod:`baccarat.execution.runner`).
Relative file paths (recorded shoes, rules files) are looked up in the
experiment file's folder first, then in the current folder.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from baccarat.engine.reference import MAX_BANKROLL, SessionConfig
from baccarat.errors import InputError, ParameterError, RulesError, StrategyError, did_you_mean
from baccarat.files.yamlfile import Document, KeyPath, Where, parse_yaml, read_yaml, show_path
from baccarat.money import EXACT, is_whole, scaled
from baccarat.plugin.strategy import MAX_AMOUNT, cents_to_decimal
from baccarat.shoes.recorded import format_has_cards
from baccarat.table.rules import RULE_FIELDS, Rules, preset, preset_names, rules_from_mapping

TOP_KEYS: tuple[str, ...] = ("name", "rules", "shoes", "session", "strategies", "plugins_dir", "exact", "report")
SHOE_KEYS: tuple[str, ...] = ("source", "seed", "count", "path", "format")
SESSION_KEYS: tuple[str, ...] = ("bankroll", "shoes_per_session", "table_min", "table_max")
STRATEGY_KEYS: tuple[str, ...] = ("name", "use", "params", "grid")
SOURCES: tuple[str, ...] = ("seeded", "recorded")
DEFAULT_RULES = "punto-banco-8"
DEFAULT_COUNT = 1000
DEFAULT_SESSION: dict[str, Any] = {"bankroll": 1000, "shoes_per_session": 1, "table_min": 10, "table_max": 1000}
MAX_SEED = 2**63 - 1
MAX_SHOES = 100_000_000
"""Most seeded shoes an experiment may deal (per seed), and most shoes a session may span."""


@dataclasses.dataclass(frozen=True)
class StrategyEntry:
    """One strategy of an experiment: its ledger label, registered name and full parameters."""

    name: str
    use: str
    params: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Experiment:
    """A resolved experiment: rules, shoes, sessions and strategies, every value checked."""

    name: str
    rules: Rules
    shoes: dict[str, Any]
    session: SessionConfig
    strategies: tuple[StrategyEntry, ...]
    source: dict[str, Any]
    path: str = "<experiment>"
    seeds: tuple[int, ...] = (0,)
    overrides: tuple[str, ...] = ()
    plugins_dirs: tuple[str, ...] = ()
    """Plugin folders loaded for this experiment (``plugins_dir:``, then ``--plugins-dir``), absolute."""
    exact: bool = False
    """Whether the report sets the exact analysis (``baccarat exact``) beside the simulation (``exact: true``)."""
    report: bool = True
    """Whether a run draws the plots and writes report.html (``report: false`` skips them, as ``--no-report`` does)."""

    @property
    def seed(self) -> int:
        """The seed of the shoes (the first one when the experiment has several)."""
        return self.seeds[0]

    def with_seed(self, seed: int) -> Experiment:
        """Return this experiment with the single seed ``seed``."""
        return dataclasses.replace(self, seeds=(seed,), shoes={**self.shoes, "seed": seed})

    def to_mapping(self) -> dict[str, Any]:
        """Return the resolved experiment as plain YAML-ready data: running it again gives the same results."""
        shoes = dict(self.shoes)
        shoes["seed"] = list(self.seeds) if len(self.seeds) > 1 else self.seeds[0]
        return {
            "name": self.name,
            "rules": self.rules.to_mapping(),
            "shoes": shoes,
            "session": {
                "bankroll": _plain_cents(self.session.bankroll_cents),
                "shoes_per_session": self.session.shoes_per_session,
                "table_min": _plain_cents(self.session.table_min_cents),
                "table_max": _plain_cents(self.session.table_max_cents),
            },
            "strategies": [{"name": e.name, "use": e.use, "params": _plain(e.params)} for e in self.strategies],
            **({"plugins_dir": list(self.plugins_dirs)} if self.plugins_dirs else {}),
            **({"exact": True} if self.exact else {}),
            **({} if self.report else {"report": False}),
        }


def _plain_cents(cents: int) -> int | float:
    return cents // 100 if cents % 100 == 0 else cents / 100


def _plain(value: Any) -> Any:
    """Return ``value`` as data ``yaml.safe_dump`` can write (Decimals and Fractions as numbers)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal | Fraction):
        return int(value) if value == int(value) else float(value)
    return value


# Reading ----------------------------------------------------------------------

def load_experiment(source: str | Path | Mapping[str, Any], overrides: Iterable[str] = (),
                    plugins_dirs: Iterable[str | Path] = (), shoe_file_needed: bool = True) -> Experiment:
    """Read, override and resolve an experiment from a YAML file path or a mapping.

    ``overrides`` are ``key.path=value`` strings as given to ``--set``;
    ``plugins_dirs`` are plugin folders given on the command line (``--plugins-dir``),
    loaded after the experiment's own ``plugins_dir``. Without
    ``shoe_file_needed`` (the experiment of a saved run, whose results are
    rebuilt from its ledger), a recorded shoe file that has moved is no error.
    Raise :class:`InputError` (exit status 2) at the first mistake.
    """
    if isinstance(source, Mapping):
        doc = Document(copy.deepcopy(dict(source)), "<experiment>")
        folder, stem = Path.cwd(), "experiment"
    else:
        doc = read_yaml(source)
        folder, stem = Path(source).resolve().parent, Path(source).stem
    overrides = tuple(overrides)
    for text in overrides:
        apply_override(doc, text)
    return _Resolver(doc, folder, stem, overrides, plugins_dirs, shoe_file_needed).experiment()


def resolve(data: Mapping[str, Any], path: str = "<experiment>") -> Experiment:
    """Check an experiment mapping and resolve it (relative paths from the current folder)."""
    doc = Document(copy.deepcopy(dict(data)), path)
    return _Resolver(doc, Path.cwd(), Path(path).stem, ()).experiment()


def parse_override(text: str) -> tuple[tuple[str, ...], Any, Where]:
    """Split ``key.path=value`` into key parts, the value read as YAML, and where to report it."""
    where = Where("--set " + "".join(c if c.isprintable() else repr(c)[1:-1] for c in text))  # one line, whatever was typed
    key, sep, raw = text.partition("=")
    parts = tuple(part.strip() for part in key.split("."))
    if not sep or not key.strip():
        raise where.error("an override is KEY.PATH=VALUE, for example session.bankroll=500 or strategies.0.params.unit=5")
    if not raw.strip():
        raise where.error(f"the value of {key.strip()} is empty; give a value (write '' for empty text)")
    if any(not part for part in parts):
        raise where.error(f"the key path {key.strip()!r} has an empty part; parts are separated by single dots")
    try:
        value = parse_yaml(raw, where.source).data
    except InputError as exc:
        raise where.error(exc.message) from None
    return parts, value, where


def apply_override(doc: Document, text: str) -> None:
    """Apply one ``--set key.path=value`` to ``doc``; list items by index (``strategies.0.params.unit=5``)."""
    parts, value, where = parse_override(text)
    if doc.data is None:
        doc.replace((), {}, Where(doc.source))
    if not isinstance(doc.data, dict):
        raise doc.error((), "an experiment must be a mapping of name, rules, shoes, session and strategies")
    node: Any = doc.data
    path: KeyPath = ()
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, dict):
            key: str | int = part
        elif isinstance(node, list):
            if not part.isdigit():
                raise where.error(f"{show_path(path)} is a list: the next part must be an item number from 0, not {part!r}")
            key = int(part)
            if key > len(node):
                raise where.error(f"{show_path(path)} has {len(node)} item(s), numbered from 0; "
                                  f"{len(node)} adds one, {key} is out of range")
        else:
            raise where.error(f"cannot set {'.'.join(parts)}: {show_path(path)} holds {_shown(node)}, not a mapping or a list")
        path = path + (key,)
        if last:
            doc.replace(path, value, where)
            return
        child = node.get(key) if isinstance(node, dict) else (node[key] if key < len(node) else None)
        if child is None:
            child = {}
            doc.replace(path, child, where)
        elif path == ("rules",) and isinstance(child, str):
            child = {"preset": child}  # --set rules.decks=6 on `rules: punto-banco-8`
            node[key] = child
            doc.values[("rules", "preset")] = doc.values.get(("rules",), where)
            doc.keys[("rules", "preset")] = doc.keys.get(("rules",), where)
        node = child


# Checking values -------------------------------------------------------------

def _shown(value: Any) -> str:
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


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool)


_NUMBER_TEXT = re.compile(r"[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?")


def _number(value: Any) -> Any:
    """Return a number written as text (``1e6`` is text in YAML, ``"1000"`` when quoted) as a Decimal; else ``value``."""
    if isinstance(value, str) and any(c.isdigit() for c in value) and _NUMBER_TEXT.fullmatch(value.strip()):
        text = value.strip().replace("_", "")
        try:
            return Decimal(text, EXACT)  # exact (the context only reports an exponent no Decimal can hold)
        except ArithmeticError:
            return Decimal("-Infinity" if text.startswith("-") and "e-" not in text.lower() else
                           "0" if "e-" in text.lower() else "Infinity")
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


def _label_value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ",".join(_label_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Resolver:
    """Walks a document section by section, checking every value where it was written."""

    def __init__(self, doc: Document, folder: Path, stem: str, overrides: tuple[str, ...],
                 plugins_dirs: Iterable[str | Path] = (), shoe_file_needed: bool = True) -> None:
        self.doc = doc
        self.folder = folder
        self.stem = stem
        self.overrides = overrides
        from baccarat.plugin.manager import plugins_folder

        self.extra_plugins_dirs = tuple(plugins_folder(d) for d in plugins_dirs)
        self.plugins_dirs: tuple[str, ...] = self.extra_plugins_dirs
        self.trial_shoe: tuple[Any, dict[str, np.ndarray]] | None = None
        self.shoe_file_needed = shoe_file_needed

    # Helpers -------------------------------------------------------------------
    def error(self, path: KeyPath, message: str, key: bool = False, cls: type[InputError] = InputError) -> InputError:
        return self.doc.error(path, message, key=key, cls=cls)

    def line_of(self, path: KeyPath) -> str:
        where = self.doc.where(path)
        return f"line {where.line}" if where.line is not None else where.source

    def section(self, path: KeyPath, value: Any, allowed: Sequence[str], what: str) -> dict[str, Any]:
        """Return a mapping section (empty when absent), refusing other types, unknown keys and a key left empty."""
        if value is None:
            if self.written(path):
                raise self.error(path, f"{what} is empty; give its keys ({', '.join(allowed)}) or leave it out")
            return {}
        if not isinstance(value, dict):
            raise self.error(path, f"{what} must be a mapping of {', '.join(allowed)}, not {_shown(value)}")
        for key in value:
            if key not in allowed:
                raise self.error(path + (key,), f"unknown key {key!r} in {what}{did_you_mean(key, allowed)}; "
                                                 f"the keys are {', '.join(allowed)}", key=True)
        return value

    def written(self, path: KeyPath) -> bool:
        """Tell whether ``path`` was written in the file or an override (an empty ``shoes:`` is written)."""
        return path in self.doc.values and path != ()

    def text(self, path: KeyPath, value: Any, what: str) -> str:
        if isinstance(value, str) and value.strip():
            return value.strip()
        if _is_number(value) or isinstance(value, datetime.date):
            return str(value)
        if isinstance(value, str):
            raise self.error(path, f"{what} is empty")
        raise self.error(path, f"{what} must be text, not {_shown(value)}"
                               + ("; put it in quotes" if isinstance(value, bool) else ""))

    def check_name(self, path: KeyPath, name: str, what: str, label: bool = False) -> None:
        """Refuse a name that cannot be shown on one line or written to a file; a label a spreadsheet would run."""
        problem = name_problem(name)
        if problem is not None:
            raise self.error(path, f"{what} {name!r} {problem}")
        if label and name.startswith(FORMULA_STARTS):
            raise self.error(path, f"{what} {name!r} starts with {name[0]!r}, which a spreadsheet opening summary.csv "
                                   "would take for a formula; start it with a letter or a digit")

    def integer(self, path: KeyPath, value: Any, what: str, minimum: int, maximum: int) -> int:
        given, value = value, _number(value)
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
            raise self.error(path, f"{what} must be a whole number, not {_shown(value)}")
        if value < minimum:
            raise self.error(path, f"{what} must be at least {minimum}, not {value}")
        if value > maximum:
            raise self.error(path, f"{what} must be at most {maximum:,}, not {value}")
        return value

    def cents(self, path: KeyPath, value: Any, what: str, allow_zero: bool = False) -> int:
        given, value = value, _number(value)
        if isinstance(value, Decimal) and value.is_infinite() and isinstance(given, str):  # "1e99999999999999999999"
            raise self.error(path, f"{what} must be at most {MAX_AMOUNT:,}, not {given.strip()}")
        if not _is_number(value):
            raise self.error(path, f"{what} must be an amount such as 1000 or 12.50, not {_shown(value)}")
        amount = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        if not amount.is_finite():
            raise self.error(path, f"{what} must be a finite amount, not {value}")
        if amount < 0 or (amount == 0 and not allow_zero):  # the range before any arithmetic: 1e999999 * 100 overflows
            raise self.error(path, f"{what} must be {'at least 0' if allow_zero else 'more than 0'}, not {value}")
        if amount > MAX_AMOUNT:
            raise self.error(path, f"{what} must be at most {MAX_AMOUNT:,}, not {value}")
        cents = scaled(amount, 2)
        if not is_whole(cents):
            raise self.error(path, f"{what} must be a whole number of cents, not {value}")
        return int(cents)

    def local_file(self, path: KeyPath, value: Any, what: str) -> Path:
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

    # Sections ------------------------------------------------------------------
    def experiment(self) -> Experiment:
        data = self.doc.data
        if data is None:
            raise self.error((), "the experiment is empty; it needs at least a list of strategies")
        if not isinstance(data, dict):
            raise self.error((), f"an experiment must be a mapping of {', '.join(TOP_KEYS)}, not {_shown(data)}")
        self.section((), data, TOP_KEYS, "the experiment")
        name = self.text(("name",), data["name"], "name") if "name" in data else self.stem
        if "name" in data:
            self.check_name(("name",), name, "the experiment's name")
        # The same folder named twice (in the experiment and by --plugins-dir) is one folder.
        self.plugins_dirs = tuple(dict.fromkeys(self.plugins_dir(data) + self.extra_plugins_dirs))
        from baccarat.plugin.manager import registry

        registry(self.plugins_dirs)  # the plugins' bets, before the rules that may offer them
        rules = self.rules(data)
        shoes, seeds = self.shoes(data.get("shoes"))
        session = self.session(data.get("session"))
        self.check_money_fits(rules, session, shoes)
        has_cards = shoes["source"] == "seeded" or format_has_cards(shoes["format"])
        strategies = self.strategies(data, rules, session, has_cards)
        if shoes["source"] == "recorded" and self.shoe_file_needed:  # bets the shoes cannot settle are refused first
            shoes["path"] = str(self.local_file(("shoes", "path"), shoes["path"], "the shoe file"))
        exact = data.get("exact", False)
        if not isinstance(exact, bool):
            raise self.error(("exact",), f"exact must be true or false, not {_shown(exact)}")
        report = data.get("report", True)
        if not isinstance(report, bool):
            raise self.error(("report",), f"report must be true or false, not {_shown(report)}")
        return Experiment(name, rules, shoes, session, strategies, data, self.doc.source, seeds, self.overrides,
                          self.plugins_dirs, exact, report)

    def check_money_fits(self, rules: Rules, session: SessionConfig, shoes: dict[str, Any]) -> None:
        """Refuse limits under which a session could win more than exact money holds (int64 micro-units)."""
        from baccarat.engine.reference import session_money_limit

        most_shoes = session.shoes_per_session
        if shoes["source"] == "seeded":
            most_shoes = min(most_shoes, int(shoes["count"]))
        reach = session_money_limit(rules, session, most_shoes)
        if reach is not None:
            at = ("session", "table_max") if ("session", "table_max") in self.doc.values else ("session",)
            table_max = EXACT.divide(Decimal(session.table_max_cents), 100)
            raise self.error(at, f"session.table_max ({table_max:,}) is too large for exact money at this table: "
                                 f"a session of up to {reach:,} rounds could win more than the largest bankroll kept exactly "
                                 f"({MAX_BANKROLL:,}); lower session.table_max or session.shoes_per_session")

    def plugins_dir(self, data: dict[str, Any]) -> tuple[str, ...]:
        """The experiment's ``plugins_dir``: a folder or a list of folders, relative to the experiment file."""
        value = data.get("plugins_dir")
        if value is None and "plugins_dir" in data:
            raise self.error(("plugins_dir",), "plugins_dir is empty; give a folder of plugin files or leave it out")
        if value is None:
            return ()
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        folders = []
        for index, item in items:
            path: KeyPath = ("plugins_dir",) if index is None else ("plugins_dir", index)
            name = self.text(path, item, "plugins_dir")
            from baccarat.plugin.manager import plugins_folder

            try:
                folder = Path(plugins_folder(self.folder / Path(name).expanduser()))
            except InputError as exc:
                raise self.error(path, f"plugins_dir {name!r}: {exc.message}") from None
            if not folder.is_dir():
                raise self.error(path, f"the plugins folder {name!r} does not exist (looked for {folder})"
                                       if not folder.exists() else f"plugins_dir {name!r} is not a folder")
            folders.append(str(folder))
        return tuple(folders)

    def rules(self, data: dict[str, Any]) -> Rules:
        if "rules" not in data:
            return preset(DEFAULT_RULES)
        value = data["rules"]
        path: KeyPath = ("rules",)
        if isinstance(value, dict):
            return self.rule_fields(self.doc, path, value, None)
        if not isinstance(value, str) or not value.strip():
            raise self.error(path, f"rules must be a preset name ({', '.join(preset_names())}), a rules file "
                                   f"or a mapping of rule fields, not {_shown(value) if value != '' else 'nothing'}")
        name = value.strip()
        if name.endswith((".yaml", ".yml")) or "/" in name:
            if Path(name).stem in preset_names() and not (self.folder / name).is_file() and not Path(name).is_file():
                raise self.error(path, f"the rules file {name!r} does not exist; for the preset write rules: {Path(name).stem}",
                                 cls=RulesError)
            file = self.local_file(path, name, "the rules file")
            doc = read_yaml(file)
            if not isinstance(doc.data, dict):
                raise doc.error((), "a rules file must hold a mapping of rule fields", cls=RulesError)
            return self.rule_fields(doc, (), doc.data, file.stem)
        try:
            return preset(name)
        except RulesError as exc:
            raise self.error(path, exc.message, cls=RulesError) from None

    @staticmethod
    def rule_fields(doc: Document, path: KeyPath, fields: dict[str, Any], name: str | None) -> Rules:
        """Resolve a mapping of rule fields field by field, so that an error points at its field."""
        allowed = ("preset",) + RULE_FIELDS
        for key in fields:
            if key not in allowed:
                raise doc.error(path + (key,), f"unknown rule field {key!r}{did_you_mean(key, allowed)}; "
                                               f"rule fields are {', '.join(allowed)}", key=True, cls=RulesError)
        try:
            base = preset(str(fields.get("preset", DEFAULT_RULES)))
        except RulesError as exc:
            raise doc.error(path + ("preset",), exc.message, cls=RulesError) from None
        current = rules_from_mapping({"name": name}, base) if name else base
        first = ("name", "decks", "reshuffle_every_round")
        order = [k for k in first if k in fields] + [k for k in fields if k not in first and k != "preset"]
        for key in order:
            value = fields[key]
            if key == "side_bets" and isinstance(value, dict):
                for bet, pays in value.items():
                    try:
                        rules_from_mapping({"side_bets": {bet: pays}}, current)
                    except RulesError as exc:
                        raise doc.error(path + (key, bet), exc.message, key="unknown side bet" in exc.message,
                                        cls=RulesError) from None
            try:
                current = rules_from_mapping({key: value}, current)
            except RulesError as exc:
                raise doc.error(path + (key,), f"rules: {exc.message}", cls=RulesError) from None
        return current

    def shoes(self, value: Any) -> tuple[dict[str, Any], tuple[int, ...]]:
        path: KeyPath = ("shoes",)
        section = self.section(path, value, SHOE_KEYS, "shoes")
        source = self.text(path + ("source",), section.get("source", "seeded"), "shoes.source")
        if source not in SOURCES:
            raise self.error(path + ("source",), f"shoes.source must be seeded or recorded, not {source!r}{did_you_mean(source, SOURCES)}")
        seeds = self.seeds(section)
        if source == "seeded":
            for key in ("path", "format"):
                if key in section:
                    raise self.error(path + (key,), f"shoes.{key} is for recorded shoes; add `source: recorded` "
                                                    "to replay a file", key=True)
            count = self.integer(path + ("count",), section.get("count", DEFAULT_COUNT), "shoes.count", 1, MAX_SHOES)
            return {"source": "seeded", "seed": seeds[0], "count": count}, seeds
        if "count" in section:
            raise self.error(path + ("count",), "shoes.count is for seeded shoes; a recorded file is replayed whole", key=True)
        from baccarat.shoes.recorded import FORMATS

        for key, hint in (("path", "the file to replay"), ("format", f"one of {', '.join(FORMATS)}")):
            if key not in section:
                raise self.error(path, f"recorded shoes need shoes.{key} ({hint})", key=True)
        fmt = self.text(path + ("format",), section["format"], "shoes.format")
        if fmt not in FORMATS:
            raise self.error(path + ("format",), f"unknown shoe format {fmt!r}{did_you_mean(fmt, FORMATS)}; "
                                                 f"formats are {', '.join(FORMATS)}")
        self.text(path + ("path",), section["path"], "shoes.path")  # the file itself is looked for after the strategies
        return {"source": "recorded", "seed": seeds[0], "path": section["path"], "format": fmt}, seeds

    def seeds(self, section: dict[str, Any]) -> tuple[int, ...]:
        path: KeyPath = ("shoes", "seed")
        value = section.get("seed", 0)
        if not isinstance(value, list):
            return (self.integer(path, value, "shoes.seed", 0, MAX_SEED),)
        if not value:
            raise self.error(path, "shoes.seed is an empty list; give one seed or a list of seeds")
        seeds: list[int] = []
        for index, item in enumerate(value):
            seed = self.integer(path + (index,), item, "each seed", 0, MAX_SEED)
            if seed in seeds:
                raise self.error(path + (index,), f"the seed {seed} is listed twice")
            seeds.append(seed)
        return tuple(seeds)

    def session(self, value: Any) -> SessionConfig:
        path: KeyPath = ("session",)
        section = self.section(path, value, SESSION_KEYS, "session")
        given = {**DEFAULT_SESSION, **section}
        bankroll = self.cents(path + ("bankroll",), given["bankroll"], "session.bankroll")
        table_min = self.cents(path + ("table_min",), given["table_min"], "session.table_min", allow_zero=True)
        table_max = self.cents(path + ("table_max",), given["table_max"], "session.table_max")
        per_session = self.integer(path + ("shoes_per_session",), given["shoes_per_session"], "session.shoes_per_session",
                                   1, MAX_SHOES)

        def amount(key: str, cents: int) -> str:
            return f"{cents / 100:g}" + ("" if key in section else ", the default")

        if table_max < table_min:
            at = "table_max" if "table_max" in section else "table_min"
            raise self.error(path + (at,), f"session.table_max ({amount('table_max', table_max)}) is below "
                                           f"session.table_min ({amount('table_min', table_min)})")
        if bankroll < table_min:
            at = "bankroll" if "bankroll" in section else "table_min"
            raise self.error(path + (at,), f"session.bankroll ({amount('bankroll', bankroll)}) is below session.table_min "
                                           f"({amount('table_min', table_min)}): every session would be ruined before its first bet")
        return SessionConfig(bankroll, table_min, table_max, per_session)

    def strategies(self, data: dict[str, Any], rules: Rules, session: SessionConfig, has_cards: bool) -> tuple[StrategyEntry, ...]:
        path: KeyPath = ("strategies",)
        value = data.get("strategies")
        hint = "a list of entries such as `- use: flat` with `params: {side: banker, unit: 10}`"
        if value is None or value == []:
            where: KeyPath = path if "strategies" in data else ()
            raise self.error(where, f"the experiment has no strategies; add under `strategies:` {hint}", key="strategies" in data)
        if not isinstance(value, list):
            raise self.error(path, f"strategies must be {hint}, not {_shown(value)}")
        from baccarat.plugin.manager import registry

        reg = registry(self.plugins_dirs)
        labels: dict[str, KeyPath] = {}
        entries: list[StrategyEntry] = []
        for index, item in enumerate(value):
            entries += self.strategy(path + (index,), item, reg, rules, session, has_cards, labels)
        return tuple(entries)

    def strategy(self, path: KeyPath, item: Any, reg: Any, rules: Rules, session: SessionConfig, has_cards: bool,
                 labels: dict[str, KeyPath]) -> list[StrategyEntry]:
        if isinstance(item, str) and ":" in item:
            key, _, value = item.partition(":")
            raise self.error(path, f"a strategy is a mapping, not the text {item!r}; a key needs a space after its colon: "
                                   f"`{key}: {value.strip()}`")
        if isinstance(item, str):
            raise self.error(path, f"a strategy is a mapping, not the text {item!r}; write `- use: {item}`")
        entry = self.section(path, item, STRATEGY_KEYS, "a strategy")
        if "use" not in entry:
            raise self.error(path, "this strategy has no `use:` (the registered strategy to run, e.g. use: flat)")
        use = self.text(path + ("use",), entry["use"], "use")
        try:
            reg.strategy(use)
        except StrategyError as exc:
            raise self.error(path + ("use",), exc.message, cls=StrategyError) from None
        params = entry.get("params")
        if params is None and "params" in entry:
            raise self.error(path + ("params",), "params is empty; give the parameters (e.g. params: {side: banker, unit: 10}) "
                                                 "or leave it out for the defaults")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise self.error(path + ("params",), f"params must be a mapping of parameter names to values, not {_shown(params)}")
        grid = self.grid(path, entry.get("grid"), params)
        label = self.text(path + ("name",), entry["name"], "name") if "name" in entry else use
        self.check_name(path + ("name",) if "name" in entry else path + ("use",), label, "the label", label=True)
        out = []
        keys = list(grid)
        for choice in itertools.product(*(range(len(grid[k])) for k in keys)):
            combo = {k: grid[k][i] for k, i in zip(keys, choice, strict=True)}
            picked = {k: path + ("grid", k, i) for k, i in zip(keys, choice, strict=True)}

            def at(param: str | None, key: bool = False, picked: dict[str, KeyPath] = picked) -> tuple[KeyPath, bool]:
                if param in picked:
                    return (picked[param][:-1], True) if key else (picked[param], False)
                if param in params:
                    return path + ("params", param), key
                return path + ("use",), False

            cls, full = self.configure(reg, use, {**params, **combo}, at)
            self.check_strategy(use, cls, full, rules, session, has_cards, at)
            name = label + ("[" + ",".join(f"{k}={_label_value(v)}" for k, v in combo.items()) + "]" if combo else "")
            here = path + ("name",) if "name" in entry else path + ("use",)
            self.check_name(here, name, "the label", label=True)
            if name in labels:
                raise self.error(here, f"two strategies are labelled {name!r} (the first at {self.line_of(labels[name])}); "
                                       "give each its own `name:`")
            labels[name] = here
            out.append(StrategyEntry(name, use, full))
        return out

    def grid(self, path: KeyPath, value: Any, params: dict[str, Any]) -> dict[str, list[Any]]:
        if value is None:
            return {}
        if not isinstance(value, dict) or not value:
            raise self.error(path + ("grid",), "grid must be a mapping of parameter names to lists of values, "
                                               "e.g. grid: {unit: [5, 10]}")
        for key, values in value.items():
            here = path + ("grid", key)
            if key in params:
                raise self.error(here, f"the parameter {key!r} is both in params and in grid; keep one", key=True)
            if not isinstance(values, list) or not values:
                raise self.error(here, f"grid.{key} must be a non-empty list of values to try, not {_shown(values)}")
            for index, item in enumerate(values):
                if item in values[:index]:
                    raise self.error(here + (index,), f"grid.{key} lists {_shown(item)} twice")
        return value

    def configure(self, reg: Any, use: str, given: dict[str, Any],
                  at: Callable[..., tuple[KeyPath, bool]]) -> tuple[type, dict[str, Any]]:
        """Ask the registry for the strategy's full parameters; check each given value's kind against its default."""
        try:
            cls, full = reg.configure(use, given)
        except ParameterError as exc:
            where, key = at(exc.param, key=not getattr(exc, "at_value", False))
            raise self.error(where, exc.message, key=key, cls=StrategyError) from None
        defaults = cls.accepted_params(given)
        for param, value in given.items():
            default = defaults.get(param)
            wrong = None
            if isinstance(default, bool):
                wrong = None if isinstance(value, bool) else "true or false"
            elif _is_number(default):
                wrong = None if _is_number(value) else "a number"
            elif isinstance(default, str):
                wrong = None if isinstance(value, str) else "text"
            elif isinstance(default, list | tuple):
                wrong = None if isinstance(value, list | tuple) else "a list"
            if wrong:
                where, _ = at(param)
                raise self.error(where, f"parameter {param!r} of strategy {use!r} must be {wrong}, not {_shown(value)}",
                                 cls=StrategyError)
        return cls, full

    def check_strategy(self, use: str, cls: type, params: dict[str, Any], rules: Rules, session: SessionConfig, has_cards: bool,
                       at: Callable[..., tuple[KeyPath, bool]]) -> None:
        """Make the strategy once with these parameters and check the bets it may place against the table."""
        from baccarat.odds.settlement import check_bets_offered
        from baccarat.plugin.strategy import SessionInfo

        info = SessionInfo(1, rules, cents_to_decimal(session.bankroll_cents), cents_to_decimal(session.table_min_cents),
                           cents_to_decimal(session.table_max_cents), np.random.default_rng(0))
        try:
            cls(info, **params)
        except ParameterError as exc:
            raise self.error(at(exc.param)[0], exc.message, cls=StrategyError) from None
        except Exception as exc:
            message = str(exc) or type(exc).__name__
            named = next((p for p in params if message.startswith((f"{p} ", f"{p}:", f"'{p}'", f"{p!r}"))), None)
            raise self.error(at(named)[0], f"strategy {use!r} refuses its parameters: {message}", cls=StrategyError) from None
        unit = params.get("unit")
        if _is_number(unit) and Decimal(str(unit)) * 100 < session.table_min_cents:
            raise self.error(at("unit")[0], f"unit {unit} is below the table minimum "
                                            f"{session.table_min_cents / 100:g} (session.table_min): every bet would be refused",
                             cls=StrategyError)
        if _is_number(unit) and Decimal(str(unit)) * 100 > session.table_max_cents:
            raise self.error(at("unit")[0], f"unit {unit} is above the table maximum "
                                            f"{session.table_max_cents / 100:g} (session.table_max): every bet would be cut to it",
                             cls=StrategyError)
        try:
            check_bets_offered(cls.sides(params), rules, has_cards)
        except RulesError as exc:
            where = at("side")[0] if "side" in params else at(None)[0]
            raise self.error(where, exc.message, cls=RulesError) from None
        self.trial(use, cls, params, rules, session, at)

    def trial(self, use: str, cls: type, params: dict[str, Any], rules: Rules, session: SessionConfig,
              at: Callable[..., tuple[KeyPath, bool]]) -> None:
        """Play the strategy on one sample shoe, so that a bet it cannot place is reported here, before the run."""
        from baccarat.engine.reference import StrategyRun, run_strategy

        if self.trial_shoe is None:
            self.trial_shoe = _trial_shoe(rules)
        table, multipliers = self.trial_shoe
        config = dataclasses.replace(session, shoes_per_session=1)
        try:
            run_strategy(StrategyRun(use, cls, params), table, multipliers, rules, config, 0)
        except StrategyError as exc:
            what = re.sub(r" \(session \d+, shoe [^()]*\)$", "", exc.message)
            named = next((p for p, v in params.items() if isinstance(v, str) and repr(v) in what), None)
            raise self.error(at(named)[0], f"{what}, on a sample shoe tried before the run", cls=StrategyError) from None


def _trial_shoe(rules: Rules) -> tuple[Any, dict[str, np.ndarray]]:
    """Return a small seeded table of about 80 rounds under ``rules``, and its settlement."""
    from baccarat.odds.settlement import settlement_table
    from baccarat.shoes.seeded import seeded_table

    table = seeded_table(rules, 0, 1, 80 if rules.reshuffle_every_round else 1)
    return table, settlement_table(table, rules)
