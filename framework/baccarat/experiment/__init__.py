"""Experiments: YAML in, a validated and resolved experiment out.

- :mod:`~baccarat.experiment.model`: the resolved :class:`Experiment` and its strategies (:class:`StrategyEntry`);
- :mod:`~baccarat.experiment.resolution`: :func:`load_experiment`, section by section;
- :mod:`~baccarat.experiment.strategies`: the ``strategies:`` section, grids, and the trial before the run;
- :mod:`~baccarat.experiment.overrides`: ``--set key.path=value``;
- :mod:`~baccarat.experiment.values`: checking one value where it was written;
- :mod:`~baccarat.experiment.mapping_input`: an experiment given to the Python API as a mapping, made plain data;
- :mod:`~baccarat.experiment.plan_input`: the experiment ``baccarat plan`` analyses, from its options.

- :mod:`~baccarat.experiment.report_facts`: what the report states about a run, taken from its experiment:
  :class:`~baccarat.results.report.run_facts.RunFacts`.
"""

from baccarat.experiment.model import MAX_SEED, MAX_SHOES, Experiment, StrategyEntry
from baccarat.experiment.overrides import apply_override, parse_override
from baccarat.experiment.resolution import load_experiment

__all__ = ["MAX_SEED", "MAX_SHOES", "Experiment", "StrategyEntry", "apply_override", "load_experiment", "parse_override"]
