"""A sample of shoes tested against fair shoes, as the plain data ``baccarat patterns --json`` prints and a run's report shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baccarat.results.patterns.fair_shoes import DRAWS, MIN_POOL, POOL_PER_SHOE, POOL_SEED, fair_samples
from baccarat.results.patterns.fairness import patterns_against_fair
from baccarat.results.patterns.sources import Sample, run_sample, run_shoes
from baccarat.table.rules import Rules

REPORT_MAX_SHOES = MIN_POOL // POOL_PER_SHOE
"""The most shoes a run's report tests (1,000): up to them the fair pool is the smallest (:data:`MIN_POOL` shoes), so the
test adds the same bounded time to any run; a larger run's report says to run ``baccarat patterns RUN_DIR``.

The report draws as many fair samples as ``baccarat patterns`` (:data:`DRAWS`): fewer would not do, as with 19
statistics Holm's correction needs a smallest p-value below 0.05 / 19, that is 759 draws or more."""


def sample_against_fair(sample: Sample, rules: Rules, rules_name: str, draws: int = DRAWS, fair_seed: int = POOL_SEED) -> dict[str, Any]:
    """Test ``sample`` against ``draws`` samples of as many fair shoes under ``rules``; return every figure as plain data."""
    fair = fair_samples(rules, len(sample.counts), draws, fair_seed)
    result = patterns_against_fair(sample.counts.sum(axis=0), sample.has_cards, fair, rules)
    return {"source": sample.described, "rules": rules_name, **result.to_dict()}


def run_against_fair(folder: str | Path, rules: Rules, described: str | None = None) -> dict[str, Any] | None:
    """The report's test of a run folder's rounds (``rounds.parquet``) under the run's ``rules``.

    The same figures as ``baccarat patterns FOLDER --json``; ``described``
    replaces the source's name (a run folder is written under a temporary
    name). None when the run holds more than :data:`REPORT_MAX_SHOES` shoes.
    """
    if run_shoes(folder) > REPORT_MAX_SHOES:
        return None
    sample = run_sample(folder)
    if described is not None:
        sample = Sample(sample.counts, sample.has_cards, described)
    return sample_against_fair(sample, rules, rules.name)


def fmt_figure(x: float | None, digits: int = 4) -> str:
    """A figure of the test as its table prints it: ``digits`` decimals below 10, two above, ``-`` when there is none."""
    return "-" if x is None else f"{x:.{digits}f}" if abs(x) < 10 else f"{x:.2f}"
