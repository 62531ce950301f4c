"""Road-reading selectors on scripted shoes: the side chosen each round, worked out by hand from the road rules."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.scripted import play

from baccarat.errors import StrategyError
from baccarat.table.roads import parse_outcomes, roads

# Sides: "B" banker, "P" player, "-" sat out.


def sides(use: str, outcomes: str, **params) -> str:
    cols = play(use, outcomes, table_min=1, **params)
    placed = []
    for stake, banker, player in zip(cols["stake"].tolist(), cols["stake_banker"].tolist(), cols["stake_player"].tolist(), strict=True):
        placed.append("-" if stake == 0 else "B" if banker else "P")
        assert not (banker and player)
    return "".join(placed)


def test_ask_big_eye_boy_red() -> None:
    # after B: no road yet; after BP: Banker would open column 3 with 1 == 1 (red);
    # after BPB: Player opens column 4 (1 == 1, red) while Banker would go down against a column of one (blue).
    assert sides("flat", "BPBP", side="road-ask", road="big_eye_boy", colour="red") == "--BP"
    assert sides("flat", "BPBP", side="road-ask", road="big_eye_boy", colour="blue") == "--PB"
    # a tie changes nothing but is a round: the choice after B T P is the one after B P
    assert sides("flat", "BTPB", side="road-ask", road="big_eye_boy", colour="red") == "---B"


def test_ask_waits_for_the_later_roads() -> None:
    # small road needs column 3 row 2 or column 4: after BPB, Player opens column 4 (1 vs col 2's 1: red)
    assert sides("flat", "BPBPB", side="road-ask", road="small_road", colour="red") == "---PB"
    # cockroach pig needs column 4 row 2 or column 5: after BPBP, Banker opens column 5 (1 vs col 1's 1: red)
    assert sides("flat", "BPBPB", side="road-ask", road="cockroach_pig", colour="red") == "----B"


def test_roads_restart_with_each_shoe_of_a_session() -> None:
    picked = sides("flat", "BPBP" + "BPBP", side="road-ask", road="big_eye_boy", shoes_per_session=2, shoe_lengths=[4, 4])
    assert picked == "--BP" + "--BP"


def test_follow_the_last_colour() -> None:
    # after BPB big eye boy holds one red (column 3: 1 == 1): follow red -> Player
    assert sides("flat", "BPBP", side="road-follow", road="big_eye_boy") == "---P"
    # after BPBP it holds red, red: Banker (opening column 5) would add red
    assert sides("flat", "BPBPP", side="road-follow", road="big_eye_boy") == "---PB"
    # after BB P: big eye boy's first mark is column 2 row 1 vs column 1 of two... none yet (column 2 has one entry)
    # after BBPP: P at column 2 row 2 against column 1 row 2: match, red; follow red: Player continues (row 3 vs a
    # column of two: no match, blue), Banker opens column 3 (2 == 2: red) -> Banker
    assert sides("flat", "BBPPB", side="road-follow", road="big_eye_boy") == "----B"


def test_consensus_of_the_three_roads() -> None:
    # after BPBP all three roads ask the same: Banker opening column 5 is red on each
    assert sides("flat", "BPBPB", side="road-consensus", colour="red", agree=3) == "----B"
    # with two roads enough: after BP only big eye boy has started (sit out); after BPB big eye boy and
    # small road both give Player red
    assert sides("flat", "BPBPB", side="road-consensus", colour="red", agree=2) == "---PB"
    assert sides("flat", "BPBPB", side="road-consensus", colour="blue", agree=2) == "---BP"


def test_selectors_agree_with_the_roads_round_by_round() -> None:
    rng = np.random.default_rng(8)
    seq = "".join(rng.choice(list("BBBBPPPPT"), size=70))
    picked = sides("flat", seq, side="road-ask", road="small_road", colour="blue")
    for hand, side in enumerate(picked):
        r = roads(parse_outcomes(seq[:hand]))
        want = [s for s in ("banker", "player") if r.next_colour("small_road", s) == "blue"]
        assert side == (want[0][0].upper() if want else "-")


def test_works_with_any_progression() -> None:
    cols = play("martingale", "BPBPPBBP", side="road-ask", road="big_eye_boy", unit=10)
    assert cols["stake"].tolist()[:2] == [0, 0]
    assert any(s > 1000 for s in cols["stake"].tolist())  # a loss doubled a stake


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"side": "road-ask", "road": "big_eye"}, "did you mean 'big_eye_boy'"),
        ({"side": "road-ask", "colour": "green"}, "colour must be red or blue"),
        ({"side": "road-consensus", "agree": 1}, "agree must be 2 or 3"),
    ],
)
def test_bad_parameters_are_refused(params, message) -> None:
    with pytest.raises((StrategyError, ValueError), match=message):
        play("flat", "BPBP", **params)
