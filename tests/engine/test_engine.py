"""Engine and the first strategies: stakes and money on scripted outcome sequences."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers.scripted import play

from baccarat.engine.reference import amount_to_cents


def units(cols, key: str = "stake") -> list[float]:
    scale = 100 if key == "stake" else 1_000_000
    return [v / scale for v in cols[key].tolist()]


def test_flat_banker_settles_commission_and_pushes() -> None:
    cols = play("flat", "BPTB", side="banker", unit=10)
    assert units(cols) == [10, 10, 10, 10]
    assert units(cols, "net") == [9.5, -10, 0, 9.5]
    assert units(cols, "bankroll") == [1009.5, 999.5, 999.5, 1009]


def test_flat_tie_pays_eight_to_one() -> None:
    cols = play("flat", "TBP", side="tie", unit=10)
    assert units(cols, "net") == [80, -10, -10]


def test_commission_on_five_cents_is_kept_exactly() -> None:
    cols = play("flat", "B", side="banker", unit=Decimal("0.05"), table_min=0)
    assert cols["net"].tolist() == [47_500]  # 0.0475 in micro-units


def test_martingale_doubles_on_loss_resets_on_win_and_ignores_ties() -> None:
    cols = play("martingale", "BPPTPB", side="banker", unit=10)
    assert units(cols) == [10, 10, 20, 40, 40, 80]
    assert units(cols, "net") == [9.5, -10, -20, 0, -40, 76]


def test_martingale_restarts_above_table_maximum() -> None:
    cols = play("martingale", "PPPPB", side="banker", unit=10, table_max=50)
    assert units(cols) == [10, 20, 40, 10, 20]
    assert cols["capped"].tolist() == [0] * 5


def test_bankroll_cap_and_ruin() -> None:
    cols = play("martingale", "PPPBB", side="banker", unit=10, bankroll=25)
    # 10 lost -> 15 left; 20 wanted, cut to 15 (capped) and lost -> 0: ruin, no more bets.
    assert units(cols) == [10, 15, 0, 0, 0]
    assert cols["capped"].tolist() == [0, 1, 0, 0, 0]
    assert units(cols, "bankroll") == [15, 0, 0, 0, 0]


def test_ruin_is_a_bankroll_below_the_table_minimum() -> None:
    cols = play("flat", "PPB", side="banker", unit=10, bankroll=25)
    assert units(cols) == [10, 10, 0]  # 5 left is below the table minimum of 10


def test_fresh_strategy_state_every_session() -> None:
    cols = play("martingale", "PPPP", side="banker", unit=10, shoes_per_session=1, shoe_lengths=[2, 2])
    assert units(cols) == [10, 20, 10, 20]
    assert cols["session"].tolist() == [1, 1, 2, 2]
    assert cols["round"].tolist() == [1, 2, 1, 2]
    assert units(cols, "bankroll") == [990, 970, 990, 970]


def test_amount_to_cents() -> None:
    assert amount_to_cents(10) == 1000
    assert amount_to_cents(Decimal("2.50")) == 250
    assert amount_to_cents(12.5) == 1250
    for bad in (0.001, float("nan"), "ten", Decimal("1.005")):
        with pytest.raises(ValueError):
            amount_to_cents(bad)


def test_sessions_apart_in_the_table_play_as_each_alone() -> None:
    import numpy as np

    from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy, session_bounds
    from baccarat.odds.settlement import settlement_table
    from baccarat.plugin import Strategy
    from baccarat.shoes.seeded import seeded_table
    from baccarat.table.rules import preset

    class Doubling(Strategy):
        name = "doubling"

        def __init__(self, session, **params):
            super().__init__(session)
            self.stake = 10

        def bets(self, view):
            return {"banker" if view.last_decided is None else view.last_decided: self.stake}

        def settle(self, view, nets):
            self.stake = 10 if sum(nets.values()) > 0 or self.stake >= 640 else self.stake * 2

    rules = preset("punto-banco-8")
    table = seeded_table(rules, 3, 1, 8)
    multipliers = settlement_table(table, rules)
    config = SessionConfig(100_000, 1_000, 100_000, 1)
    bounds = session_bounds(table, 1)
    apart = [bounds[6], bounds[1], bounds[4]]  # out of order, with rows between them
    run = StrategyRun("doubling", Doubling, {})
    together = run_strategy(run, table, multipliers, rules, config, 1, apart)
    alone = [run_strategy(run, table, multipliers, rules, config, 1, [session]) for session in apart]
    assert together["stake"].any()
    for name, column in together.items():
        assert np.array_equal(column, np.concatenate([one[name] for one in alone])), name


def test_settle_is_told_each_sessions_nets_of_the_round_whether_it_placed_one_bet_or_several() -> None:
    """Sessions with one bet and sessions with two in the same round: each settle gets exactly its own nets, as the ledger has them."""
    from baccarat.engine.reference import SessionConfig, StrategyRun, run_strategy
    from baccarat.odds.settlement import settlement_table
    from baccarat.plugin import Strategy
    from baccarat.shoes.seeded import seeded_table
    from baccarat.table.rules import preset

    told: list[tuple[int, int, dict[str, Decimal]]] = []

    class Splits(Strategy):
        name = "splits"

        def bets(self, view):
            if (view.session + view.round) % 3 == 0:  # some sessions two bets this round, the others one
                return {"banker": 10, "player": 20}
            return {"player" if view.round % 2 else "banker": 10}

        def settle(self, view, nets):
            told.append((view.session, view.round, dict(nets)))

    rules = preset("punto-banco-8")
    table = seeded_table(rules, 5, 1, 6)
    config = SessionConfig(100_000, 1000, 100_000, 1)
    cols = run_strategy(StrategyRun("splits", Splits, {}), table, settlement_table(table, rules), rules, config, seed=5)
    ledger = {}
    for i in range(len(cols["session"])):
        nets = {bet: Decimal(int(cols[f"net_{bet}"][i])) / 1_000_000 for bet in ("banker", "player") if cols[f"stake_{bet}"][i]}
        ledger[(int(cols["session"][i]), int(cols["round"][i]))] = nets
    assert len(told) == len(ledger) > 6 * 60
    assert {(session, rnd): nets for session, rnd, nets in told} == ledger
    assert any(len(nets) == 2 for *_, nets in told) and any(len(nets) == 1 for *_, nets in told)
