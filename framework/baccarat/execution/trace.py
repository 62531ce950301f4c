"""One session of one strategy, round by round, with the state of its pieces: what ``baccarat trace`` prints.

The session is played on the reference engine exactly as a run plays it
(same shoes, same random stream); a thin wrapper notes the strategy's state
after each round in which it was asked for bets or told their result. The
last line says what ended the session's betting, and in which round: a stop
rule of the strategy or a session rule (``session.win_goal``,
``session.stop_loss``), named as ``stopped_by`` of a run's sessions table
names it, ruin, or nothing before the session's last round.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from baccarat.engine.reference import SESSION_RULES, SessionConfig, StrategyRun, end_names, run_strategy
from baccarat.errors import InputError, did_you_mean
from baccarat.money import MICROS_PER_CENT, cents_to_decimal, micros_to_decimal
from baccarat.plugin.strategy import Strategy
from baccarat.plugin.vector import VectorStrategy, is_vector
from baccarat.shoes.rounds import RoundTable
from baccarat.table.dealer import OUTCOMES
from baccarat.table.rules import Rules


@dataclasses.dataclass(frozen=True)
class TracedRound:
    """One round of a traced session: where, what happened, the money, and the strategy's state after it."""

    round: int
    shoe: int
    hand: int
    outcome: str
    bets: str
    stake: int
    """Cents."""
    net: int
    """Micro-units."""
    bankroll: int
    """Micro-units."""
    state: str
    stopped_by: str = ""
    """What ended the session's betting in this round (``stopped_by`` of the sessions table), else empty."""


def describe_state(strategy: Any) -> str:
    """Return a strategy's state as ``name=value`` pairs: a composed strategy's progression, selector and stop rules."""
    from baccarat.plugin.compose import Composed, StopRuled

    if isinstance(strategy, Composed):
        parts = [_fields(strategy.stakes, ("session", "unit")), _fields(strategy.chooser, ("session",))]
        parts += [_fields(rule, ("session",)) for rule in strategy.stops]
        parts.append("stopped" if strategy.stopped else "")
    elif isinstance(strategy, StopRuled):
        parts = [describe_state(strategy.strategy)] + [_fields(rule, ("session",)) for rule in strategy.stops]
        parts.append("stopped" if strategy.stopped else "")
    else:
        parts = [_fields(strategy, ("session",))]
    return "  ".join(part for part in parts if part)


def _shown(value: Any) -> str:
    """A state value as the trace shows it: amounts as plain numbers (``10``, ``-2.5``), lists of them likewise."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    return repr(value)


def _fields(piece: Any, skip: Sequence[str]) -> str:
    values = vars(piece) if hasattr(piece, "__dict__") else {}
    out = []
    for key, value in values.items():
        if key in skip or key.startswith("_") or callable(value):
            continue
        text = _shown(value)
        out.append(f"{key}={text if len(text) <= 40 else text[:37] + '...'}")
    return " ".join(out)


def traced(cls: type[Strategy], states: dict[tuple[int, int], str]) -> type[Strategy]:
    """Return a strategy class that plays ``cls`` and writes its state after each round into ``states[(session, round)]``."""

    class Traced(Strategy):
        name = cls.name
        stop_rules = getattr(cls, "stop_rules", ())  # the engine logs which of them stopped a session, as in a run

        def __init__(self, session: Any, **params: Any) -> None:
            self.inner = cls(session, **params)
            states[(session.number, 0)] = describe_state(self.inner)

        @property
        def stopped_by(self) -> str | None:
            """The name of the stop rule of the strategy's that stopped its betting, if one did."""
            return getattr(self.inner, "stopped_by", None)

        def bets(self, view: Any) -> Any:
            wanted = self.inner.bets(view)
            states[(view.session, view.round)] = describe_state(self.inner)
            return wanted

        def settle(self, view: Any, nets: Mapping[str, int]) -> None:
            self.inner.settle(view, nets)
            states[(view.session, view.round)] = describe_state(self.inner)

    return Traced


def traced_vector(cls: type[VectorStrategy], states: dict[tuple[int, int], str]) -> type[VectorStrategy]:
    """Return a vectorised strategy class that plays ``cls`` and writes its state after each round into ``states``.

    A trace plays one session: the chunk is that session alone, and the state
    shown is each of the strategy's per-session arrays at that session (its
    other attributes as they are), once it has given the round's bets: a
    vectorised strategy learns a round's result when it is next asked.
    """

    class TracedVector(VectorStrategy):
        name = cls.name

        def __init__(self, chunk: Any, **params: Any) -> None:
            self.inner = cls(chunk, **params)
            self.number, self.size = (int(chunk.sessions[0]) if chunk.size else 0), chunk.size
            states[(self.number, 0)] = describe_vector_state(self.inner, self.size)

        def bets(self, rounds: Any) -> Any:
            wanted = self.inner.bets(rounds)
            states[(self.number, rounds.round)] = describe_vector_state(
                self.inner, self.inner.chunk.size if hasattr(self.inner, "chunk") else 1
            )
            return wanted

    return TracedVector


def describe_vector_state(strategy: Any, size: int) -> str:
    """Return a vectorised strategy's state at the first session: each array of one entry per session, at that session."""
    values = vars(strategy) if hasattr(strategy, "__dict__") else {}
    out = []
    for key, value in values.items():
        if key == "chunk" or key.startswith("_") or callable(value):
            continue
        if isinstance(value, np.ndarray) and value.ndim >= 1 and len(value) == size and size:
            value = value[0].tolist()
        text = _shown(value)
        out.append(f"{key}={text if len(text) <= 40 else text[:37] + '...'}")
    return " ".join(out)


def play_traced(
    run: StrategyRun,
    table: RoundTable,
    multipliers: Mapping[str, np.ndarray],
    rules: Rules,
    config: SessionConfig,
    seed: int,
    session: tuple[int, int, int],
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Play one session of ``run`` on the reference engine; return its ledger columns and the state after each round."""
    states: dict[tuple[int, int], str] = {}
    wrapped = traced_vector(run.cls, states) if is_vector(run.cls) else traced(run.cls, states)
    columns = run_strategy(StrategyRun(run.label, wrapped, run.params), table, multipliers, rules, config, seed, [session])
    number, start, stop = session
    after = []
    state = states.get((number, 0), "")
    for k in range(1, stop - start + 1):
        state = states.get((number, k), state)
        after.append(state)
    return columns, after


def session_table(experiment: Any, number: int) -> tuple[RoundTable, tuple[int, int, int]]:
    """Return the rounds of session ``number`` of the experiment (its first seed) and its bounds in them."""
    from baccarat.engine.reference import session_bounds
    from baccarat.shoes.compiled_deal import seeded_table_compiled

    per_session = experiment.session.shoes_per_session
    shoes = experiment.shoes
    if experiment.session.rounds is not None:
        return _round_session(experiment, number)
    if shoes["source"] == "seeded":
        count = int(shoes["count"])
        sessions = math.ceil(count / per_session)
        _check_session(number, sessions)
        first = (number - 1) * per_session + 1
        table = seeded_table_compiled(experiment.rules, experiment.seeds[0], first, min(per_session, count - first + 1))
        return table, (number, 0, len(table))
    from baccarat.execution.runner import recorded_path
    from baccarat.shoes.recorded import read_shoes

    table = read_shoes(recorded_path(experiment), shoes["format"], experiment.rules).table
    bounds = session_bounds(table, per_session)
    _check_session(number, len(bounds))
    return table, bounds[number - 1]


def _round_session(experiment: Any, number: int) -> tuple[RoundTable, tuple[int, int, int]]:
    """Session ``number`` of an experiment whose sessions are ``session.rounds`` rounds: its rounds and bounds in them."""
    from baccarat.engine.sessions import played_rows, sessions_of

    shoes = experiment.shoes
    if shoes["source"] == "seeded":
        from baccarat.shoes.compiled_deal import seeded_table_compiled

        table = seeded_table_compiled(experiment.rules, experiment.seeds[0], 1, int(shoes["count"]))
    else:
        from baccarat.execution.runner import recorded_path
        from baccarat.shoes.recorded import read_shoes

        table = read_shoes(recorded_path(experiment), shoes["format"], experiment.rules).table
    sessions = sessions_of(table, experiment.session)
    _check_session(number, len(sessions))
    part, bounds = played_rows(table, [sessions[number - 1]])
    return part, bounds[0]


def _check_session(number: int, sessions: int) -> None:
    if not 1 <= number <= sessions:
        raise InputError(f"--session {number} is not a session of this experiment: its sessions are 1 to {sessions}")


def trace_session(experiment: Any, label: str, number: int = 1) -> list[TracedRound]:
    """Play session ``number`` of the strategy labelled ``label`` and return its rounds with the strategy's state."""
    from baccarat.execution.runner import strategy_runs
    from baccarat.odds.settlement import settlement_table

    runs = {run.label: run for run in strategy_runs(experiment)}
    if label not in runs:
        raise InputError(
            f"the experiment has no strategy labelled {label!r}{did_you_mean(label, list(runs))}; "
            f"its strategies are {', '.join(map(repr, runs))}"
        )
    table, session = session_table(experiment, number)
    settled = settlement_table(table, experiment.rules)
    columns, states = play_traced(runs[label], table, settled, experiment.rules, experiment.session, experiment.seeds[0], session)
    bets = [name[len("stake_") :] for name in columns if name.startswith("stake_")]
    names = ("", *end_names(traced(runs[label].cls, {})))
    out = []
    for k in range(len(columns["round"])):
        placed = " ".join(bet for bet in bets if columns[f"stake_{bet}"][k]) or "-"
        out.append(
            TracedRound(
                int(columns["round"][k]),
                int(columns["shoe"][k]),
                int(columns["hand"][k]),
                OUTCOMES[int(columns["outcome"][k])],
                placed,
                int(columns["stake"][k]),
                int(columns["net"][k]),
                int(columns["bankroll"][k]),
                states[k],
                names[int(columns["stopped_by"][k])],
            )
        )
    return out


def money(micros: int) -> str:
    """An amount in micro-units, with two decimals unless it needs more (0.0475)."""
    value = micros_to_decimal(micros).normalize()
    return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else f"{value:f}"


def ending(rounds: Sequence[TracedRound], table_min_cents: int) -> str:
    """Say what ended the session's betting and in which round: a stop rule or session rule by its ``stopped_by`` name,
    ruin (a bankroll below the table minimum), or nothing before its last round."""
    for r in rounds:
        if r.stopped_by in SESSION_RULES:  # the dealer's, once the round is settled
            return f"ended by {r.stopped_by} after round {r.round} was settled, bankroll {money(r.bankroll)}: no bet after it"
        if r.stopped_by:  # the strategy's, before its bet
            return f"ended by {r.stopped_by} in round {r.round}, before its bet, bankroll {money(r.bankroll)}: no bet from it on"
        if r.bankroll < table_min_cents * MICROS_PER_CENT:
            return (
                f"ruined in round {r.round}: bankroll {money(r.bankroll)}, below the table minimum "
                f"{money(table_min_cents * MICROS_PER_CENT)}: no bet after it"
            )
    last = f"round {rounds[-1].round}, bankroll {money(rounds[-1].bankroll)}" if rounds else "no round"
    return f"not ended by a rule or ruin: played to its last {last}"


def format_trace(label: str, number: int, rounds: Sequence[TracedRound], bankroll_cents: int, table_min_cents: int = 0) -> str:
    """Return the traced session as a table, one line per round, then what ended it (:func:`ending`)."""
    shoes = sorted({r.shoe for r in rounds})
    header = (
        f"strategy {label!r}, session {number}: {len(rounds)} rounds from shoe"
        f"{'s' if len(shoes) > 1 else ''} {', '.join(map(str, shoes)) or '-'}; "
        f"bankroll {cents_to_decimal(bankroll_cents)}"
    )
    rows = [("ROUND", "SHOE", "HAND", "OUTCOME", "BET", "STAKE", "NET", "BANKROLL", "STATE")]
    for r in rounds:
        net = money(r.net)
        rows.append(
            (
                str(r.round),
                str(r.shoe),
                str(r.hand),
                r.outcome,
                r.bets,
                money(r.stake * MICROS_PER_CENT),
                ("+" + net) if r.net > 0 else net,
                money(r.bankroll),
                r.state,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(8)]
    right = {0, 1, 2, 5, 6, 7}
    lines = [header]
    for row in rows:
        cells = [cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row[:8], widths, strict=True))]
        lines.append(("  ".join(cells) + "  " + row[8]).rstrip())
    lines.append(ending(rounds, table_min_cents))
    return "\n".join(lines)
