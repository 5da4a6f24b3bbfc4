"""Validating rules data: a cursor over YAML values that collects problems.

Each problem reads ``file:line: key.path: what is wrong (what is allowed)``.
A builder walks the data with :class:`Cursor`; a bad value records a problem
and yields ``None`` so the walk goes on and reports every problem at once.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from chargen import dice as dicemod
from chargen.errors import DiceError, RulesError, printable
from chargen.rules.yamlio import Located

# Not control characters (Cc) but as unsafe in one line of text: the line and paragraph separators
# and the bidirectional-text controls (ALM, LRM, RLM, LRE-RLO, LRI-PDI; as the party name and a
# manifest refuse them: chargen.render.contain.names, chargen.run.manifestcheck).
_LAYOUT = re.compile("[\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SOURCES = ("seed", "rq2-reference", "default")
MAX_INT = 1_000_000

Reads = Mapping[str, Mapping[str, str]]  # kind of id -> {role the engine reads it for: id}


def dotted(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


class Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, doc: Located, path: tuple, message: str) -> None:
        file, line, shown = doc.where(path)
        where = f"{file}:{line}" if line else file
        self.items.append(printable(f"{where}: {dotted(shown)}: {message}"))

    def extend(self, error: RulesError) -> None:
        self.items.extend(error.problems)

    def raise_if_any(self) -> None:
        if self.items:
            raise RulesError(self.items)


class Cursor:
    """A value at ``path`` in ``doc``, with typed accessors that record problems."""

    __slots__ = ("doc", "path", "value", "problems")

    def __init__(self, doc: Located, path: tuple, value: object, problems: Problems):
        self.doc, self.path, self.value, self.problems = doc, path, value, problems

    @classmethod
    def root(cls, doc: Located, problems: Problems) -> Cursor:
        return cls(doc, (), doc.data, problems)

    def fail(self, message: str) -> None:
        self.problems.add(self.doc, self.path, message)
        return None

    def child(self, key: str | int) -> Cursor:
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return Cursor(self.doc, self.path + (key,), value, self.problems)

    def __getitem__(self, key: str | int) -> Cursor:
        return self.child(key)

    @property
    def present(self) -> bool:
        return self.value is not None

    # -- containers ---------------------------------------------------------

    def mapping(self, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> bool:
        """Check this is a mapping with exactly the allowed keys; report each misfit."""
        if not isinstance(self.value, dict):
            self.fail(f"expected a mapping, got {_kind(self.value)}")
            return False
        ok = True
        allowed = {k for k in (*required, *optional) if k is not None}
        for key in self.value:
            if key not in allowed:
                ok = False
                Cursor(self.doc, self.path + (key,), None, self.problems).fail(
                    f"unknown key (allowed: {', '.join(sorted(allowed)) or 'none'})")
        for key in required:
            if key is not None and key not in self.value:
                ok = False
                self.fail(f"missing key '{key}'")
        return ok

    def items(self) -> Iterator[tuple[str, Cursor]]:
        if not isinstance(self.value, dict):
            self.fail(f"expected a mapping, got {_kind(self.value)}")
            return
        for key, value in self.value.items():
            yield key, Cursor(self.doc, self.path + (key,), value, self.problems)

    def list(self, min_items: int = 0) -> list[Cursor]:
        if not isinstance(self.value, list):
            self.fail(f"expected a list, got {_kind(self.value)}")
            return []
        if len(self.value) < min_items:
            self.fail(f"expected at least {min_items} item{'s' if min_items != 1 else ''}, got {len(self.value)}")
        return [Cursor(self.doc, self.path + (i,), v, self.problems) for i, v in enumerate(self.value)]

    # -- scalars ------------------------------------------------------------

    def int(self, lo: int = -MAX_INT, hi: int = MAX_INT) -> int | None:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            return self.fail(f"expected a whole number, got {_kind(v)}{_digits_only(v)}")
        if not lo <= v <= hi:
            return self.fail(f"{short(v)} is out of range (expected {lo} to {hi})")
        return v

    def number(self, lo: float = 0, hi: float = MAX_INT) -> float | None:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not math.isfinite(v)):
            return self.fail(f"expected a number, got {_kind(v)}{_digits_only(v)}")
        if not lo <= v <= hi:
            return self.fail(f"{short(v)} is out of range (expected {lo} to {hi})")
        return v

    def str(self, max_len: int = 200, multiline: bool = False) -> str | None:
        """Text of at most ``max_len`` characters, without control characters (but
        line breaks and tabs when ``multiline``), line or paragraph separators or bidi controls."""
        v = self.value
        if not isinstance(v, str) or not v.strip():
            return self.fail(f"expected text, got {_kind(v)}")
        if len(v) > max_len:
            return self.fail(f"text is {len(v)} characters long (at most {max_len})")
        allowed = "\n\t" if multiline else ""
        bad = next((ch for ch in v if unicodedata.category(ch) == "Cc" and ch not in allowed), None)
        if bad is not None:
            return self.fail(f"text holds the control character U+{ord(bad):04X} (remove it)")
        if (layout := _LAYOUT.search(v)) is not None:
            return self.fail(f"text holds the bidirectional control or line separator U+{ord(layout.group()):04X} "
                             "(remove it: it reorders or breaks the text around it wherever the text is shown)")
        return v

    def bool(self) -> bool | None:
        if not isinstance(self.value, bool):
            return self.fail(f"expected true or false, got {_kind(self.value)}")
        return self.value

    def ident(self) -> str | None:
        v = self.value
        if not isinstance(v, str) or not v or not all(c.isascii() and (c.isalnum() or c == "_") for c in v) or not v[0].isalpha() or v != v.lower():
            return self.fail(f"expected an id of lower-case letters, digits and '_', got {short(v)}")
        if len(v) > 60:
            return self.fail("id is longer than 60 characters")
        return v

    def one_of(self, choices: tuple | list) -> str | None:
        if self.value not in choices:
            return self.fail(f"{short(self.value)} is not one of: {', '.join(map(str, choices))}")
        return self.value

    def source(self) -> str | None:
        if self.value is None:
            return self.fail(f"missing 'source' (one of: {', '.join(SOURCES)})")
        return self.one_of(SOURCES)

    def dice(self) -> dicemod.Dice | None:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, (str, int)):
            return self.fail(f"expected dice notation such as '3D6', got {_kind(v)}")
        try:
            return dicemod.parse(v)
        except DiceError as e:
            return self.fail(str(e))

    def ref(self, known: dict | set | list, what: str, removed_ok: bool = False) -> str | None:
        """An id that must name one of ``known``. With ``removed_ok``, an id an overlay removed
        gives None without a problem (the caller leaves the reference out: the removal cascades)."""
        if removed_ok and self.removed() and self.value not in known:
            return None
        if not isinstance(self.value, str) or self.value not in known:
            names = ", ".join(sorted(map(str, known))) if len(known) <= 12 else ", ".join(sorted(map(str, known))[:12]) + ", ..."
            gone = (self.doc.removed or {}).get(self.value) if isinstance(self.value, str) else None
            note = f", removed at {gone}" if gone else ""
            return self.fail(f"unknown {what} {short(self.value)}{note} (expected one of: {names})")
        return self.value


    def removed(self) -> bool:
        """Whether this value is an id an overlay removed."""
        return isinstance(self.value, str) and self.value in (self.doc.removed or {})


def _kind(v: object) -> str:
    if v is None:
        return "nothing"
    if isinstance(v, bool):
        return f"'{v}' (true/false)"
    if isinstance(v, (int, float)):
        return f"the number {short(v)}"
    if isinstance(v, str):
        return f"the text {short(v)}" if v.strip() else "empty text"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def _digits_only(v: object) -> str:
    """Why a YAML 1.1 number form (``0x2a``, ``4_2``, ``12:30``) was read as text."""
    from chargen.rules.yamlio import yaml11_number

    return " (numbers are ASCII digits 0-9 with an optional sign and decimal point; YAML 1.1's hex, octal, " \
           "binary, '_' and base-60 forms are not read as numbers)" if yaml11_number(v) else ""


def short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check_unique(cursors: list[Cursor], key: str, what: str) -> dict[str, Cursor]:
    """Map each entry's ``key`` to its cursor; report duplicate and missing ids."""
    seen: dict[str, Cursor] = {}
    for c in cursors:
        ident = c[key].ident() if isinstance(c.value, dict) and key in c.value else None
        if ident is None:
            if not (isinstance(c.value, dict) and key in c.value):
                c.fail(f"missing key '{key}'")
            continue
        if ident in seen:
            c[key].fail(f"duplicate {what} id '{ident}' (first at {dotted(seen[ident].path)})")
            continue
        seen[ident] = c
    return seen


def file_cursors(docs: dict[str, Located], files: tuple[str, ...], problems: Problems) -> dict[str, Cursor] | None:
    """A cursor at the top of each of an engine's rules ``files`` (``files[0]`` is ``module``);
    None, with the problem recorded, when a file is missing or is not a mapping."""
    missing = [f for f in files if f not in docs]
    if missing:
        problems.add(docs["module"], (), f"missing rules file(s): {', '.join(m + '.yaml' for m in missing)}")
        return None
    cursors = {name: Cursor.root(docs[name], problems) for name in files}
    for name in files[1:]:
        if not isinstance(docs[name].data, dict):
            cursors[name].fail("expected a mapping at the top of the file")
            return None
    return cursors


def optional_cursor(docs: dict[str, Located], name: str, problems: Problems) -> Cursor | None:
    """A cursor at the top of an optional rules file (archetypes.yaml), None when the module has none."""
    if name not in docs:
        return None
    c = Cursor.root(docs[name], problems)
    if not isinstance(c.value, dict):
        c.fail("expected a mapping at the top of the file")
        return None
    return c


# -- the ids an engine's code reads -------------------------------------------

def declare_reads(groups: dict[str, dict[str, str]]) -> Reads:
    """An engine's ``READS``, read-only: for each kind of id (``"outcome"``), the role
    its code reads an entry for and the id it expects (``{"outstanding_success": "os"}``)."""
    return MappingProxyType({kind: MappingProxyType(dict(roles)) for kind, roles in groups.items()})


def check_reads(engine: str, kind: str, roles: Mapping[str, str], c: Cursor) -> None:
    """Report each id of ``roles`` that the list of entries at ``c`` lacks.

    An entry whose id an overlay changed (a rename) is named with its line: keep
    the id, change the label. Any other missing id is reported at the list, with
    the overlay line that removed it.
    """
    if not isinstance(c.value, list):
        return
    have = {e.get("id") for e in c.value if isinstance(e, dict)}
    missing = [(role, ident) for role, ident in roles.items() if ident not in have]
    if not missing:
        return
    renamed = [c[n]["id"] for n, e in enumerate(c.value)
               if isinstance(e, dict) and e.get("id") not in roles.values() and _renamed(c[n])]
    for at, (role, ident) in zip(renamed, missing):
        why = f" ({role.replace('_', ' ')})" if role != ident else ""
        at.fail(f"the {engine} engine reads {kind} '{ident}'{why}; keep the id and change its label instead")
    rest = missing[len(renamed):]
    if rest:
        gone = [f"'{i}' at {c.doc.removed[i]}" for _, i in rest if i in (c.doc.removed or {})]
        note = f"; removed {', '.join(gone)}" if gone else ""
        c.fail(f"missing {kind} {', '.join(repr(i) for _, i in rest)} "
               f"(the {engine} engine needs {', '.join(roles.values())}){note}")


def _renamed(entry: Cursor) -> bool:
    """Whether the entry's id came from another file than the entry (an overlay's ``set``)."""
    return entry.doc.spots is not None and entry.doc.where(entry.path + ("id",))[0] != entry.doc.where(entry.path)[0]
