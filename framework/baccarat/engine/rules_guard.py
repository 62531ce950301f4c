"""Each strategy plays with its own copy of the table rules, and a copy changed while it played is refused.

:class:`~baccarat.table.rules.Rules` is frozen, but Python lets any code
force a frozen value open (``object.__setattr__``) or change the mapping of
side-bet pays it holds. Settlement, expected values and the experiment
written to the run folder come from the experiment's rules, which no
strategy is given; a strategy's view holds a copy (:func:`private_rules`),
compared with the experiment's after it played (:func:`check_rules_unchanged`),
so that the change is named rather than silently kept.
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction
from typing import Any

from baccarat.errors import StrategyError
from baccarat.table.rules import Rules


def private_rules(rules: Rules) -> Rules:
    """Return a copy of ``rules`` that shares nothing with them (the side-bet pays included)."""
    return copy.deepcopy(rules)


def check_rules_unchanged(
    rules: Rules, pristine: Rules, who: str, when: str = "while it played", after: str = "; the run was abandoned and nothing was written"
) -> None:
    """Refuse ``rules`` that differ from ``pristine``: ``who`` (``strategy 'x'``) changed them ``when``; ``after`` ends the sentence."""
    if rules == pristine:
        return
    field = next((f.name for f in dataclasses.fields(Rules) if getattr(rules, f.name) != getattr(pristine, f.name)), "side_bets")
    raise StrategyError(
        f"{who} changed the table rules ({field} {_shown(getattr(pristine, field))} became {_shown(getattr(rules, field))}) "
        f"{when}; a strategy may read view.rules, never change them{after}"
    )


def _shown(value: Any) -> str:
    return str(value) if isinstance(value, Fraction) else repr(value)


__all__ = ["check_rules_unchanged", "private_rules"]
