"""Plugins written for 0.1 keep working in 0.2, with a deprecation warning naming the new import, and their numbers.

The plugins below are the first release's README examples, verbatim; the
0.1 money units (a progression's cents, a strategy's nets in micro-units)
are translated at the edge (:mod:`baccarat.plugin.legacy`), so an old
plugin's ledger is the one the same strategy written for 0.2 gives.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from baccarat.plugin.manager import clear_registry, registry

# The 0.1 README's plugin (quick tour), verbatim.
README_0_1_STRATEGY = '''
# my_strategies.py
from baccarat import hookimpl
from baccarat.strategy import Strategy


class BankerAfterTwoPlayers(Strategy):
    """Back Banker after two Player wins in a row in the current shoe."""

    name = "banker-after-two-players"
    params = {"unit": 10}                # parameters and their defaults

    def bets(self, view):                # view: what has been dealt so far, never a card to come
        if view.shoe_history[-2:] == ("player", "player"):
            return {"banker": self.unit}
        return None                      # sit this round out


@hookimpl
def register_strategies(register):
    register(BankerAfterTwoPlayers)
'''

# The 0.1 README's selector plugin ("Write a plugin"), verbatim.
README_0_1_SELECTOR = '''
# plugins/my_plugin.py
from baccarat import hookimpl
from baccarat.strategy import Selector


class Alternate(Selector):
    """Back Banker in odd rounds of the session, Player in even ones."""

    name = "alternate"

    def choose(self, view):
        return "banker" if view.round % 2 else "player"


@hookimpl
def register_selectors(register):
    register(Alternate)
'''

# The 0.1 example plugin's stop rule, verbatim (it reads the 0.1 view's integer micro-units).
EXAMPLE_0_1_STOP_RULE = '''
from typing import Any

from baccarat import hookimpl
from baccarat.strategy import SessionInfo, StopRule, TableView, amount_cents


class TrailingStop(StopRule):
    """Stop once the bankroll has fallen ``trailing_stop`` below its highest point in the session."""

    name = "trailing_stop"
    params = {"trailing_stop": None}
    description = "stop once the bankroll is this much below its session high"

    def __init__(self, session: SessionInfo, trailing_stop: Any = None) -> None:
        super().__init__(session)
        self.drop = amount_cents(trailing_stop, "trailing_stop") * 10_000
        self.high = 0

    def stop(self, view: TableView) -> bool:
        """Track the session's high and compare."""
        self.high = max(self.high, view.bankroll_micros)
        return self.high - view.bankroll_micros >= self.drop


class NewTrailingStop(StopRule):
    """The same, written for 0.2."""

    name = "new_trailing_stop"
    params = {"new_trailing_stop": None}

    def __init__(self, session, new_trailing_stop=None):
        super().__init__(session)
        self.drop = new_trailing_stop
        self.high = None

    def stop(self, view):
        self.high = view.bankroll if self.high is None else max(self.high, view.bankroll)
        return self.high - view.bankroll >= self.drop


@hookimpl
def register_stop_rules(register):
    register(TrailingStop)
    register(NewTrailingStop)
'''

# The same strategy and selector written for 0.2, and 0.1-style pieces speaking cents and micro-units.
CURRENT_AND_OLD_UNITS = '''
from baccarat.plugin import Selector, Strategy, hookimpl
from baccarat.strategy import Progression, Strategy as OldStrategy, amount_cents, cents_to_amount


class NewBankerAfterTwoPlayers(Strategy):
    name = "new-banker-after-two-players"
    params = {"unit": 10}

    def bets(self, view):
        if view.shoe_history[-2:] == ("player", "player"):
            return {"banker": self.unit}
        return None


class NewAlternate(Selector):
    name = "new-alternate"

    def choose(self, view):
        return "banker" if view.round % 2 else "player"


class OldDoubling(Progression):
    """0.1 units: the stake in cents, nets in micro-units (a lost bet's cents are -net // 10_000)."""

    name = "old-doubling"

    def won(self, net):
        assert isinstance(net, int) and net > 0
        self.restart()

    def lost(self, net):
        assert isinstance(net, int) and isinstance(self.stake, int)
        self.stake = -net // 10_000 * 2


class OldFollower(OldStrategy):
    """0.1 units: unit read as cents, nets settled in micro-units; doubles after a loss like the martingale."""

    name = "old-martingale"
    params = {"unit": 10}

    def __init__(self, session, unit=10):
        super().__init__(session)
        self.unit_cents = amount_cents(unit, "unit")
        self.stake_cents = self.unit_cents

    def bets(self, view):
        return {"banker": cents_to_amount(self.stake_cents)}

    def settle(self, view, nets):
        net = nets["banker"]
        assert isinstance(net, int)
        if net < 0:
            self.stake_cents = -net // 10_000 * 2
        elif net > 0:
            self.stake_cents = self.unit_cents


@hookimpl
def register_strategies(register):
    register(NewBankerAfterTwoPlayers)
    register(OldFollower)


@hookimpl
def register_selectors(register):
    register(NewAlternate)


@hookimpl
def register_progressions(register):
    register(OldDoubling)
'''

EXPERIMENT = """
name: old-plugins
rules: punto-banco-8
shoes: {source: seeded, seed: 11, count: 40}
session: {bankroll: 100000, shoes_per_session: 4, table_min: 1, table_max: 100000}
strategies:
  - {name: old, use: banker-after-two-players, params: {unit: 10}}
  - {name: new, use: new-banker-after-two-players, params: {unit: 10}}
  - {name: old alternate, use: flat, params: {side: alternate, unit: 5}}
  - {name: new alternate, use: flat, params: {side: new-alternate, unit: 5}}
  - {name: old doubling, use: old-doubling, params: {side: banker, unit: 2.5}}
  - {name: martingale, use: martingale, params: {side: banker, unit: 2.5}}
  - {name: old settle, use: old-martingale, params: {unit: 2.5}}
  - {name: old trailing, use: martingale, params: {side: banker, unit: 10, trailing_stop: 60}}
  - {name: new trailing, use: martingale, params: {side: banker, unit: 10, new_trailing_stop: 60}}
"""


def written(tmp_path: Path) -> Path:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "my_strategies.py").write_text(README_0_1_STRATEGY, encoding="utf-8")
    (plugins / "my_plugin.py").write_text(README_0_1_SELECTOR, encoding="utf-8")
    (plugins / "side_by_side.py").write_text(CURRENT_AND_OLD_UNITS, encoding="utf-8")
    (plugins / "old_stop.py").write_text(EXAMPLE_0_1_STOP_RULE, encoding="utf-8")
    (tmp_path / "experiment.yaml").write_text(textwrap.dedent(EXPERIMENT), encoding="utf-8")
    return plugins


def ledger_of(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    return frame.filter(pl.col("strategy") == name).select("session", "round", "stake", "net", "bankroll")


@pytest.mark.slow
def test_first_release_readme_plugins_run_with_a_warning_and_the_numbers_of_their_current_twins(tmp_path: Path) -> None:
    written(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "run", "experiment.yaml", "--plugins-dir", "plugins", "--out", "r", "--workers", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "baccarat.strategy is deprecated" in done.stderr and "import from baccarat.plugin instead" in done.stderr
    assert "my_strategies.py" in done.stderr
    ledger = pl.read_parquet(tmp_path / "r" / "ledger.parquet")
    pairs = [("old", "new"), ("old alternate", "new alternate"), ("old doubling", "martingale"), ("old settle", "martingale")]
    for old, new in [*pairs, ("old trailing", "new trailing")]:
        assert ledger_of(ledger, old).equals(ledger_of(ledger, new)), (old, new)
    assert (ledger_of(ledger, "old trailing")["stake"] == 0).sum() > 100  # the trailing stop did end sessions' betting
    assert (ledger_of(ledger, "martingale")["stake"] == 0).sum() == 0
    assert ledger_of(ledger, "martingale")["stake"].max() > Decimal(10)  # the doubling did happen


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("baccarat.strategy", "baccarat.plugin", "Selector"),
        ("baccarat.kernels", "baccarat.plugin.twins", "ProgressionTwin"),
        ("baccarat.bet_registry", "baccarat.plugin", "BetDefinition"),
        ("baccarat.cards", "baccarat.table.cards", "parse_card"),
        ("baccarat.rules", "baccarat.table.rules", "load_rules"),
        ("baccarat.exact_forms", "baccarat.plugin", "ExactProgression"),
        ("baccarat.roads", "baccarat.table.roads", "parse_outcomes"),
    ],
)
def test_each_first_release_module_warns_naming_its_new_import(old: str, new: str, name: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated .* import from {new}"):
        module = importlib.import_module(old)
    assert getattr(module, name) is not None


def test_first_release_money_helpers_keep_their_units() -> None:
    with pytest.warns(DeprecationWarning):
        sys.modules.pop("baccarat.strategy", None)
        strategy = importlib.import_module("baccarat.strategy")
    assert strategy.amount_cents("2.5", "unit") == 250
    assert strategy.amount_cents(10, "unit") == 1000
    assert strategy.cents_to_amount(1000) == 10 and isinstance(strategy.cents_to_amount(1000), int)
    assert strategy.cents_to_amount(250) == Decimal("2.5")
    with pytest.raises(ValueError, match="whole number of cents"):
        strategy.amount_cents("0.001", "unit")


def test_a_hook_without_hookimpl_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    source = "from baccarat.plugin import Strategy\n\n\nclass S(Strategy):\n    name = 'forgot'\n\n\n"
    (plugins / "forgot.py").write_text(source + "def register_strategies(register):\n    register(S)\n", encoding="utf-8")
    clear_registry()
    try:
        notes = [w for w in registry([plugins]).warnings if "register_strategies() has no @hookimpl" in w]
    finally:
        clear_registry()
    assert len(notes) == 1 and f"{plugins / 'forgot.py'}, line 8" in notes[0] and "forgot" in notes[0]
