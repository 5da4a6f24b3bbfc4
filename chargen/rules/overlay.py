"""Overlays: house rules as data, applied to a rules module's YAML before it is validated.

An overlay file names the module it changes and, per rules file (by stem),
the operations to make, in the order written::

    overlay: d100
    name: Grim north house rules
    changes:
      characteristics:
        set:
          characteristics[id=int].dice: 2D6+6
      skills:
        remove:
          skills: [pick_pockets]
        add:
          skills:
            - {id: sailing, label: Sailing, category: manipulation, base: 10}

* ``set: {path: value}`` replaces the value at ``path``, which must exist.
* ``add: {path: [entries]}`` appends entries to the list at ``path`` (an entry
  whose ``id``, or a value, is already there is an error); ``add: {path:
  {key: value}}`` adds new keys to the mapping at ``path``.
* ``remove: {path: [ids]}`` removes list entries by ``id`` (or by value, in a
  list of names) or mapping keys.

A path is keys joined by ``.``; ``[id=x]`` picks the list entry whose ``id`` is
``x`` (any field works: ``[label=Dagger]``) and ``[N]`` the N-th entry (from 0).

Applying them is :mod:`chargen.rules.merge`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from chargen.digits import is_whole
from chargen.errors import RulesError
from chargen.rules.check import Cursor, Problems, short
from chargen.rules.yamlio import Located, load_file

OPERATIONS = ("set", "add", "remove")
MAX_OVERLAYS = 16
MAX_OPERATIONS = 1000
MAX_PATH_LENGTH = 200
PROTECTED = {("module", "id"), ("module", "engine")}

_SEGMENT = r"[^.\[\]]+(?:\[[^\[\]]*\])*"
_PATH = re.compile(rf"{_SEGMENT}(?:\.{_SEGMENT})*")
_STEP = re.compile(r"([^.\[\]]+)|\[([^\[\]]*)\]")
_SELECT = re.compile(r"^([a-z_][a-z0-9_]*)=(.+)$")


@dataclass(frozen=True, slots=True)
class Step:
    kind: str            # "key", "index" or "match"
    key: str = ""        # the key; or the field matched
    index: int = 0
    value: str = ""      # the value matched

    def __str__(self) -> str:
        if self.kind == "key":
            return self.key
        return f"[{self.index}]" if self.kind == "index" else f"[{self.key}={self.value}]"


@dataclass(frozen=True, slots=True)
class Operation:
    stem: str            # the rules file changed
    kind: str            # set, add, remove
    text: str            # the path as written
    steps: tuple[Step, ...]
    value: object
    at: tuple            # key path of the value in the overlay file


@dataclass(frozen=True)
class Overlay:
    target: str
    name: str
    hash: str
    doc: Located
    operations: tuple[Operation, ...]

    def record(self) -> dict:
        """What a character records of this overlay."""
        return {"name": self.name, "hash": self.hash}


def parse_path(text: str) -> tuple[Step, ...] | str:
    """The steps of a path, or what is wrong with it."""
    if not isinstance(text, str) or not text or len(text) > MAX_PATH_LENGTH or not _PATH.fullmatch(text):
        return (f"bad path {short(text)} (expected keys joined by '.', "
                "with [id=x] or [N] to pick a list entry: 'characteristics[id=int].dice')")
    steps: list[Step] = []
    for m in _STEP.finditer(text):
        key, selector = m.group(1), m.group(2)
        if key is not None:
            if key != key.strip():
                return f"bad path {short(text)}: key {key!r} has spaces around it"
            steps.append(Step("key", key))
        elif is_whole(selector):
            steps.append(Step("index", index=int(selector[:9])))
        elif (sm := _SELECT.match(selector)) is not None:
            steps.append(Step("match", sm.group(1), value=sm.group(2)))
        else:
            return f"bad path {short(text)}: [{selector}] is not [N] or [field=value]"
    return tuple(steps)


def canonical_hash(data: object) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_overlay(path: Path, label: str | None = None) -> Overlay:
    """Load and check an overlay file's form (not yet against its module)."""
    doc = load_file(path, label or str(path))
    problems = Problems()
    c = Cursor.root(doc, problems)
    if not c.mapping(required=("overlay", "name", "changes"), optional=("description",)):
        problems.raise_if_any()
    target, name = c["overlay"].ident(), c["name"].str()
    if c["description"].present:
        c["description"].str(2000, multiline=True)
    operations: list[Operation] = []
    for stem, sc in c["changes"].items():
        Cursor(doc, sc.path, stem, problems).ident()
        if sc.mapping(optional=OPERATIONS) and not sc.value:
            sc.fail(f"no changes (expected one or more of: {', '.join(OPERATIONS)})")
        for kind, oc in sc.items():
            if kind in OPERATIONS:
                operations += _operations(str(stem), kind, oc)
    if isinstance(c["changes"].value, dict) and not c["changes"].value:
        c["changes"].fail("no changes (expected a mapping of rules files to change)")
    if len(operations) > MAX_OPERATIONS:
        c["changes"].fail(f"{len(operations)} changes (at most {MAX_OPERATIONS})")
    problems.raise_if_any()
    return Overlay(target, name, canonical_hash(doc.data), doc, tuple(operations))


def _operations(stem: str, kind: str, oc: Cursor) -> list[Operation]:
    out = []
    for text, vc in oc.items():
        steps = parse_path(text)
        if isinstance(steps, str):
            Cursor(vc.doc, vc.path, None, vc.problems).fail(steps)
            continue
        if (stem, steps[0].key) in PROTECTED:
            vc.fail(f"an overlay cannot change the module's {steps[0].key}")
            continue
        if kind == "remove" and not _scalar_list(vc.value):
            vc.fail("expected a list of ids, keys or values to remove")
            continue
        if kind == "add" and not isinstance(vc.value, (list, dict)):
            vc.fail("expected a list of entries or a mapping of new keys to add")
            continue
        out.append(Operation(stem, kind, text, steps, vc.value, vc.path))
    return out


def _scalar_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(x, (str, int, float)) for x in value)


def check_targets(overlays: list[Overlay], module_id: str, problems: Problems) -> None:
    """Every overlay must change ``module_id``."""
    for o in overlays:
        if o.target != module_id:
            Cursor(o.doc, ("overlay",), o.target, problems).fail(
                f"this overlay changes module '{o.target}', not '{module_id}' (use --system {o.target})")


def read_overlays(paths: list[Path]) -> list[Overlay]:
    """Read every overlay file; report the problems of all of them at once."""
    if len(paths) > MAX_OVERLAYS:
        raise RulesError([f"{len(paths)} overlays given (at most {MAX_OVERLAYS})"])
    out, problems = [], Problems()
    for p in paths:
        try:
            out.append(read_overlay(p))
        except RulesError as e:
            problems.extend(e)
    problems.raise_if_any()
    return out
