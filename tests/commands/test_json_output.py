"""With ``--json``, standard output holds the JSON alone, whatever plugin code prints, in every command that has it.

One plugin prints in every way it can: at import (``print``,
``sys.stdout``, ``os.write(1, ...)``), from a thread it starts, in a
strategy's code, in a bet's settlement, in an exact form, and in an
``atexit`` handler. Each command with ``--json`` runs through the real
command line (``python -m baccarat``): its standard output must parse as
one JSON document, and what the plugin printed must be on standard error.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

NOISY = """
import atexit
import os
import sys
import threading
import time
from fractions import Fraction

from baccarat import hookimpl
from baccarat.plugin import BetDefinition, ExactSelector, Selector

print("noise: print at import")
sys.stdout.write("noise: sys.stdout at import\\n")
os.write(1, b"noise: fd 1 at import\\n")
atexit.register(lambda: (print("noise: atexit print"), os.write(1, b"noise: atexit fd 1\\n")))


def chatter():
    while True:
        print("noise: a thread")
        os.write(1, b"noise: a thread on fd 1\\n")
        time.sleep(0.005)


threading.Thread(target=chatter, daemon=True).start()


class Noisy(Selector):
    \"\"\"Banker always, and says so.\"\"\"

    name = "noisy"

    def choose(self, view):
        print("noise: choose")
        os.write(1, b"noise: choose on fd 1\\n")
        return "banker"


def form(selector):
    print("noise: exact form")
    os.write(1, b"noise: exact form on fd 1\\n")
    return {"banker": Fraction(1)}


def wins(rounds):
    print("noise: bet settles")
    os.write(1, b"noise: bet settles on fd 1\\n")
    return {"win": rounds.tie}


@hookimpl
def register_selectors(register):
    register(Noisy)


@hookimpl
def register_exact_forms(register):
    register(Noisy, ExactSelector(form))


@hookimpl
def register_bets(register):
    register(BetDefinition(name="noisy_tie", label="noisy tie", needs=frozenset({"totals"}), pays={"win": Fraction(8)}, wins=wins))
"""

EXPERIMENT = """name: noisy
shoes: {seed: 3, count: 8}
plugins_dir: plugins
rules: {side_bets: {noisy_tie: 1}}
strategies:
  - {name: noisy banker, use: flat, params: {side: noisy, unit: 10}}
  - {name: tie, use: flat, params: {side: noisy_tie, unit: 10}}
"""


def baccarat(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baccarat", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "BACCARAT_COMPILED_FROM": "0"},
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the noisy plugin, an experiment using it and two runs of it (``a``, ``b``)."""
    folder = tmp_path_factory.mktemp("json")
    (folder / "plugins").mkdir()
    (folder / "plugins" / "noisy.py").write_text(NOISY)
    (folder / "exp.yaml").write_text(EXPERIMENT)
    (folder / "rules.yaml").write_text("side_bets: {noisy_tie: 1}\n")
    for out in ("a", "b"):
        done = baccarat(folder, "run", "exp.yaml", "--out", out, "--quiet")
        assert done.returncode == 0, done.stderr
    return folder


PLUGIN_CODE_LOCK = [
    "noise: print at import",
    "noise: sys.stdout at import",
    "noise: fd 1 at import",
    "noise: atexit print",
    "noise: atexit fd 1",
]
"""What the plugin prints in every command that loads it."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (["run", "exp.yaml", "--out", "json-1", "--quiet", "--workers", "1"], ["noise: choose", "noise: bet settles on fd 1"]),
        (["run", "exp.yaml", "--out", "json-2", "--quiet", "--workers", "2"], ["noise: choose on fd 1"]),  # in worker processes
        (["strategies", "--plugins-dir", "plugins"], []),
        (["odds", "--rules", "rules.yaml", "--plugins-dir", "plugins"], ["noise: bet settles", "noise: bet settles on fd 1"]),
        (["exact", "exp.yaml", "--rounds", "20"], ["noise: exact form", "noise: exact form on fd 1"]),
        (["plan", "--experiment", "exp.yaml", "--hands", "20"], ["noise: exact form", "noise: exact form on fd 1"]),
        (["compare", "a", "b"], None),  # reads saved runs: the plugin is not loaded
        (["roads", "a", "--shoe", "1", "--out", "roads.png", "--force"], None),
    ],
    ids=["run", "run-2-workers", "strategies", "odds", "exact", "plan", "compare", "roads"],
)
def test_json_stdout_holds_the_json_alone_whatever_a_plugin_prints(folder: Path, args: list[str], printed: list[str] | None) -> None:
    done = baccarat(folder, *args, "--json")
    assert done.returncode == 0, done.stderr
    json.loads(done.stdout)  # the whole of it: one JSON document, nothing before or after
    assert "noise" not in done.stdout
    if printed is not None:
        missing = [text for text in (*PLUGIN_CODE_LOCK, *printed, "noise: a thread on fd 1\n") if text not in done.stderr]
        # print() writes the thread's text and its newline apart, so another write may come between them: the text
        # is looked for alone (os.write's lines are whole)
        if not re.search(r"noise: a thread(?! on fd 1)", done.stderr):
            missing.append("noise: a thread")
        assert not missing, done.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_output_is_one_line_even_while_a_plugin_writes_to_it(folder: Path) -> None:
    """The JSON cannot be written: one line and status 1, and the plugin's own writes to fd 1 do not fail meanwhile."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "baccarat", "strategies", "--plugins-dir", "plugins", "--json"],
            cwd=folder,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
    said = done.stderr
    for noise in sorted(set(re.findall(r'"(noise: [^"\\]*)', NOISY)), key=len, reverse=True):
        said = said.replace(noise, "")  # the thread's lines may cut into others
    lines = [line for line in said.splitlines() if line]
    assert (done.returncode, lines) == (1, ["baccarat: error: cannot write to standard output: No space left on device (the disk is full)"])
