"""The rules of a table as one frozen value, and the named rule presets.

Presets are YAML files shipped in ``configs/rules/`` (installed as the
``baccarat.presets`` package data) and usable by name, e.g. ``punto-banco-8``.
Payouts are exact fractions "to one" (8 means 8:1, 0.5 means 1:2); every
payout and the commission must be a whole number of basis points of a stake,
so that a whole-cent stake always settles to an exact number of micro-units.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from baccarat.errors import RulesError, did_you_mean
from baccarat.money import BASIS_POINTS, EXACT
from baccarat.table.bet_registry import BetRegistry, built_in_bets

MAIN_BETS: tuple[str, ...] = ("banker", "player", "tie")
"""Bets every table offers."""

REBATE_FIELDS: tuple[str, ...] = ("rolling_rebate", "loss_rebate")
"""The rule fields of what the house gives back (shares of the amount wagered and of a session's net loss), 0 by default."""


STANDARD = "standard"
"""A side bet's value in ``side_bets`` meaning its standard pay table (``docs/side-bets.md``)."""


MAX_RATIO_TERM = 10**9
"""Largest number a payout or rate may be written with; every term is checked before any arithmetic on it."""


def _term(text: str, what: str, value: Any) -> Fraction:
    """Read one number of a payout or rate, refusing an absurd size before it is expanded (``1e999999999``)."""
    try:
        number = Decimal(text.strip(), EXACT)  # holds the exponent as written, expands nothing
    except ArithmeticError:
        number = Decimal("NaN") if "e" not in text.lower() else Decimal("Infinity")
    if number.is_nan():
        raise ValueError(text)
    if number.is_infinite() or abs(number) > MAX_RATIO_TERM or (number != 0 and number.adjusted() < -MAX_DIGITS):
        raise RulesError(
            f"{what} must be a number of sensible size (at most {MAX_RATIO_TERM:,}, at least 1e-{MAX_DIGITS} when not 0), not {value!r}"
        )
    return Fraction(number)


MAX_DIGITS = 12
"""Finest a payout or rate may be written (1e-12); a whole number of basis points needs only four places."""


def parse_ratio(value: Any, what: str) -> Fraction:
    """Read a payout or rate: a number (``8``, ``0.05``), ``"8:1"``, ``"1:2"`` or ``"5%"``."""
    if isinstance(value, bool):
        raise RulesError(f"{what} must be a number, not {value!r}")
    try:
        if isinstance(value, str):
            text = value.strip()
            if text.endswith("%"):
                return _term(text[:-1], what, value) / 100
            if ":" in text:
                win, stake = text.split(":", 1)
                return _term(win, what, value) / _term(stake, what, value)
            if "/" in text:
                top, bottom = text.split("/", 1)
                return _term(top, what, value) / _term(bottom, what, value)
            return _term(text, what, value)
        if isinstance(value, float | int):
            return _term(repr(value) if isinstance(value, float) else str(value), what, value)
        return Fraction(value)
    except (ValueError, ZeroDivisionError, TypeError, OverflowError):
        raise RulesError(f"{what} must be a number, a ratio like '8:1' or a percentage, not {value!r}") from None


def _whole_basis_points(value: Fraction, what: str) -> Fraction:
    if (value * BASIS_POINTS).denominator != 1:
        raise RulesError(f"{what} {_shown(value)} is not a whole number of basis points (0.0001) of a stake")
    return value


def _shown(value: Fraction) -> str:
    """Return a rule's number for a message: whole numbers as such, others as a short decimal."""
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value)) if abs(value) < 10**300 else str(value)


MAX_PAYS = Fraction(10_000)
"""Largest payout a rule may give a winning bet (10000:1), so that every result is kept exactly."""


def _payout(value: Fraction, what: str) -> Fraction:
    """Check a winning bet's payout: more than 0, at most :data:`MAX_PAYS`, in whole basis points."""
    if not 0 < value <= MAX_PAYS:
        shown = _shown(value)
        raise RulesError(f"{what} must pay more than 0 and at most {int(MAX_PAYS):,}:1, not {shown}")
    return _whole_basis_points(value, what)


@dataclasses.dataclass(frozen=True)
class Rules:
    """Everything that decides how a shoe is dealt and how bets are settled."""

    name: str = "punto-banco-8"
    decks: int = 8
    burn: bool = True
    cut_card: int = 14
    reshuffle_every_round: bool = False
    commission: Fraction = Fraction(1, 20)
    tie_pays: Fraction = Fraction(8)
    banker_three_card_seven_pushes: bool = False
    banker_six_pays: Fraction | None = None
    side_bets: Mapping[str, Fraction] = dataclasses.field(default_factory=dict)
    rolling_rebate: Fraction = Fraction(0)
    """What the house gives back on turnover ("rolling chip"): this share of every amount wagered, win, push or lose.

    Not settled in the ledger (a casino pays it apart from the bets, usually at the end of a session or a trip);
    ``baccarat odds`` and ``baccarat plan`` price it (:mod:`baccarat.odds.rebates`)."""
    loss_rebate: Fraction = Fraction(0)
    """What the house gives back on losses: this share of a session's net loss (nothing on a session in profit).

    Not settled in the ledger; ``baccarat plan`` prices it exactly from the session's distribution, ``baccarat odds``
    per bet as if it were paid on every losing bet (:mod:`baccarat.odds.rebates`)."""
    bet_registry: BetRegistry = dataclasses.field(default=None, repr=False, kw_only=True)  # type: ignore[assignment]
    """The bets these rules were parsed against: what each side bet means and pays (:mod:`baccarat.table.bet_registry`).

    The plugin registry's bets (:attr:`baccarat.plugin.registry.Registry.bet_registry`)
    when given, else the built-in bets alone (:func:`baccarat.table.bet_registry.built_in_bets`).
    Settlement, exact odds, expected values and counting read a bet's
    definition from here. Not a rule field: never written to a rules file.
    """

    def __post_init__(self) -> None:
        if self.bet_registry is None:
            object.__setattr__(self, "bet_registry", built_in_bets())
        if not 1 <= self.decks <= 8:
            raise RulesError(f"decks must be between 1 and 8, not {self.decks}")
        if not self.reshuffle_every_round and not 6 <= self.cut_card < 52 * self.decks:
            raise RulesError(f"cut_card must be between 6 and {52 * self.decks - 1} cards from the end, not {self.cut_card}")
        if not 0 <= self.commission < 1:
            raise RulesError(f"commission must be at least 0 and below 1, not {_shown(self.commission)}")
        _whole_basis_points(self.commission, "commission")
        for name in REBATE_FIELDS:
            share = getattr(self, name)
            if not 0 <= share < 1:
                raise RulesError(f"{name} must be at least 0 and below 1, not {_shown(share)}")
            _whole_basis_points(share, name)
        _payout(self.tie_pays, "tie_pays")
        if self.banker_six_pays is not None:
            _payout(self.banker_six_pays, "banker_six_pays")
        object.__setattr__(self, "side_bets", {bet: _side_bet_pays(bet, pays, self.bet_registry) for bet, pays in self.side_bets.items()})

    @property
    def bets(self) -> tuple[str, ...]:
        """Every bet this table offers, main bets first."""
        return MAIN_BETS + tuple(b for b in self.bet_registry.side_bet_names() if b in self.side_bets)

    def offers(self, bet: str) -> bool:
        """Tell whether this table takes ``bet``."""
        return bet in MAIN_BETS or bet in self.side_bets

    def to_mapping(self) -> dict[str, Any]:
        """Return the rules as plain YAML-ready values (ratios as strings like ``'1/20'``)."""

        def plain(v: Any) -> Any:
            if isinstance(v, Fraction):
                return int(v) if v.denominator == 1 else str(v)
            return v

        out = {name: getattr(self, name) for name in RULE_FIELDS if name not in REBATE_FIELDS or getattr(self, name)}
        out["side_bets"] = {
            k: {line: plain(p) for line, p in v.items()} if isinstance(v, Mapping) else plain(v) for k, v in self.side_bets.items()
        }
        return {k: plain(v) for k, v in out.items()}


def _side_bet_pays(bet: str, pays: Any, bets: BetRegistry) -> Fraction | dict[str, Fraction]:
    """Check a side bet's pay table: a side bet of ``bets``; one payout, or line -> payout for a bet of several lines."""
    entry = bets.get(bet)
    if entry is None or entry.definition.main:
        names = bets.side_bet_names()
        raise RulesError(f"unknown side bet {bet!r}{did_you_mean(bet, names)}; side bets are {', '.join(names)}")
    definition = entry.definition
    if isinstance(pays, Mapping):
        for line in pays:
            if line not in definition.pays:
                raise RulesError(
                    f"side_bets.{bet}: unknown pay line {line!r}{did_you_mean(str(line), definition.pays)}; "
                    f"its lines are {', '.join(definition.pays)}"
                )
        table = {line: _payout(Fraction(pays.get(line, standard)), f"side_bets.{bet}.{line}") for line, standard in definition.pays.items()}
        return table if not definition.single_line else next(iter(table.values()))
    if not definition.single_line:
        line, standard = next(iter(definition.pays.items()))
        shown = int(standard) if standard.denominator == 1 else float(standard)
        raise RulesError(
            f"side_bets.{bet} has several pay lines ({', '.join(definition.pays)}): give them as a mapping "
            f"such as {{{line}: {shown}}}, or {STANDARD!r} for the standard table"
        )
    return _payout(pays, f"side_bets.{bet}")


def _parse_pays(bet: str, value: Any, bets: BetRegistry) -> Any:
    """Read a side bet's value in ``side_bets``: a payout, a mapping of pay lines to payouts, or ``standard`` (its table in ``bets``)."""
    if isinstance(value, str) and value.strip().lower() == STANDARD:
        entry = bets.get(bet)
        if entry is None:
            return Fraction(1)  # refused as an unknown side bet by Rules
        pays = dict(entry.definition.pays)
        return pays if len(pays) > 1 else next(iter(pays.values()))
    if isinstance(value, Mapping):
        return {str(line): parse_ratio(v, f"side_bets.{bet}.{line}") for line, v in value.items()}
    return parse_ratio(value, f"side_bets.{bet}")


RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "bet_registry")
"""The fields a rules file or mapping may set (the bets the rules are parsed against are not one of them)."""
_RATIO_FIELDS = {"commission", "tie_pays", "banker_six_pays", *REBATE_FIELDS}
_BOOL_FIELDS = {"burn", "reshuffle_every_round", "banker_three_card_seven_pushes"}
_INT_FIELDS = {"decks", "cut_card"}


def rules_from_mapping(data: Mapping[str, Any], base: Rules | None = None, bets: BetRegistry | None = None) -> Rules:
    """Build rules from YAML-like values, starting from ``base`` (or the defaults).

    A mapping may name a preset to start from with ``preset: NAME``. Side
    bets are those of ``bets`` (a plugin registry's); without it, of ``base``'s
    registry, or the built-in bets alone.
    """
    values = dict(data)
    registry = bets if bets is not None else base.bet_registry if base is not None else built_in_bets()
    if "preset" in values:
        base = preset(str(values.pop("preset")))
    fields: dict[str, Any] = {name: getattr(base, name) for name in RULE_FIELDS} if base else {}
    if base is not None:
        fields["side_bets"] = {bet: dict(pays) if isinstance(pays, Mapping) else pays for bet, pays in base.side_bets.items()}
    fields["bet_registry"] = registry
    for key, value in values.items():
        if key not in RULE_FIELDS:
            raise RulesError(f"unknown rule field {key!r}{did_you_mean(key, RULE_FIELDS)}")
        if key in _RATIO_FIELDS:
            fields[key] = None if value is None and key == "banker_six_pays" else parse_ratio(value, key)
        elif key in _BOOL_FIELDS:
            if not isinstance(value, bool):
                raise RulesError(f"{key} must be true or false, not {value!r}")
            fields[key] = value
        elif key in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{key} must be a whole number, not {value!r}")
            fields[key] = value
        elif key == "side_bets":
            if value is None:
                value = {}
            if not isinstance(value, Mapping):
                raise RulesError(f"side_bets must be a mapping of bet to payout, not {value!r}")
            fields[key] = {str(k): _parse_pays(str(k), v, registry) for k, v in value.items()}
        else:
            fields[key] = str(value)
    return Rules(**fields)


def _preset_dir() -> Any:
    """Return the folder of the shipped presets: package data when installed, configs/rules in a checkout."""
    try:
        return resources.files("baccarat.presets")
    except ModuleNotFoundError:  # an editable install maps only top-level packages
        return Path(__file__).resolve().parents[3] / "configs" / "rules"


@cache
def preset_names() -> tuple[str, ...]:
    """Return the names of the shipped rule presets."""
    return tuple(sorted(p.name[:-5] for p in _preset_dir().iterdir() if p.name.endswith(".yaml")))


@cache
def preset(name: str) -> Rules:
    """Return the shipped rule preset called ``name`` (e.g. ``punto-banco-8``)."""
    if name not in preset_names():
        raise RulesError(f"unknown rule preset {name!r}{did_you_mean(name, preset_names())}; presets are {', '.join(preset_names())}")
    import yaml

    data = yaml.safe_load(_preset_dir().joinpath(f"{name}.yaml").read_text(encoding="utf-8"))
    return rules_from_mapping({"name": name, **data})


def load_rules(spec: str | Mapping[str, Any] | Path, bets: BetRegistry | None = None) -> Rules:
    """Return rules from a preset name, a YAML file path, or a mapping of rule fields.

    ``bets``: the bets the rules may offer (a plugin registry's, :attr:`Rules.bet_registry`); without it, the built-in bets.
    """
    if isinstance(spec, Mapping):
        return rules_from_mapping(spec, preset("punto-banco-8") if "preset" not in spec else None, bets)
    text = str(spec)
    if text.endswith((".yaml", ".yml")) or (Path(text).exists() and not Path(text).is_dir()):  # a device: "not a regular file"
        from baccarat.errors import InputError
        from baccarat.files.yamlfile import read_yaml

        path = Path(text)
        try:
            data = read_yaml(path).data  # safe YAML, UTF-8, errors at their line and column
        except InputError as exc:
            message = exc.message.replace("cannot read the file", "cannot read rules file")
            raise RulesError(message, path=exc.path, line=exc.line, column=exc.column) from None
        if not isinstance(data, Mapping):
            raise RulesError("a rules file must hold a mapping of rule fields", path=text)
        data = {"name": path.stem, **data}
        try:
            return load_rules(data, bets)
        except RulesError as exc:
            raise RulesError(exc.message, path=text) from None
    return preset(text) if bets is None else dataclasses.replace(preset(text), bet_registry=bets)


SIDE_BETS: tuple[str, ...] = built_in_bets().side_bet_names()
"""The built-in side bets a rule set may offer (plugins may register more: ``rules.bet_registry.side_bet_names()``)."""
