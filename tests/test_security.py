"""Security: files cannot run code, plugin folders load only when named, runs write only their output folder, no network.

- YAML is read with safe semantics only: a ``!!python/...`` tag anywhere is
  an error and constructs nothing; no module calls an unsafe YAML loader.
- A plugins folder is loaded only when the user names it (``--plugins-dir``
  or ``plugins_dir:``); a ``plugins/`` folder lying in the current folder or
  beside the experiment is never imported.
- A run writes its output folder and nothing else: the current folder, the
  experiment's folder, the temporary folder and the home folder (with its
  caches and settings) are left as they were.
- No command opens a network connection or resolves a host name (the Ray
  executor, which the user must ask for, excepted).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from baccarat.cli import main
from baccarat.commands.run import default_out

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENT = "shoes: {seed: 2, count: 3}\nstrategies:\n  - use: flat\n    params: {side: banker, unit: 10}\n"


def tree(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*")} if folder.exists() else {}


# YAML -----------------------------------------------------------------------------------------

TAGS = [
    "name: !!python/object/apply:os.system ['touch {marker}']\n" + EXPERIMENT,
    "shoes: {seed: !!python/object/apply:os.system ['touch {marker}'], count: 3}\nstrategies:\n  - use: flat\n",
    "strategies:\n  - use: flat\n    params: {side: banker, unit: !!python/object/new:os.system ['touch {marker}']}\n",
    "rules: !!python/object/apply:subprocess.call [['touch', '{marker}']]\n" + EXPERIMENT,
    "? !!python/object/apply:os.system ['touch {marker}']\n: 1\n" + EXPERIMENT,
    "base: &b !!python/object/apply:os.system ['touch {marker}']\n" + EXPERIMENT,
    "!!python/object:argparse.Namespace {a: 1}\n",
    "name: !!binary aGVsbG8=\n" + EXPERIMENT,
]


@pytest.mark.parametrize("text", TAGS)
def test_yaml_tags_construct_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "pwned"
    (tmp_path / "exp.yaml").write_text(text.replace("{marker}", str(marker)))
    assert main(["run", "exp.yaml", "--out", "out", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert re.match(r"baccarat: error: exp\.yaml:\d+:\d+: (the tag !\S+ is not allowed here|a key must be a plain name)", err), err
    assert err.count("\n") == 1
    assert not marker.exists() and not (tmp_path / "out").exists()


def test_a_rules_file_constructs_nothing_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text(f"decks: !!python/object/apply:os.system ['touch {tmp_path / 'pwned'}']\n")
    assert main(["odds", "--rules", "house.yaml"]) == 2
    assert "house.yaml:1:8: the tag !!python/object/apply:os.system is not allowed here" in capsys.readouterr().err
    assert not (tmp_path / "pwned").exists()


def test_no_module_uses_an_unsafe_yaml_loader() -> None:
    unsafe = re.compile(
        r"yaml\.(load|load_all|unsafe_load|full_load|full_load_all)\(|yaml\.(Unsafe|Full)?Loader\b"
        r"|Loader=yaml\.(Loader|FullLoader|UnsafeLoader)"
    )
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("framework", "strategies")
        for path in (ROOT / folder).rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if unsafe.search(line)
    ]
    assert offenders == []


# Plugin folders -----------------------------------------------------------------------------

EVIL_PLUGIN = textwrap.dedent('''
    from pathlib import Path
    Path(__file__).with_name("IMPORTED").write_text("this plugin ran")

    from baccarat import hookimpl
    from baccarat.plugin import Strategy


    class Sneaky(Strategy):
        """Bets banker."""

        name = "sneaky"

        def bets(self, view):
            return {"banker": 10}


    @hookimpl
    def register_strategies(register):
        register(Sneaky)
''')


def test_a_plugins_folder_is_loaded_only_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work, project = tmp_path / "work", tmp_path / "project"
    for folder in (work / "plugins", project / "plugins", work / "baccarat_plugins"):
        folder.mkdir(parents=True)
        (folder / "sneaky.py").write_text(EVIL_PLUGIN)
    (project / "exp.yaml").write_text("strategies:\n  - use: sneaky\n")
    monkeypatch.chdir(work)
    assert main(["run", str(project / "exp.yaml"), "--out", "out", "--quiet"]) == 2
    assert "unknown strategy 'sneaky'" in capsys.readouterr().err
    assert main(["strategies", "--json"]) == 0
    assert '"sneaky"' not in capsys.readouterr().out
    assert not any(p.name == "IMPORTED" for p in tmp_path.rglob("*"))
    # Named, it loads: from the command line, or from the experiment.
    assert main(["strategies", "--json", "--plugins-dir", "plugins"]) == 0
    assert '"sneaky"' in capsys.readouterr().out and (work / "plugins" / "IMPORTED").exists()
    (project / "exp.yaml").write_text("plugins_dir: plugins\nshoes: {count: 2}\nstrategies:\n  - use: sneaky\n")
    assert main(["run", str(project / "exp.yaml"), "--out", "out", "--quiet"]) == 0
    assert (project / "plugins" / "IMPORTED").exists() and not (work / "baccarat_plugins" / "IMPORTED").exists()


# Where a run writes --------------------------------------------------------------------------


@pytest.mark.slow
def test_a_run_writes_only_its_output_folder(tmp_path: Path) -> None:
    home, temp, work, project = (tmp_path / name for name in ("home", "tmp", "work", "project"))
    for folder in (home, temp, work, project):
        folder.mkdir()
    (project / "exp.yaml").write_text(EXPERIMENT)
    (project / "shoes.txt").write_text("# a recorded shoe\n" + "AS 2H 3D 4C 5S 6H 7D 8C 9S TH JD QC KS " * 3 + "\n")
    (project / "replay.yaml").write_text(
        "shoes: {source: recorded, path: shoes.txt, format: cards}\n"
        "strategies:\n  - use: martingale\n    params: {side: player, unit: 10}\n"
    )
    before = {folder: tree(folder) for folder in (home, temp, work, project)}
    env = {
        **os.environ,
        "HOME": str(home),
        "TMPDIR": str(temp),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    code = "import sys; from baccarat.cli import main; sys.exit(main())"
    commands = [
        ["run", str(project / "exp.yaml"), "--out", "results/one", "--quiet", "--workers", "2"],
        ["run", str(project / "replay.yaml"), "--out", "results/two", "--quiet"],
        ["report", "results/one", "--quiet", "--roads", "1"],
    ]
    for args in commands:
        done = subprocess.run([sys.executable, "-c", code, *args], cwd=work, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert before[project] == tree(project) and before[temp] == tree(temp)
    assert sorted({p.split(os.sep)[0] for p in tree(work)}) == ["results"]
    assert sorted(p for p in tree(work) if os.sep not in p.removeprefix("results" + os.sep)) == [
        "results",
        os.path.join("results", "one"),
        os.path.join("results", "two"),
    ]
    assert tree(home) == before[home]  # no cache, no settings: nothing at all


@pytest.mark.parametrize("name", ["../../etc", "/etc/passwd", "a/../../b", "..", "~root", "x\\..\\..\\y", "\u202e..\n"])
def test_an_experiment_name_cannot_lead_the_default_folder_out_of_results(tmp_path: Path, name: str) -> None:
    out = default_out(name, root=tmp_path / "results")
    assert out.parent == tmp_path / "results" and out.name not in ("", ".", "..") and "/" not in out.name


# Network ------------------------------------------------------------------------------------

NO_NETWORK = textwrap.dedent('''
    """Refuse any network access in this process (installed as sitecustomize: worker processes get it too)."""
    import socket, sys

    def refuse(event, args):
        if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"):
            raise RuntimeError(f"network access: {event} {args[:2]}")
        if event in ("socket.connect", "socket.bind", "socket.sendto") and args[0].family in (socket.AF_INET, socket.AF_INET6):
            raise RuntimeError(f"network access: {event} {args[1]}")

    sys.addaudithook(refuse)
''')


def without_network(folder: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    guard = folder / "guard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(NO_NETWORK)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(guard), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=folder, env=env, capture_output=True, text=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["run", "exp.yaml", "--out", "out", "--quiet", "--workers", "2"],
        ["report", "out", "--quiet"],
        ["strategies", "--json"],
        ["odds", "--json"],
        ["shoes", "generate", "--rules", "punto-banco-8", "--count", "2", "--seed", "1", "--out", "gen.txt", "--quiet"],
    ],
)
def test_no_command_touches_the_network(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    if args[0] == "report":
        assert main(["run", str(tmp_path / "exp.yaml"), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    done = without_network(tmp_path, "import sys; from baccarat.cli import main; sys.exit(main())", *args)
    assert done.returncode == 0, done.stderr
    assert "network access" not in done.stderr


def test_the_network_guard_would_catch_a_connection_in_a_worker(tmp_path: Path) -> None:
    probe = textwrap.dedent("""
        import multiprocessing, socket
        def connect(_):
            socket.create_connection(("192.0.2.1", 9), timeout=0.01)
        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                pool.map(connect, [0])
    """)
    (tmp_path / "probe.py").write_text(probe)
    done = without_network(tmp_path, "import runpy; runpy.run_path('probe.py', run_name='__main__')")
    assert done.returncode != 0 and "RuntimeError: network access: socket." in done.stderr
