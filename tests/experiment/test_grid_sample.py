"""``sample:`` in a strategy entry: a seeded random sample of its grid's combinations, of a grid of any size."""

from __future__ import annotations

import itertools

import pytest

from baccarat.errors import InputError
from baccarat.experiment import load_experiment
from baccarat.experiment.strategies import MAX_GRID, grid_choices


def test_without_a_sample_every_combination_in_grid_order() -> None:
    assert grid_choices([2, 3, 2], None) == list(itertools.product(range(2), range(3), range(2)))


def test_a_sample_is_distinct_combinations_of_the_grid_in_grid_order_and_the_same_for_a_seed() -> None:
    every = list(itertools.product(range(5), range(7), range(3)))
    drawn = grid_choices([5, 7, 3], (20, 9))
    assert len(set(drawn)) == 20 and set(drawn) <= set(every)
    assert drawn == sorted(drawn, key=every.index)
    assert grid_choices([5, 7, 3], (20, 9)) == drawn and grid_choices([5, 7, 3], (20, 10)) != drawn
    assert grid_choices([5, 7, 3], (105, 1)) == every == grid_choices([5, 7, 3], (500, 1))


def test_every_combination_is_drawn_equally_often_over_seeds() -> None:
    """3 of 12 combinations over 2,400 seeds: each is expected 600 times; chi-square with 11 degrees of freedom.

    31.26 is the chi-square quantile 0.999 for 11 degrees of freedom: a fair draw exceeds it once in 1,000 seeds'
    worth of such tests.
    """
    counts = dict.fromkeys(itertools.product(range(3), range(4)), 0)
    for seed in range(2400):
        for choice in grid_choices([3, 4], (3, seed)):
            counts[choice] += 1
    expected = 2400 * 3 / 12
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi_square < 31.26, counts


def write(tmp_path, strategy: str) -> str:
    path = tmp_path / "exp.yaml"
    path.write_text("shoes: {seed: 3, count: 2}\nstrategies:\n" + strategy)
    return str(path)


def test_a_grid_too_large_to_make_is_sampled(tmp_path) -> None:
    """20 units x 600 round limits: 12,000 combinations, more than one entry may make, but 30 of them may be drawn."""
    grid = "    grid: {unit: " + str(list(range(10, 210, 10))) + ", max_rounds: " + str(list(range(1, 601))) + "}\n"
    assert 20 * 600 > MAX_GRID
    with pytest.raises(InputError, match="or draw some at random with sample"):
        load_experiment(write(tmp_path, "  - use: flat\n" + grid))
    source = write(tmp_path, "  - use: flat\n    sample: {count: 30, seed: 5}\n" + grid)
    labels = [s.name for s in load_experiment(source).strategies]
    assert len(labels) == len(set(labels)) == 30 and all(label.startswith("flat[unit=") for label in labels)
    assert labels == [s.name for s in load_experiment(source).strategies]


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("  - use: flat\n    sample: {count: 3}\n", "sample draws combinations of a grid"),
        ("  - use: flat\n    grid: {unit: [10, 20]}\n    sample: {seed: 3}\n", "sample needs a count"),
        ("  - use: flat\n    grid: {unit: [10, 20]}\n    sample: {count: 0}\n", "sample.count"),
    ],
)
def test_a_bad_sample_is_one_sentence_at_its_place(tmp_path, entry: str, said: str) -> None:
    with pytest.raises(InputError, match=said) as caught:
        load_experiment(write(tmp_path, entry))
    assert "exp.yaml:" in str(caught.value) and "\n" not in str(caught.value)
