"""The player never holds the shoe: hostile strategies, through the real command (``python -m baccarat run``).

Each strategy below tries a way a strategy's code once reached what it must
not: the experiment's seed (to deal the shoes again), the rounds not dealt
yet (in the frames that call it, in the objects of its process), the numbers
of another strategy (the bets' definitions, the decimal context, the
built-in pieces' tables), or results that depend on the process (a module
global, the order of a set, the clock). Each either is refused in one line
naming it, or plays exactly as the honest strategy it falls back to:
flat Banker at 10 a round.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from helpers.processes import group_members

pytestmark = pytest.mark.slow  # runs of the real command, in processes of their own

HOSTILE = '''
import gc
import sys
import time
import decimal

import baccarat.plugin as api
from baccarat.plugin import Selector, Strategy, hookimpl
from baccarat.plugin.twins import BANKER, PLAYER, ROUND, SelectorTwin


def oracle():
    """Every way a strategy's code once reached the rounds not dealt yet: a table of rounds in its frames or its process."""
    found = []
    frame = sys._getframe(1)
    while frame is not None:
        found += [v for v in frame.f_locals.values() if type(v).__name__ in ("RoundTable", "DealtRounds")]
        frame = frame.f_back
    found += [o for o in gc.get_objects() if type(o).__name__ in ("RoundTable", "DealtRounds", "Chunk", "RunPlan")]
    return found


class Honest(Strategy):
    """Flat Banker at 10: what every cheat below falls back to when it finds nothing."""

    name = "honest-banker"

    def bets(self, view):
        return {"banker": 10}


class DealsAgain(Honest):
    """Reads the seed from its random stream and deals the shoe it plays; bets the dealt winner when the deal matches."""

    name = "deals-again"

    def __init__(self, session, **params):
        super().__init__(session, **params)
        stream = session.random_stream
        self.seed = getattr(stream, "args", (None,))[0]

    def bets(self, view):
        from baccarat.shoes.seeded import seeded_table

        if isinstance(self.seed, int) and view.hand > 20:
            table = seeded_table(self.session.rules, self.seed, view.shoe, 1)
            outcomes = ["banker", "player", "tie"]
            dealt = [outcomes[code] for code in table.outcome.tolist()]
            if tuple(dealt[: len(view.shoe_history)]) == view.shoe_history and len(dealt) > len(view.shoe_history):
                upcoming = dealt[len(view.shoe_history)]
                return {upcoming: 10} if upcoming != "tie" else None
        return {"banker": 10}


class LooksAround(Honest):
    """Looks for the rounds in the frames that call it and in the objects of its process."""

    name = "looks-around"

    def bets(self, view):
        if view.round in (1, 30) and oracle():  # (the objects of a process take a while to list: twice a session)
            return {"player": 10}  # found something: plays otherwise, and the test sees it
        return {"banker": 10}


class RewritesBanker(Honest):
    """Makes Banker win every round, in the bets' definitions its view's rules carry."""

    name = "rewrites-banker"

    def bets(self, view):
        definition = view.rules.bet_registry.definition("banker")
        try:
            object.__setattr__(definition, "wins", lambda *a, **k: True)
        except Exception:
            pass
        api.EXACT.prec = 3
        api.OPPOSITE["banker"] = "banker"
        return {"banker": 10}


COUNT = [0]


class KeepsCount(Honest):
    """Keeps a count in a module global across sessions: its bets depend on the sessions its process played before."""

    name = "keeps-count"

    def bets(self, view):
        COUNT[0] += 1
        return {"banker": 10 + 10 * (COUNT[0] % 3 == 0)}


class SetOrder(Honest):
    """Breaks a tie by the order of a set of strings (the hash seed)."""

    name = "set-order"

    def bets(self, view):
        pick = next(iter({"banker", "player", "tie-breaker", "another"} - {"tie-breaker", "another"}))
        return {pick: 10}


class Clock(Honest):
    """Draws from the clock."""

    name = "clock"

    def bets(self, view):
        return {"banker" if time.perf_counter_ns() % 2 else "player": 10}


class Exits(Honest):
    """Ends its process in the middle of a session."""

    name = "exits"

    def bets(self, view):
        if view.round == 5:
            import os

            os._exit(0)
        return {"banker": 10}


class Crashes(Honest):
    """Crashes the interpreter."""

    name = "crashes"

    def bets(self, view):
        if view.round == 5:
            import ctypes

            ctypes.string_at(0)
        return {"banker": 10}


class Prints(Honest):
    """Prints on standard output."""

    name = "prints"

    def bets(self, view):
        print("noise from a strategy")
        return {"banker": 10}


class Backtracks(Honest):
    """Holds the interpreter's lock in C code for ever (a backtracking regular expression)."""

    name = "backtracks"

    def bets(self, view):
        import re

        with open("played", "a") as marker:
            marker.write("x")
        if view.round == 3:
            re.match(r"(a+)+$", "a" * 64 + "b")
        return {"banker": 10}


class Hangs(Honest):
    """Never answers from its third session on (the sample shoe tried before the run is session 1): a loop without end."""

    name = "hangs"

    def bets(self, view):
        while view.session >= 3:
            pass
        return {"banker": 10}


class HangsInC(Honest):
    """Never answers from its third session on, in C code holding the interpreter's lock (a backtracking regular expression)."""

    name = "hangs-in-c"

    def bets(self, view):
        import re

        if view.session >= 3:
            re.match(r"(a+)+$", "a" * 64 + "b")
        return {"banker": 10}


class HangsAtOnce(Honest):
    """Never answers at its third round, in every session (the sample shoe's too)."""

    name = "hangs-at-once"

    def bets(self, view):
        while view.round >= 3:
            pass
        return {"banker": 10}


class LateLiar(Selector):
    """Banker every round; its compiled twin backs Player after round 400 of a session."""

    name = "late-liar"

    def choose(self, view):
        return "banker"


def late_liar(view, history, state, params, rng):
    return PLAYER if view[ROUND] > 400 else BANKER


@hookimpl
def register_selectors(register):
    register(LateLiar)


@hookimpl
def register_twins(register):
    register(LateLiar, SelectorTwin(late_liar))


@hookimpl
def register_strategies(register):
    for cls in (Honest, DealsAgain, LooksAround, RewritesBanker, KeepsCount, SetOrder, Clock, Exits, Crashes, Prints, Backtracks,
                Hangs, HangsInC, HangsAtOnce):
        register(cls)
'''


def experiment(folder: Path, uses: list[str], count: int = 200, extra: str = "") -> None:
    (folder / "plugins").mkdir(exist_ok=True)
    (folder / "plugins" / "hostile.py").write_text(HOSTILE)
    strategies = "".join(f"  - {use}\n" if use.startswith("{") else f"  - use: {use}\n" for use in uses)
    (folder / "exp.yaml").write_text(f"name: hostile\nshoes: {{seed: 7, count: {count}}}\n{extra}strategies:\n{strategies}")


def run(folder: Path, *options: str, out: str = "out", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--plugins-dir", "plugins", "--out", out, "--quiet", *options]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)


def nets(folder: Path, out: str = "out") -> dict[str, list[float]]:
    ledger = pl.read_parquet(folder / out / "ledger.parquet").sort("strategy", "session", "round")
    return {name: part["net"].cast(pl.Float64).to_list() for (name,), part in ledger.group_by("strategy")}


@pytest.mark.parametrize("cheat", ["deals-again", "looks-around", "rewrites-banker"])
def test_a_cheat_plays_exactly_as_the_honest_strategy(tmp_path: Path, cheat: str) -> None:
    experiment(tmp_path, ["honest-banker", cheat, "flat"])
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    played = nets(tmp_path)
    assert played[cheat] == played["honest-banker"] == played["flat"]
    assert sum(played["flat"]) < 0  # the house edge: nothing won by anyone


def test_a_twin_that_lies_late_in_a_session_plays_no_part(tmp_path: Path) -> None:
    """A plugin's compiled twin never plays in the dealer: its Python pieces play in a player, whatever the twin says."""
    liar = "{name: liar, use: flat, params: {side: late-liar, unit: 10}}"
    honest = "{name: honest, use: flat, params: {side: banker, unit: 10}}"
    experiment(tmp_path, [liar, honest], count=60, extra="session: {shoes_per_session: 6, bankroll: 100000}\n")
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "BACCARAT_COMPILED_FROM": "0"},
    )
    assert done.returncode == 0, done.stderr
    played = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert played["round"].max() > 400  # sessions long enough for the lie
    by = nets(tmp_path)
    assert by["liar"] == by["honest"]


SMALL_CHUNKS = (
    "import sys; from baccarat.execution import chunks; from baccarat.cli import main; "
    "chunks.LEDGER_ROWS_PER_CHUNK = 4000; sys.exit(main())"
)


def test_module_globals_and_set_order_give_the_same_results_for_any_number_of_workers(tmp_path: Path) -> None:
    experiment(tmp_path, ["keeps-count", "set-order"], count=400)
    played = []
    for workers, out in (("1", "one"), ("2", "two")):
        command = [sys.executable, "-c", SMALL_CHUNKS, "run", "exp.yaml", "--plugins-dir", "plugins", "--out", out, "--quiet"]
        done = subprocess.run([*command, "--workers", workers], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        assert len(list((tmp_path / out / "rounds.parquet").iterdir())) > 4  # chunks of 25 sessions: many, shared out
        played.append(nets(tmp_path, out))
    assert played[0] == played[1]


def test_a_strategy_drawing_from_the_clock_is_refused_in_one_line(tmp_path: Path) -> None:
    experiment(tmp_path, ["clock"])
    done = run(tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'clock'" in done.stderr and "two fresh players" in done.stderr, done.stderr


@pytest.mark.parametrize("use", ["exits", "crashes"])
def test_a_player_that_ends_its_process_ends_the_run_in_one_line_naming_it(tmp_path: Path, use: str) -> None:
    experiment(tmp_path, [use])
    done = run(tmp_path)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and f"'{use}'" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_strategys_prints_go_to_standard_error(tmp_path: Path) -> None:
    experiment(tmp_path, ["prints"], count=2)
    done = run(tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    assert "noise from a strategy" in done.stderr and "noise" not in done.stdout


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
@pytest.mark.parametrize(("signum", "workers"), [(signal.SIGINT, "1"), (signal.SIGTERM, "1"), (signal.SIGHUP, "1"), (signal.SIGTERM, "2")])
def test_a_player_holding_the_interpreter_lock_in_c_code_is_stopped_by_a_signal(tmp_path: Path, signum: int, workers: str) -> None:
    experiment(tmp_path, ["backtracks"], count=20)
    command = [
        sys.executable,
        "-m",
        "baccarat",
        "run",
        "exp.yaml",
        "--plugins-dir",
        "plugins",
        "--out",
        "out",
        "--quiet",
        "--workers",
        workers,
    ]
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        marker = tmp_path / "played"
        while not (marker.exists() and marker.stat().st_size >= 3) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        time.sleep(0.5)  # in the regular expression now
        sent = time.monotonic()
        os.killpg(process.pid, signum) if signum == signal.SIGINT else os.kill(process.pid, signum)
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    name = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    assert (process.returncode, err, out) == (128 + signum, f"baccarat: interrupted ({name})\n", "")
    assert took < 10
    assert not (tmp_path / "out").exists()
    deadline = time.monotonic() + 5
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker, host or player left


def run_alone(folder: Path, env: dict[str, str], *options: str) -> tuple[subprocess.Popen[str], str, str]:
    """Run the command in a process group of its own; return it (ended), its standard output and error."""
    command = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--plugins-dir", "plugins", "--out", "out", "--quiet", *options]
    process = subprocess.Popen(
        command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env={**os.environ, **env}
    )
    try:
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process, out, err


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
@pytest.mark.parametrize(("use", "workers"), [("hangs", "1"), ("hangs-in-c", "1"), ("hangs-in-c", "2")])
def test_a_player_that_never_answers_is_stopped_and_named_in_one_line(tmp_path: Path, use: str, workers: str) -> None:
    """No Ctrl-C needed: the dealer kills a player that does not answer a step within the limit, whatever its code holds.

    The limit is set low for the test; the player never answers at all, so the run ends the same on any machine.
    """
    experiment(tmp_path, [use, "flat"], count=10)
    process, out, err = run_alone(tmp_path, {"BACCARAT_PLAYER_TIMEOUT": "5"}, "--workers", workers)
    assert (process.returncode, out) == (2, "")
    said = f"baccarat: error: strategy '{use}' did not answer within 5 s and its player was stopped"
    assert err.count("\n") == 1 and err.startswith(said) and "BACCARAT_PLAYER_TIMEOUT" in err, err
    assert not (tmp_path / "out").exists()
    deadline = time.monotonic() + 5
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(process.pid) == []  # no worker, host or player left


def test_a_player_that_never_answers_on_the_sample_shoe_is_refused_where_it_is_written(tmp_path: Path) -> None:
    experiment(tmp_path, ["flat", "hangs-at-once"], count=10)
    process, out, err = run_alone(tmp_path, {"BACCARAT_PLAYER_TIMEOUT": "1"})
    assert (process.returncode, out) == (2, "")
    assert err.count("\n") == 1, err
    assert err.startswith("baccarat: error: exp.yaml:5:") and "strategy 'hangs-at-once' did not answer within 1 s" in err, err
    assert err.rstrip().endswith("on a sample shoe tried before the run"), err


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_limit_that_is_no_number_of_seconds_is_refused_in_one_line(tmp_path: Path, value: str) -> None:
    experiment(tmp_path, ["honest-banker"], count=2)
    process, out, err = run_alone(tmp_path, {"BACCARAT_PLAYER_TIMEOUT": value})
    assert (process.returncode, out) == (2, "")
    assert err == f"baccarat: error: BACCARAT_PLAYER_TIMEOUT must be a number of seconds (0 for no limit), not {value!r}\n"
