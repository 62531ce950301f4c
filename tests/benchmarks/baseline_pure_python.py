"""A straightforward pure-Python baccarat simulator: the baseline of the speed benchmark.

It does the job of ``job.yaml`` the plain way: every seeded 8-deck shoe is
shuffled by Python's ``random`` module (``--shuffle python``, the default)
or by numpy's seeded shuffle (``--shuffle numpy``: the very shoes of
``baccarat run``, so the results can be compared exactly), dealt round by
round by a plain Python tableau into a list of round records (cards,
totals, winner, natural, pairs), and four strategies (flat banker,
Martingale banker, Paroli banker, flat follow-last) bet on every round with
exact integer money; every ledger row (the columns of ``ledger.parquet``,
per-bet detail included) is kept in an in-memory list. No file is written.

    python tests/benchmarks/baseline_pure_python.py [--shoes N] [--shuffle python|numpy]

Prints the time, the ledger size and each strategy's total net, in currency
units, which ``bench_job.py`` checks against the ledger of ``baccarat run``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

VALUE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
BURN = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
BANKER_DRAWS = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}
DECK = [rank + 16 * suit for rank in range(1, 14) for suit in range(1, 5)]
WIN_BANKER = 9500  # basis points of the stake: Banker pays 1:1 less 5% commission
WIN = 10000
LOSE = -10000


def numpy_shoe(seed: int, shoe_id: int, decks: int = 8) -> list[int]:
    """The seeded shoe of ``baccarat run``: numpy's shuffle of ``decks`` decks with the shoe's own stream."""
    cards = np.tile(np.asarray(DECK, dtype=np.int8), decks)
    np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(shoe_id,)))).shuffle(cards)
    return cards.tolist()


def python_shoe(seed: int, shoe_id: int, decks: int = 8) -> list[int]:
    """A seeded shoe the pure-Python way: ``random.Random`` seeded by the seed and the shoe id."""
    cards = DECK * decks
    random.Random(f"{seed}:{shoe_id}").shuffle(cards)
    return cards


SHUFFLES = {"python": python_shoe, "numpy": numpy_shoe}


def play_round(cards: list[int], i: int) -> tuple:
    """Play a round from position ``i``: return its record (cards, totals, winner, natural, pairs) and the cards used."""
    player = [cards[i], cards[i + 2]]
    banker = [cards[i + 1], cards[i + 3]]
    p = (VALUE[player[0] % 16] + VALUE[player[1] % 16]) % 10
    b = (VALUE[banker[0] % 16] + VALUE[banker[1] % 16]) % 10
    natural = p >= 8 or b >= 8
    used = 4
    if not natural:
        third = None
        if p <= 5:
            player.append(cards[i + used])
            third = VALUE[player[2] % 16]
            used += 1
            p = (p + third) % 10
        if (b <= 5) if third is None else (third in BANKER_DRAWS[b]):
            banker.append(cards[i + used])
            b = (b + VALUE[banker[2] % 16]) % 10
            used += 1
    winner = "banker" if b > p else "player" if p > b else "tie"
    record = (player, banker, p, b, winner, natural, player[0] % 16 == player[1] % 16, banker[0] % 16 == banker[1] % 16)
    return record, used


def deal_shoe(cards: list[int], cut_card: int = 14) -> list[tuple]:
    """Burn, then deal rounds until the cut card; return the round records."""
    i = 1 + BURN[cards[0] % 16]
    rounds = []
    while i < len(cards) - cut_card:
        record, used = play_round(cards, i)
        rounds.append(record)
        i += used
    return rounds


class Flat:
    def __init__(self, side, unit):
        self.side, self.unit = side, unit

    def bet(self, history):
        return self.side, self.unit

    def settle(self, net):
        pass


class Martingale(Flat):
    def __init__(self, side, unit):
        super().__init__(side, unit)
        self.stake = unit

    def bet(self, history):
        if self.stake > TABLE_MAX:
            self.stake = self.unit
        return self.side, self.stake

    def settle(self, net):
        if net > 0:
            self.stake = self.unit
        elif net < 0:
            self.stake *= 2


class Paroli(Martingale):
    def __init__(self, side, unit, wins=3):
        super().__init__(side, unit)
        self.wins, self.streak = wins, 0

    def settle(self, net):
        if net > 0:
            self.streak += 1
            if self.streak == self.wins:
                self.stake, self.streak = self.unit, 0
            else:
                self.stake *= 2
        elif net < 0:
            self.stake, self.streak = self.unit, 0


class FollowLast(Flat):
    def bet(self, history):
        for winner in reversed(history):
            if winner != "tie":
                return winner, self.unit
        return None, 0


# A strategy sees the winners of the shoe so far: ``history`` (a list), of which the first ``hand - 1`` are past.


class History:
    """The winners of the rounds dealt so far in the shoe (a read-only view of a prefix of the shoe's winners)."""

    __slots__ = ("winners", "length")

    def __init__(self, winners):
        self.winners, self.length = winners, 0

    def __reversed__(self):
        for i in range(self.length - 1, -1, -1):
            yield self.winners[i]


BANKROLL, TABLE_MIN, TABLE_MAX, UNIT = 100_000, 1_000, 100_000, 1_000  # cents
STRATEGIES = {
    "flat banker": lambda: Flat("banker", UNIT),
    "martingale banker": lambda: Martingale("banker", UNIT),
    "paroli banker": lambda: Paroli("banker", UNIT),
    "flat follow-last": lambda: FollowLast(None, UNIT),
}


def multiplier(side: str, winner: str) -> int:
    if winner == "tie":
        return 0
    if side == winner:
        return WIN_BANKER if side == "banker" else WIN
    return LOSE


BETS = ("banker", "player", "tie")


def simulate(seed: int, shoes: int, shuffle=python_shoe) -> tuple[list[tuple], list[tuple]]:
    """Run every strategy on every shoe (one shoe per session); return the round records and the ledger rows."""
    rounds = []
    ledger = []
    for shoe_id in range(1, shoes + 1):
        records = deal_shoe(shuffle(seed, shoe_id))
        rounds.extend((shoe_id, hand, *record) for hand, record in enumerate(records, start=1))
        winners = [record[4] for record in records]
        for label, make in STRATEGIES.items():
            strategy = make()
            bankroll = BANKROLL * 10_000  # micro-units
            history = History(winners)
            for hand, winner in enumerate(winners, start=1):
                history.length = hand - 1
                stake, net, capped, side = 0, 0, 0, None
                if bankroll >= TABLE_MIN * 10_000:
                    side, wanted = strategy.bet(history)
                    if side is not None:
                        stake = min(wanted, TABLE_MAX, bankroll // 10_000)
                        capped = int(stake != wanted)
                        net = stake * multiplier(side, winner)
                        bankroll += net
                        strategy.settle(net)
                detail = [value for bet in BETS for value in ((stake, net) if bet == side else (0, 0))]
                ledger.append((label, shoe_id, shoe_id, hand, hand, winner, stake, net, bankroll, capped, *detail))
    return rounds, ledger


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--shuffle",
        choices=SHUFFLES,
        default="python",
        help="python: random.shuffle (pure Python); numpy: the shoes of baccarat run, for an exact check",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    rounds, ledger = simulate(args.seed, args.shoes, SHUFFLES[args.shuffle])
    seconds = time.perf_counter() - start
    totals: dict[str, int] = {}
    for row in ledger:
        totals[row[0]] = totals.get(row[0], 0) + row[7]
    print(f"baseline ({args.shuffle} shuffle): {args.shoes} shoes, {len(rounds)} rounds, {len(ledger)} ledger rows in {seconds:.2f} s")
    for label, micros in totals.items():
        print(f"  {label}: net {micros / 1_000_000:.6f}")


if __name__ == "__main__":
    main()
