"""Safe YAML with the position of every key and value, for errors that point at the spot.

A file is composed into nodes by PyYAML's safe loader and turned into plain
data (dicts, lists, strings, numbers, booleans, None) by this module, which
keeps, for every key path such as ``("strategies", 0, "params", "unit")``,
where its key and its value were written. Only the tags of safe YAML are
accepted: a ``!!python/...`` tag (or any other) is an error and nothing is
constructed. Duplicate keys are errors too (plain YAML keeps the last one
silently).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import yaml

from baccarat.errors import InputError
from baccarat.files.inputfile import MAX_YAML_BYTES, read_regular

KeyPath = tuple[str | int, ...]
"""Where a value sits in a document: mapping keys and list indexes from the top."""

_YAML = "tag:yaml.org,2002:"
_MAP, _SEQ, _MERGE = _YAML + "map", _YAML + "seq", _YAML + "merge"
_SCALAR_TAGS = frozenset(_YAML + name for name in ("null", "bool", "int", "float", "str", "timestamp"))
_SEXAGESIMAL = frozenset({_YAML + "int", _YAML + "float"})
_UNFIT_TEXT = re.compile("[\0\ud800-\udfff]")
MAX_NODES = 50_000
"""Largest number of values a document may hold or expand to (aliases included): a guard against alias bombs."""
MAX_DEPTH = 100
"""Deepest nesting of mappings and lists a document may have."""


class _GuardedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, stopped while it composes a document with too many values or too deep a nesting.

    The count and the depth are checked node by node as the text is read, so
    that a huge list is refused after its first values, not after it has
    been parsed whole.
    """

    def __init__(self, stream: str, source: str) -> None:
        super().__init__(stream)
        self.source = source
        self.composed = 0
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        """Compose one node, as PyYAML does, counting it and its depth first."""
        self.composed += 1
        if self.composed > MAX_NODES:
            raise self.refuse(f"the document holds more than {MAX_NODES:,} values")
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.refuse(f"values are nested more than {MAX_DEPTH} levels deep")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def refuse(self, message: str) -> InputError:
        """Return an error at the node about to be composed."""
        return _where(self.source, self.peek_event().start_mark).error(message)


@dataclasses.dataclass(frozen=True)
class Where:
    """A place in the input: a file with line and column (from 1), or an override like ``--set a.b=1``."""

    source: str
    line: int | None = None
    column: int | None = None

    def error(self, message: str, cls: type[InputError] = InputError) -> InputError:
        """Return an error of class ``cls`` located here."""
        return cls(message, path=self.source, line=self.line, column=self.column)


def _where(source: str, mark: Any) -> Where:
    return Where(source, mark.line + 1, mark.column + 1) if mark is not None else Where(source)


def show_path(path: KeyPath) -> str:
    """Return a key path as written in ``--set`` (``strategies.0.params.unit``)."""
    return ".".join(str(part) for part in path)


@dataclasses.dataclass
class Document:
    """Plain data read from YAML, with the position of each key and value."""

    data: Any
    source: str
    keys: dict[KeyPath, Where] = dataclasses.field(default_factory=dict)
    values: dict[KeyPath, Where] = dataclasses.field(default_factory=dict)

    def where(self, path: KeyPath, key: bool = False) -> Where:
        """Return the position of the value at ``path`` (of its key when ``key``), or of its nearest parent."""
        table = self.keys if key else self.values
        if path in table:
            return table[path]
        for end in range(len(path) - 1, -1, -1):
            if path[:end] in self.values:
                return self.values[path[:end]]
        return Where(self.source)

    def error(self, path: KeyPath, message: str, key: bool = False, cls: type[InputError] = InputError) -> InputError:
        """Return an error located at the value (or key) at ``path``."""
        return self.where(path, key).error(message, cls)

    def replace(self, path: KeyPath, value: Any, where: Where) -> None:
        """Put ``value`` at ``path`` (an override), locating it and everything under it at ``where``."""
        for table in (self.keys, self.values):
            for known in [p for p in table if p[: len(path)] == path]:
                del table[known]
        self.keys[path] = self.values[path] = where
        if not path:
            self.data = value
            return
        parent = self.data
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if isinstance(parent, list) and last == len(parent):
            parent.append(value)
        else:
            parent[last] = value


class _Builder:
    """Turns composed nodes into plain data, recording positions and refusing unsafe tags."""

    def __init__(self, loader: yaml.SafeLoader, doc: Document) -> None:
        self.loader = loader
        self.doc = doc
        self.count = 0
        self.open: set[int] = set()

    def fail(self, node: yaml.Node, message: str) -> InputError:
        return _where(self.doc.source, node.start_mark).error(message)

    def check_tag(self, node: yaml.Node) -> None:
        tag = node.tag
        if isinstance(node, yaml.MappingNode):
            ok = tag == _MAP
        elif isinstance(node, yaml.SequenceNode):
            ok = tag == _SEQ
        else:
            ok = tag in _SCALAR_TAGS
        if not ok:
            shown = "!!" + tag[len(_YAML) :] if tag.startswith(_YAML) else tag
            raise self.fail(
                node,
                f"the tag {shown} is not allowed here: experiment files hold plain data only (mappings, lists, text, numbers, true/false)",
            )

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(node, f"the document expands to more than {MAX_NODES:,} values (too many aliases)")
        self.check_tag(node)
        if isinstance(node, yaml.ScalarNode):
            if node.tag in _SEXAGESIMAL and ":" in node.value:
                return node.value  # `tie_pays: 8:1` is the ratio 8:1, not YAML 1.1's base-60 number 481
            try:
                value = self.loader.construct_object(node)
            except Exception as exc:  # e.g. an impossible date
                raise self.fail(node, f"cannot read the value {node.value!r}: {exc}") from None
            if isinstance(value, str):
                self.check_text(node, value)
            return value
        if id(node) in self.open:
            raise self.fail(node, "an alias refers to a value that contains it (recursive alias)")
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                out_list = []
                for index, item in enumerate(node.value):
                    self.doc.values[path + (index,)] = _where(self.doc.source, item.start_mark)
                    out_list.append(self.build(item, path + (index,)))
                return out_list
            return self.build_mapping(node, path)
        finally:
            self.open.discard(id(node))

    def build_mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[str, Any]:
        seen: dict[str, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            name = self.key_name(key_node)
            if name in seen:
                first = seen[name].start_mark
                raise self.fail(
                    key_node, f"the key {name!r} appears twice in this mapping (first at line {first.line + 1}, column {first.column + 1})"
                )
            seen[name] = key_node
        try:
            self.loader.flatten_mapping(node)  # merge keys (<<: *anchor); own keys come last and win
        except yaml.MarkedYAMLError as exc:
            raise _yaml_error(exc, self.doc.source) from None
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            name = self.key_name(key_node)
            here = path + (name,)
            self.doc.keys[here] = _where(self.doc.source, key_node.start_mark)
            self.doc.values[here] = _where(self.doc.source, value_node.start_mark)
            out[name] = self.build(value_node, here)
        return out

    def key_name(self, node: yaml.Node) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, "a key must be a plain name, not a list or a mapping")
        self.check_tag(node)
        self.check_text(node, str(node.value))
        return str(node.value)

    def check_text(self, node: yaml.Node, text: str) -> None:
        """Refuse text no file name or file can hold: a NUL (``"\\0"``) or a lone surrogate (``"\\ud800"``)."""
        found = _UNFIT_TEXT.search(text)
        if found is not None:
            char = found.group()
            what = "a NUL byte" if char == "\0" else f"U+{ord(char):04X}, a lone surrogate (half of a character)"
            raise self.fail(node, f"the text {text[:40]!r} holds {what}, which no file can hold; remove it")


_HINTS = (
    ("'\\t'", "indent with spaces, not tabs"),
    ("mapping values are not allowed here", "check the indentation, or quote a value that holds ': '"),
    ("could not find expected ':'", "a key needs ': ' after it; check the indentation"),
    ("did not find expected key", "check the indentation of this line and the one above"),
    ("did not find expected '-' indicator", "list items must line up under each other"),
    ("found undefined alias", "an alias *name needs an anchor &name above it"),
    ("expected <block end>", "check the indentation: this line does not line up with the lines above it"),
)


def _yaml_error(exc: yaml.MarkedYAMLError, source: str) -> InputError:
    if exc.context == "while scanning a quoted scalar" and exc.context_mark is not None:
        return _where(source, exc.context_mark).error("not valid YAML: the quoted value that starts here is never closed")
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "unreadable"
    if exc.context and exc.problem:
        problem = f"{exc.context}, {exc.problem}"
    problem = problem.replace("but found '?'", "but found a key").replace("but found '-'", "but found a list item")
    for clue, hint in _HINTS:
        if clue in problem:
            problem += f" ({hint})"
            break
    return _where(source, mark).error(f"not valid YAML: {problem}")


def _reader_error(exc: yaml.reader.ReaderError, text: str, source: str) -> InputError:
    """A character YAML does not allow (a control character, NUL in a binary file), at its line and column."""
    line = text.count("\n", 0, exc.position) + 1
    column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
    code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
    return InputError(
        f"not valid YAML: the character U+{code:04X} is not allowed in YAML text (is this a text file?)",
        path=source,
        line=line,
        column=column,
    )


_NODE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)


def _prescan(text: str, source: str) -> None:
    """Refuse a document with too many values or too deep a nesting, read with libyaml's fast parser when it is there.

    PyYAML's own parser, which gives the positions and messages of every
    other error, reads about 50,000 values a second or fewer; libyaml reads
    them a hundred times faster, so that a huge list is refused at once.
    The values are counted as :class:`_GuardedLoader` counts them, and the
    error is the same. Any other problem is left to PyYAML's parser.
    """
    if not getattr(yaml, "__with_libyaml__", False):
        return
    count = depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, _NODE_EVENTS):
                count += 1
                if count > MAX_NODES:
                    raise _where(source, event.start_mark).error(f"the document holds more than {MAX_NODES:,} values")
                if depth + 1 > MAX_DEPTH:
                    raise _where(source, event.start_mark).error(f"values are nested more than {MAX_DEPTH} levels deep")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return


def parse_yaml(text: str, source: str) -> Document:
    """Read YAML ``text`` into a :class:`Document`; ``source`` names it in errors."""
    doc = Document(None, source, values={(): Where(source, 1, 1)})
    _prescan(text, source)
    try:
        loader = _GuardedLoader(text, source)  # checks every character first
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, source) from None
    try:
        node = loader.get_single_node()
        if node is not None:
            doc.values[()] = _where(source, node.start_mark)
            doc.data = _Builder(loader, doc).build(node, ())
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, source) from None
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, source) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", path=source) from None
    finally:
        loader.dispose()
    return doc


def read_yaml(path: str | Path) -> Document:
    """Read a YAML file into a :class:`Document`, with errors naming the file, line and column."""
    source = str(path)
    raw = read_regular(path, "a YAML file", MAX_YAML_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError("is not UTF-8 text (a YAML file must be UTF-8)", path=source, line=line, column=column) from None
    return parse_yaml(text, source)
