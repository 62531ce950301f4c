"""The plugin system: entry points, plugin folders, failures, duplicates, disabling, and one test per hook.

Plugin files are written into temporary folders; the example package in
docs/example-plugin is pip-installed into a temporary folder and used both
from a fresh process and from this one.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest
import yaml
from conftest import THIRD_PARTY_PLUGINS
from helpers.scripted import money, play, sides, stakes

from baccarat.cli import main
from baccarat.errors import InputError, StrategyError
from baccarat.plugin import hookspecs
from baccarat.plugin.manager import DISABLE_ENV, clear_registry, registry

ROOT = Path(__file__).resolve().parents[2]
HOOKS = sorted(name for name, fn in vars(hookspecs).items() if callable(fn) and hasattr(fn, "baccarat_spec"))


def plugin_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


def play_with(folder: Path, use: str, outcomes: str, **kwargs):
    """Play a strategy from the registry that includes ``folder``."""
    return play(use, outcomes, plugins_dirs=(folder,), **kwargs)


def python_blocks(markdown: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown.read_text(encoding="utf-8"), flags=re.S)


# One test per hook (the meta-tests below check there is one) ----------------------


def test_hook_register_strategies(tmp_path: Path) -> None:
    # The free-form strategy of the quick start in docs/plugins.md, as a reader would save it.
    folder = plugin_folder(tmp_path, my_strategies=python_blocks(ROOT / "docs" / "plugins.md")[0])
    entry = registry([folder]).entries["strategy"]["player-after-banker"]
    assert (entry.plugin.name, entry.plugin.origin) == ("my_strategies", "file")
    cols = play_with(folder, "player-after-banker", "BBPTBP")
    assert stakes(cols) == [0, 10, 10, 0, 0, 10]
    assert money(cols, "net") == [0, -10, 10, 0, 0, 10]


def test_hook_register_selectors(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, my_strategies=python_blocks(ROOT / "docs" / "plugins.md")[0])
    # second-last: the decided winner before the last one; a push leaves the martingale where it was.
    cols = play_with(folder, "martingale", "BPBPTP", side="second-last")
    assert sides(cols) == ["-", "-", "B", "P", "B", "B"]
    assert stakes(cols) == [0, 0, 10, 10, 10, 10]


def test_hook_register_progressions(tmp_path: Path) -> None:
    folder = plugin_folder(
        tmp_path,
        plus_two="""
        from baccarat import hookimpl
        from baccarat.plugin import Progression

        class PlusTwo(Progression):
            name = "plus-two"

            def won(self, net):
                self.stake = self.unit

            def lost(self, net):
                self.stake += 2 * self.unit

        @hookimpl
        def register_progressions(register):
            register(PlusTwo)
    """,
    )
    assert stakes(play_with(folder, "plus-two", "PPBP")) == [10, 30, 50, 10]
    # Composed with a built-in selector (chop: P P B B B) and restarted when 50 would exceed 40; with a stop rule.
    assert stakes(play_with(folder, "plus-two", "BBPPPB", side="chop", table_max=40)) == [0, 10, 30, 10, 30, 10]
    assert stakes(play_with(folder, "plus-two", "PPPB", stop_loss=40)) == [10, 30, 0, 0]


TWIN_PLUGIN = """
    from baccarat import hookimpl
    from baccarat.plugin.twins import ProgressionTwin, StopRuleTwin, PROFIT, STAKE, micros
    from baccarat.plugin import positive_amount, Progression, StopRule

    class PlusTwo(Progression):
        name = "plus-two"

        def won(self, net):
            self.stake = self.unit

        def lost(self, net):
            self.stake += 2 * self.unit

    class DownBy(StopRule):
        name = "down_by"
        params = {"down_by": None}

        def __init__(self, session, down_by=None):
            super().__init__(session)
            self.limit = positive_amount(down_by, "down_by")

        def stop(self, view):
            return view.profit <= -self.limit

    def plus_two_won(state, params, net):
        state[STAKE] = params[0]

    def plus_two_lost(state, params, net):
        state[STAKE] += 2 * params[0]

    def down_by(view, state, params):
        return view[PROFIT] <= -params[0]

    @hookimpl
    def register_progressions(register):
        register(PlusTwo)

    @hookimpl
    def register_stop_rules(register):
        register(DownBy)

    @hookimpl
    def register_twins(register):
        register(PlusTwo, ProgressionTwin(won=plus_two_won, lost=WRONG))
        register(DownBy, StopRuleTwin(down_by, lambda rule: [micros(rule.limit)]))
"""


def both_engines(folder: Path | None, use: str, config, seed: int = 5, **params):
    from baccarat.engine.compiled import play_compiled
    from baccarat.engine.reference import StrategyRun, run_strategy, session_bounds
    from baccarat.odds.settlement import settlement_table
    from baccarat.shoes.compiled_deal import seeded_table_compiled
    from baccarat.table.rules import preset

    rules = preset("punto-banco-8")
    table = seeded_table_compiled(rules, seed, 1, 8)
    multipliers = settlement_table(table, rules)
    sessions = session_bounds(table, config.shoes_per_session)
    cls, full = registry([] if folder is None else [folder]).configure(use, params)
    run = StrategyRun(use, cls, full)
    return (
        play_compiled(run, table, multipliers, rules, config, seed, sessions),
        run_strategy(run, table, multipliers, rules, config, seed, sessions),
    )


def test_hook_register_exact_forms(tmp_path: Path) -> None:
    from baccarat.engine.reference import SessionConfig
    from baccarat.exact.analysis import analyse_strategy
    from baccarat.odds.exact_odds import bet_distribution
    from baccarat.table.rules import preset

    folder = plugin_folder(
        tmp_path,
        mine="""
        from baccarat import hookimpl
        from baccarat.plugin.exact_forms import ExactProgression
        from baccarat.plugin import Progression

        class PlusTwo(Progression):
            name = "plus-two"

            def won(self, net):
                self.stake = self.unit

            def lost(self, net):
                self.stake += 2 * self.unit

        class Untold(Progression):
            name = "untold"

        @hookimpl
        def register_progressions(register):
            register(PlusTwo)
            register(Untold)

        @hookimpl
        def register_exact_forms(register):
            register(PlusTwo, ExactProgression(("stake",)))
    """,
    )
    found = registry([folder])
    rules = preset("single-deck")
    config = SessionConfig(10_000, 1_000, 10_000, 3)
    cls, params = found.configure("plus-two", {"side": "player", "unit": 10})
    result = analyse_strategy("p", cls, params, rules, config, 3, found.exact_forms())
    odds = {(1 if m > 0 else -1 if m < 0 else 0): float(p) for m, p in bet_distribution(rules, "player").items()}
    in_profit = 0.0
    for path in itertools.product(odds, repeat=3):  # every way three rounds can go, the plugin's rule by hand
        bankroll, stake, chance = 100, 10, 1.0
        for result_sign in path:
            bankroll += result_sign * stake
            stake = 10 if result_sign > 0 else stake + 20 if result_sign < 0 else stake
            chance *= odds[result_sign]
        in_profit += chance if bankroll > 100 else 0.0
    assert abs(result.p_profit - in_profit) < 1e-12 and result.risk_of_ruin == 0.0
    cls, params = found.configure("untold", {"side": "player", "unit": 10})
    skipped = analyse_strategy("u", cls, params, rules, config, 3, found.exact_forms())
    assert "progression 'untold' has no exact form" in skipped.reason


@pytest.mark.slow
def test_hook_register_twins(tmp_path: Path) -> None:
    from baccarat.engine.reference import SessionConfig

    config = SessionConfig(30_000, 1_000, 20_000, 2)  # table-maximum restarts, ruin, two shoes a session
    folder = plugin_folder(tmp_path / "right", twins=TWIN_PLUGIN.replace("WRONG", "plus_two_lost"))
    capped = 0
    for side, down_by in (("banker", None), ("chop", 150), ("random", 100)):  # on built-in selectors, its stop rule
        fast, reference = both_engines(folder, "plus-two", config, side=side, unit=10, down_by=down_by)
        assert fast is not None, "a piece with a compiled twin that matches runs compiled"
        capped += int(reference["capped"].sum())
        for name, column in reference.items():
            assert (fast[name] == column).all(), name
    assert capped > 0
    # A twin that does not match its reference (a loss adds one unit, not two) fails the parity check.
    clear_registry()
    folder = plugin_folder(tmp_path / "wrong", twins=TWIN_PLUGIN.replace("WRONG", "plus_two_won"))
    fast, reference = both_engines(folder, "plus-two", config, side="banker", unit=10)
    assert fast is None and reference["stake"].sum() > 0
    # A piece of another plugin cannot be given a twin: a warning names the plugin, the rest still works.
    other = plugin_folder(
        tmp_path / "other",
        thief="""
        from baccarat import hookimpl
        from baccarat.plugin.twins import ProgressionTwin
        from baccarat_strategies.progressions import Martingale

        @hookimpl
        def register_twins(register):
            register(Martingale, ProgressionTwin())
    """,
    )
    found = registry([other])
    found.twins()
    assert any("plugin 'thief'" in w and "register_twins" in w and "this plugin registers" in w for w in found.warnings)
    fast, reference = both_engines(other, "martingale", config, side="banker", unit=10)
    assert fast is not None and (fast["net"] == reference["net"]).all()


def test_hook_register_stop_rules(tmp_path: Path) -> None:
    folder = plugin_folder(
        tmp_path,
        below="""
        from baccarat import hookimpl
        from baccarat.plugin import positive_amount, StopRule

        class StopBelow(StopRule):
            name = "stop_below"
            params = {"stop_below": None}

            def __init__(self, session, stop_below=None):
                super().__init__(session)
                self.floor = positive_amount(stop_below, "stop_below")

            def stop(self, view):
                return view.bankroll < self.floor

        @hookimpl
        def register_stop_rules(register):
            register(StopBelow)
    """,
    )
    assert stakes(play_with(folder, "flat", "PPPPP", bankroll=100, stop_below=75)) == [10, 10, 10, 0, 0]
    assert stakes(play_with(folder, "martingale", "PPPPP", bankroll=1000)) == [10, 20, 40, 80, 160]
    with pytest.raises(StrategyError, match="strategy 'flat': stop_below must be an amount"):
        registry([folder]).resolve("flat", {"stop_below": "x"})


def test_hook_register_bets(tmp_path: Path) -> None:
    # The bet of docs/plugins.md, as a reader would save it: priced, offered by rules, settled, backed by `side:`.
    from fractions import Fraction

    from helpers.side_bet_reference import end_distribution, value_counts

    from baccarat.odds.compositions import shoe_counts
    from baccarat.odds.exact_odds import bet_odds
    from baccarat.odds.settlement import settlement_table
    from baccarat.shoes.rounds import RoundTable
    from baccarat.table.cards import parse_card
    from baccarat.table.dealer import play_round
    from baccarat.table.rules import preset, rules_from_mapping

    folder = plugin_folder(tmp_path, tie_six=python_blocks(ROOT / "docs" / "plugins.md")[1])
    reg = registry([folder])
    assert reg.bets["tie_on_6"].name == "tie_six" and "tie_on_6" in reg.selectors
    rules = rules_from_mapping({"side_bets": {"tie_on_6": "35:1"}}, preset("punto-banco-8"), reg.bet_registry)
    p = sum((q for (pt, bt, _, _, _), q in end_distribution(value_counts(list(shoe_counts(8)))).items() if pt == bt == 6), Fraction(0))
    assert bet_odds(rules)["tie_on_6"].expected_value == 36 * p - 1
    rounds = [play_round([parse_card(c) for c in text.split()]) for text in ("6S 6H QD KC", "7S 6H QD KC", "AS AH 5D 5C")]
    assert settlement_table(RoundTable.from_rounds([(1, rounds)]), rules)["tie_on_6"].tolist() == [350_000, -10_000, 350_000]


def test_hook_register_predictors(tmp_path: Path) -> None:
    # The predictor of docs/plugins.md, as a reader would save it: registered, listed, scored against the exact odds.
    from baccarat.commands.strategies import listing
    from baccarat.results.patterns.predictions import score_predictors
    from baccarat.shoes.compiled_deal import seeded_table_compiled
    from baccarat.table.rules import preset

    block = next(b for b in python_blocks(ROOT / "docs" / "plugins.md") if "register_predictors" in b)
    folder = plugin_folder(tmp_path, banker_always=block)
    reg = registry([folder])
    predictors = reg.predictors()
    assert {"exact", "off-the-top", "banker-always"} <= set(predictors)
    assert reg.predictor_entries()["banker-always"].plugin.origin == "file"
    records, _ = listing([str(folder)])
    assert {"name": "banker-always", "kind": "predictor"}.items() <= next(r for r in records if r["name"] == "banker-always").items()
    rules = preset("punto-banco-8")
    table = seeded_table_compiled(rules, 2, 1, 1)
    scores = {
        s.name: s
        for s in score_predictors(table, rules, {"exact": predictors["exact"], "banker-always": predictors["banker-always"]}).scores
    }
    banker = (table.outcome == 0).sum()
    assert scores["banker-always"].log_loss == pytest.approx(
        -(banker * math.log(0.5) + (len(table) - banker) * math.log(0.25)) / len(table)
    )


def test_a_predictor_name_registered_twice_is_an_error_naming_both(tmp_path: Path) -> None:
    code = """
        from baccarat.plugin import Predictor, hookimpl

        class Again(Predictor):
            name = "exact"

            def predict(self, dealt):
                return (0.5, 0.4, 0.1)

        @hookimpl
        def register_predictors(register):
            register(Again)
    """
    reg = registry([plugin_folder(tmp_path, again=code)])
    with pytest.raises(StrategyError, match="predictor name 'exact' is registered twice"):
        reg.predictors()


def test_a_bet_reading_a_fact_it_does_not_declare_is_left_out_with_a_warning(tmp_path: Path) -> None:
    folder = plugin_folder(
        tmp_path,
        sloppy="""
        from fractions import Fraction
        from baccarat import hookimpl
        from baccarat.table.bet_registry import BetDefinition

        @hookimpl
        def register_bets(register):
            register(BetDefinition(name="sloppy", label="Sloppy", needs=frozenset({"totals"}),
                                   pays={"win": Fraction(2)}, wins=lambda r: {"win": r.natural}))
    """,
    )
    reg = registry([folder])
    assert "sloppy" not in reg.bets and "sloppy" not in reg.bet_registry
    assert any("failed in register_bets" in w and "needs 'natural'" in w for w in reg.warnings), reg.warnings


# Meta-tests ---------------------------------------------------------------------


def test_every_hookspec_has_a_test_named_after_it() -> None:
    assert HOOKS == [
        "register_bets",
        "register_exact_forms",
        "register_kernels",
        "register_predictors",
        "register_progressions",
        "register_selectors",
        "register_stop_rules",
        "register_strategies",
        "register_twins",
    ]
    tests = "".join(path.read_text(encoding="utf-8") for path in Path(__file__).parent.glob("test_*.py"))
    for hook in HOOKS:
        assert f"def test_hook_{hook}(" in tests, hook


def test_every_hookspec_is_documented_with_its_signature() -> None:
    doc = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    for hook in HOOKS:
        fn = getattr(hookspecs, hook)
        signature = f"{hook}({', '.join(inspect.signature(fn).parameters)})"
        assert f"`{signature}`" in doc, signature
        assert fn.__doc__ and re.search(r"register\((cls(, twin|, form)?|bet)\)", fn.__doc__)


def test_the_built_in_plugin_implements_only_known_hooks_with_their_signatures() -> None:
    module = importlib.import_module("baccarat_strategies.plugin")
    for name, fn in vars(module).items():
        if hasattr(fn, "baccarat_impl"):
            assert name in HOOKS
            assert list(inspect.signature(fn).parameters) == list(inspect.signature(getattr(hookspecs, name)).parameters)


# Loading ------------------------------------------------------------------------


def test_the_built_in_library_is_an_entry_point_plugin_like_any_other() -> None:
    from importlib.metadata import entry_points

    eps = [ep for ep in entry_points(group="baccarat") if ep.name == "builtin"]
    assert [ep.value for ep in eps] == ["baccarat_strategies.plugin"]
    reg = registry()
    builtin = next(p for p in reg.plugins if p.name == "builtin")
    assert builtin.origin == "built-in" and builtin.source.startswith("baccarat-backtest ")
    spec = {
        "progression": [
            "flat",
            "martingale",
            "grand-martingale",
            "paroli",
            "fibonacci",
            "dalembert",
            "labouchere",
            "1-3-2-6",
            "oscars-grind",
        ],
        "selector": [
            "banker",
            "player",
            "tie",
            "player_pair",
            "banker_pair",
            "dragon7",
            "panda8",
            "dragon_bonus_player",
            "dragon_bonus_banker",
            "either_pair",
            "perfect_pair",
            "big",
            "small",
            "lucky_6",
            "super_six",
            "follow-last",
            "chop",
            "streak",
            "pattern",
            "random",
            "road-ask",
            "road-follow",
            "road-consensus",
            "predicted",
        ],
        "stop-rule": ["stop_loss", "stop_win", "max_rounds"],
        "strategy": ["ev-counter"],
    }
    for kind, names in spec.items():
        mine = [name for name, e in reg.entries[kind].items() if e.plugin.name == "builtin"]
        assert mine == names


def test_readme_plugin_snippets_work_as_written(tmp_path: Path) -> None:
    blocks = [b for b in python_blocks(ROOT / "README.md") if "@hookimpl" in b]
    files = {re.match(r"# (?:plugins/)?(\w+)\.py", b).group(1): b for b in blocks}
    assert len(files) == len(blocks) >= 1
    folder = plugin_folder(tmp_path, **files)
    cols = play_with(folder, "banker-after-two-players", "PPBPPPB")
    assert stakes(cols) == [0, 0, 10, 0, 0, 10, 10]


def test_a_plugin_that_fails_to_import_is_reported_by_name_and_the_rest_load(tmp_path: Path, capsys) -> None:
    folder = plugin_folder(
        tmp_path,
        broken="import a_module_that_is_not_there\n",
        syntax="def (:\n",
        exits="raise SystemExit(3)\n",
        good="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        class Chop2(Chop):
            name = "chop-again"

        @hookimpl
        def register_selectors(register):
            register(Chop2)
    """,
    )
    reg = registry([folder])
    assert "chop-again" in reg.selectors and "martingale" in reg.progressions
    text = "\n".join(reg.warnings)
    assert re.search(r"plugin 'broken' \(file: .*broken\.py\) failed to import .*ModuleNotFoundError", text)
    assert re.search(r"plugin 'syntax' \(file: .*syntax\.py\) failed to import .*SyntaxError", text)
    assert "plugin 'exits'" in text
    assert main(["strategies", "--plugins-dir", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert "chop-again" in out and "baccarat: warning: plugin 'broken'" in err


def test_a_plugin_whose_hook_fails_is_left_out_of_that_hook(tmp_path: Path) -> None:
    folder = plugin_folder(
        tmp_path,
        raises="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        class Chop3(Chop):
            name = "chop-three"

        @hookimpl
        def register_selectors(register):
            register(Chop3)
            raise RuntimeError("boom")
    """,
        notaclass="""
        from baccarat import hookimpl

        @hookimpl
        def register_progressions(register):
            register(42)
    """,
        badsig="""
        from baccarat import hookimpl

        @hookimpl
        def register_selectors(reg):
            pass
    """,
        typo="""
        from baccarat import hookimpl

        @hookimpl
        def register_selector(register):
            pass
    """,
    )
    reg = registry([folder])
    assert "chop-three" not in reg.selectors
    text = "\n".join(reg.warnings)
    assert "plugin 'raises' (file: " in text and "failed in register_selectors" in text and "RuntimeError: boom" in text
    assert "plugin 'notaclass'" in text and "not 42" in text
    assert "plugin 'badsig'" in text and "is invalid" in text
    assert re.search(
        r"plugin 'typo' .* implements 'register_selector', which is not a baccarat hook "
        r"\(did you mean 'register_selectors'\?\)",
        text,
    )


def test_two_plugins_registering_one_name_is_an_error_naming_both(tmp_path: Path, capsys) -> None:
    folder = plugin_folder(
        tmp_path,
        clash="""
        from baccarat import hookimpl
        from baccarat.plugin import Strategy

        class Mine(Strategy):
            name = "martingale"

        @hookimpl
        def register_strategies(register):
            register(Mine)
    """,
    )
    with pytest.raises(StrategyError) as info:
        registry([folder])
    message = str(info.value)
    assert "strategy name 'martingale' is registered twice" in message
    assert "as a progression by plugin 'builtin' (built-in: baccarat-backtest" in message
    assert re.search(r"as a strategy by plugin 'clash' \(file: .*clash\.py\)", message)
    assert main(["strategies", "--plugins-dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "registered twice" in err


def test_two_plugin_files_registering_one_selector_name(tmp_path: Path) -> None:
    code = """
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        class Again(Chop):
            name = "zigzag"

        @hookimpl
        def register_selectors(register):
            register(Again)
    """
    folder = plugin_folder(tmp_path, first=code, second=code)
    with pytest.raises(StrategyError, match=r"selector name 'zigzag' is registered twice: .*'first' .*first\.py.* 'second' .*second\.py"):
        registry([folder])


def test_parameters_that_would_clash_in_one_strategy_are_an_error_naming_both(tmp_path: Path) -> None:
    folder = plugin_folder(
        tmp_path,
        wide="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Streak

        class Wide(Streak):
            name = "wide"
            params = {"wins": 2}

        @hookimpl
        def register_selectors(register):
            register(Wide)
    """,
    )
    with pytest.raises(
        StrategyError,
        match=r"parameter 'wins' belongs to both selector 'wide' of plugin 'wide' \(file: .*\) "
        r"and progression 'paroli' of plugin 'builtin' \(built-in",
    ):
        registry([folder])
    folder = plugin_folder(
        tmp_path / "b",
        unit="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Streak

        class Unit(Streak):
            name = "unit-selector"
            params = {"unit": 2}

        @hookimpl
        def register_selectors(register):
            register(Unit)
    """,
    )
    with pytest.raises(StrategyError, match="parameter 'unit' of selector 'unit-selector' .* is already a parameter of every composed"):
        registry([folder])


def test_two_plugins_with_one_name_are_an_error(tmp_path: Path) -> None:
    a = plugin_folder(tmp_path / "a", same="")
    b = plugin_folder(tmp_path / "b", same="")
    with pytest.raises(InputError, match="two plugins are named 'same'"):
        registry([a, b])


def test_a_missing_plugins_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="plugins folder .* does not exist"):
        registry([tmp_path / "nope"])


def test_an_environment_variable_disables_named_plugins(tmp_path: Path, monkeypatch) -> None:
    folder = plugin_folder(
        tmp_path,
        broken="import a_module_that_is_not_there\n",
        extra="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        class Extra(Chop):
            name = "extra-chop"

        @hookimpl
        def register_selectors(register):
            register(Extra)
    """,
    )
    monkeypatch.setenv(DISABLE_ENV, ",".join(["broken, extra ,nosuch", *THIRD_PARTY_PLUGINS]))
    reg = registry([folder])
    assert "extra-chop" not in reg.selectors and "banker" in reg.selectors
    assert not any("'broken'" in w for w in reg.warnings)
    assert any("names 'nosuch', which is not a plugin" in w for w in reg.warnings)
    monkeypatch.setenv(DISABLE_ENV, ",".join(["builtin", *THIRD_PARTY_PLUGINS]))
    with pytest.raises(StrategyError, match="unknown strategy 'flat'"):
        registry().resolve("flat", {})


@pytest.mark.slow
def test_hooks_are_called_once_per_run_not_per_round(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = plugin_folder(
        tmp_path,
        counter="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        CALLS = []

        class Counted(Chop):
            name = "counted"

        @hookimpl
        def register_strategies(register):
            CALLS.append("register_strategies")

        @hookimpl
        def register_progressions(register):
            CALLS.append("register_progressions")

        @hookimpl
        def register_selectors(register):
            CALLS.append("register_selectors")
            register(Counted)

        @hookimpl
        def register_stop_rules(register):
            CALLS.append("register_stop_rules")

        @hookimpl
        def register_twins(register):
            CALLS.append("register_twins")

        @hookimpl
        def register_exact_forms(register):
            CALLS.append("register_exact_forms")

        @hookimpl
        def register_bets(register):
            CALLS.append("register_bets")
    """,
    )
    experiment = write_experiment(tmp_path, "plugins", [{"name": "counted", "use": "martingale", "params": {"side": "counted"}}], count=6)
    assert main(["run", str(experiment), "--out", str(tmp_path / "small"), "--quiet"]) == 0
    calls = sys.modules["baccarat_plugin_counter"].CALLS
    # Exact forms only when asked; a plugin's compiled twins never in a run (its strategy plays in players, in Python).
    # The deprecated name is tested in test_twin_names_0_2; predictors are asked for by `baccarat predict` alone.
    current = [hook for hook in HOOKS if hook not in ("register_kernels", "register_predictors")]
    assert sorted(calls) == [hook for hook in current if hook not in ("register_exact_forms", "register_twins")]
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert sorted(calls) == [hook for hook in current if hook not in ("register_exact_forms", "register_twins")]
    assert main(["exact", str(experiment), "--rounds", "5"]) == 0
    assert sorted(calls) == [hook for hook in current if hook != "register_twins"]
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert ledger.height > 300 and ledger["session"].n_unique() == 3
    del folder


# Plugins folders in experiments and on the command line -----------------------------


def write_experiment(tmp_path: Path, plugins_dir: str | None, strategies: list[dict], count: int = 2) -> Path:
    import yaml

    data = {
        "name": "plugins",
        "rules": "punto-banco-8",
        "shoes": {"source": "seeded", "seed": 3, "count": count},
        "session": {"bankroll": 1000, "shoes_per_session": 2, "table_min": 10, "table_max": 1000},
        "strategies": strategies,
    }
    if plugins_dir is not None:
        data["plugins_dir"] = plugins_dir
    path = tmp_path / "experiment.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.slow
def test_plugins_dir_in_the_experiment_is_relative_to_its_file(tmp_path: Path, monkeypatch) -> None:
    plugin_folder(tmp_path, my_strategies=python_blocks(ROOT / "docs" / "plugins.md")[0])
    experiment = write_experiment(
        tmp_path,
        "plugins",
        [{"name": "p", "use": "player-after-banker"}, {"name": "m", "use": "martingale", "params": {"side": "second-last"}}],
    )
    monkeypatch.chdir(ROOT)
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert set(ledger["strategy"]) == {"p", "m"}
    resolved = yaml.safe_load((tmp_path / "out" / "experiment.yaml").read_text(encoding="utf-8"))
    assert resolved["plugins_dir"] == ["plugins"]  # as written, relative to the experiment file


@pytest.mark.slow
def test_plugins_dir_option_of_run_and_strategies(tmp_path: Path, capsys) -> None:
    folder = plugin_folder(tmp_path / "elsewhere", my_strategies=python_blocks(ROOT / "docs" / "plugins.md")[0])
    experiment = write_experiment(tmp_path, None, [{"name": "p", "use": "player-after-banker", "params": {"unit": 20}}])
    assert main(["run", str(experiment), "--out", str(tmp_path / "out1"), "--quiet"]) == 2
    assert "unknown strategy 'player-after-banker'" in capsys.readouterr().err
    assert main(["run", str(experiment), "--out", str(tmp_path / "out2"), "--quiet", "--plugins-dir", str(folder)]) == 0
    capsys.readouterr()
    assert main(["strategies", "--json", "--plugins-dir", str(folder)]) == 0
    records = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert records["second-last"]["kind"] == "selector" and records["second-last"]["origin"] == "file"
    assert records["second-last"]["source"] == str(folder.resolve() / "my_strategies.py")
    assert records["player-after-banker"]["params"] == {"unit": 10}


def test_strategies_command_lists_name_kind_parameters_and_origin(capsys) -> None:
    assert main(["strategies", "--json"]) == 0
    records = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert records["paroli"] == {
        "name": "paroli",
        "kind": "progression",
        "params": {"side": "banker", "unit": 10, "wins": 3},
        "origin": "built-in",
        "plugin": "builtin",
        "source": records["paroli"]["source"],
        "description": records["paroli"]["description"],
    }
    assert records["labouchere"]["params"]["line"] == [1, 2, 3, 4]
    assert records["streak"]["kind"] == "selector" and records["streak"]["params"] == {"length": 3}
    assert records["stop_loss"]["kind"] == "stop-rule" and records["stop_loss"]["params"] == {"stop_loss": None}
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^oscars-grind\s+progression\s+side=banker unit=10\s+built-in", out, flags=re.M)
    assert re.search(r"^pattern\s+selector\s+pattern=BP\s+built-in", out, flags=re.M)


# The example package ------------------------------------------------------------------


@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    """docs/example-plugin installed (built by pip, as a user would) into a temporary folder."""
    work = tmp_path_factory.mktemp("example")
    source = work / "src"
    shutil.copytree(ROOT / "docs" / "example-plugin", source)
    site = work / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--target",
            str(site),
            str(source),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"pip could not install the example plugin (setuptools>=70.1 is a test extra): {done.stderr}"
    assert (site / "baccarat_example_plugin-0.1.0.dist-info" / "entry_points.txt").is_file()
    return site


@pytest.fixture
def example_installed(example_site: Path, monkeypatch):
    monkeypatch.delenv(DISABLE_ENV, raising=False)  # conftest keeps installed packages out; this test installs its own
    sys.path.insert(0, str(example_site))
    importlib.invalidate_caches()
    clear_registry()
    yield example_site
    sys.path.remove(str(example_site))
    sys.modules.pop("baccarat_example_plugin", None)
    importlib.invalidate_caches()
    clear_registry()


@pytest.mark.slow
def test_example_package_is_found_through_its_entry_point_in_a_fresh_process(example_site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(example_site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop(DISABLE_ENV, None)  # conftest keeps installed packages out; this test installs its own
    done = subprocess.run([sys.executable, "-m", "baccarat", "strategies", "--json"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    records = {r["name"]: r for r in json.loads(done.stdout)}
    for name, kind in (
        ("banker-and-tie", "strategy"),
        ("reverse-dalembert", "progression"),
        ("majority", "selector"),
        ("trailing_stop", "stop-rule"),
    ):
        assert records[name]["kind"] == kind
        assert (records[name]["origin"], records[name]["plugin"]) == ("package", "example")
        assert records[name]["source"] == "baccarat-example-plugin 0.1.0"
    assert records["flat"]["origin"] == "built-in"


@pytest.mark.slow
def test_example_package_twins_play_compiled_with_the_reference_ledger(example_installed: Path) -> None:
    from baccarat.engine.reference import SessionConfig

    found = registry()
    kernels = found.twins()
    for kind, name in (("progression", "reverse-dalembert"), ("selector", "majority")):
        entry = found.entries[kind][name]
        assert entry.plugin.origin == "package" and entry.cls in kernels, name
    for config in (SessionConfig(100_000, 1_000, 100_000, 1), SessionConfig(20_000, 1_000, 8_000, 2)):
        for use, side in (("reverse-dalembert", "majority"), ("reverse-dalembert", "player"), ("martingale", "majority")):
            fast, reference = both_engines(None, use, config, side=side, unit=10, stop_win=300)
            assert fast is not None, f"{use} on {side} should play compiled"
            assert (reference["stake"] > 0).any() and (reference["stake"] == 0).any()
            for name, column in reference.items():
                assert (fast[name] == column).all(), (use, side, name)


@pytest.mark.slow
def test_example_package_twins_pass_the_check_command_in_a_fresh_process(example_site: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(example_site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    for name in ("reverse-dalembert", "majority"):
        done = subprocess.run(
            [sys.executable, "-m", "baccarat", "strategies", "check", name, "--shoes", "40"], capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stderr == ""
        assert "identical ledgers" in done.stdout and f"'{name}'" in done.stdout


@pytest.mark.slow
def test_the_example_plugin_bet_appears_in_baccarat_odds(example_site: Path) -> None:
    """docs/example-plugin, pip-installed: its tie on 6 is in `baccarat odds`, priced exactly, with no further code."""
    from fractions import Fraction

    from helpers.side_bet_reference import end_distribution, value_counts

    from baccarat.odds.compositions import shoe_counts

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(example_site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    done = subprocess.run([sys.executable, "-m", "baccarat", "odds", "--json"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    distribution = end_distribution(value_counts(list(shoe_counts(8))))
    p = sum((q for (pt, bt, _, _, _), q in distribution.items() if pt == bt == 6), Fraction(0))
    assert doc["bets"]["tie_on_6"]["offered"] is False
    assert doc["house_edge"]["tie_on_6"] == pytest.approx(float(1 - 36 * p), abs=1e-15)
    assert doc["probabilities"]["tie_on_6"] == pytest.approx(float(p), abs=1e-15)


def test_example_package_strategies_run(example_installed: Path) -> None:
    # Two bets a round: 10 on Banker, 2 on Tie.
    cols = play("banker-and-tie", "BTP", table_min=1)
    assert stakes(cols) == [12, 12, 12]
    assert money(cols, "net") == [7.5, 16, -12]
    # A built-in stop rule around a free-form strategy.
    assert stakes(play("banker-and-tie", "PPPB", table_min=1, stop_loss=20)) == [12, 12, 0, 0]
    # Its selector and progression composed: majority sits out while level; +1 unit on a win, -1 on a loss.
    cols = play("reverse-dalembert", "BBPPPPB", side="majority")
    assert sides(cols) == ["-", "B", "B", "B", "-", "P", "P"]
    assert stakes(cols) == [0, 10, 20, 10, 0, 10, 20]
    # Its stop rule: the bankroll peaks at 1009.50 and is 30 below it before round 5.
    assert stakes(play("reverse-dalembert", "BBPPPPB", side="majority", trailing_stop=25)) == [0, 10, 20, 10, 0, 0, 0]
    assert stakes(play("martingale", "PPPPP", trailing_stop=30)) == [10, 20, 0, 0, 0]


def test_a_missing_plugins_dir_in_the_experiment_is_a_positioned_error(tmp_path: Path, capsys) -> None:
    experiment = write_experiment(tmp_path, "nowhere", [{"name": "f", "use": "flat"}])
    assert main(["run", str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(experiment.read_text().splitlines(), start=1) if text.startswith("plugins_dir"))
    assert f"{experiment}:{line}:14: the plugins folder 'nowhere' does not exist" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_folder_named_in_the_experiment_and_by_plugins_dir_is_loaded_once(tmp_path: Path, capsys) -> None:
    folder = plugin_folder(
        tmp_path,
        my_strategies="""
        from baccarat import hookimpl
        from baccarat_strategies.selectors import Chop

        class Again(Chop):
            name = "again-chop"

        @hookimpl
        def register_selectors(register):
            register(Again)
    """,
    )
    experiment = write_experiment(tmp_path, "plugins", [{"name": "a", "use": "flat", "params": {"side": "again-chop"}}])
    status = main(
        [
            "run",
            str(experiment),
            "--plugins-dir",
            str(folder),
            "--plugins-dir",
            str(folder / ".." / "plugins"),
            "--out",
            str(tmp_path / "out"),
            "--quiet",
            "--workers",
            "1",
        ]
    )
    assert status == 0, capsys.readouterr().err
    import baccarat

    assert baccarat.load(tmp_path / "out").ledger["strategy"].unique().to_list() == ["a"]
