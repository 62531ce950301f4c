"""Deprecated (0.1): the strategy API, now :mod:`baccarat.plugin`; removed in 0.4.

A 0.1 plugin importing from here keeps its numbers: :class:`Strategy`,
:class:`Progression`, :func:`amount_cents` and :func:`cents_to_amount` keep
their 0.1 units (integer cents and micro-units, see :mod:`baccarat.plugin.legacy`).
"""

from __future__ import annotations

from baccarat.money import MAX_AMOUNT, MAX_AMOUNT_CENTS, cents_to_decimal, micros_to_decimal
from baccarat.plugin.legacy import Progression, Strategy, amount_cents, cents_to_amount, warn_moved
from baccarat.plugin.params import MAX_COUNT, positive_int
from baccarat.plugin.pieces import FixedSideSelector, Selector, StopRule, fixed_side_selector
from baccarat.plugin.strategy import FIXED_SIDES, OPPOSITE, Bets
from baccarat.plugin.view import SessionInfo, TableView

__all__ = [
    "FIXED_SIDES",
    "MAX_AMOUNT",
    "MAX_AMOUNT_CENTS",
    "MAX_COUNT",
    "OPPOSITE",
    "Bets",
    "FixedSideSelector",
    "Progression",
    "Selector",
    "SessionInfo",
    "StopRule",
    "Strategy",
    "TableView",
    "amount_cents",
    "cents_to_amount",
    "cents_to_decimal",
    "fixed_side_selector",
    "micros_to_decimal",
    "positive_int",
]

warn_moved("baccarat.strategy", "baccarat.plugin")
