"""Reading YAML that may be hostile: size, node and depth limits, and line numbers.

The text is composed with PyYAML's *safe* loader (``yaml.compose`` with
``SafeLoader``: no Python tags), then walked here. The walk counts every node
it visits, aliases included, so an alias bomb stops at ``MAX_NODES`` instead of
expanding to millions of items; and it records the line of every key path, so
an error can say ``file:line: key.path: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from chargen.errors import RulesError

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DEPTH = 32

KeyPath = tuple  # of str | int


@dataclass
class Located:
    """Parsed YAML data with the line of each key path (1-based)."""

    data: object
    file: str
    lines: dict[KeyPath, int] = field(default_factory=dict)

    def line(self, path: KeyPath) -> int | None:
        """Line of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), None)


def read_text(path: Path, label: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file with a size cap; errors name the file."""
    name = label or str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise RulesError([f"{name}: file is {size} bytes (at most {max_bytes})"])
        raw = path.read_bytes()
    except OSError as e:
        raise RulesError([f"{name}: cannot read ({e.strerror or e})"]) from None
    if len(raw) > max_bytes:
        raise RulesError([f"{name}: file is larger than {max_bytes} bytes"])
    if b"\x00" in raw:
        raise RulesError([f"{name}: binary file (contains NUL bytes; expected UTF-8 YAML text)"])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError([f"{name}: not UTF-8 text (bad byte at offset {e.start}; save the file as UTF-8)"]) from None


def load_file(path: Path, label: str | None = None) -> Located:
    name = label or str(path)
    return load_text(read_text(path, name), name)


def load_text(text: str, name: str) -> Located:
    if len(text) > MAX_FILE_BYTES:
        raise RulesError([f"{name}: text is longer than {MAX_FILE_BYTES} characters"])
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        where = f"{name}:{mark.line + 1}" if mark else name
        raise RulesError([f"{where}: YAML syntax error: {e.problem or e}"]) from None
    except yaml.YAMLError as e:
        raise RulesError([f"{name}: YAML error: {e}"]) from None
    located = Located(None, name)
    if node is None:
        located.data = {}
        return located
    walker = _Walker(name, located.lines)
    located.data = walker.walk(node, (), 0)
    return located


class _Walker:
    def __init__(self, name: str, lines: dict):
        self.name = name
        self.lines = lines
        self.nodes = 0
        self.constructor = yaml.SafeLoader("")

    def _fail(self, node: yaml.Node, what: str) -> RulesError:
        return RulesError([f"{self.name}:{node.start_mark.line + 1}: {what}"])

    def walk(self, node: yaml.Node, path: KeyPath, depth: int) -> object:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self._fail(node, f"too many YAML nodes (more than {MAX_NODES}, counting aliases; an alias bomb?)")
        if depth > MAX_DEPTH:
            raise self._fail(node, f"nesting deeper than {MAX_DEPTH} levels")
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.ScalarNode):
            try:
                return self.constructor.construct_object(node, deep=True)
            except yaml.YAMLError as e:
                raise self._fail(node, f"bad scalar: {getattr(e, 'problem', e)}") from None
        if isinstance(node, yaml.SequenceNode):
            return [self.walk(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self._fail(key_node, "mapping keys must be plain scalars")
                key = self.constructor.construct_object(key_node)
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self._fail(key_node, "YAML merge keys ('<<') are not supported; write the keys out")
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key)
                if key in out:
                    raise self._fail(key_node, f"duplicate key {key!r}")
                out[key] = self.walk(value_node, path + (key,), depth + 1)
            return out
        raise self._fail(node, "unsupported YAML node")
