"""Experiment files: every mistake answered by one message at FILE:LINE:COL, safe YAML, resolution."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from baccarat.errors import InputError
from baccarat.experiment import load_experiment

FLAT = "strategies:\n  - use: flat\n"


def write(tmp_path: Path, text: str, name: str = "exp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str, overrides: tuple[str, ...] = ()) -> str:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_experiment(path, overrides)
    message = str(info.value)
    assert "\n" not in message
    return message.replace(str(path), "FILE")


# Each case: the file, then the exact message (FILE stands for the file's path).
CASES = {
    "unknown top key": (
        "name: x\nsesion:\n  bankroll: 100\n" + FLAT,
        "FILE:2:1: unknown key 'sesion' in the experiment (did you mean 'session'?); the keys are name, rules, shoes, session, strategies",
    ),
    "unknown session key": (
        "session:\n  bankroll: 100\n  tablemax: 50\n" + FLAT,
        "FILE:3:3: unknown key 'tablemax' in session (did you mean 'table_max'?); "
        "the keys are bankroll, shoes_per_session, rounds, new_shoe, table_min, table_max, win_goal, stop_loss, hands_per_hour",
    ),
    "unknown shoes key": (
        "shoes: {seed: 1, shoes: 10}\n" + FLAT,
        "FILE:1:18: unknown key 'shoes' in shoes; the keys are source, seed, count, path, format",
    ),
    "unknown strategy key": (
        "strategies:\n  - use: flat\n    param: {unit: 10}\n",
        "FILE:3:5: unknown key 'param' in a strategy (did you mean 'params'?); the keys are name, use, params, grid",
    ),
    "wrong type of a section": (
        "session: 1000\n" + FLAT,
        "FILE:1:10: session must be a mapping of bankroll, shoes_per_session, rounds, new_shoe, table_min, table_max, "
        "win_goal, stop_loss, hands_per_hour, not 1000",
    ),
    "bankroll not a number": (
        "session:\n  bankroll: lots\n" + FLAT,
        "FILE:2:13: session.bankroll must be an amount such as 1000 or 12.50, not 'lots'",
    ),
    "bankroll a boolean": (
        "session:\n  bankroll: yes\n" + FLAT,
        "FILE:2:13: session.bankroll must be an amount such as 1000 or 12.50, not true",
    ),
    "bankroll zero": ("session:\n  bankroll: 0\n" + FLAT, "FILE:2:13: session.bankroll must be more than 0, not 0"),
    "bankroll fraction of a cent": (
        "session:\n  bankroll: 10.005\n" + FLAT,
        "FILE:2:13: session.bankroll must be a whole number of cents, not 10.005",
    ),
    "table_min above table_max": (
        "session:\n  table_min: 100\n  table_max: 50\n" + FLAT,
        "FILE:3:14: session.table_max (50) is below session.table_min (100)",
    ),
    "table_min above the default table_max": (
        "session:\n  bankroll: 5000\n  table_min: 2000\n" + FLAT,
        "FILE:3:14: session.table_max (1000, the default) is below session.table_min (2000)",
    ),
    "bankroll below table_min": (
        "session: {bankroll: 5, table_min: 10}\n" + FLAT,
        "FILE:1:21: session.bankroll (5) is below session.table_min (10): every session would be ruined before its first bet",
    ),
    "shoes_per_session zero": (
        "session:\n  shoes_per_session: 0\n" + FLAT,
        "FILE:2:22: session.shoes_per_session must be at least 1, not 0",
    ),
    "count zero": ("shoes:\n  count: 0\n" + FLAT, "FILE:2:10: shoes.count must be at least 1, not 0"),
    "count negative": ("shoes:\n  count: -5\n" + FLAT, "FILE:2:10: shoes.count must be at least 1, not -5"),
    "count not whole": ("shoes:\n  count: 2.5\n" + FLAT, "FILE:2:10: shoes.count must be a whole number, not 2.5"),
    "count as a word": ("shoes:\n  count: many\n" + FLAT, "FILE:2:10: shoes.count must be a whole number, not 'many'"),
    "seed negative": ("shoes:\n  seed: -1\n" + FLAT, "FILE:2:9: shoes.seed must be at least 0, not -1"),
    "seed listed twice": ("shoes:\n  seed: [1, 2, 1]\n" + FLAT, "FILE:2:16: the seed 1 is listed twice"),
    "empty seed list": ("shoes:\n  seed: []\n" + FLAT, "FILE:2:9: shoes.seed is an empty list; give one seed or a list of seeds"),
    "unknown source": (
        "shoes:\n  source: seded\n" + FLAT,
        "FILE:2:11: shoes.source must be seeded or recorded, not 'seded' (did you mean 'seeded'?)",
    ),
    "path on seeded shoes": (
        "shoes:\n  seed: 1\n  path: x.txt\n" + FLAT,
        "FILE:3:3: shoes.path is for recorded shoes; add `source: recorded` to replay a file",
    ),
    "recorded without path": (
        "shoes:\n  source: recorded\n  format: cards\n" + FLAT,
        "FILE:1:1: recorded shoes need shoes.path (the file to replay)",
    ),
    "recorded with count": (
        "shoes:\n  source: recorded\n  count: 5\n" + FLAT,
        "FILE:3:3: shoes.count is for seeded shoes; a recorded file is replayed whole",
    ),
    "unknown format": (
        "shoes:\n  source: recorded\n  path: s.txt\n  format: card\n" + FLAT,
        "FILE:4:11: unknown shoe format 'card' (did you mean 'cards'?); formats are ",
    ),
    "unknown preset": (
        "rules: punto-banco8\n" + FLAT,
        "FILE:1:8: unknown rule preset 'punto-banco8' (did you mean 'punto-banco-8'?); presets are ",
    ),
    "rules not a name": ("rules: [punto-banco-8]\n" + FLAT, "FILE:1:8: rules must be a preset name ("),
    "decks out of range": (
        "rules:\n  preset: punto-banco-8\n  decks: 9\n" + FLAT,
        "FILE:3:10: rules: decks must be between 1 and 8, not 9",
    ),
    "decks zero": ("rules: {decks: 0}\n" + FLAT, "FILE:1:16: rules: decks must be between 1 and 8, not 0"),
    "decks not a number": ("rules: {decks: six}\n" + FLAT, "FILE:1:16: rules: decks must be a whole number, not 'six'"),
    "unknown rule field": ("rules:\n  deck: 6\n" + FLAT, "FILE:2:3: unknown rule field 'deck' (did you mean 'decks'?); rule fields are "),
    "unknown preset in a rules mapping": (
        "rules:\n  preset: super-6\n  decks: 6\n" + FLAT,
        "FILE:2:11: unknown rule preset 'super-6' (did you mean 'super-6-8'?); presets are ",
    ),
    "commission too high": ("rules:\n  commission: 150%\n" + FLAT, "FILE:2:15: rules: commission must be at least 0 and below 1, not 1.5"),
    "cut card beyond the shoe": (
        "rules:\n  decks: 1\n  cut_card: 60\n" + FLAT,
        "FILE:3:13: rules: cut_card must be between 6 and 51 cards from the end, not 60",
    ),
    "unknown side bet": (
        "rules:\n  side_bets:\n    player_pair: 11\n    dragon8: 40\n" + FLAT,
        "FILE:4:5: unknown side bet 'dragon8' (did you mean 'dragon7'?); side bets are ",
    ),
    "no strategies": ("name: x\n", "FILE:1:1: the experiment has no strategies; add under `strategies:` a list of entries such as "),
    "strategies empty": (
        "name: x\nstrategies:\n",
        "FILE:2:1: the experiment has no strategies; add under `strategies:` a list of entries such as ",
    ),
    "strategies as a mapping": ("strategies:\n  use: flat\n", "FILE:2:3: strategies must be a list of entries such as `- use: flat` with "),
    "strategy as text": ("strategies:\n  - flat\n", "FILE:2:5: a strategy is a mapping, not the text 'flat'; write `- use: flat`"),
    "no space after a colon": (
        "strategies:\n  - use:flat\n",
        "FILE:2:5: a strategy is a mapping, not the text 'use:flat'; a key needs a space after its colon: `use: flat`",
    ),
    "a key out of line": (
        "strategies:\n  - use: flat\n  params: {unit: 10}\n",
        "FILE:3:3: not valid YAML: while parsing a block collection, expected <block end>, but found a key "
        "(check the indentation: this line does not line up with the lines above it)",
    ),
    "an unclosed quote": ("name: 'abc\n" + FLAT, "FILE:1:7: not valid YAML: the quoted value that starts here is never closed"),
    "strategy without use": (
        "strategies:\n  - name: x\n    params: {unit: 10}\n",
        "FILE:2:5: this strategy has no `use:` (the registered strategy to run, e.g. use: flat)",
    ),
    "unknown strategy": (
        "strategies:\n  - use: flat\n  - use: martingal\n",
        "FILE:3:10: unknown strategy 'martingal' (did you mean 'martingale'?); `baccarat strategies` lists them"
        " (a plugin's needs its plugin loaded: --plugins-dir FOLDER, or plugins_dir: in the experiment)",
    ),
    "unknown parameter": (
        "strategies:\n  - use: martingale\n    params: {side: banker, units: 10}\n",
        "FILE:3:28: strategy 'martingale' has no parameter 'units' (did you mean 'unit'?); its parameters are side, unit",
    ),
    "parameter of the wrong type": (
        "strategies:\n  - use: flat\n    params:\n      unit: ten\n",
        "FILE:4:13: parameter 'unit' of strategy 'flat' must be a number, not 'ten'",
    ),
    "unit below the table minimum": (
        "session: {table_min: 25}\nstrategies:\n  - use: flat\n    params: {unit: 10}\n",
        "FILE:4:20: unit 10 is below the table minimum 25 (session.table_min): every bet would be refused",
    ),
    "unit above the table maximum": (
        "session: {table_max: 100}\nstrategies:\n  - use: flat\n    params: {unit: 150}\n",
        "FILE:4:20: unit 150 is above the table maximum 100 (session.table_max): every bet would be cut to it",
    ),
    "a preset written as a file name": (
        "rules: punto-banco-6.yaml\n" + FLAT,
        "FILE:1:8: the rules file 'punto-banco-6.yaml' does not exist; for the preset write rules: punto-banco-6",
    ),
    "a bet the rules do not offer": (
        "rules: punto-banco-8\nstrategies:\n  - use: flat\n    params: {side: dragon7}\n",
        "FILE:4:20: the bet 'dragon7' is not offered by the rules 'punto-banco-8'",
    ),
    "a side that does not exist": (
        "strategies:\n  - use: martingale\n    params: {side: bankr, unit: 10}\n",
        "FILE:3:20: unknown side 'bankr' for strategy 'martingale' (did you mean 'banker'?)",
    ),
    "two strategies with one label": (
        "strategies:\n  - use: flat\n  - name: flat\n    use: martingale\n",
        "FILE:3:11: two strategies are labelled 'flat' (the first at line 2); give each its own `name:`",
    ),
    "params not a mapping": (
        "strategies:\n  - use: flat\n    params: [banker, 10]\n",
        "FILE:3:13: params must be a mapping of parameter names to values, not a list",
    ),
    "grid with an unknown parameter": (
        "strategies:\n  - use: martingale\n    grid:\n      unit: [10, 20]\n      sid: [banker]\n",
        "FILE:5:7: strategy 'martingale' has no parameter 'sid' (did you mean 'side'?); its parameters are side, unit",
    ),
    "grid value refused": (
        "strategies:\n  - use: flat\n    grid:\n      unit: [10, x]\n",
        "FILE:4:18: parameter 'unit' of strategy 'flat' must be a number, not 'x'",
    ),
    "grid not lists": (
        "strategies:\n  - use: flat\n    grid:\n      unit: 10\n",
        "FILE:4:13: grid.unit must be a non-empty list of values to try, not 10",
    ),
    "grid and params both": (
        "strategies:\n  - use: flat\n    params: {unit: 10}\n    grid: {unit: [10, 20]}\n",
        "FILE:4:12: the parameter 'unit' is both in params and in grid; keep one",
    ),
    "grid repeats a value": ("strategies:\n  - use: flat\n    grid: {unit: [10, 20, 10]}\n", "FILE:3:27: grid.unit lists 10 twice"),
    "name not text": ("name: yes\n" + FLAT, "FILE:1:7: name must be text, not true; put it in quotes"),
    "duplicate key": (
        "session:\n  bankroll: 10\n  table_min: 1\n  bankroll: 20\n" + FLAT,
        "FILE:4:3: the key 'bankroll' appears twice in this mapping (first at line 2, column 3)",
    ),
    "tab indentation": (
        "session:\n\tbankroll: 100\n" + FLAT,
        "FILE:2:1: not valid YAML: while scanning for the next token, found character '\\t' that cannot start any token "
        "(indent with spaces, not tabs)",
    ),
    "bad indentation": (
        "session:\n  bankroll: 100\n   table_min: 10\n" + FLAT,
        "FILE:3:13: not valid YAML: mapping values are not allowed here",
    ),
    "unclosed flow mapping": (
        "session: {bankroll: 100\n" + FLAT,
        "FILE:2:11: not valid YAML: while parsing a flow mapping, expected ',' or '}', but got ':'",
    ),
    "two documents": (
        "name: a\n---\nname: b\n",
        "FILE:2:1: not valid YAML: expected a single document in the stream, but found another document",
    ),
    "a list at the top": (
        "- use: flat\n",
        "FILE:1:1: an experiment must be a mapping of name, rules, shoes, session, strategies, plugins_dir, exact, report, not a list",
    ),
    "empty file": ("", "FILE:1:1: the experiment is empty; it needs at least a list of strategies"),
    "python tag": (
        "name: !!python/object/apply:os.system ['true']\n" + FLAT,
        "FILE:1:7: the tag !!python/object/apply:os.system is not allowed here: experiment files hold plain data only",
    ),
    "python tag on a key": ("? !!python/name:os.system\n: 1\n" + FLAT, "FILE:1:3: the tag !!python/name:os.system is not allowed here"),
    "local tag": ("session:\n  bankroll: !money 100\n" + FLAT, "FILE:2:13: the tag !money is not allowed here"),
    "set tag": ("shoes:\n  seed: !!set {1: null}\n" + FLAT, "FILE:2:9: the tag !!set is not allowed here"),
    "recursive alias": ("session: &s\n  bankroll: *s\n" + FLAT, "FILE:1:10: an alias refers to a value that contains it (recursive alias)"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_mistake_is_one_message_at_its_line_and_column(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    assert error_of(tmp_path, text).startswith(expected)


def test_a_python_tag_constructs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "constructed"
    text = f"name: !!python/object/apply:os.system ['touch {marker}']\n" + FLAT
    assert "is not allowed" in error_of(tmp_path, text)
    text = f"name: !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ['{marker}']]\n" + FLAT
    assert "is not allowed" in error_of(tmp_path, text)
    assert not marker.exists()


def test_an_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    message = error_of(tmp_path, "\n".join(lines) + "\n")
    assert "expands to more than" in message and message.startswith("FILE:")


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the file"):
        load_experiment(tmp_path / "nope.yaml")
    with pytest.raises(InputError, match="is a folder"):
        load_experiment(tmp_path)
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1") + FLAT.encode())
    with pytest.raises(InputError) as info:
        load_experiment(path)
    assert str(info.value) == f"{path}:1:10: is not UTF-8 text (a YAML file must be UTF-8)"


def test_missing_shoe_file_is_named_where_it_was_looked_for(tmp_path: Path) -> None:
    text = "shoes:\n  source: recorded\n  path: nothere.txt\n  format: cards\n" + FLAT
    message = error_of(tmp_path, text)
    assert message.startswith("FILE:3:9: the shoe file 'nothere.txt' does not exist (looked for ")
    assert str(tmp_path / "nothere.txt") in message


def test_defaults_are_filled_in(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, FLAT, "my-test.yaml"))
    assert exp.name == "my-test"
    assert exp.rules.name == "punto-banco-8" and exp.rules.decks == 8
    assert exp.shoes == {"source": "seeded", "seed": 0, "count": 1000}
    assert exp.seeds == (0,)
    assert (exp.session.bankroll_cents, exp.session.table_min_cents, exp.session.table_max_cents) == (100_000, 1000, 100_000)
    assert exp.session.shoes_per_session == 1
    assert [(s.name, s.use, s.params) for s in exp.strategies] == [("flat", "flat", {"side": "banker", "unit": 10})]


def test_rules_as_a_mapping_start_from_a_preset(tmp_path: Path) -> None:
    text = "rules:\n  preset: punto-banco-6\n  commission: 4%\n  tie_pays: '9:1'\n" + FLAT
    rules = load_experiment(write(tmp_path, text)).rules
    assert (rules.decks, float(rules.commission), int(rules.tie_pays)) == (6, 0.04, 9)


def test_a_ratio_written_without_quotes_is_a_ratio_not_a_base_60_number(tmp_path: Path) -> None:
    rules = load_experiment(write(tmp_path, "rules:\n  tie_pays: 9:1\n  banker_six_pays: 1:2\n" + FLAT)).rules
    assert (int(rules.tie_pays), float(rules.banker_six_pays)) == (9, 0.5)


def test_rules_from_a_file_beside_the_experiment(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("preset: punto-banco-8\ndecks: 4\ncut_card: 20\n")
    rules = load_experiment(write(tmp_path, "rules: house.yaml\n" + FLAT)).rules
    assert (rules.name, rules.decks, rules.cut_card) == ("house", 4, 20)
    (tmp_path / "house.yaml").write_text("preset: punto-banco-8\ndecks: 4\ncut_card: 300\n")
    with pytest.raises(InputError) as info:
        load_experiment(write(tmp_path, "rules: house.yaml\n" + FLAT))
    assert str(info.value) == f"{tmp_path / 'house.yaml'}:3:11: rules: cut_card must be between 6 and 207 cards from the end, not 300"


def test_merge_keys_and_anchors_are_plain_data(tmp_path: Path) -> None:
    text = (
        "strategies:\n"
        "  - name: a\n    use: flat\n    params: &p {side: banker, unit: 10}\n"
        "  - name: b\n    use: martingale\n    params:\n      <<: *p\n      unit: 20\n"
    )
    exp = load_experiment(write(tmp_path, text))
    assert [s.params for s in exp.strategies] == [{"side": "banker", "unit": 10}, {"side": "banker", "unit": 20}]


def test_numbers_written_as_text_are_read_as_numbers(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, "shoes: {count: 1e3}\nsession: {bankroll: '2_500.50'}\n" + FLAT))
    assert exp.shoes["count"] == 1000 and exp.session.bankroll_cents == 250_050


def test_grid_is_the_cartesian_product_with_labels_naming_the_values(tmp_path: Path) -> None:
    text = (
        "strategies:\n  - name: base\n    use: flat\n"
        "  - name: mg\n    use: martingale\n    grid:\n      unit: [10, 20, 50]\n      side: [banker, player]\n"
    )
    exp = load_experiment(write(tmp_path, text))
    labels = [s.name for s in exp.strategies]
    assert labels == ["base"] + [f"mg[unit={u},side={s}]" for u in (10, 20, 50) for s in ("banker", "player")]
    assert exp.strategies[5].params == {"side": "banker", "unit": 50}
    assert len(set(labels)) == 7


def test_grid_label_collision_is_reported(tmp_path: Path) -> None:
    text = "strategies:\n  - name: m[unit=5]\n    use: flat\n  - name: m\n    use: flat\n    grid: {unit: [5]}\n"
    assert error_of(tmp_path, text, ("session.table_min=5",)) == (
        "FILE:4:11: two strategies are labelled 'm[unit=5]' (the first at line 2); give each its own `name:`"
    )


def test_several_seeds(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, "shoes: {seed: [3, 1, 2], count: 5}\n" + FLAT))
    assert exp.seeds == (3, 1, 2) and exp.seed == 3
    assert exp.with_seed(2).shoes["seed"] == 2 and exp.with_seed(2).seeds == (2,)
    assert exp.to_mapping()["shoes"]["seed"] == [3, 1, 2]


# Overrides -------------------------------------------------------------------

BASE = (
    "name: base\nshoes:\n  seed: 1\n  count: 10\nsession:\n  table_min: 5\n"
    "strategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n  - use: martingale\n"
)


def test_overrides_set_nested_values_and_list_items(tmp_path: Path) -> None:
    exp = load_experiment(
        write(tmp_path, BASE),
        [
            "shoes.count=20",
            "session.bankroll=250.5",
            "strategies.0.params.unit=5",
            "strategies.1.params.side=player",
            "name=renamed",
            "shoes.seed=[4, 5]",
        ],
    )
    assert exp.name == "renamed" and exp.shoes["count"] == 20 and exp.seeds == (4, 5)
    assert exp.session.bankroll_cents == 25_050
    assert exp.strategies[0].params == {"side": "banker", "unit": 5}
    assert exp.strategies[1].params == {"side": "player", "unit": 10}
    assert exp.overrides == (
        "shoes.count=20",
        "session.bankroll=250.5",
        "strategies.0.params.unit=5",
        "strategies.1.params.side=player",
        "name=renamed",
        "shoes.seed=[4, 5]",
    )


def test_overrides_add_sections_strategies_and_rule_fields(tmp_path: Path) -> None:
    exp = load_experiment(
        write(tmp_path, FLAT + "rules: punto-banco-8\n"),
        [
            "strategies.1.use=martingale",
            "strategies.1.name=second",
            "rules.decks=6",
            "session.table_max=500",
            "strategies.0.grid={unit: [10, 20]}",
        ],
    )
    assert [s.name for s in exp.strategies] == ["flat[unit=10]", "flat[unit=20]", "second"]
    assert exp.rules.decks == 6 and exp.rules.commission == exp.rules.commission  # preset kept, decks changed
    assert exp.session.table_max_cents == 50_000


def test_the_last_override_wins(tmp_path: Path) -> None:
    exp = load_experiment(write(tmp_path, BASE), ["shoes.count=20", "shoes.count=30"])
    assert exp.shoes["count"] == 30


OVERRIDE_ERRORS = {
    "sesion.bankroll=5": "--set sesion.bankroll=5: unknown key 'sesion' in the experiment (did you mean 'session'?)",
    "session.bankroll=abc": "--set session.bankroll=abc: session.bankroll must be an amount such as 1000 or 12.50, not 'abc'",
    "strategies.0.params.units=5": "--set strategies.0.params.units=5: strategy 'flat' has no parameter 'units' (did you mean 'unit'?)",
    "strategies.5.use=flat": "--set strategies.5.use=flat: strategies has 2 item(s), numbered from 0; 2 adds one, 5 is out of range",
    "strategies.first.use=flat": "--set strategies.first.use=flat: strategies is a list: the next part must be an item number from 0",
    "name.x=1": "--set name.x=1: cannot set name.x: name holds 'base', not a mapping or a list",
    "shoes.count": "--set shoes.count: an override is KEY.PATH=VALUE",
    "shoes..count=1": "--set shoes..count=1: the key path 'shoes..count' has an empty part",
    "shoes.count=[1": "--set shoes.count=[1: not valid YAML: while parsing a flow sequence",
    "name=!!python/object/apply:os.system [ls]": "--set name=!!python/object/apply:os.system [ls]: the tag !!python/object/apply:os.system",
    "rules.decks=9": "--set rules.decks=9: rules: decks must be between 1 and 8, not 9",
}


@pytest.mark.parametrize("override", list(OVERRIDE_ERRORS))
def test_a_bad_override_is_reported_against_the_override(tmp_path: Path, override: str) -> None:
    assert error_of(tmp_path, BASE, (override,)).startswith(OVERRIDE_ERRORS[override])


def test_a_value_set_deeper_than_an_override_is_reported_against_it(tmp_path: Path) -> None:
    message = error_of(tmp_path, BASE, ("strategies.0.params={side: banker, unit: oops}",))
    assert message == (
        "--set strategies.0.params={side: banker, unit: oops}: parameter 'unit' of strategy 'flat' must be a number, not 'oops'"
    )


# Resolution ------------------------------------------------------------------


def test_the_resolved_experiment_resolves_to_itself(tmp_path: Path) -> None:
    text = (
        "name: round-trip\nrules: {preset: super-6-8, decks: 6, tie_pays: '9:1'}\n"
        "shoes: {seed: [1, 2], count: 7}\nsession: {bankroll: 123.45, table_min: 0.5, table_max: 99.5}\n"
        "strategies:\n  - use: flat\n    params: {unit: 2.5}\n  - name: m\n    use: martingale\n"
        "    grid: {side: [banker, player]}\n"
    )
    first = load_experiment(write(tmp_path, text))
    again_path = write(tmp_path, yaml.safe_dump(first.to_mapping(), sort_keys=False), "again.yaml")
    again = load_experiment(again_path)
    assert again.to_mapping() == first.to_mapping()
    assert (again.rules, again.session, again.strategies, again.seeds) == (first.rules, first.session, first.strategies, first.seeds)


def test_a_mapping_can_be_given_instead_of_a_file() -> None:
    exp = load_experiment({"name": "api", "shoes": {"count": 3}, "strategies": [{"use": "flat"}]}, ["shoes.count=4"])
    assert exp.name == "api" and exp.shoes["count"] == 4
    with pytest.raises(InputError, match=r"^<experiment>: unknown key 'stratgies' in the experiment \(did you mean 'strategies'\?\)"):
        load_experiment({"stratgies": []})
