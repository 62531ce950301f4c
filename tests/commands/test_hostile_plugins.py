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


# Compiled twins: their history is their own copy, ending at the last round dealt --------------------------------------


def ledger_of(folder: Path, strategy: str) -> pl.DataFrame:
    return pl.read_parquet(folder / "ledger.parquet").filter(pl.col("strategy") == strategy).drop("strategy")


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
            "  - {name: dice, use: dice}\n",
            "exp.yaml:4:21: strategy 'dice' played the same sample shoe in two fresh players and bet differently (round ",
        ),
        (
            "  - {name: coin, use: flat, params: {side: coin, unit: 10}}\n",
            "bet 'coin' settled the same sample rounds differently when asked twice: its wins (or pushes) is not deterministic",
        ),
    ],
)
def test_chance_without_a_seed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: str, said: str) -> None:
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
    assert done.stderr == (
        "baccarat: error: strategy 'q' ended its player process while it played (its code called os._exit, crashed the "
        "interpreter or was killed); the run was abandoned and nothing was written\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["exp.yaml", "plugins"]
