"""The plugin API: everything a plugin author imports, in one place.

A plugin module writes ``from baccarat.plugin import Strategy, Progression,
positive_amount, hookimpl`` and registers its classes through the hooks of
:mod:`baccarat.plugin.hookspecs` (``docs/plugins.md``). Money in this API has
one unit: exact ``Decimal`` currency units (:mod:`baccarat.money`). The
compiled twins of pieces import from :mod:`baccarat.plugin.twins` (which
loads numba only for ``njit`` and ``random``).

Every name below is part of the public surface: removing or changing one goes
through a deprecation and a CHANGELOG.md entry (``tests/plugin/test_public_surface.py``
holds the list). The modules behind them, one job each:

- ``hookspecs``: the hooks a plugin implements, and ``hookimpl``;
- ``strategy``: the :class:`Strategy` base class and what ``bets`` returns;
- ``view``: what a strategy sees, :class:`SessionInfo` and :class:`TableView`;
- ``vector``: the :class:`VectorStrategy` base class, deciding for every session of a chunk at once with numpy
  arrays: the chunk's facts (:class:`ChunkFacts`), what it sees each round (:class:`Rounds`), what it returns (:class:`VectorBets`);
- ``pieces``: the pieces a composed strategy is made of, :class:`Selector`,
  :class:`Progression`, :class:`StopRule`;
- ``params``: the parameter readers (:func:`positive_amount`, :func:`positive_int`);
- ``compose``: how a progression, a selector and stop rules make one strategy;
- ``exact_forms``: the exact forms of pieces, for ``baccarat exact``;
- ``predictors``: the :class:`Predictor` base class and the :class:`Dealt` view it reads, for ``baccarat predict``;
- ``registry`` and ``manager``: what the plugins registered, and how they are found and loaded.

A counting strategy's helpers are here too: the exact odds of a shoe (:func:`bet_evs`,
:func:`bet_odds`, :func:`round_odds`, :func:`shoe_counts`, :func:`remove_cards`, from
:mod:`baccarat.odds`; the next round's :func:`outcome_chances`), :func:`parse_card`, :func:`load_rules`, and the scoreboard's
:func:`roads` of a shoe's outcomes (:func:`parse_outcomes`). A test
(``tests/plugin/test_public_surface.py``) holds every import the README and docs teach to this
module and :mod:`baccarat.plugin.twins`.

- :mod:`~baccarat.plugin.builtin_bets`: the host's default plugin: the built-in bets
  (:mod:`baccarat.table.builtin_bets`) through the ``register_bets`` hook.
- :mod:`~baccarat.plugin.kernels`: deprecated (0.3): now :mod:`baccarat.plugin.twins`; removed in 0.5. Every name of
  the new module is here under the same name.
- :mod:`~baccarat.plugin.legacy`: the 0.1 plugin API, kept working for plugins written against it (deprecated, to be
  removed in 0.4).
- :mod:`~baccarat.plugin.notices`: what a plugin author is told about a plugin that loaded: deprecated imports, and
  hooks that baccarat will not call.
- :mod:`~baccarat.plugin.twin_helpers`: compiled helpers a plugin's compiled twin may call (``from
  baccarat.plugin.twins import random, njit``).
"""

from __future__ import annotations

from baccarat.errors import did_you_mean
from baccarat.money import CENT, EXACT, MAX_AMOUNT, decimal_to_cents, decimal_to_micros
from baccarat.odds import bet_evs, bet_odds, remove_cards, round_odds, shoe_counts
from baccarat.odds.chances import outcome_chances
from baccarat.odds.counting import ev_exceeds
from baccarat.plugin.exact_forms import ExactProgression, ExactSelector, ExactStopRule, StopLimits
from baccarat.plugin.hookspecs import hookimpl
from baccarat.plugin.params import MAX_COUNT, positive_amount, positive_int
from baccarat.plugin.pieces import FixedSideSelector, Progression, Selector, StopRule
from baccarat.plugin.predictors import Dealt, Predictor
from baccarat.plugin.strategy import FIXED_SIDES, OPPOSITE, Bets, Strategy
from baccarat.plugin.vector import ChunkFacts, Rounds, VectorBets, VectorStrategy
from baccarat.plugin.view import SessionInfo, TableView
from baccarat.table.bet_registry import BetDefinition, RoundFacts, bet_names
from baccarat.table.cards import parse_card
from baccarat.table.roads import BLUE, DERIVED_ROADS, RED, Roads, parse_outcomes, roads
from baccarat.table.rules import load_rules

__all__ = [
    "BLUE",
    "CENT",
    "DERIVED_ROADS",
    "EXACT",
    "FIXED_SIDES",
    "MAX_AMOUNT",
    "MAX_COUNT",
    "OPPOSITE",
    "RED",
    "BetDefinition",
    "Bets",
    "ChunkFacts",
    "Dealt",
    "ExactProgression",
    "ExactSelector",
    "ExactStopRule",
    "FixedSideSelector",
    "Predictor",
    "Progression",
    "Roads",
    "RoundFacts",
    "Rounds",
    "Selector",
    "SessionInfo",
    "StopLimits",
    "StopRule",
    "Strategy",
    "TableView",
    "VectorBets",
    "VectorStrategy",
    "bet_evs",
    "bet_names",
    "bet_odds",
    "decimal_to_cents",
    "decimal_to_micros",
    "did_you_mean",
    "ev_exceeds",
    "hookimpl",
    "outcome_chances",
    "load_rules",
    "parse_card",
    "parse_outcomes",
    "positive_amount",
    "positive_int",
    "remove_cards",
    "round_odds",
    "roads",
    "shoe_counts",
]
