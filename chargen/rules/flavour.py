"""``flavour.yaml`` validated into typed tables (every problem at its file, line and key).

::

    source: default
    tables:
      - id: appearance
        label: Appearance
        source: default
        variant_by: background.id      # optional: a path of the character document
        entries:
          - {text: "a burn scar from wrist to elbow", weight: 2, source: default}
        variants:                      # optional: entries for one value of variant_by
          barbarian:
            - {text: "tattooed with the clan's beasts", weight: 1, source: default}
    relations:
      - id: debtor
        label: Owes money to
        other: creditor                # the kind the other end holds (itself: kin, friend)
        weight: 2                      # 0: never drawn, only the other end of a drawn kind
        source: default
        reasons: [{text: "borrowed silver for a lame horse", weight: 1, source: default}]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from chargen.rules.check import Cursor, Problems, check_unique
from chargen.rules.yamlio import Located

MAX_TEXT = 160
MAX_WEIGHT = 1000
MAX_ENTRIES = 2000
_PATH = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*){0,3}")


@dataclass(frozen=True, slots=True)
class Entry:
    text: str
    weight: int


@dataclass(frozen=True, slots=True)
class FlavourTable:
    id: str
    label: str
    entries: tuple[Entry, ...]
    variant_by: str = ""
    variants: dict = field(default_factory=dict, compare=False)  # value of variant_by -> entries (read only)

    def rows_for(self, key: object) -> tuple[str, tuple[Entry, ...]]:
        """The entries a character whose ``variant_by`` value is ``key`` rolls on, and their key path in the file."""
        if isinstance(key, str) and key in self.variants:
            return f"tables[id={self.id}].variants.{key}", self.variants[key]
        return f"tables[id={self.id}].entries", self.entries


@dataclass(frozen=True, slots=True)
class RelationKind:
    id: str
    label: str
    other: str
    weight: int
    reasons: tuple[Entry, ...] = ()


@dataclass(frozen=True, slots=True)
class Flavour:
    tables: tuple[FlavourTable, ...]
    relations: tuple[RelationKind, ...] = ()

    def table(self, table_id: str) -> FlavourTable | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def kind(self, kind_id: str) -> RelationKind | None:
        return next((k for k in self.relations if k.id == kind_id), None)

    @property
    def entry_count(self) -> int:
        return sum(len(t.entries) + sum(len(v) for v in t.variants.values()) for t in self.tables) + \
            sum(len(k.reasons) for k in self.relations)


def build(docs: dict[str, Located], problems: Problems) -> Flavour | None:
    """The module's flavour tables, or None when it has no ``flavour.yaml``."""
    if "flavour" not in docs:
        return None
    top = Cursor.root(docs["flavour"], problems)
    if not top.mapping(required=("tables",), optional=("source", "relations")):
        return None
    if top["source"].present:
        top["source"].source()
    tables = tuple(t for t in (_table(c) for c in _unique(top["tables"], "flavour table")) if t is not None)
    kinds = ()
    if top["relations"].present:
        kinds = tuple(k for k in (_kind(c) for c in _unique(top["relations"], "relation")) if k is not None)
        _check_others(top["relations"], kinds)
    return Flavour(tables, kinds)


def _unique(c: Cursor, what: str) -> list[Cursor]:
    items = c.list(min_items=1)
    check_unique([i for i in items if isinstance(i.value, dict)], "id", what)
    for i in items:
        if not isinstance(i.value, dict):
            i.fail("expected a mapping (id, label, source, ...)")
    return [i for i in items if isinstance(i.value, dict)]


def _entries(c: Cursor) -> tuple[Entry, ...]:
    out = []
    items = c.list(min_items=1)
    if len(items) > MAX_ENTRIES:
        c.fail(f"{len(items)} entries (at most {MAX_ENTRIES})")
        return ()
    for e in items:
        if not e.mapping(required=("text", "weight", "source")):
            continue
        text, weight = e["text"].str(MAX_TEXT), e["weight"].int(1, MAX_WEIGHT)
        e["source"].source()
        if text is not None and weight is not None:
            out.append(Entry(" ".join(text.split()), weight))
    return tuple(out)


def _table(c: Cursor) -> FlavourTable | None:
    if not c.mapping(required=("id", "label", "source", "entries"), optional=("variant_by", "variants")):
        return None
    ident, label = c["id"].ident(), c["label"].str(60)
    c["source"].source()
    entries = _entries(c["entries"])
    by = ""
    if c["variant_by"].present:
        v = c["variant_by"].value
        by = v if isinstance(v, str) and _PATH.fullmatch(v) else \
            c["variant_by"].fail(f"expected a path of the character such as background.id, got {v!r:.40}") or ""
    variants = {}
    if c["variants"].present:
        if not by:
            c["variants"].fail("variants need a variant_by (the character's value that picks one)")
        for key, v in c["variants"].items():
            if Cursor(c.doc, c.path + ("variants", key), key, c.problems).ident() is not None:
                variants[key] = _entries(v)
    if ident is None or label is None or not entries:
        return None
    return FlavourTable(ident, label, entries, by, variants)


def _kind(c: Cursor) -> RelationKind | None:
    if not c.mapping(required=("id", "label", "other", "weight", "source"), optional=("reasons",)):
        return None
    ident, label, other = c["id"].ident(), c["label"].str(60), c["other"].ident()
    weight = c["weight"].int(0, MAX_WEIGHT)
    c["source"].source()
    reasons = _entries(c["reasons"]) if c["reasons"].present else ()
    if weight and not reasons:
        c["reasons"].fail("a kind that is drawn (weight above 0) needs reasons (a list of {text, weight, source})")
    if None in (ident, label, other, weight):
        return None
    return RelationKind(ident, label, other, weight, reasons)


def _check_others(c: Cursor, kinds: tuple[RelationKind, ...]) -> None:
    """Both ends of each kind agree: ``other`` names a kind whose ``other`` names it back."""
    by_id = {k.id: k for k in kinds}
    for i, item in enumerate(c.list()):
        ident = item.value.get("id") if isinstance(item.value, dict) else None
        k = by_id.get(ident)
        if k is None:
            continue
        back = by_id.get(k.other)
        if back is None:
            item["other"].ref(by_id, "relation")
        elif back.other != k.id:
            item["other"].fail(f"'{k.other}' names '{back.other}' as its other end, not '{k.id}' "
                               f"(set {k.other}'s other: {k.id})")
    if kinds and not any(k.weight for k in kinds):
        c.fail("no relation has a weight above 0 (nothing to draw)")
