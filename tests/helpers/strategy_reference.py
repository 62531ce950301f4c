"""An independent reference for the built-in strategies, written from docs/strategies.md.

It shares nothing with the library but the random stream of the ``random``
selector: money is exact ``Fraction`` currency units, each progression is a
few lines of arithmetic on a state dict, and the session loop is written out
in full (ruin, stop rules, selector, table-maximum restart, bankroll cap,
settlement).
"""

from __future__ import annotations

import math
from fractions import Fraction

SIDES_OF_WINNER = {"B": "banker", "P": "player"}


def payout(side: str, outcome: str, player_pair: bool, banker_pair: bool, commission: Fraction, tie_pays: Fraction) -> Fraction:
    """Net of one unit staked on ``side`` (punto-banco rules, pairs 11:1)."""
    if side == "banker":
        return Fraction(0) if outcome == "T" else (1 - commission if outcome == "B" else Fraction(-1))
    if side == "player":
        return Fraction(0) if outcome == "T" else (Fraction(1) if outcome == "P" else Fraction(-1))
    if side == "tie":
        return tie_pays if outcome == "T" else Fraction(-1)
    if side == "player_pair":
        return Fraction(11) if player_pair else Fraction(-1)
    if side == "banker_pair":
        return Fraction(11) if banker_pair else Fraction(-1)
    raise ValueError(side)


def fib(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def first_state(name: str, unit: Fraction, params: dict) -> dict:
    if name == "labouchere":
        line = [Fraction(str(n)) * unit for n in params.get("line", [1, 2, 3, 4])]
        return {"line": line}
    if name == "oscars-grind":
        return {"stake": unit, "series": Fraction(0)}
    if name == "fibonacci":
        return {"term": 0}
    if name == "1-3-2-6":
        return {"step": 0}
    if name == "paroli":
        return {"stake": unit, "wins": 0}
    return {"stake": unit}


def stake_of(name: str, state: dict, unit: Fraction) -> Fraction:
    if name == "labouchere":
        line = state["line"]
        return line[0] + line[-1] if len(line) >= 2 else line[0]
    if name == "fibonacci":
        return fib(state["term"]) * unit
    if name == "1-3-2-6":
        return (1, 3, 2, 6)[state["step"]] * unit
    return state["stake"]


def next_state(
    name: str, state: dict, unit: Fraction, won: bool, net: Fraction, asked: Fraction, params: dict, table_min: Fraction
) -> dict:
    s = dict(state)
    if name == "flat":
        return s
    if name == "martingale":
        s["stake"] = unit if won else 2 * asked
    elif name == "grand-martingale":
        s["stake"] = unit if won else 2 * asked + unit
    elif name == "paroli":
        if won and s["wins"] + 1 < params.get("wins", 3):
            s["wins"] += 1
            s["stake"] = 2 * asked
        else:
            s = first_state(name, unit, params)
    elif name == "fibonacci":
        s["term"] = max(0, s["term"] - 2) if won else s["term"] + 1
    elif name == "dalembert":
        s["stake"] = max(unit, asked - unit) if won else asked + unit
    elif name == "1-3-2-6":
        s["step"] = (s["step"] + 1) % 4 if won else 0
    elif name == "labouchere":
        line = list(s["line"])
        if won:
            line = line[1:-1]
            if not line:
                return first_state(name, unit, params)
        else:
            line.append(-net)
        s["line"] = line
    elif name == "oscars-grind":
        s["series"] = s["series"] + net
        if won:
            if s["series"] >= unit:
                return first_state(name, unit, params)
            needed = Fraction(math.ceil((unit - s["series"]) * 100), 100)
            s["stake"] = min(asked + unit, max(needed, table_min))
    else:
        raise ValueError(name)
    return s


def choose(selector: str, shoe: list[str], params: dict, coin) -> str | None:
    decided = [o for o in shoe if o != "T"]
    if selector in ("banker", "player", "tie", "player_pair", "banker_pair"):
        return selector
    if selector == "follow-last":
        return SIDES_OF_WINNER[decided[-1]] if decided else None
    if selector == "chop":
        return {"B": "player", "P": "banker"}[decided[-1]] if decided else None
    if selector == "streak":
        n = params.get("length", 3)
        tail = decided[-n:]
        return SIDES_OF_WINNER[tail[0]] if len(tail) == n and len(set(tail)) == 1 else None
    if selector == "pattern":
        letters = params.get("pattern", "BP").upper()
        return SIDES_OF_WINNER[letters[len(decided) % len(letters)]]
    if selector == "random":
        return "banker" if coin.random() < 0.5 else "player"
    raise ValueError(selector)


def play_session(
    name: str,
    selector: str,
    shoes: list[list[tuple[str, bool, bool]]],
    *,
    bankroll: Fraction,
    table_min: Fraction,
    table_max: Fraction,
    unit: Fraction,
    params: dict,
    coin=None,
    commission: Fraction = Fraction(1, 20),
    tie_pays: Fraction = Fraction(8),
) -> list[tuple[Fraction, Fraction, bool]]:
    """Return ``(stake, bankroll after, capped)`` for each round of one session."""
    rows = []
    state = first_state(name, unit, params)
    start = bankroll
    stopped = False
    round_number = 0
    for shoe in shoes:
        seen: list[str] = []
        for outcome, player_pair, banker_pair in shoe:
            round_number += 1
            stake, capped = Fraction(0), False
            if bankroll >= table_min and not stopped:
                if params.get("stop_loss") is not None and start - bankroll >= Fraction(str(params["stop_loss"])):
                    stopped = True
                elif params.get("stop_win") is not None and bankroll - start >= Fraction(str(params["stop_win"])):
                    stopped = True
                elif params.get("max_rounds") is not None and round_number > params["max_rounds"]:
                    stopped = True
            if bankroll >= table_min and not stopped:
                side = choose(selector, seen, params, coin)
                if side is not None:
                    asked = stake_of(name, state, unit)
                    if asked > table_max:
                        state = first_state(name, unit, params)
                        asked = stake_of(name, state, unit)
                    stake = min(asked, table_max, Fraction(math.floor(bankroll * 100), 100))
                    capped = stake != asked
                    net = stake * payout(side, outcome, player_pair, banker_pair, commission, tie_pays)
                    bankroll += net
                    if net != 0:
                        state = next_state(name, state, unit, net > 0, net, asked, params, table_min)
            rows.append((stake, bankroll, capped))
            seen.append(outcome)
    return rows
