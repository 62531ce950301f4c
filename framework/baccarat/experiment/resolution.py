"""Experiment files: YAML in, a validated and resolved :class:`~baccarat.experiment.model.Experiment` out.

Every mistake is reported as one sentence at ``FILE:LINE:COL`` of the key or
value at fault, with a "did you mean" where a close name exists; nothing is
run and nothing is written. Safe YAML only (see :mod:`baccarat.files.yamlfile`).

``--set key.path=value`` overrides are applied to the file's data before it
is checked, so a bad override is reported against the override itself.
Strategies are checked by :mod:`baccarat.experiment.strategies`. ``shoes.seed``
may be a list: the experiment runs once per seed (see :mod:`baccarat.execution.runner`).
Relative file paths (recorded shoes, rules files) are looked up in the
experiment file's folder first, then in the current folder.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from baccarat.engine.reference import MAX_BANKROLL, SessionConfig, session_money_limit
from baccarat.errors import InputError, RulesError, did_you_mean
from baccarat.experiment.mapping_input import plain_experiment
from baccarat.experiment.model import (
    DEFAULT_COUNT,
    DEFAULT_RULES,
    DEFAULT_SESSION,
    MAX_SEED,
    MAX_SESSION_ROUNDS,
    MAX_SHOES,
    SESSION_KEYS,
    SHOE_KEYS,
    SOURCES,
    TOP_KEYS,
    Experiment,
    StrategyEntry,
)
from baccarat.experiment.overrides import apply_override
from baccarat.experiment.strategies import StrategySection
from baccarat.experiment.values import number_text, shown
from baccarat.files.yamlfile import Document, KeyPath, read_yaml
from baccarat.money import CENTS_PER_UNIT, EXACT
from baccarat.plugin.manager import plugins_folder, registry
from baccarat.shoes.recorded import FORMATS, format_has_cards
from baccarat.table.pace import HANDS_PER_HOUR, checked_pace
from baccarat.table.rules import RULE_FIELDS, Rules, preset, preset_names, rules_from_mapping


def load_experiment(
    source: str | Path | Mapping[str, Any],
    overrides: Iterable[str] = (),
    plugins_dirs: Iterable[str | Path] = (),
    shoe_file_needed: bool = True,
    strategies_needed: bool = True,
) -> Experiment:
    """Read, override and resolve an experiment from a YAML file path or a mapping.

    ``overrides`` are ``key.path=value`` strings as given to ``--set``;
    ``plugins_dirs`` are plugin folders given on the command line (``--plugins-dir``),
    loaded after the experiment's own ``plugins_dir``. Without
    ``shoe_file_needed`` (the experiment of a saved run, whose results are
    rebuilt from its ledger), a recorded shoe file that has moved is no error.
    Without ``strategies_needed`` (the same: a saved run's results need no
    strategy code), the strategies are taken as recorded, without their
    plugins, and a ``plugins_dir`` that is not there is skipped.
    Raise :class:`InputError` (exit status 2) at the first mistake.
    """
    if isinstance(source, Mapping):
        doc = Document(plain_experiment(source), "<experiment>")
        folder, stem = Path.cwd(), "experiment"
    else:
        doc = read_yaml(source)
        folder, stem = Path(source).resolve().parent, Path(source).stem
    overrides = tuple(overrides)
    for text in overrides:
        apply_override(doc, text)
    return Resolver(doc, folder, stem, overrides, plugins_dirs, shoe_file_needed, strategies_needed).experiment()


class Resolver(StrategySection):
    """Walks a document section by section, checking every value where it was written."""

    def experiment(self) -> Experiment:
        """Return the whole document resolved into an :class:`Experiment`, section by section."""
        data = self.doc.data
        if data is None:
            raise self.error((), "the experiment is empty; it needs at least a list of strategies")
        if not isinstance(data, dict):
            raise self.error((), f"an experiment must be a mapping of {', '.join(TOP_KEYS)}, not {shown(data)}")
        self.section((), data, TOP_KEYS, "the experiment")
        name = self.text(("name",), data["name"], "name") if "name" in data else self.stem
        if "name" in data:
            self.check_name(("name",), name, "the experiment's name")
        # The same folder named twice (in the experiment and by --plugins-dir) is one folder.
        own = self.plugins_dir(data)
        self.plugins_dirs = tuple(dict.fromkeys(folder for folder, _ in [*own, *self.extra_plugins]))
        self.plugins_written = tuple(dict.fromkeys(written for _, written in [*own, *self.extra_plugins]))

        self.registered_bets = registry(self.plugins_dirs).bet_registry  # the plugins' bets, before the rules that may offer them
        rules = dataclasses.replace(self.rules(data), bet_registry=self.registered_bets)  # the rules carry the run's bets
        shoes, seeds = self.shoes(data.get("shoes"))
        session = self.session(data.get("session"))
        self.check_money_fits(rules, session, shoes)
        has_cards = shoes["source"] == "seeded" or format_has_cards(shoes["format"])
        strategies = self.strategies(data, rules, session, has_cards) if self.strategies_needed else self.recorded_strategies(data)
        if shoes["source"] == "recorded" and self.shoe_file_needed:  # bets the shoes cannot settle are refused first
            shoes["path"] = str(self.local_file(("shoes", "path"), shoes["path"], "the shoe file"))
        exact = data.get("exact", False)
        if not isinstance(exact, bool):
            raise self.error(("exact",), f"exact must be true or false, not {shown(exact)}")
        report, formats = self.report(data.get("report", True))
        return Experiment(
            name,
            rules,
            shoes,
            session,
            strategies,
            data,
            self.doc.source,
            seeds,
            self.overrides,
            self.plugins_dirs,
            self.plugins_written,
            exact,
            report,
            formats,
        )

    def report(self, value: Any) -> tuple[bool, tuple[str, ...]]:
        """Return whether the run writes its report, and the formats its charts are also written in (``report: {png: true}``)."""
        if isinstance(value, bool):
            return value, ()
        if not isinstance(value, dict):
            raise self.error(("report",), f"report must be true, false or a mapping such as {{png: true}}, not {shown(value)}")
        formats = []
        for key, wanted in value.items():
            if key not in ("png", "svg"):
                raise self.error(("report", key), f"report takes png and svg, not {shown(key)}", key=True)
            if not isinstance(wanted, bool):
                raise self.error(("report", key), f"report.{key} must be true or false, not {shown(wanted)}")
            if wanted:
                formats.append(key)
        return True, tuple(formats)

    def check_money_fits(self, rules: Rules, session: SessionConfig, shoes: dict[str, Any]) -> None:
        """Refuse limits under which a session could win more than exact money holds (int64 micro-units)."""

        most_shoes = session.shoes_per_session
        if shoes["source"] == "seeded" and session.rounds is None:
            most_shoes = min(most_shoes, int(shoes["count"]))
        reach = session_money_limit(rules, session, most_shoes)
        if reach is not None:
            at = ("session", "table_max") if ("session", "table_max") in self.doc.values else ("session",)
            table_max = EXACT.divide(Decimal(session.table_max_cents), CENTS_PER_UNIT)
            raise self.error(
                at,
                f"session.table_max ({table_max:,}) is too large for exact money at this table: "
                f"a session of up to {reach:,} rounds could win more than the largest bankroll kept exactly "
                f"({MAX_BANKROLL:,}); lower session.table_max or session." + ("rounds" if session.rounds else "shoes_per_session"),
            )

    @property
    def extra_plugins(self) -> tuple[tuple[str, str], ...]:
        """The ``--plugins-dir`` folders: each absolute, and as the experiment records it (relative to the experiment file)."""
        return tuple((folder, os.path.relpath(folder, self.folder)) for folder in self.extra_plugins_dirs)

    def recorded_strategies(self, data: dict[str, Any]) -> tuple[StrategyEntry, ...]:
        """The strategies of a saved run's experiment as recorded (label, registered name, parameters), not resolved."""
        value = data.get("strategies")
        if not isinstance(value, list) or not value:
            raise self.error(("strategies",) if "strategies" in data else (), "a saved run's experiment lists its strategies")
        entries = []
        for index, item in enumerate(value):
            path: KeyPath = ("strategies", index)
            if not isinstance(item, dict) or not isinstance(item.get("use"), str) or not isinstance(item.get("params", {}), dict):
                raise self.error(path, "a saved run's strategy is a mapping with name, use and params")
            use = item["use"]
            entries.append(StrategyEntry(str(item.get("name", use)), use, dict(item.get("params") or {})))
        return tuple(entries)

    def plugins_dir(self, data: dict[str, Any]) -> list[tuple[str, str]]:
        """The experiment's ``plugins_dir``: a folder or a list of folders, relative to the experiment file.

        Each as ``(absolute folder, as written)``. Without ``strategies_needed``
        (a saved run), a folder that is not there is skipped.
        """
        value = data.get("plugins_dir")
        if value is None and "plugins_dir" in data:
            raise self.error(("plugins_dir",), "plugins_dir is empty; give a folder of plugin files or leave it out")
        if value is None:
            return []
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        folders = []
        for index, item in items:
            path: KeyPath = ("plugins_dir",) if index is None else ("plugins_dir", index)
            name = self.text(path, item, "plugins_dir")

            try:
                folder = Path(plugins_folder(self.folder / Path(name).expanduser()))
            except InputError as exc:
                raise self.error(path, f"plugins_dir {name!r}: {exc.message}") from None
            if not folder.is_dir() and not self.strategies_needed:
                continue
            if not folder.is_dir():
                raise self.error(
                    path,
                    f"the plugins folder {name!r} does not exist (looked for {folder}); correct plugins_dir, "
                    "or leave it out and give the folder with --plugins-dir FOLDER"
                    if not folder.exists()
                    else f"plugins_dir {name!r} is not a folder",
                )
            folders.append((str(folder), name))
        return folders

    def rules(self, data: dict[str, Any]) -> Rules:
        """Return the ``rules:`` of the experiment: a preset name, a rules file, or a mapping of rule fields."""
        if "rules" not in data:
            return preset(DEFAULT_RULES)
        value = data["rules"]
        path: KeyPath = ("rules",)
        if isinstance(value, dict):
            return self.rule_fields(self.doc, path, value, None)
        if not isinstance(value, str) or not value.strip():
            raise self.error(
                path,
                f"rules must be a preset name ({', '.join(preset_names())}), a rules file "
                f"or a mapping of rule fields, not {shown(value) if value != '' else 'nothing'}",
            )
        name = value.strip()
        if name.endswith((".yaml", ".yml")) or "/" in name:
            if Path(name).stem in preset_names() and not (self.folder / name).is_file() and not Path(name).is_file():
                raise self.error(
                    path, f"the rules file {name!r} does not exist; for the preset write rules: {Path(name).stem}", cls=RulesError
                )
            file = self.local_file(path, name, "the rules file")
            doc = read_yaml(file)
            if not isinstance(doc.data, dict):
                raise doc.error((), "a rules file must hold a mapping of rule fields", cls=RulesError)
            return self.rule_fields(doc, (), doc.data, file.stem)
        try:
            return preset(name)
        except RulesError as exc:
            raise self.error(path, exc.message, cls=RulesError) from None

    def rule_fields(self, doc: Document, path: KeyPath, fields: dict[str, Any], name: str | None) -> Rules:
        """Resolve a mapping of rule fields field by field, so that an error points at its field."""
        allowed = ("preset",) + RULE_FIELDS
        for key in fields:
            if key not in allowed:
                raise doc.error(
                    path + (key,),
                    f"unknown rule field {key!r}{did_you_mean(key, allowed)}; rule fields are {', '.join(allowed)}",
                    key=True,
                    cls=RulesError,
                )
        try:
            base = dataclasses.replace(preset(str(fields.get("preset", DEFAULT_RULES))), bet_registry=self.registered_bets)
        except RulesError as exc:
            raise doc.error(path + ("preset",), exc.message, cls=RulesError) from None
        current = rules_from_mapping({"name": name}, base) if name else base
        first = ("name", "decks", "reshuffle_every_round")
        order = [k for k in first if k in fields] + [k for k in fields if k not in first and k != "preset"]
        for key in order:
            value = fields[key]
            if key == "side_bets" and isinstance(value, dict) and not self.strategies_needed:
                # A saved run read without its plugins: a plugin's side bet is not known here, and its results need no
                # settlement (the ledger holds every amount), so the rules keep the bets that are known.
                value = {bet: pays for bet, pays in value.items() if bet in self.registered_bets}
            if key == "side_bets" and isinstance(value, dict):
                for bet, pays in value.items():
                    try:
                        rules_from_mapping({"side_bets": {bet: pays}}, current)
                    except RulesError as exc:
                        raise doc.error(path + (key, bet), exc.message, key="unknown side bet" in exc.message, cls=RulesError) from None
            try:
                current = rules_from_mapping({key: value}, current)
            except RulesError as exc:
                raise doc.error(path + (key,), f"rules: {exc.message}", cls=RulesError) from None
        return current

    def shoes(self, value: Any) -> tuple[dict[str, Any], tuple[int, ...]]:
        """Return the ``shoes:`` section (seeded or recorded) and its seeds."""
        path: KeyPath = ("shoes",)
        section = self.section(path, value, SHOE_KEYS, "shoes")
        source = self.text(path + ("source",), section.get("source", "seeded"), "shoes.source")
        if source not in SOURCES:
            raise self.error(path + ("source",), f"shoes.source must be seeded or recorded, not {source!r}{did_you_mean(source, SOURCES)}")
        seeds = self.seeds(section)
        if source == "seeded":
            for key in ("path", "format"):
                if key in section:
                    raise self.error(path + (key,), f"shoes.{key} is for recorded shoes; add `source: recorded` to replay a file", key=True)
            count = self.integer(path + ("count",), section.get("count", DEFAULT_COUNT), "shoes.count", 1, MAX_SHOES)
            return {"source": "seeded", "seed": seeds[0], "count": count}, seeds
        if "count" in section:
            raise self.error(path + ("count",), "shoes.count is for seeded shoes; a recorded file is replayed whole", key=True)

        for key, hint in (("path", "the file to replay"), ("format", f"one of {', '.join(FORMATS)}")):
            if key not in section:
                raise self.error(path, f"recorded shoes need shoes.{key} ({hint})", key=True)
        fmt = self.text(path + ("format",), section["format"], "shoes.format")
        if fmt not in FORMATS:
            raise self.error(
                path + ("format",), f"unknown shoe format {fmt!r}{did_you_mean(fmt, FORMATS)}; formats are {', '.join(FORMATS)}"
            )
        self.text(path + ("path",), section["path"], "shoes.path")  # the file itself is looked for after the strategies
        return {"source": "recorded", "seed": seeds[0], "path": section["path"], "format": fmt}, seeds

    def seeds(self, section: dict[str, Any]) -> tuple[int, ...]:
        """Return ``shoes.seed``: one seed or a list of distinct seeds."""
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
        """Return the ``session:`` section: bankroll, table limits and shoes per session, in cents."""
        path: KeyPath = ("session",)
        section = self.section(path, value, SESSION_KEYS, "session")
        given = {**DEFAULT_SESSION, **section}
        bankroll = self.cents(path + ("bankroll",), given["bankroll"], "session.bankroll")
        table_min = self.cents(path + ("table_min",), given["table_min"], "session.table_min", allow_zero=True)
        table_max = self.cents(path + ("table_max",), given["table_max"], "session.table_max")
        per_session = self.integer(path + ("shoes_per_session",), given["shoes_per_session"], "session.shoes_per_session", 1, MAX_SHOES)

        def amount(key: str, cents: int) -> str:
            return f"{cents / CENTS_PER_UNIT:g}" + ("" if key in section else ", the default")

        if table_max < table_min:
            at = "table_max" if "table_max" in section else "table_min"
            raise self.error(
                path + (at,),
                f"session.table_max ({amount('table_max', table_max)}) is below session.table_min ({amount('table_min', table_min)})",
            )
        if bankroll < table_min:
            at = "bankroll" if "bankroll" in section else "table_min"
            raise self.error(
                path + (at,),
                f"session.bankroll ({amount('bankroll', bankroll)}) is below session.table_min "
                f"({amount('table_min', table_min)}): every session would be ruined before its first bet",
            )
        rounds, new_shoe = self.session_length(section)
        if rounds is not None:
            per_session = 1  # not used: the session is rounds long
        win_goal = self.cents(path + ("win_goal",), section["win_goal"], "session.win_goal") if "win_goal" in section else None
        stop_loss = self.cents(path + ("stop_loss",), section["stop_loss"], "session.stop_loss") if "stop_loss" in section else None
        pace = self.pace(path + ("hands_per_hour",), section["hands_per_hour"]) if "hands_per_hour" in section else HANDS_PER_HOUR
        return SessionConfig(bankroll, table_min, table_max, per_session, rounds, new_shoe, win_goal, stop_loss, pace)

    def pace(self, path: KeyPath, value: Any) -> float:
        """Return ``session.hands_per_hour``: a number of hands an hour, decimals allowed (:func:`checked_pace`)."""
        try:
            return checked_pace(number_text(value))
        except ValueError as exc:
            raise self.error(path, f"session.hands_per_hour must be {exc}, not {shown(value)}") from None

    def session_length(self, section: dict[str, Any]) -> tuple[int | None, bool]:
        """Return ``session.rounds`` (None when the session is whole shoes) and ``session.new_shoe``."""
        path: KeyPath = ("session",)
        rounds = None
        if "rounds" in section:
            rounds = self.integer(path + ("rounds",), section["rounds"], "session.rounds", 1, MAX_SESSION_ROUNDS)
            # shoes_per_session is then not used (--set session.rounds=60 on an experiment of whole shoes)
        new_shoe = section.get("new_shoe", False)
        if not isinstance(new_shoe, bool):
            raise self.error(path + ("new_shoe",), f"session.new_shoe must be true or false, not {shown(new_shoe)}")
        if new_shoe and rounds is None:
            raise self.error(
                path + ("new_shoe",), "session.new_shoe goes with session.rounds (a session of whole shoes always starts on a new shoe)"
            )
        return rounds, new_shoe
