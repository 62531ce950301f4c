"""Every code block and command of README.md and docs/ runs as written.

Each Markdown file is played in a sandbox of its own (a copy of ``configs/``
and ``docs/``), block after block in page order, through the command line's
own entry point (:func:`baccarat.cli.main`, in this process, so that the
imports are paid once) and ``python``:

- ``bash``: every line is a command, run with ``bash`` from the sandbox
  (``# comments`` are dropped). It must exit 0. A ``[...]`` group is an
  optional part of a synopsis: the command runs without it, and every option
  named in it must be one ``--help`` of that command lists. ``RUN_DIR`` and
  run folders shown with a timestamp or ``...``
  (``results/quickstart-20250101-120000``) are the newest folder of that
  experiment that the page's commands wrote (one is made first when there is
  none yet). ``pip install`` and ``python -m pytest`` are not run (they
  would change this environment, or run this very suite): what they install
  must exist (the folder, the project's name and extras), and the README's
  test command must be the one ``.ci/run`` runs.
- Runs are kept small, as the docs allow: ``baccarat run`` of seeded shoes
  gets ``--set shoes.count=20`` unless the command sets ``shoes.count``
  itself, and ``--workers 1`` unless it sets ``--workers``.
- ``python``: a block whose first line is ``# PATH`` is a file, written
  there; one holding ``@hookimpl`` is a plugin, and ``baccarat strategies
  --plugins-dir`` of its folder must list every name it declares. Any other
  block is run by ``python`` from the sandbox.
- ``yaml``: a block whose first line is ``# PATH`` is a file, written there.
  Any other is an experiment or a part of one (a ``strategies:`` list, a
  ``shoes:`` mapping, completed by one flat Banker strategy): it is written
  to a file and run.
- ``toml``: parsed; each module its ``baccarat`` entry points name must be a
  file of the docs or written by the page.

Commands quoted in the prose (```baccarat report RUN_DIR --roads 1,5```) are
not run (they are mentions, often partial), but each must name a command
that exists, options that command has, and ``python`` scripts that exist.

A block that is not run says so, and why, in an HTML comment on the line
before it: ``<!-- docs-test: output -->`` (the output of the command above;
its first line, whitespace aside, must be in what that command printed),
``<!-- docs-test: errors -->`` (error messages; each, after its location,
must be the whole message of a case in tests/bad_inputs/),
``<!-- docs-test: not run: REASON -->``, ``<!-- docs-test: folder DIR -->``
(a YAML experiment run from DIR of the sandbox, for its relative paths) and
``<!-- docs-test: args ARGS -->`` (extra arguments for the run of a YAML
experiment, such as ``--plugins-dir``). A block in any other language must
carry one of these.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from baccarat.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent
SMALL_COUNT = 20

FENCE = re.compile(r"^(?:<!-- docs-test: (?P<directive>.*?) -->\n)?```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.S | re.M)
RUN_FOLDER = re.compile(r"results/(?P<name>[\w.+-]+?)-(?:\d{8}-\d{6}|\.\.\.)(?=/|\b|$)/?")
FILE_LINE = re.compile(r"#\s*(?P<path>[\w./-]+\.(?:py|yaml|yml|txt|csv))\s*$")


@dataclasses.dataclass
class Block:
    page: Path
    line: int
    lang: str
    body: str
    directive: str

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(page, text[: m.start("lang")].count("\n") + 1, m.group("lang"), m.group("body"), m.group("directive") or "")
        for m in FENCE.finditer(text)
    ]


class Sandbox:
    """A copy of configs/ and docs/ in which one page's blocks are played in order."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        shutil.copytree(ROOT / "configs", folder / "configs")
        shutil.copytree(ROOT / "docs", folder / "docs")
        self.env = dict(
            os.environ,
            PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            PYTHONPATH=os.pathsep.join([str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]),
            COLUMNS="200",
        )
        self.last_stdout = ""

    def run(self, command: str, where: str) -> str:
        """Run one command line from the sandbox, assert it succeeded, and return what it printed.

        ``baccarat ...`` goes through :func:`baccarat.cli.main` and ``python FILE`` through :mod:`runpy`, in this
        process (the imports, two seconds a process, are paid once), with the sandbox as the current folder; anything
        else goes to ``bash``.
        """
        words = shlex.split(command)
        if words[0] in ("baccarat", "python") and not set(words) & {"|", ">", "<", ";"}:
            out, err = io.StringIO(), io.StringIO()
            previous = Path.cwd()
            os.chdir(self.folder)
            sys.path.insert(0, str(self.folder))
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    if words[0] == "baccarat":
                        status = main(words[1:])
                    else:
                        runpy.run_path(words[1], run_name="__main__")
                        status = 0
            except SystemExit as exc:  # --help
                status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            finally:
                sys.path.remove(str(self.folder))
                os.chdir(previous)
            stdout, stderr = out.getvalue(), err.getvalue()
        else:
            done = subprocess.run(["bash", "-c", command], cwd=self.folder, env=self.env, capture_output=True, text=True, timeout=300)
            status, stdout, stderr = done.returncode, done.stdout, done.stderr
        assert status == 0, f"{where}: `{command}` exited {status}:\n{stdout}\n{stderr}"
        self.last_stdout = stdout
        return stdout

    def newest_run(self, name: str, where: str) -> str:
        found = sorted((self.folder / "results").glob(f"{name}-*"), key=lambda p: p.stat().st_mtime)
        if not found:  # the page shows a run folder it does not make: make one, as its README does
            self.run(f"baccarat run configs/{name}.yaml --quiet --workers 1 --set shoes.count={SMALL_COUNT}", where)
            found = sorted((self.folder / "results").glob(f"{name}-*"))
        assert found, f"{where}: no run folder of {name!r} after running configs/{name}.yaml"
        return str(found[-1].relative_to(self.folder))

    def runs(self) -> list[Path]:
        return sorted((self.folder / "results").glob("*-*"), key=lambda p: p.stat().st_mtime)

    def substitute(self, text: str, where: str) -> str:
        text = RUN_FOLDER.sub(lambda m: self.newest_run(m.group("name"), where) + "/", text)
        if re.search(r"\bRUN_DIR\b", text):
            runs = self.runs()
            run_dir = str(runs[-1].relative_to(self.folder)) if runs else self.newest_run("quickstart", where)
            text = re.sub(r"\bRUN_DIR\b", run_dir, text)
        return text


def help_text(sandbox: Sandbox, words: list[str], where: str) -> str:
    return sandbox.run(shlex.join([*words, "--help"]), where)


def subcommand(words: list[str]) -> list[str]:
    """``baccarat shoes generate ...`` -> ``["baccarat", "shoes", "generate"]``."""
    out = [words[0]]
    for word in words[1:]:
        if word.startswith("-") or "/" in word or "." in word or word.isupper():
            break
        out.append(word)
        if len(out) == 3 or out[1] != "shoes":
            break
    return out


def check_pip_install(command: str, where: str) -> None:
    target = shlex.split(command)[-1]
    if target.startswith((".", "/")):
        path, _, extras = target.partition("[")
        folder = ROOT / path
        assert (folder / "pyproject.toml").is_file(), f"{where}: `{command}` installs {path}, which holds no pyproject.toml"
        project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    else:
        name, _, extras = target.partition("[")
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        assert name == project["name"], f"{where}: `{command}` names {name!r}, but the project is {project['name']!r}"
    for extra in filter(None, extras.rstrip("]").split(",")):
        assert extra in project.get("optional-dependencies", {}), f"{where}: `{command}`: no extra {extra!r}"


def run_command(sandbox: Sandbox, line: str, block: Block) -> None:
    where = block.where()
    for part in (p.strip() for p in line.split("&&")):
        if re.match(r"(python -m )?pip install\b", part):
            check_pip_install(part, where)
            continue
        if part == "python -m pytest":
            ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
            assert line in ci.splitlines(), f"{where}: the test command `{line}` is not the one .ci/run runs"
            continue
        optional = re.findall(r"\[([^\]]*--[^\]]*)\]", part)
        part = re.sub(r"\s*\[[^\]]*--[^\]]*\]", "", part)
        part = sandbox.substitute(part, where)
        words = shlex.split(part)
        if optional:
            listed = help_text(sandbox, subcommand(words), where)
            for group in optional:
                for option in re.findall(r"--[\w-]+", group):
                    assert option in listed, f"{where}: `{line}` shows {option}, which `{' '.join(subcommand(words))}` lacks"
        if words[:2] == ["baccarat", "run"]:
            part = small_run(sandbox, words, part)
        sandbox.run(part, where)


def small_run(sandbox: Sandbox, words: list[str], command: str) -> str:
    """Add ``--set shoes.count=20`` (seeded shoes, unless set) and ``--workers 1`` (unless set) to a run."""
    extra = []
    data = yaml.safe_load((sandbox.folder / words[2]).read_text(encoding="utf-8")) or {}
    shoes = data.get("shoes") or {}
    if shoes.get("source", "seeded") == "seeded" and "shoes.count=" not in command:
        extra.append(f"--set shoes.count={SMALL_COUNT}")
    if "--workers" not in words and "--executor" not in words:
        extra.append("--workers 1")
    return " ".join([command, *extra])


def written_file(block: Block) -> str | None:
    first = block.body.splitlines()[0] if block.body else ""
    match = FILE_LINE.match(first)
    return match.group("path") if match else None


def play_python(sandbox: Sandbox, block: Block) -> None:
    path = written_file(block)
    if path is None:
        script = sandbox.folder / ".blocks" / f"{block.page.stem}-{block.line}.py"  # not in a folder a page loads plugins from
        script.parent.mkdir(exist_ok=True)
        script.write_text(sandbox.substitute(block.body, block.where()), encoding="utf-8")
        sandbox.run(shlex.join(["python", str(script.relative_to(sandbox.folder))]), block.where())
        return
    target = sandbox.folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(block.body, encoding="utf-8")
    if "@hookimpl" in block.body:
        folder = shlex.quote(str(target.parent.relative_to(sandbox.folder)))
        listed = {r["name"] for r in json.loads(sandbox.run(f"baccarat strategies --json --plugins-dir {folder}", block.where()))}
        declared = set(re.findall(r'^\s+name = "([^"]+)"', block.body, re.M))
        assert declared and declared <= listed, f"{block.where()}: the plugin's {sorted(declared - listed)} are not listed"


def play_yaml(sandbox: Sandbox, block: Block) -> None:
    path = written_file(block)
    if path is not None:
        target = sandbox.folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.body, encoding="utf-8")
        return
    data = yaml.safe_load(block.body)
    if isinstance(data, list):
        data = {"strategies": data}
    assert isinstance(data, dict), f"{block.where()}: a YAML block that is not an experiment"
    data.setdefault("strategies", [{"use": "flat"}])  # a part of an experiment without strategies: a flat Banker bet
    match = re.match(r"folder (\S+)", block.directive)
    folder = match.group(1) if match else "."
    name = f"docs-block-{block.line}"
    (sandbox.folder / folder / f"{name}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    args = block.directive.removeprefix("args ") if block.directive.startswith("args ") else ""
    words = ["baccarat", "run", f"{folder}/{name}.yaml", "--quiet", "--out", f"results/{name}", *shlex.split(args)]
    sandbox.run(small_run(sandbox, words, shlex.join(words)), block.where())


def play_toml(sandbox: Sandbox, block: Block) -> None:
    data = tomllib.loads(block.body)
    modules = data["project"]["entry-points"]["baccarat"].values()
    for module in modules:
        files = [*sandbox.folder.rglob(f"{module}.py")]
        assert files, f"{block.where()}: the entry point names {module!r}, which no page's file or docs/ folder holds"


def check_output(sandbox: Sandbox, block: Block) -> None:
    first = " ".join(block.body.splitlines()[0].split())
    printed = {" ".join(line.split()) for line in sandbox.last_stdout.splitlines()}
    assert first in printed, f"{block.where()}: the command above does not print `{first}`; it printed:\n{sandbox.last_stdout}"


def check_errors(block: Block) -> None:
    known = set()
    for expected in (ROOT / "tests" / "bad_inputs").rglob("*.expected"):
        for line in expected.read_text(encoding="utf-8").splitlines():
            if line.startswith("stderr: baccarat: error: "):
                known.add(re.sub(r"^\S+?:\d+:\d+: ", "", line.removeprefix("stderr: baccarat: error: ")))
    for line in block.body.splitlines():
        message = re.sub(r"^\S+?:\d+:\d+: ", "", line)
        assert message in known, f"{block.where()}: `{line}` is not the whole message of a case in tests/bad_inputs/"


def play(sandbox: Sandbox, block: Block) -> None:
    if block.directive.startswith("not run:"):
        assert block.directive.removeprefix("not run:").strip(), f"{block.where()}: say why the block is not run"
    elif block.directive == "output":
        check_output(sandbox, block)
    elif block.directive == "errors":
        check_errors(block)
    elif block.lang == "bash":
        for line in block.body.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                run_command(sandbox, command, block)
    elif block.lang == "python":
        play_python(sandbox, block)
    elif block.lang == "yaml":
        play_yaml(sandbox, block)
    elif block.lang == "toml":
        play_toml(sandbox, block)
    else:
        pytest.fail(
            f"{block.where()}: a ```{block.lang} block must be marked <!-- docs-test: output -->, "
            "<!-- docs-test: errors --> or <!-- docs-test: not run: REASON -->"
        )


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_block_of_the_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    found = blocks(page)
    assert found or page.name != "README.md", f"{page}: no code block found"
    sandbox = Sandbox(tmp_path)
    for block in found:
        play(sandbox, block)


def test_the_block_reader_sees_every_fence() -> None:
    for page in PAGES:
        fences = sum(1 for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("```"))
        assert fences == 2 * len(blocks(page)), f"{page}: a fence the test does not read (indented, or unclosed)"


INLINE = re.compile(r"`((?:baccarat|python) [^`]+)`")


def parser_of(words: list[str]):
    """Return the argument parser of the (sub)command that ``words`` start with, and the words it names."""
    import argparse

    from baccarat.cli import build_parser

    parser, named = build_parser(), ["baccarat"]
    for word in words[1:]:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not actions or word not in actions[0].choices:
            break
        parser = actions[0].choices[word]
        named.append(word)
    return parser, named


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_command_named_in_the_text_exists(page: Path) -> None:
    """Commands quoted in the prose (``baccarat report RUN_DIR --roads 1,5``): the (sub)command and its options exist."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for command in INLINE.findall(text):
        words = shlex.split(command)
        if words[0] == "python":
            script = next(w for w in words[1:] if not w.startswith("-"))
            assert script in ("pip", "pytest") or (ROOT / script).is_file(), f"{page.name}: `{command}` runs {script}, which does not exist"
            continue
        parser, named = parser_of(words)
        options = {o for action in parser._actions for o in action.option_strings}
        for word in words[len(named) :]:
            if word.startswith("--"):
                assert word.strip("[]").split("=")[0] in options, f"{page.name}: `{command}`: {' '.join(named)} has no {word}"
        rest = [w for w in words[len(named) :] if not w.startswith("-")]
        if len(named) == 1 and rest:
            pytest.fail(f"{page.name}: `{command}`: baccarat has no command {rest[0]!r}")


@pytest.mark.slow
def test_the_docs_site_builds_strictly_with_every_link_found(tmp_path: Path) -> None:
    # mkdocs.yml sets strict: a link to a missing page or anchor, or a page left out of the navigation, fails the build.
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "site" / "plugins" / "index.html").exists()
    assert "Compiled twins" in (tmp_path / "site" / "plugins" / "index.html").read_text(encoding="utf-8")
