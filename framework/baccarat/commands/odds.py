"""``baccarat odds [--rules PRESET|FILE] [--decks N] [--remaining RANK=COUNT,...] [--json]``.

Exact probabilities and house edges of every bet, off the top of a full shoe
or from the cards left in one. ``--remaining`` names the count left of some
ranks (``A``, ``2``-``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``); ranks it
does not name keep the full count of the shoe's decks.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from baccarat.commands import number_argument

if TYPE_CHECKING:
    from baccarat.table.bet_registry import BetRegistry

_BET_LABELS = {
    "banker": "Banker",
    "player": "Player",
    "tie": "Tie",
    "player_pair": "Player Pair",
    "banker_pair": "Banker Pair",
    "dragon7": "Dragon 7",
    "panda8": "Panda 8",
}
_EVENT_LABELS = {
    "banker": "Banker wins",
    "player": "Player wins",
    "tie": "Tie",
    "player_pair": "Player's first two cards a pair",
    "banker_pair": "Banker's first two cards a pair",
    "natural": "A natural (8 or 9 on two cards)",
    "dragon7": "Banker wins with a three-card 7",
    "panda8": "Player wins with a three-card 8",
    "banker_six": "Banker wins with a 6",
}


def _bet_label(bet: str, bets: BetRegistry) -> str:
    entry = bets.get(bet)
    return _BET_LABELS.get(bet) or (entry.definition.label if entry else bet)


def _event_label(name: str, bets: BetRegistry) -> str:
    entry = bets.get(name)
    return _EVENT_LABELS.get(name) or (f"{entry.definition.label} wins" if entry else name)


def add_parser(parser: argparse.ArgumentParser) -> None:
    """Declare the arguments of ``baccarat odds``."""
    parser.add_argument(
        "--rules", default="punto-banco-8", metavar="PRESET|FILE", help="rule preset name or rules YAML file (default: punto-banco-8)"
    )
    parser.add_argument("--decks", type=_decks, metavar="N", help="decks in the shoe, 1-8 (default: the rules' decks)")
    parser.add_argument(
        "--remaining", metavar="RANK=COUNT,...", help="cards left of some ranks, e.g. 'A=20,T=30,K=25'; ranks not named keep the full count"
    )
    add_rebate_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    from baccarat.commands.strategies import add_plugins_dir_option

    add_plugins_dir_option(parser)


def add_rebate_options(parser: argparse.ArgumentParser) -> None:
    """Declare ``--rolling-rebate`` and ``--loss-rebate``, which set the rules' fields of the same names."""
    parser.add_argument(
        "--rolling-rebate",
        metavar="SHARE",
        help="rebate on turnover ('rolling chip'): a share of every amount wagered, e.g. 1%% or 0.01 (rule field rolling_rebate)",
    )
    parser.add_argument(
        "--loss-rebate",
        metavar="SHARE",
        help="rebate on losses: a share of what is lost, e.g. 10%% (rule field loss_rebate)",
    )


def with_rebates(rules: Any, args: argparse.Namespace) -> Any:
    """Return ``rules`` with the rebates ``--rolling-rebate`` and ``--loss-rebate`` set, checked as rule fields are."""
    from baccarat.table.rules import rules_from_mapping

    given = {name: value for name in ("rolling_rebate", "loss_rebate") if (value := getattr(args, name, None)) is not None}
    return rules_from_mapping(given, base=rules) if given else rules


def _decks(text: str) -> int:
    return number_argument(text, int, lambda value: 1 <= value <= 8, "expected a number of decks from 1 to 8")


def parse_remaining(text: str, decks: int) -> list[int]:
    """Return the 13 rank counts of a full ``decks`` shoe with the ranks named in ``text`` overridden.

    ``text`` is ``RANK=COUNT`` items separated by commas or spaces. Raises InputError.
    """
    from baccarat.errors import InputError
    from baccarat.table.cards import RANK_BY_TOKEN, RANK_LABELS

    counts = [4 * decks] * 13
    seen: set[int] = set()
    items = [item for item in re.split(r"[,\s]+", text.strip()) if item]
    if not items:
        raise InputError("--remaining: expected RANK=COUNT items such as 'A=20,K=31'")
    for item in items:
        rank_text, sep, count_text = item.partition("=")
        rank = RANK_BY_TOKEN.get(rank_text.strip().upper())
        if not sep or rank is None:
            raise InputError(f"--remaining: {item!r} is not RANK=COUNT with a rank A 2-9 10 T J Q K")
        if rank in seen:
            raise InputError(f"--remaining: the rank {RANK_LABELS[rank]} is named twice")
        seen.add(rank)
        try:
            count = int(count_text.strip())
        except ValueError:
            raise InputError(f"--remaining: the count in {item!r} is not a whole number") from None
        if not 0 <= count <= 4 * decks:
            shoe = f"{decks} deck{'s' if decks > 1 else ''}"
            raise InputError(f"--remaining: {item!r}: a shoe of {shoe} holds 0 to {4 * decks} cards of a rank")
        counts[rank - 1] = count
    return counts


def _ratio(value: Any) -> str:
    if value.numerator == 1 or value.denominator <= 4:
        return f"{value.numerator}:{value.denominator}"
    return f"{float(value):g}:1"


def pays_text(rules: Any, bet: str) -> str:
    """Return how ``bet`` pays under ``rules``, in words (``1:1 less 5%``, ``8:1``, ``30:1 by 9, ...``)."""
    from baccarat.table.payouts import PAIR_BETS

    if bet == "banker":
        text = "1:1" if rules.commission == 0 else f"1:1 less {float(rules.commission * 100):g}%"
        if rules.banker_six_pays is not None:
            text += f", {_ratio(rules.banker_six_pays)} on a 6"
        if rules.banker_three_card_seven_pushes:
            text += ", push on a three-card 7"
        return text
    if bet == "player":
        return "1:1"
    if bet == "tie":
        return _ratio(rules.tie_pays)
    if bet in PAIR_BETS and bet not in rules.side_bets:
        return "11:1 (not offered)"
    table = rules.bet_registry.definition(bet).table_under(rules)
    text = (
        _ratio(next(iter(table.values())))
        if len(table) == 1
        else ", ".join(f"{_ratio(pays)} {line.replace('_', ' ')}" for line, pays in table.items())
    )
    return text if rules.offers(bet) else f"{text} (not offered)"


def priced_bets(rules: Any) -> Any:
    """Return the rules that price what ``baccarat odds`` lists: the offered bets, the pairs at 11:1 and the rules' registry's plugin bets.

    A bet a plugin registered and the rules do not offer is priced at its standard pay table.
    """
    import dataclasses

    from baccarat.odds.fast_evs import priced_rules
    from baccarat.table.bet_registry import BUILT_IN_ORIGIN

    priced = priced_rules(rules)
    extra = {
        name: (dict(entry.definition.pays) if len(entry.definition.pays) > 1 else next(iter(entry.definition.pays.values())))
        for name, entry in rules.bet_registry.items()
        if entry.origin != BUILT_IN_ORIGIN and not entry.definition.main and name not in priced.side_bets
    }
    return dataclasses.replace(priced, side_bets={**priced.side_bets, **extra}) if extra else priced


def odds_document(rules: Any, counts: list[int]) -> dict[str, Any]:
    """Return the JSON document of ``baccarat odds``: probabilities, house edges and every bet's detail (bets of the rules' registry)."""
    from baccarat.odds.exact_odds import round_odds
    from baccarat.odds.rebates import effective_house_edge, rebates_offered
    from baccarat.table.cards import RANK_LABELS
    from baccarat.table.rules import MAIN_BETS

    odds = round_odds(counts, rules.decks)
    priced = priced_bets(rules)
    found = {bet: odds.bet(priced, bet) for bet in priced.bets}
    events = {name: float(p) for name, p in odds.events().items()}
    events.update({bet: float(b.win) for bet, b in found.items() if bet not in events})
    return {
        "rules": rules.name,
        "decks": rules.decks,
        "cards": odds.cards,
        "remaining": {RANK_LABELS[rank]: count for rank, count in enumerate(counts, start=1)},
        "probabilities": events,
        "house_edge": {bet: float(b.house_edge) for bet, b in found.items()},
        **(
            {
                "rebates": {"rolling_rebate": float(rules.rolling_rebate), "loss_rebate": float(rules.loss_rebate)},
                "effective_house_edge": {bet: float(effective_house_edge(rules, b)) for bet, b in found.items()},
            }
            if rebates_offered(rules)
            else {}
        ),
        "bets": {
            bet: {
                "offered": rules.offers(bet),
                "pays": pays_text(rules, bet),
                "win": float(b.win),
                "push": float(b.push),
                "lose": float(b.lose),
                "expected_value": float(b.expected_value),
                "house_edge": float(b.house_edge),
                **({"effective_house_edge": float(effective_house_edge(rules, b))} if rebates_offered(rules) else {}),
                **({"lines": {line: float(p) for line, p in b.lines}} if b.lines and bet not in MAIN_BETS else {}),
            }
            for bet, b in found.items()
        },
    }


def render_table(doc: Mapping[str, Any], bets: BetRegistry) -> str:
    """Return the readable table of an odds document (its bets named as ``bets`` label them)."""
    remaining = doc["remaining"]
    full = all(count == 4 * doc["decks"] for count in remaining.values())
    shoe = "a full shoe" if full else "cards left " + " ".join(f"{r}={c}" for r, c in remaining.items())
    lines = [f"Exact odds, rules {doc['rules']}: {doc['decks']} deck{'s' if doc['decks'] > 1 else ''}, {doc['cards']} cards ({shoe})", ""]
    width = max(len(_event_label(name, bets)) for name in [*_EVENT_LABELS, *doc["probabilities"]])
    lines.append(f"{'Event':<{width}}  {'probability':>11}")
    for name, p in doc["probabilities"].items():
        lines.append(f"{_event_label(name, bets):<{width}}  {p:11.9f}")
    lines.append("")
    pays_width = max(len(b["pays"]) for b in doc["bets"].values())
    bet_width = max([12, *(len(_bet_label(bet, bets)) for bet in doc["bets"])])
    rebates = doc.get("rebates")
    after = f"  {'after rebates':>13}" if rebates else ""
    lines.append(f"{'Bet':<{bet_width}} {'pays':<{pays_width}}  {'win':>11}  {'push':>11}  {'lose':>11}  {'house edge':>10}{after}")
    for bet, b in doc["bets"].items():
        effective = f"  {b['effective_house_edge'] * 100:12.4f}%" if rebates else ""
        lines.append(
            f"{_bet_label(bet, bets):<{bet_width}} {b['pays']:<{pays_width}}  {b['win']:11.9f}  {b['push']:11.9f}  "
            f"{b['lose']:11.9f}  {b['house_edge'] * 100:9.4f}%{effective}"
        )
    lines.append("")
    lines.append("House edge: minus the expected result per unit staked, per hand, pushes counted as hands.")
    if rebates:
        lines.append(rebates_sentence(rebates["rolling_rebate"], rebates["loss_rebate"]))
    return "\n".join(lines)


def rebates_sentence(rolling: float, loss: float) -> str:
    """Return what the 'after rebates' column counts, in one sentence."""
    given = []
    if rolling:
        given.append(f"{rolling:.2%} of every amount wagered (rolling rebate)")
    if loss:
        given.append(f"{loss:.2%} of every lost bet (rebate on losses, paid bet by bet; on a session's net loss it is worth less)")
    return "After rebates: the house edge less what the house gives back, " + " and ".join(given) + "."


def run(args: argparse.Namespace) -> int:
    """Print the exact odds of the rules' bets."""
    import dataclasses

    from baccarat.commands import print_json
    from baccarat.errors import InputError
    from baccarat.plugin.manager import registry
    from baccarat.table.rules import load_rules

    found = registry(args.plugins_dir)  # the bets of installed plugins and plugin files: rules may offer them, the table lists them
    for warning in found.warnings:
        print(f"baccarat: warning: {warning}", file=sys.stderr)
    rules = with_rebates(load_rules(args.rules, found.bet_registry), args)
    if args.decks is not None:
        rules = dataclasses.replace(rules, decks=args.decks)
    counts = [4 * rules.decks] * 13 if args.remaining is None else parse_remaining(args.remaining, rules.decks)
    if sum(counts) < 6:
        raise InputError(f"--remaining: {sum(counts)} cards left cannot complete a round that may take 6")
    doc = odds_document(rules, counts)
    if args.json:
        print_json(json.dumps(doc, indent=2))
    else:
        print(render_table(doc, found.bet_registry))
    return 0
