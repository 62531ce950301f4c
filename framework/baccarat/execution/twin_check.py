"""``baccarat strategies check NAME``: play a piece's reference and compiled twins on seeded shoes and compare.

A piece is checked inside a composed strategy: a progression on ``banker``
(or the first fixed side with a twin), a selector and a stop rule under
``martingale`` (or the first progression with a twin), each with its
defaults; a stop rule's parameters are 50 unless given. It is played under
several session settings that reach the table maximum, the bankroll caps and
ruin. The report says that the ledgers are identical, with both speeds, or
where they first differ: session, shoe, hand and round, both stakes and both
states.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Mapping
from typing import Any

from baccarat.engine.differences import first_difference
from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
from baccarat.engine.strategy_twin import TwinError, twin_of
from baccarat.engine.twin_play import play_twin
from baccarat.errors import BaccaratError, InputError, StrategyError, did_you_mean
from baccarat.execution.trace import money, play_traced
from baccarat.money import MICROS_PER_CENT, cents_to_decimal
from baccarat.odds.settlement import settlement_table
from baccarat.plugin.manager import registry
from baccarat.plugin.registry import Registry
from baccarat.shoes.compiled_deal import seeded_table_compiled
from baccarat.table.rules import preset

CONFIGS = (
    SessionConfig(100_000, 1_000, 100_000, 1),  # plenty of bankroll
    SessionConfig(20_000, 1_000, 8_000, 2),  # table-maximum restarts, ruin, two shoes a session
    SessionConfig(4_000, 500, 3_000, 3),
)  # bankroll caps
"""Session settings every check plays (bankroll, table minimum and maximum in cents, shoes a session)."""

RULES = "punto-banco-8-pairs"
SEED = 1
STOP_RULE_VALUE = 50
"""The value of each parameter of a checked stop rule, unless given."""


@dataclasses.dataclass
class CheckResult:
    """What a check found: whether the ledgers are identical, and the lines to print."""

    identical: bool
    lines: list[str]


def _with_twin(reg: Registry, kind: str, preferred: str) -> str | None:
    """The name of a piece of ``kind`` that has a compiled twin, ``preferred`` when it has one."""
    twins = reg.twins()
    entries = reg.entries[kind]
    if preferred in entries and entries[preferred].cls in twins:
        return preferred
    return next((name for name, entry in entries.items() if entry.cls in twins), None)


def composed_for(reg: Registry, name: str, params: Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """Return the kind of piece ``name``, and the ``use:`` and parameters of the composed strategy that checks it."""
    kind = next((k for k in ("progression", "selector", "stop-rule", "strategy") if name in reg.entries[k]), None)
    if kind is None:
        every = [n for table in reg.entries.values() for n in table]
        raise StrategyError(
            f"no progression, selector, stop rule or strategy is named {name!r}"
            f"{did_you_mean(name, every)}; `baccarat strategies` lists them"
        )
    entry = reg.entries[kind][name]
    if kind == "strategy":
        raise StrategyError(
            f"{name!r} is a free-form strategy of {entry.plugin}: it has no compiled twin and runs on "
            "the reference engine; progressions, selectors and stop rules can have one"
        )
    if entry.cls not in reg.twins():
        raise StrategyError(
            f"{kind} {name!r} of {entry.plugin} has no compiled twin: it runs on the reference "
            "engine (docs/plugins.md shows how to give it one)"
        )
    side = _with_twin(reg, "selector", "banker")
    use = _with_twin(reg, "progression", "martingale")
    if kind == "progression":
        use = name
    elif kind == "selector":
        side = name
    if side is None or use is None:
        raise StrategyError(f"no {'selector' if side is None else 'progression'} has a compiled twin to check {kind} {name!r} with")
    full = {"side": side, "unit": 10}
    if kind == "stop-rule":
        full.update(dict.fromkeys(entry.cls.params, STOP_RULE_VALUE))
    full.update(params)
    return kind, use, full


def _check_params(name: str, cls: type, params: dict[str, Any], rules: Any) -> None:
    """Make the strategy once, as a run does before it plays: parameters it refuses are an InputError naming them."""

    config = CONFIGS[0]
    info = config.sample_session(copy.deepcopy(rules))  # what its __init__ does to them stays there
    try:
        cls(info, **params)
    except Exception as exc:
        raise InputError(f"--param: {name!r} refuses its parameters: {str(exc).strip() or type(exc).__name__}") from None


def check_piece(name: str, plugins_dirs: list[str], shoes: int, params: Mapping[str, Any] | None = None) -> CheckResult:
    """Play piece ``name`` on both paths over ``shoes`` seeded shoes under each of :data:`CONFIGS`; report."""
    reg = registry(plugins_dirs)
    kind, use, full = composed_for(reg, name, params or {})
    cls, full = reg.configure(use, full)
    rules = dataclasses.replace(preset(RULES), bet_registry=reg.bet_registry)  # the bets of the plugins loaded
    _check_params(name, cls, full, rules)
    run = StrategyRun(f"check {name}", cls, full)
    table = seeded_table_compiled(rules, SEED, 1, shoes)
    multipliers = settlement_table(table, rules)
    what = f"{kind} {name!r} (use: {use}, {', '.join(f'{k}: {v}' for k, v in full.items() if v is not None)})"
    lines = [f"checking {what} on {shoes:,} seeded shoes ({RULES}, seed {SEED}) under {len(CONFIGS)} session settings"]
    rounds = fast_seconds = reference_seconds = 0.0
    for config in CONFIGS:
        setting = (
            f"bankroll {cents_to_decimal(config.bankroll_cents)}, table {cents_to_decimal(config.table_min_cents)}"
            f"-{cents_to_decimal(config.table_max_cents)}, {config.shoes_per_session} shoe(s) a session"
        )
        sessions = session_bounds(table, config.shoes_per_session)
        try:
            twin = twin_of(run, rules, config, SEED)
            if twin is None:
                raise TwinError("a piece of the strategy has no compiled twin")
            play_twin(twin, run, table, multipliers, config, SEED, sessions[:1])  # compile before timing
            start = time.process_time()
            played = play_twin(twin, run, table, multipliers, config, SEED, sessions)
            fast_seconds += time.process_time() - start
        except BaccaratError as exc:
            return CheckResult(False, lines + [f"the compiled twin cannot play ({setting}): {exc}"])
        start = time.process_time()
        try:
            reference = run_strategy(run, table, multipliers, rules, config, SEED, sessions)
        except BaccaratError as exc:
            return CheckResult(False, lines + [f"the reference stops ({setting}): {exc}"])
        reference_seconds += time.process_time() - start
        if played is None:
            return CheckResult(
                False,
                lines
                + [
                    f"the compiled twin leaves this strategy to the reference ({setting}): "
                    "amounts beyond 64-bit integers, or a bet the reference refuses"
                ],
            )
        row = first_difference(played[0], reference)
        if row is not None:
            return CheckResult(
                False, lines + _difference(run, table, multipliers, rules, config, twin, sessions, played[0], reference, row, setting)
            )
        rounds += len(reference["round"])
    lines.append(
        f"identical ledgers: {int(rounds):,} rounds, every column equal; compiled "
        f"{rounds / max(fast_seconds, 1e-9) / 1e6:,.1f} M rounds/s, reference "
        f"{rounds / max(reference_seconds, 1e-9) / 1e6:,.2f} M rounds/s"
    )
    return CheckResult(True, lines)


def _difference(
    run: StrategyRun,
    table: Any,
    multipliers: Any,
    rules: Any,
    config: SessionConfig,
    twin: Any,
    sessions: list[tuple[int, int, int]],
    fast: Mapping[str, Any],
    reference: Mapping[str, Any],
    row: int,
    setting: str,
) -> list[str]:
    """Describe the first differing ledger row: where, both stakes and nets, both states after that round."""
    number = int(reference["session"][row])
    session = next(s for s in sessions if s[0] == number)
    through = (number, session[1], session[1] + int(reference["round"][row]))  # the session up to that round
    _, states = play_traced(run, table, multipliers, rules, config, SEED, through)
    played = play_twin(twin, run, table, multipliers, config, SEED, [through])
    compiled = "  ".join(f"{piece} {values.tolist()}" for piece, values in played[1].items()) if played else "-"
    differ = [name for name in reference if (fast[name][row] != reference[name][row])]
    return [
        f"the ledgers differ ({setting}) at session {number}, shoe {reference['shoe'][row]}, "
        f"hand {reference['hand'][row]}, round {reference['round'][row]} (columns {', '.join(differ)}):",
        f"  reference: stake {money(int(reference['stake'][row]) * MICROS_PER_CENT)}, net {money(int(reference['net'][row]))}, "
        f"state after the round: {states[-1] or '-'}",
        f"  compiled:  stake {money(int(fast['stake'][row]) * MICROS_PER_CENT)}, net {money(int(fast['net'][row]))}, "
        f"state after the round: {compiled}",
    ]
