"""What the house gives back, priced exactly: a rebate on turnover ("rolling chip") and a rebate on losses.

Both are rule fields (:attr:`baccarat.table.rules.Rules.rolling_rebate`,
:attr:`~baccarat.table.rules.Rules.loss_rebate`), shares of a stake in whole
basis points. A rolling rebate pays back that share of every amount wagered,
whatever the result, so it adds exactly that share to a bet's expected result
per unit staked. A rebate on losses pays back a share of what is lost: bet by
bet (as ``baccarat odds`` prices it) that is the share times the chance of
losing, a lost bet losing its stake; on a session's net loss (as casinos
usually pay it, and as ``baccarat plan`` prices it from the session's exact
distribution) it is worth less, wins having made up part of the losses.
"""

from __future__ import annotations

from fractions import Fraction

from baccarat.odds.exact_odds import BetOdds
from baccarat.table.rules import Rules


def rebates_offered(rules: Rules) -> bool:
    """Tell whether ``rules`` give anything back (a rolling rebate or a rebate on losses)."""
    return bool(rules.rolling_rebate or rules.loss_rebate)


def effective_expected_value(rules: Rules, odds: BetOdds) -> Fraction:
    """Return a bet's expected result per unit staked once the rules' rebates are paid: exact.

    The rolling rebate adds its share of the stake; the rebate on losses, paid
    on every losing bet, adds its share times the chance of losing.
    """
    return odds.expected_value + rules.rolling_rebate + rules.loss_rebate * odds.lose


def effective_house_edge(rules: Rules, odds: BetOdds) -> Fraction:
    """Return a bet's house edge once the rules' rebates are paid (minus :func:`effective_expected_value`)."""
    return -effective_expected_value(rules, odds)


def session_rebate(rules: Rules, wagered: float, net_loss: float) -> tuple[float, float]:
    """Return what a session is given back: (rolling rebate on ``wagered``, rebate on the net loss ``net_loss``).

    ``net_loss`` is what the session lost, 0 for a session in profit; both
    arguments may be expectations (the rebates are linear in them).
    """
    return float(rules.rolling_rebate) * wagered, float(rules.loss_rebate) * net_loss
