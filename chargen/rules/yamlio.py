"""Reading YAML that may be hostile: size, node and depth limits, and line numbers.

The text is composed with PyYAML's *safe* loader (``yaml.compose`` with a
``SafeLoader`` whose composer stops past ``MAX_DEPTH`` levels, so deep nesting
is an error, not a ``RecursionError``), then walked here. The walk counts every
node it visits, aliases included, so an alias bomb stops at ``MAX_NODES``
instead of expanding to millions of items; it accepts only plain YAML types
(no tags such as ``!!python/...`` or ``!!binary``), and it records the line of
every key path, so an error can say ``file:line: key.path: ...``.

Numbers are read as YAML 1.2's core schema reads them, as the command line
does: an integer is ASCII digits with an optional sign (``0123`` is 123, not
octal 83); YAML 1.1's other integer forms (``0x2a``, ``0o17``, ``0b101``,
``4_2``, the base-60 ``12:30``) and floats with ``_`` or ``:`` stay text, so a
key that expects a number says so, naming the file, line and key.

Files are opened without following into devices or pipes: only regular files
are read, and never more than ``max_bytes + 1`` bytes.

chargen's own rules files (the built-in modules, never a user's) are composed
by libyaml where PyYAML has it (``_BuiltinLoader``): the same nodes, a quarter
of the CPU; every other text is composed by the limited loader above.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from chargen.errors import RulesError

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DEPTH = 32

KeyPath = tuple  # of str | int
Spot = tuple  # (file, line or None, key path in that file)

_PLAIN_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"


@dataclass
class Located:
    """Parsed YAML data with the line of each key path (1-based).

    ``spots``, when set, says where each key path's value came from when the
    data was merged from several files (see :mod:`chargen.rules.overlay`):
    ``path -> (file, line, key path in that file)``.
    """

    data: object
    file: str
    lines: dict[KeyPath, int] = field(default_factory=dict)
    spots: dict[KeyPath, Spot] | None = None
    removed: dict[str, str] | None = None  # id or value -> "file:line" of the overlay that removed it

    def line(self, path: KeyPath) -> int | None:
        """Line of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), None)

    def where(self, path: KeyPath) -> Spot:
        """``(file, line, key path)`` of ``path``: in this file, or where a merge took it from."""
        p = tuple(path)
        if self.spots is None:
            return self.file, self.line(p), p
        for n in range(len(p), -1, -1):
            spot = self.spots.get(p[:n])
            if spot is not None:
                return spot[0], spot[1], tuple(spot[2]) + p[n:]
        return self.file, None, p


def read_bytes(path: Path, name: str, max_bytes: int, error: type = RulesError) -> bytes:
    """At most ``max_bytes`` of a regular file; a folder, device, pipe or larger file is an error.

    ``error`` is the exception class: :class:`RulesError` (takes a list) or another
    :class:`ChargenError` (takes a message).
    """
    def fail(message: str) -> Exception:
        return error([message]) if error is RulesError else error(message)

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as e:
        raise fail(f"{name}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise fail(f"{name}: is a folder (expected a file)")
        if not stat.S_ISREG(mode):
            raise fail(f"{name}: not a regular file (a device, pipe or socket cannot be read)")
        size = os.fstat(fd).st_size
        if size > max_bytes:
            raise fail(f"{name}: file is {size} bytes (at most {max_bytes})")
        with os.fdopen(os.dup(fd), "rb") as f:
            raw = f.read(size + 1)  # not max_bytes + 1: read() sets aside that much at once
            if len(raw) > size:  # grown since fstat
                raw += f.read(max_bytes + 1 - len(raw))
    except OSError as e:
        raise fail(f"{name}: cannot read ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        raise fail(f"{name}: file is larger than {max_bytes} bytes")
    return raw


def read_text(path: Path, label: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file with a size cap; errors name the file."""
    name = label or str(path)
    raw = read_bytes(path, name, max_bytes)
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


def load_text(text: str, name: str, builtin: bool = False) -> Located:
    """``text`` (named ``name`` in errors) read as plain YAML; ``builtin``: one of chargen's own rules
    files, composed by libyaml when PyYAML has it (:class:`_BuiltinLoader`), else as any other."""
    if len(text) > MAX_FILE_BYTES:
        raise RulesError([f"{name}: text is longer than {MAX_FILE_BYTES} characters"])
    try:
        node = yaml.compose(text, Loader=_BuiltinLoader if builtin and _BuiltinLoader else _Loader)
    except _Limit as e:
        raise RulesError([f"{name}:{e.problem_mark.line + 1}: {e.problem}"]) from None
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


class _Limit(yaml.MarkedYAMLError):
    pass


_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"""[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?\Z
    |[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z""", re.X)
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


def _core_resolvers() -> dict:
    """SafeLoader's implicit resolvers with YAML 1.2 core's integers and floats in place of 1.1's."""
    table = {}
    for first, entries in yaml.SafeLoader.yaml_implicit_resolvers.items():
        table[first] = [(tag, rx) for tag, rx in entries if tag not in _NUMBER_TAGS]
    for tag, rx, firsts in (("tag:yaml.org,2002:int", _INT, "-+0123456789"),
                            ("tag:yaml.org,2002:float", _FLOAT, "-+.0123456789")):
        for first in firsts:
            table.setdefault(first, []).append((tag, rx))
    return {k: v for k, v in table.items() if v}


class _Constructor(yaml.SafeLoader):
    """Builds scalars as :class:`_Loader` resolves them: an integer is decimal (``0123`` is 123)."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        return int(self.construct_scalar(node), 10)


_Constructor.add_constructor("tag:yaml.org,2002:int", _Constructor.construct_yaml_int)


def yaml11_number(value: object) -> bool:
    """Whether ``value`` (text read from YAML) is a number only in YAML 1.1's forms (``0x2a``, ``4_2``, ``12:30``)."""
    return isinstance(value, str) and bool(_YAML11_NUMBER.match(value.strip()))


_YAML11_NUMBER = re.compile(r"""[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?
    |[0-9_]*_[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?)\Z""", re.X)


class _Loader(yaml.SafeLoader):
    """The safe loader, with a composer that refuses nesting deeper than ``MAX_DEPTH``
    and more than ``MAX_NODES`` nodes.

    PyYAML composes recursively; without this, ``[[[[...`` ten thousand deep
    raises ``RecursionError``, and a large file is composed whole before the
    walk could count its nodes.
    """

    yaml_implicit_resolvers = _core_resolvers()

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):
        self._depth += 1
        self._nodes += 1
        try:
            if self._depth > MAX_DEPTH + 1:
                raise _Limit(problem=f"nesting deeper than {MAX_DEPTH} levels",
                               problem_mark=self.peek_event().start_mark)
            if self._nodes > MAX_NODES:
                raise _Limit(problem=f"too many YAML nodes (more than {MAX_NODES})",
                               problem_mark=self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _builtin_loader():
    """A loader for chargen's own rules files (shipped with the package, never a user's): libyaml's
    composer, with :class:`_Loader`'s resolvers, so it gives the same nodes (tags, values, lines) as
    :class:`_Loader` at a quarter of the CPU (a cold start loads a system's 16 files: ~0.2 s of
    pure-Python composing). No depth or node limit while composing; the walk still counts both.
    None when PyYAML was built without libyaml."""
    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class Builtin(yaml.CSafeLoader):
        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers

    return Builtin


_BuiltinLoader = _builtin_loader()


class _Walker:
    def __init__(self, name: str, lines: dict):
        self.name = name
        self.lines = lines
        self.nodes = 0
        self.constructor = _Constructor("")

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
            return self.text(node, self.scalar(node))
        if node.tag not in (_SEQ, _MAP):
            raise self._fail(node, f"YAML tag {_tag(node.tag)} is not allowed (plain YAML only: mappings, lists, text, numbers, true/false)")
        if isinstance(node, yaml.SequenceNode):
            return [self.walk(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self._fail(key_node, "mapping keys must be plain scalars")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self._fail(key_node, "YAML merge keys ('<<') are not supported; write the keys out")
                key = self.text(key_node, self.scalar(key_node))
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key)
                if key in out:
                    raise self._fail(key_node, f"duplicate key {key!r}")
                out[key] = self.walk(value_node, path + (key,), depth + 1)
            return out
        raise self._fail(node, "unsupported YAML node")

    def text(self, node: yaml.ScalarNode, value: object) -> object:
        """``value``, unless it is text no file can hold (a lone surrogate, from an escape such as ``"\\ud800"``)."""
        if isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as e:
                raise self._fail(node, f"a lone surrogate (\\u{ord(value[e.start]):04x}) is not a character "
                                       "any file can hold") from None
        return value

    def scalar(self, node: yaml.ScalarNode) -> object:
        if node.tag not in _PLAIN_TAGS:
            raise self._fail(node, f"YAML tag {_tag(node.tag)} is not allowed (plain YAML only: mappings, lists, text, numbers, true/false)")
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as e:
            raise self._fail(node, f"bad scalar: {getattr(e, 'problem', e)}") from None
        except ValueError:  # an integer of more than 4300 digits (sys.get_int_max_str_digits)
            raise self._fail(node, f"number is too long ({len(node.value)} characters; numbers in rules are at most a few digits)") from None


def _tag(tag: str) -> str:
    return repr("!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else _clip(tag))


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."
