"""The ``strategies:`` section of an experiment: each entry resolved against the plugins, tried before the run.

A strategy entry may hold a ``grid:`` of parameter lists: it becomes one
strategy per combination, labelled ``NAME[key=value,...]``. Each strategy is
made once with its parameters, its bets are checked against the table, and it
is played on a small sample shoe, so that a strategy that cannot run is
refused here, at its place in the file, before anything runs.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np

from baccarat.engine.differences import first_difference
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
from baccarat.errors import ParameterError, RulesError, StrategyError, code_homes, raised_at
from baccarat.experiment.model import MAX_SEED, STRATEGY_KEYS, StrategyEntry, yaml_ready
from baccarat.experiment.values import Checker, is_number, label_value, shown
from baccarat.files.yamlfile import KeyPath
from baccarat.money import CENTS_PER_UNIT
from baccarat.odds.settlement import check_bets_offered, settlement_table
from baccarat.players.code import plays_in_player
from baccarat.players.process import PlayerSeat, answer_seconds, host_for
from baccarat.plugin.compose import sides_under
from baccarat.plugin.manager import registry
from baccarat.shoes.seeded import seeded_table
from baccarat.table.rules import Rules


class StrategySection(Checker):
    """Checks the ``strategies:`` section (the rest of the document is :class:`~baccarat.experiment.resolution.Resolver`'s)."""

    def strategies(self, data: dict[str, Any], rules: Rules, session: SessionConfig, has_cards: bool) -> tuple[StrategyEntry, ...]:
        """Return every strategy of the ``strategies:`` list, grids expanded, each checked and tried."""
        path: KeyPath = ("strategies",)
        value = data.get("strategies")
        hint = "a list of entries such as `- use: flat` with `params: {side: banker, unit: 10}`"
        if value is None or value == []:
            where: KeyPath = path if "strategies" in data else ()
            raise self.error(where, f"the experiment has no strategies; add under `strategies:` {hint}", key="strategies" in data)
        if not isinstance(value, list):
            raise self.error(path, f"strategies must be {hint}, not {shown(value)}")

        reg = registry(self.plugins_dirs)
        labels: dict[str, KeyPath] = {}
        entries: list[StrategyEntry] = []
        for index, item in enumerate(value):
            entries += self.strategy(path + (index,), item, reg, rules, session, has_cards, labels)
        return tuple(entries)

    def strategy(
        self, path: KeyPath, item: Any, reg: Any, rules: Rules, session: SessionConfig, has_cards: bool, labels: dict[str, KeyPath]
    ) -> list[StrategyEntry]:
        """Return the strategies one entry makes (one per combination of its grid), each checked."""
        if isinstance(item, str) and ":" in item:
            key, _, value = item.partition(":")
            raise self.error(
                path, f"a strategy is a mapping, not the text {item!r}; a key needs a space after its colon: `{key}: {value.strip()}`"
            )
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
            raise self.error(
                path + ("params",),
                "params is empty; give the parameters (e.g. params: {side: banker, unit: 10}) or leave it out for the defaults",
            )
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise self.error(path + ("params",), f"params must be a mapping of parameter names to values, not {shown(params)}")
        sample = self.sample(path, entry)
        grid = self.grid(path, entry.get("grid"), params, sampled=sample is not None)
        label = self.text(path + ("name",), entry["name"], "name") if "name" in entry else use
        self.check_name(path + ("name",) if "name" in entry else path + ("use",), label, "the label", label=True)
        out = []
        keys = list(grid)
        for choice in grid_choices([len(grid[k]) for k in keys], sample):
            combo = {k: grid[k][i] for k, i in zip(keys, choice, strict=True)}
            picked = {k: path + ("grid", k, i) for k, i in zip(keys, choice, strict=True)}

            def at(param: str | None, key: bool = False, picked: dict[str, KeyPath] = picked) -> tuple[KeyPath, bool]:
                if param in picked:
                    return (picked[param][:-1], True) if key else (picked[param], False)
                if param in params:
                    return path + ("params", param), key
                return path + ("use",), False

            cls, full = self.configure(reg, use, {**params, **combo}, at)
            name = label + ("[" + ",".join(f"{k}={label_value(v)}" for k, v in combo.items()) + "]" if combo else "")
            self.check_strategy(use, cls, full, rules, session, has_cards, at, label=name)
            here = path + ("name",) if "name" in entry else path + ("use",)
            self.check_name(here, name, "the label", label=True)
            if name in labels:
                raise self.error(
                    here, f"two strategies are labelled {name!r} (the first at {self.line_of(labels[name])}); give each its own `name:`"
                )
            labels[name] = here
            written = self.doc.where(path + ("use",))
            out.append(StrategyEntry(name, use, full, (written.source, written.line, written.column)))
        return out

    def sample(self, path: KeyPath, entry: dict[str, Any]) -> tuple[int, int] | None:
        """Return an entry's ``sample: {count: N, seed: S}`` (N combinations of its grid drawn at random), checked."""
        if "sample" not in entry:
            return None
        here, value = path + ("sample",), entry["sample"]
        if "grid" not in entry:
            raise self.error(here, "sample draws combinations of a grid: give the entry a grid: too, or leave sample out", key=True)
        section = self.section(here, value, ("count", "seed"), "sample")
        if "count" not in section:
            raise self.error(
                here, "sample needs a count: the number of the grid's combinations to draw, e.g. sample: {count: 100, seed: 1}"
            )
        count = self.integer(here + ("count",), section["count"], "sample.count", 1, MAX_GRID)
        seed = self.integer(here + ("seed",), section.get("seed", 0), "sample.seed", 0, MAX_SEED)
        return count, seed

    def grid(self, path: KeyPath, value: Any, params: dict[str, Any], sampled: bool = False) -> dict[str, list[Any]]:
        """Return an entry's ``grid:`` (parameter name to the list of values to try), checked.

        A sampled grid (``sample:``) may be of any size: only its sample is made.
        """
        if value is None:
            return {}
        if not isinstance(value, dict) or not value:
            raise self.error(path + ("grid",), "grid must be a mapping of parameter names to lists of values, e.g. grid: {unit: [5, 10]}")
        for key, values in value.items():
            here = path + ("grid", key)
            if key in params:
                raise self.error(here, f"the parameter {key!r} is both in params and in grid; keep one", key=True)
            if not isinstance(values, list) or not values:
                raise self.error(here, f"grid.{key} must be a non-empty list of values to try, not {shown(values)}")
            for index, item in enumerate(values):
                if item in values[:index]:
                    raise self.error(here + (index,), f"grid.{key} lists {shown(item)} twice")
        combinations = math.prod(len(values) for values in value.values())
        if combinations > MAX_GRID and not sampled:
            sizes = " x ".join(f"{len(values):,}" for values in value.values())
            raise self.error(
                path + ("grid",),
                f"grid makes {combinations:,} strategies ({sizes} values), more than the {MAX_GRID:,} one entry may make; "
                "try fewer values, or draw some at random with sample: {count: N, seed: S}",
            )
        return value

    def configure(self, reg: Any, use: str, given: dict[str, Any], at: Callable[..., tuple[KeyPath, bool]]) -> tuple[type, dict[str, Any]]:
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
            elif is_number(default):
                wrong = None if is_number(value) else "a number"
            elif isinstance(default, str):
                wrong = None if isinstance(value, str) else "text"
            elif isinstance(default, list | tuple):
                wrong = None if isinstance(value, list | tuple) else "a list"
            if wrong:
                where, _ = at(param)
                raise self.error(where, f"parameter {param!r} of strategy {use!r} must be {wrong}, not {shown(value)}", cls=StrategyError)
        return cls, full

    def check_strategy(
        self,
        use: str,
        cls: type,
        params: dict[str, Any],
        rules: Rules,
        session: SessionConfig,
        has_cards: bool,
        at: Callable[..., tuple[KeyPath, bool]],
        label: str | None = None,
    ) -> None:
        """Make the strategy once with these parameters and check the bets it may place against the table.

        ``label`` (default ``use``) is the strategy's label in the experiment: what its play on the sample shoe is called.
        """

        unwritable = next((name for name, value in params.items() if not yaml_ready(value)), None)
        if unwritable is not None:
            raise self.error(
                at(unwritable)[0],
                f"strategy {use!r} has the parameter {unwritable!r} = {params[unwritable]!r}, which experiment.yaml cannot hold "
                "(YAML holds numbers, text, true/false, lists and mappings); its plugin must give a plain value",
                cls=StrategyError,
            )

        if not plays_in_player(cls):  # the framework's own strategies are made here; a plugin's only in its players (trial)
            try:
                cls(session.sample_session(rules), **params)
            except ParameterError as exc:
                raise self.error(at(exc.param)[0], exc.message, cls=StrategyError) from None
            except Exception as exc:
                message = str(exc) or type(exc).__name__
                named = next((p for p in params if message.startswith((f"{p} ", f"{p}:", f"'{p}'", f"{p!r}"))), None)
                raise self.error(at(named)[0], f"strategy {use!r} refuses its parameters: {message}", cls=StrategyError) from None
        unit = params.get("unit")
        table_min, table_max = session.table_min_cents / CENTS_PER_UNIT, session.table_max_cents / CENTS_PER_UNIT
        if is_number(unit) and Decimal(str(unit)) * CENTS_PER_UNIT < session.table_min_cents:
            raise self.error(
                at("unit")[0],
                f"unit {unit} is below the table minimum {table_min:g} (session.table_min): every bet would be refused",
                cls=StrategyError,
            )
        if is_number(unit) and Decimal(str(unit)) * CENTS_PER_UNIT > session.table_max_cents:
            raise self.error(
                at("unit")[0],
                f"unit {unit} is above the table maximum {table_max:g} (session.table_max): every bet would be cut to it",
                cls=StrategyError,
            )
        try:
            check_bets_offered(sides_under(cls, params, rules), rules, has_cards)
        except RulesError as exc:
            where = at("side")[0] if "side" in params else at(None)[0]
            raise self.error(where, exc.message, cls=RulesError) from None
        except Exception as exc:  # the plugin's sides() itself
            raise self.error(
                at(None)[0],
                f"strategy {use!r}: its sides() raised {type(exc).__name__}: {exc}{raised_at(exc, code_homes([cls]))}",
                cls=StrategyError,
            ) from None
        self.trial(use, cls, params, rules, session, at, label)

    def trial(
        self,
        use: str,
        cls: type,
        params: dict[str, Any],
        rules: Rules,
        session: SessionConfig,
        at: Callable[..., tuple[KeyPath, bool]],
        label: str | None = None,
    ) -> None:
        """Play the strategy on one sample shoe, twice, so that a bet it cannot place is reported here, before the run.

        What it did wrong names it by ``label`` (default ``use``), as the run would.

        A plugin's strategy plays in two fresh player processes
        (:mod:`baccarat.players.process`), which start from the same state:
        should they bet differently, the strategy draws on something other
        than its own random stream (the clock, a process id), and is refused.
        """

        if self.trial_shoe is None:
            self.trial_shoe = _trial_shoe(rules)
        table, multipliers = self.trial_shoe
        config = dataclasses.replace(session, shoes_per_session=1, rounds=None, new_shoe=False)  # the whole sample shoe
        seats = None
        if plays_in_player(cls):
            limit = answer_seconds()

            def seats(run: StrategyRun, opening: Any) -> Any:
                return PlayerSeat(host_for(tuple(self.plugins_dirs), rules), use, params, opening, limit)

        try:
            plays = [
                run_strategy(StrategyRun(label or use, cls, params), table, multipliers, rules, config, 0, seats=seats) for _ in range(2)
            ]
        except StrategyError as exc:
            what = re.sub(r" \(session \d+, shoe [^()]*\)$", "", exc.message)
            named = next((p for p, v in params.items() if isinstance(v, str) and repr(v) in what), None)
            raise self.error(at(named)[0], f"{what}, on a sample shoe tried before the run", cls=StrategyError) from None
        try:
            check_independent(use, plays)
        except StrategyError as exc:
            raise self.error(at(None)[0], exc.message, cls=StrategyError) from None


def grid_choices(sizes: list[int], sample: tuple[int, int] | None) -> list[tuple[int, ...]]:
    """The combinations of a grid of ``sizes`` values per parameter to make, as value indices, in grid order.

    Without a sample, every combination; with ``(count, seed)``, ``count`` of
    them drawn without replacement by a generator seeded with ``seed`` (the
    same every run), never listing the whole grid: a grid of any size may be
    sampled. A count of at least the grid's size takes every combination.
    """
    if sample is None:
        return list(itertools.product(*(range(n) for n in sizes)))
    total = math.prod(sizes)
    count, seed = sample
    drawn = range(total) if count >= total else sorted(random.Random(seed).sample(range(total), count))
    choices = []
    for index in drawn:
        choice = []
        for n in reversed(sizes):
            index, digit = divmod(index, n)
            choice.append(digit)
        choices.append(tuple(reversed(choice)))
    return choices


MAX_GRID = 10_000
"""Most strategies one entry's ``grid:`` may make (each is checked on a sample shoe, then played on every shoe)."""


def check_independent(use: str, plays: list[dict[str, np.ndarray]]) -> None:
    """Refuse a strategy that bet differently on the same sample shoe in two fresh players (or twice in this process).

    The same seed must give the same results: otherwise they change from run
    to run, and depend on which process played which sessions.
    """

    row = first_difference(plays[0], plays[1])
    if row is not None:
        raise StrategyError(
            f"strategy {use!r} played the same sample shoe in two fresh players and bet differently (round "
            f"{plays[0]['round'][row] if row < len(plays[0]['round']) else row + 1}): it is not deterministic, so "
            "results would change from run to run; draw random numbers from session.rng, the session's seeded stream"
        )


def _trial_shoe(rules: Rules) -> tuple[Any, dict[str, np.ndarray]]:
    """Return a small seeded table of about 80 rounds under ``rules``, and its settlement (bets defined by the rules' registry)."""

    table = seeded_table(rules, 0, 1, 80 if rules.reshuffle_every_round else 1)
    settled = settlement_table(table, rules)
    again = settlement_table(table, rules)  # a bet settles the same rounds the same way every time
    changing = next((bet for bet in settled if not np.array_equal(settled[bet], again.get(bet))), None)
    if changing is not None:
        raise StrategyError(
            f"bet {changing!r} settled the same sample rounds differently when asked twice: its wins (or pushes) is not "
            "deterministic, so results would change from run to run; a bet must follow from the round alone"
        )
    return table, settled
