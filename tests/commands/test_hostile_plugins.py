"""A plugin's bug never changes another strategy's numbers, never loses a file and never passes unnoticed.

Each case is a plugin of a few lines, run through the real command line
(``baccarat run``): a strategy forcing the frozen rules open, a compiled
twin writing into its history or reading past its end, state kept on the
class, a bet that is not deterministic, an exact form whose probabilities
are not probabilities, plugin files that are not regular files. Each stops
the run with one line naming the strategy (or plugin) and exit status 2,
leaving nothing written; where a plugin's bug is contained instead, the
other strategies' numbers are those of a run without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

from baccarat.cli import main
from baccarat.files.inputfile import MAX_PLUGIN_BYTES
from baccarat.plugin.manager import clear_registry


@pytest.fixture(autouse=True)
def fresh_plugins():
    clear_registry()
    yield
    clear_registry()


def plugin_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    for name, code in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


def one_line(err: str) -> str:
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err.rstrip("\n")


def experiment(tmp_path: Path, strategies: str, shoes: int = 6, name: str = "exp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"shoes: {{seed: 3, count: {shoes}}}\nsession: {{shoes_per_session: 2}}\nstrategies:\n" + textwrap.dedent(strategies))
    return path


def run(tmp_path: Path, exp: Path, folder: Path | None, out: str = "out", *extra: str) -> int:
    plugins = ["--plugins-dir", str(folder)] if folder is not None else []
    return main(["run", str(exp), "--quiet", *plugins, "--out", str(tmp_path / out), *extra])


FLAT = "  - {name: flat banker, use: flat, params: {side: banker, unit: 10}}\n"


# Item: the rules are the experiment's, out of a strategy's reach ----------------------------------------------------

RULE_BREAKER = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import Strategy


class RuleBreaker(Strategy):
    \"\"\"Bets nothing; from session ``at`` on, sets the commission (or a side bet's pays) to what suits it.\"\"\"

    name = "rule-breaker"
    params = {"at": 1, "what": "commission"}

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        if view.session >= self.at:
            if self.what == "commission":
                object.__setattr__(view.rules, "commission", Fraction(0))
            else:
                view.rules.side_bets.clear()
        return None


@hookimpl
def register_strategies(register):
    register(RuleBreaker)
"""


@pytest.mark.parametrize(
    ("params", "said"),
    [
        (
            "{at: 1}",
            "exp.yaml:6:8: strategy 'rule-breaker' changed the table rules (commission 1/20 became 0) while it played a sample shoe ",
        ),
        ("{at: 3}", "strategy 'breaker' changed the table rules (commission 1/20 became 0) while it played; "),
        ("{at: 3, what: side bets}", "strategy 'breaker' changed the table rules (side_bets {'dragon7': Fraction(40, 1)} became {})"),
    ],
)
def test_a_strategy_forcing_the_rules_open_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], params: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, breaker=RULE_BREAKER)
    rules = "rules: {side_bets: {dragon7: 40}}\n" if "side" in params else ""
    exp = experiment(tmp_path, FLAT + f"  - name: breaker\n    use: rule-breaker\n    params: {params}\n")
    exp.write_text(rules + exp.read_text())
    assert run(tmp_path, exp, folder) == 2
    err = one_line(capsys.readouterr().err)
    assert said in err, err
    assert not (tmp_path / "out").exists()


# Compiled twins: their history is their own copy, ending at the last round dealt --------------------------------------

TWINS = """
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, PLAYER, SelectorTwin, njit


class Peek(Selector):
    \"\"\"Banker every round; its twin reads one round past its history, through a helper.\"\"\"

    name = "peek"

    def choose(self, view):
        return "banker"


class Vandal(Peek):
    \"\"\"Banker every round; its twin writes PLAYER over its whole history.\"\"\"

    name = "vandal"


@njit
def next_outcome(history):
    return history[len(history)]


def peek(view, history, state, params, rng):
    return PLAYER if next_outcome(history) == PLAYER else BANKER


def vandal(view, history, state, params, rng):
    for i in range(len(history)):
        history[i] = PLAYER
    return BANKER


@hookimpl
def register_selectors(register):
    register(Peek)
    register(Vandal)


@hookimpl
def register_twins(register):
    register(Peek, SelectorTwin(peek))
    register(Vandal, SelectorTwin(vandal))
"""

MARTINGALE = "  - {name: martingale follow-last, use: martingale, params: {side: follow-last, unit: 10}}\n"


def ledger_of(folder: Path, strategy: str) -> pl.DataFrame:
    return pl.read_parquet(folder / "ledger.parquet").filter(pl.col("strategy") == strategy).drop("strategy")


@pytest.mark.slow
def test_compiled_twins_cannot_write_the_rounds_or_read_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")  # a small run, compiled all the same
    folder = plugin_folder(tmp_path, twins=TWINS)
    hostile = experiment(
        tmp_path,
        "  - {name: vandal, use: flat, params: {side: vandal, unit: 10}}\n"
        "  - {name: peek, use: flat, params: {side: peek, unit: 10}}\n" + MARTINGALE + FLAT,
        shoes=40,
    )
    assert run(tmp_path, hostile, folder, "hostile", "--workers", "1") == 0
    warned = capsys.readouterr().err
    assert "baccarat: warning: strategy 'peek' runs on the reference engine: a compiled twin raised IndexError" in warned
    monkeypatch.setenv("BACCARAT_NO_COMPILED_PATH", "1")
    assert run(tmp_path, experiment(tmp_path, MARTINGALE + FLAT, shoes=40, name="alone.yaml"), None, "alone") == 0
    for strategy in ("martingale follow-last", "flat banker"):
        assert ledger_of(tmp_path / "hostile", strategy).equals(ledger_of(tmp_path / "alone", strategy))
    vandal, peek, flat = (ledger_of(tmp_path / "hostile", s) for s in ("vandal", "peek", "flat banker"))
    assert peek["net"].equals(flat["net"]) and vandal["net"].equals(flat["net"])  # banker every round: no look-ahead


LATE_LIAR = """
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, PLAYER, SHOE, SelectorTwin


class Late(Selector):
    \"\"\"Banker every round; its twin backs player from shoe ``17`` on, past the parity check's shoes.\"\"\"

    name = "late"

    def choose(self, view):
        return "banker"


def late(view, history, state, params, rng):
    return PLAYER if view[SHOE] > 16 else BANKER


@hookimpl
def register_selectors(register):
    register(Late)


@hookimpl
def register_twins(register):
    register(Late, SelectorTwin(late))
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_twin_that_differs_only_late_in_the_run_is_caught_by_the_spot_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    folder = plugin_folder(tmp_path, late=LATE_LIAR)
    exp = experiment(tmp_path, FLAT + "  - {name: late, use: martingale, params: {side: late, unit: 10}}\n", shoes=100)
    assert run(tmp_path, exp, folder, "out", "--workers", workers) == 2
    err = one_line(capsys.readouterr().err)
    assert err.startswith("baccarat: error: strategy 'late': its compiled twin differs from the reference at session "), err
    assert err.endswith(
        "(a spot check during the run); fix the twin or run with BACCARAT_NO_COMPILED_PATH=1; the run was abandoned and nothing was written"
    )
    assert not (tmp_path / "out").exists()


# Sessions are independent and deterministic ---------------------------------------------------------------------------

CLASS_STATE = """
import random
from fractions import Fraction

import numpy as np

from baccarat import hookimpl
from baccarat.plugin import BetDefinition, Strategy


class Classy(Strategy):
    \"\"\"Follows the last winner it remembers, in a list kept on the class (shared by every session of a process).\"\"\"

    name = "classy"
    params = {}
    history = []

    @classmethod
    def sides(cls, params):
        return {"banker", "player"}

    def bets(self, view):
        side = "player" if self.history and self.history[-1] == "player" else "banker"
        if view.shoe_history:
            self.history.append(view.shoe_history[-1])
        return {side: 10}


class Dice(Classy):
    \"\"\"Banker or player at random, from an unseeded stream.\"\"\"

    name = "dice"
    history = None

    def bets(self, view):
        return {random.choice(["banker", "player"]): 10}


COIN = BetDefinition(
    name="coin",
    label="Coin",
    needs=frozenset({"totals"}),
    pays={"win": Fraction(1)},
    wins=lambda r: {"win": np.random.random(len(r.tie)) < 0.5},
    description="a coin tossed without a seed",
)


@hookimpl
def register_strategies(register):
    register(Classy)
    register(Dice)


@hookimpl
def register_bets(register):
    register(COIN)
"""


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            "  - {name: classy, use: classy}\n",
            "exp.yaml:4:23: strategy 'classy' changed the class attribute Classy.history while it played a sample shoe tried "
            "before the run: a class attribute is shared by every session a process plays, so results would depend on "
            "--workers; keep state on self (set it in __init__)",
        ),
        (
            "  - {name: dice, use: dice}\n",
            "exp.yaml:4:21: strategy 'dice' played the same sample shoe twice and bet differently the second time (round ",
        ),
        (
            "  - {name: coin, use: flat, params: {side: coin, unit: 10}}\n",
            "bet 'coin' settled the same sample rounds differently when asked twice: its wins (or pushes) is not deterministic",
        ),
    ],
)
def test_state_shared_between_sessions_or_chance_without_a_seed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, classy=CLASS_STATE)
    exp = experiment(tmp_path, entry)
    if "coin" in entry:
        exp.write_text("rules: {side_bets: {coin: 1}}\n" + exp.read_text())
    for workers in ("1", "2"):
        assert run(tmp_path, exp, folder, "out", "--workers", workers) == 2
        err = one_line(capsys.readouterr().err)
        assert said in err, err
        assert not (tmp_path / "out").exists()


# Exact forms answer with probabilities ------------------------------------------------------------------------------

EXACT_FORMS = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import ExactSelector, Selector


class Lopsided(Selector):
    \"\"\"Banker, always; its exact form says otherwise.\"\"\"

    name = "lopsided"

    def choose(self, view):
        return "banker"


class Short(Lopsided):
    name = "short"


class Broken(Lopsided):
    name = "broken"


def broken(selector):
    raise ValueError("no chances today")


@hookimpl
def register_selectors(register):
    for cls in (Lopsided, Short, Broken):
        register(cls)


@hookimpl
def register_exact_forms(register):
    register(Lopsided, ExactSelector(lambda selector: {"banker": Fraction(3, 2), "player": Fraction(-1, 2)}))
    register(Short, ExactSelector(lambda selector: {"banker": Fraction(1, 2)}))
    register(Broken, ExactSelector(broken))
"""


@pytest.mark.parametrize(
    ("side", "said"),
    [
        ("lopsided", "the exact form of side 'lopsided' gives side 'banker' the chance 3/2, outside 0 to 1 (in {file})"),
        ("short", "the exact form of side 'short' gives chances that add up to 1/2, not 1 (in {file})"),
        ("broken", "the exact form of side 'broken' raised ValueError: no chances today at {file}:{line}"),
    ],
)
def test_an_exact_form_that_gives_no_probabilities_is_one_line_naming_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, forms=EXACT_FORMS)
    exp = experiment(tmp_path, f"  - {{name: lop, use: flat, params: {{side: {side}, unit: 10}}}}\n")
    assert main(["exact", str(exp), "--plugins-dir", str(folder), "--rounds", "50"]) == 2
    out, err = capsys.readouterr()
    line = 1 + EXACT_FORMS.splitlines().index('    raise ValueError("no chances today")')
    assert out == "" and one_line(err) == "baccarat: error: " + said.format(file=folder / "forms.py", line=line)


# Plugin files are regular files of a sensible size ------------------------------------------------------------------


def test_a_plugin_file_that_is_a_device_a_pipe_or_huge_is_left_out_with_a_warning(tmp_path: Path) -> None:
    folder = tmp_path / "plugins"
    folder.mkdir()
    os.mkfifo(folder / "fifo.py")
    (folder / "zero.py").symlink_to("/dev/zero")
    with open(folder / "big.py", "wb") as big:
        big.truncate(MAX_PLUGIN_BYTES + 1)
    done = subprocess.run(  # in a child process with a time limit: a regression would read without end or block
        [sys.executable, "-m", "baccarat", "strategies", "--json", "--plugins-dir", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0 and "flat" in {s["name"] for s in json.loads(done.stdout)}
    device = "ImportError: the file is not a regular file (a device, a pipe or a socket), so it cannot be read as a plugin file"
    assert done.stderr.splitlines() == [
        f"baccarat: warning: plugin 'big' (file: {folder / 'big.py'}) failed to import and is left out: ImportError: the file is "
        f"{MAX_PLUGIN_BYTES + 1:,} bytes, more than the 16 MiB a plugin file may hold",
        f"baccarat: warning: plugin 'fifo' (file: {folder / 'fifo.py'}) failed to import and is left out: {device}",
        f"baccarat: warning: plugin 'zero' (file: /dev/zero) failed to import and is left out: {device}",
    ]


# Messages: one line, naming the plugin --------------------------------------------------------------------------------

MISTAKES = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import BetDefinition, Strategy


def raising(rounds):
    raise ValueError("no idea")


class BadSides(Strategy):
    \"\"\"Its sides() raises.\"\"\"

    name = "bad-sides"
    params = {}

    @classmethod
    def sides(cls, params):
        raise RuntimeError("sides broke")

    def bets(self, view):
        return None


class Unwritable(BadSides):
    \"\"\"A default that YAML cannot hold.\"\"\"

    name = "unwritable"
    params = {"obj": object()}

    @classmethod
    def sides(cls, params):
        return {"banker"}


@hookimpl
def register_bets(register):
    register(BetDefinition(name="raises", label="Raises", needs=frozenset({"totals"}), pays={"win": Fraction(1)}, wins=raising))


@hookimpl
def register_strategies(register):
    register(BadSides)
    register(Unwritable)
"""


@pytest.mark.parametrize(
    ("head", "entry", "said"),
    [
        (
            "",
            "  - {name: x, use: bad-sides}\n",
            "exp.yaml:4:18: strategy 'bad-sides': its sides() raised RuntimeError: sides broke at {file}:{line}",
        ),
        (
            "",
            "  - {name: x, use: unwritable}\n",
            "exp.yaml:4:18: strategy 'unwritable' has the parameter 'obj' = <object object at ",
        ),
        (
            "rules: {side_bets: {raises: 1}}\n",
            "  - {name: x, use: flat, params: {side: raises, unit: 10}}\n",
            "exp.yaml:1:21: unknown side bet 'raises'; side bets are ",
        ),
    ],
)
def test_a_plugins_mistake_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], head: str, entry: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, mistakes=MISTAKES)
    exp = experiment(tmp_path, entry)
    exp.write_text(head + exp.read_text())
    assert run(tmp_path, exp, folder) == 2
    out, err = capsys.readouterr()
    line = 1 + MISTAKES.splitlines().index('        raise RuntimeError("sides broke")')
    assert out == "" and one_line(err).startswith(f"baccarat: error: {tmp_path}/" + said.format(file=folder / "mistakes.py", line=line)), (
        err
    )
    if "raises" in entry:  # why the bet is unknown: its plugin was left out of register_bets
        assert err.rstrip().endswith(
            f"; note that plugin 'mistakes' (file: {folder / 'mistakes.py'}) failed in register_bets and is left out of it: "
            "ValueError: no idea"
        )
    assert not (tmp_path / "out").exists()


NOISY = """
import atexit
import os

from baccarat import hookimpl
from baccarat.plugin import Strategy

atexit.register(lambda: (print("bye from a plugin"), os.write(1, b"and from C\\n")))


class Chatty(Strategy):
    \"\"\"Bets 10 on banker, and says so every round.\"\"\"

    name = "chatty"
    params = {}

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        print("betting banker")
        return {"banker": 10}


@hookimpl
def register_strategies(register):
    register(Chatty)
"""


@pytest.mark.slow
def test_json_stdout_holds_the_json_only_whatever_a_plugin_prints(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, noisy=NOISY)
    exp = experiment(tmp_path, "  - {name: chatty, use: chatty}\n", shoes=2)
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "run", str(exp), "--json", "--plugins-dir", str(folder), "--out", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"][0]["strategy"] == "chatty"
    assert "betting banker" in done.stderr and done.stderr.rstrip().endswith("bye from a plugin\nand from C")


LATE_BETS = """
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import BetDefinition


def raising(rounds):
    if len(rounds.tie) > 1000:  # past the sample rounds the bet is tried on when it is registered
        raise ValueError("too many rounds")
    return {"win": rounds.tie}


def short(rounds):
    return {"win": rounds.tie[:-1] if len(rounds.tie) > 1000 else rounds.tie}


def sneaky(rounds):
    return {"win": rounds.player_cards[:, 0] == 1 if len(rounds.tie) > 1000 else rounds.tie}


@hookimpl
def register_bets(register):
    for name, wins in (("raises_late", raising), ("short_late", short), ("sneaky_late", sneaky)):
        register(BetDefinition(name=name, label=name, needs=frozenset({"totals"}), pays={"win": Fraction(1)}, wins=wins))
"""


@pytest.mark.parametrize(
    ("bet", "said"),
    [
        ("raises_late", "bet 'raises_late' failed to settle 3,201 rounds: ValueError: too many rounds at {file}:10"),
        ("short_late", "bet 'short_late' failed to settle 3,201 rounds: it gave an array whose length is not the number of rounds (3,201)"),
        (
            "sneaky_late",
            "bet 'sneaky_late' failed to settle 3,201 rounds: AttributeError: the fact 'player_cards' needs 'cards' among the "
            "bet's needs at {file}:19",
        ),
    ],
)
def test_a_bet_failing_only_on_the_runs_rounds_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bet: str, said: str
) -> None:
    folder = plugin_folder(tmp_path, bets=LATE_BETS)
    exp = experiment(tmp_path, f"  - {{name: x, use: flat, params: {{side: {bet}, unit: 10}}}}\n", shoes=40)
    exp.write_text(f"rules: {{side_bets: {{{bet}: 1}}}}\n" + exp.read_text())
    assert run(tmp_path, exp, folder, "out", "--workers", "1") == 2
    out, err = capsys.readouterr()
    assert out == "" and one_line(err) == "baccarat: error: " + said.format(file=folder / "bets.py")
    assert not (tmp_path / "out").exists()


def test_strategies_check_names_a_parameter_the_strategy_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategies", "check", "martingale", "--param", "unit=-5"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and one_line(err) == (
        "baccarat: error: --param: 'martingale' refuses its parameters: unit must be a positive amount, not -5"
    )


def test_a_plugin_changing_the_working_folder_at_import_moves_no_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = plugin_folder(tmp_path, mover=f"import os\nos.chdir({str(elsewhere)!r})\n")
    monkeypatch.chdir(tmp_path)
    exp = experiment(tmp_path, FLAT)
    assert main(["run", exp.name, "--quiet", "--plugins-dir", str(folder), "--out", "out"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("-> out")
    assert (tmp_path / "out" / "manifest.json").is_file() and list(elsewhere.iterdir()) == []


def test_roads_of_a_run_folder_check_its_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, experiment(tmp_path, FLAT), None) == 0
    for part in (tmp_path / "out" / "rounds.parquet").iterdir():
        part.unlink()
    capsys.readouterr()
    assert main(["roads", str(tmp_path / "out"), "--shoe", "1", "--out", str(tmp_path / "roads.png")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and one_line(err) == (
        f"baccarat: error: {tmp_path / 'out'}: rounds.parquet/0000000.parquet is missing (the run wrote it); the folder is incomplete"
    )
    assert not (tmp_path / "roads.png").exists()


def test_odds_lists_the_bets_of_a_plugins_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = plugin_folder(tmp_path, bets=LATE_BETS)
    (tmp_path / "rules.yaml").write_text("side_bets: {raises_late: 1}\n")
    assert main(["odds", "--rules", str(tmp_path / "rules.yaml"), "--plugins-dir", str(folder), "--json"]) == 0
    assert "raises_late" in json.dumps(json.loads(capsys.readouterr().out))


HUGE_STATE = """
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, SelectorTwin


class Huge(Selector):
    \"\"\"Banker; its twin asks for a trillion slots of state.\"\"\"

    name = "huge"

    def choose(self, view):
        return "banker"


def huge(view, history, state, params, rng):
    return BANKER


@hookimpl
def register_selectors(register):
    register(Huge)


@hookimpl
def register_twins(register):
    register(Huge, SelectorTwin(huge, state_size=10**12))
"""


def test_a_twin_asking_for_absurd_state_is_named_not_taken_for_a_memory_shortage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BACCARAT_COMPILED_FROM", "0")
    folder = plugin_folder(tmp_path, huge=HUGE_STATE)
    assert run(tmp_path, experiment(tmp_path, "  - {name: huge, use: flat, params: {side: huge, unit: 10}}\n"), folder) == 0
    assert capsys.readouterr().err == (
        "baccarat: warning: strategy 'huge' runs on the reference engine: a compiled twin's state_size is "
        "1,000,000,000,000, more than the 16,777,216 slots a piece may hold\n"
    )


QUITTER = """
import os

from baccarat import hookimpl
from baccarat.plugin import Strategy


class Quitter(Strategy):
    \"\"\"Bets on banker, and ends the process in session 3.\"\"\"

    name = "quitter"
    params = {}

    @classmethod
    def sides(cls, params):
        return {"banker"}

    def bets(self, view):
        if view.session == 3:
            os._exit(0)
        return {"banker": 10}


@hookimpl
def register_strategies(register):
    register(Quitter)
"""


@pytest.mark.slow
def test_os_exit_in_a_strategy_is_one_line_not_a_silent_end(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, quitter=QUITTER)
    exp = experiment(tmp_path, "  - {name: q, use: quitter}\n", shoes=8)
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "run", str(exp), "--quiet", "--workers", "1", "--plugins-dir", str(folder), "--out", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    line = 1 + QUITTER.splitlines().index("            os._exit(0)")
    assert done.stderr == (
        "baccarat: error: strategy 'q' raised ExitRefused: os._exit(0) ends the process without cleaning up; raise an "
        f"exception instead at {folder / 'quitter.py'}:{line} (session 3, shoe 5, hand 1, round 1)\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["exp.yaml", "plugins"]


SMASHER = """
from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, SelectorTwin, njit


class Smash(Selector):
    \"\"\"Banker every round; its twin's helper writes far past the end of its history.\"\"\"

    name = "smash"

    def choose(self, view):
        return "banker"


@njit
def smash_past(history):
    history[len(history) + 10_000_000] = 1


def smash(view, history, state, params, rng):
    smash_past(history)
    return BANKER


@hookimpl
def register_selectors(register):
    register(Smash)


@hookimpl
def register_twins(register):
    register(Smash, SelectorTwin(smash))
"""


@pytest.mark.slow
def test_an_out_of_bounds_write_in_a_twins_helper_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, smasher=SMASHER)
    exp = experiment(tmp_path, "  - {name: smash, use: flat, params: {side: smash, unit: 10}}\n" + FLAT, shoes=20)
    done = subprocess.run(  # in a child process: a regression would end it with a segmentation fault
        [sys.executable, "-m", "baccarat", "run", str(exp), "--quiet", "--plugins-dir", str(folder), "--out", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "BACCARAT_COMPILED_FROM": "0"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "baccarat: warning: strategy 'smash' runs on the reference engine: a compiled twin raised IndexError: index is out of bounds\n"
    )
    smash, flat = (ledger_of(tmp_path / "out", s) for s in ("smash", "flat banker"))
    assert smash["net"].equals(flat["net"])


LATER = """
from baccarat import hookimpl
from baccarat.plugin import Strategy


class Later(Strategy):
    \"\"\"Counts sessions on its class from session 2 on (after the sample shoe it is tried on).\"\"\"

    name = "later"
    params = {}
    seen = 0

    @classmethod
    def sides(cls, params):
        return {"banker", "player"}

    def bets(self, view):
        if view.session >= 2 and view.round == 1:
            type(self).seen += 1
        return {"banker": 10} if type(self).seen % 2 == 0 else {"player": 10}


@hookimpl
def register_strategies(register):
    register(Later)
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_class_state_changed_after_the_sample_shoe_stops_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str) -> None:
    folder = plugin_folder(tmp_path, later=LATER)
    assert run(tmp_path, experiment(tmp_path, "  - {name: l, use: later}\n"), folder, "out", "--workers", workers) == 2
    assert one_line(capsys.readouterr().err) == (
        "baccarat: error: strategy 'l' changed the class attribute Later.seen while it played: a class attribute is shared by "
        "every session a process plays, so results would depend on --workers; keep state on self (set it in __init__); the "
        "run was abandoned and nothing was written"
    )
    assert not (tmp_path / "out").exists()


CRASHER = """
import numba

from baccarat.plugin import Selector, hookimpl
from baccarat.plugin.twins import BANKER, SESSION, SelectorTwin


class Crash(Selector):
    \"\"\"Banker; its twin's helper, compiled by numba itself without bounds checks, writes far outside memory late in the run.\"\"\"

    name = "crash"

    def choose(self, view):
        return "banker"


@numba.njit
def smash(history):
    history[len(history) + 100_000_000_000] = 1


def crash(view, history, state, params, rng):
    if view[SESSION] > 30:
        smash(history)
    return BANKER


@hookimpl
def register_selectors(register):
    register(Crash)


@hookimpl
def register_twins(register):
    register(Crash, SelectorTwin(crash))
"""


@pytest.mark.slow
def test_a_twin_crashing_the_process_ends_it_with_one_line_naming_the_strategy(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, crasher=CRASHER)
    exp = experiment(tmp_path, "  - {name: crash, use: flat, params: {side: crash, unit: 10}}\n", shoes=100)
    command = [sys.executable, "-m", "baccarat", "run", str(exp), "--quiet", "--workers", "1", "--plugins-dir", str(folder), "--out", "out"]
    environment = {**os.environ, "BACCARAT_COMPILED_FROM": "0"}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=environment)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "baccarat: error: strategy 'crash' crashed the process: its compiled twin (or a helper it calls) wrote or read outside "
        "its arrays (a segmentation fault); fix the twin, or run with BACCARAT_NO_COMPILED_PATH=1; the run was abandoned, and the "
        "next run into the same --out removes what it left\n"
    )
    assert not (tmp_path / "out").exists()
    exp.write_text(exp.read_text().replace("side: crash", "side: banker"))
    assert subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=300, env=environment).returncode == 0
    assert sorted(os.listdir(tmp_path)) == ["exp.yaml", "out", "plugins"]


@pytest.mark.slow
def test_twins_crashing_worker_processes_end_the_run_with_one_line_naming_the_strategy(tmp_path: Path) -> None:
    folder = plugin_folder(tmp_path, crasher=CRASHER)
    # 12,000 shoes: about a million rounds, several chunks, so that both workers play (and crash) at once.
    exp = experiment(tmp_path, "  - {name: crash, use: flat, params: {side: crash, unit: 10}}\n", shoes=12_000)
    command = [sys.executable, "-m", "baccarat", "run", str(exp), "--quiet", "--workers", "2", "--plugins-dir", str(folder), "--out", "out"]
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = {**os.environ, "BACCARAT_COMPILED_FROM": "0", "TMPDIR": str(temporary)}
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=environment)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "baccarat: error: strategy 'crash' crashed the process: its compiled twin (or a helper it calls) wrote or read outside "
        "its arrays (a segmentation fault); fix the twin, or run with BACCARAT_NO_COMPILED_PATH=1; the run was abandoned, and the "
        "next run into the same --out removes what it left\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["exp.yaml", "plugins", "tmp"] and not list(temporary.iterdir())
