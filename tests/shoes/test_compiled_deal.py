"""The compiled dealer against the reference: numpy's seeded shuffle, and every round of the tableau."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from baccarat.shoes import compiled_deal
from baccarat.shoes.seeded import seeded_table, shuffled_shoe
from baccarat.streams import seed_words
from baccarat.table.rules import Rules, preset, preset_names

SEEDS = (0, 1, 7, 2**32 - 1, 2**32 + 5, 2**64 + 9, 2**130 + 11)
SHOE_IDS = (1, 2, 99, 2**31, 2**32 - 1, 2**32, 2**40 + 3)


def assert_tables_equal(fast, reference) -> None:
    assert fast.has_cards == reference.has_cards
    for field in dataclasses.fields(reference):
        expected = getattr(reference, field.name)
        if isinstance(expected, np.ndarray):
            got = getattr(fast, field.name)
            assert got.dtype == expected.dtype, field.name
            assert np.array_equal(got, expected), field.name


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_sequence_and_pcg64_state_match_numpy(seed: int) -> None:
    state = np.empty(4, dtype=np.uint64)
    rng = np.empty(4, dtype=np.uint64)
    for shoe_id in SHOE_IDS:
        sequence = np.random.SeedSequence(seed, spawn_key=(shoe_id,))
        compiled_deal._seed_sequence_state(seed_words(seed), shoe_id, state)
        assert state.tolist() == sequence.generate_state(4, np.uint64).tolist()
        compiled_deal.pcg_seed(rng, state)
        expected = np.random.PCG64(sequence).state["state"]
        assert (int(rng[0]) << 64 | int(rng[1])) == expected["state"]
        assert (int(rng[2]) << 64 | int(rng[3])) == expected["inc"]


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_compiled_shuffle_gives_the_seeded_shoes(decks: int) -> None:
    rules = Rules(decks=decks, cut_card=6)
    for seed in SEEDS:
        shoes = compiled_deal.shuffle_shoes_compiled(rules, seed, 1, 40)
        for k in range(40):
            assert np.array_equal(shoes[k], shuffled_shoe(rules, seed, 1 + k)), (seed, k)
        for shoe_id in SHOE_IDS:
            one = compiled_deal.shuffle_shoes_compiled(rules, seed, shoe_id, 1)[0]
            assert np.array_equal(one, shuffled_shoe(rules, seed, shoe_id)), (seed, shoe_id)


def test_compiled_shuffle_is_checked_once_and_used() -> None:
    assert compiled_deal.compiled_shuffle_agrees()


@pytest.mark.parametrize("name", preset_names())
def test_every_round_of_every_preset_matches_the_reference_dealer(name: str) -> None:
    rules = preset(name)
    count = 3000 if rules.reshuffle_every_round else 300
    assert_tables_equal(compiled_deal.seeded_table_compiled(rules, 2024, 5, count), seeded_table(rules, 2024, 5, count))


@pytest.mark.parametrize(
    "changes",
    [{"burn": False}, {"cut_card": 6}, {"cut_card": 200}, {"decks": 1, "cut_card": 10}, {"decks": 2, "burn": False, "cut_card": 52}],
)
def test_burn_and_cut_card_variants_match_the_reference_dealer(changes: dict) -> None:
    rules = dataclasses.replace(preset("punto-banco-8"), **changes)
    assert_tables_equal(compiled_deal.seeded_table_compiled(rules, 99, 1, 200), seeded_table(rules, 99, 1, 200))


def test_a_sample_reaches_every_cell_of_the_tableau() -> None:
    """The parity sample above is meaningful: its rounds cover every draw decision of the tableau."""
    table = compiled_deal.seeded_table_compiled(preset("punto-banco-8"), 2024, 5, 300)
    assert len(table) > 20_000
    player_drew = table.player_cards[:, 2] != 0
    banker_drew = table.banker_cards[:, 2] != 0
    values = np.asarray(compiled_deal._VALUE)
    third = values[table.player_cards[:, 2] % 16]
    banker_two = (values[table.banker_cards[:, 0] % 16] + values[table.banker_cards[:, 1] % 16]) % 10
    cells = set(zip(banker_two[player_drew].tolist(), third[player_drew].tolist(), strict=True))
    assert {(total, value) for total in range(8) for value in range(10)} <= cells
    assert table.natural.any() and (~player_drew & banker_drew).any() and (~player_drew & ~banker_drew & ~table.natural).any()


def test_dealing_given_shoes_matches_the_reference_on_unsuited_cards() -> None:
    rules = preset("punto-banco-6")
    rng = np.random.default_rng(5)
    shoes = np.stack([rng.permutation(np.tile(np.arange(1, 14, dtype=np.int8), 24)) for _ in range(50)])
    from baccarat.shoes.rounds import RoundTable
    from baccarat.shoes.seeded import deal_seeded_shoe, turned_card

    dealt = [deal_seeded_shoe(shoes[k].tolist(), rules) for k in range(50)]
    reference = RoundTable.from_rounds((k + 1, rounds) for k, rounds in enumerate(dealt))
    reference.turned = np.asarray([turned_card(shoes[k], rules) for k, rounds in enumerate(dealt) for _ in rounds], dtype=np.int8)
    assert_tables_equal(compiled_deal.deal_shoes(shoes, np.arange(1, 51), rules), reference)
