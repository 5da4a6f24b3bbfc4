"""The typed view an engine publishes of a character, and what every generic format reads.

An engine builds a :class:`CharacterView` from a character document and the
rules it was made with (:attr:`chargen.engines.Engine.view`); the formats and
templates that are the same for every engine (csv, text, the cover roster,
``chargen stats``, the block and card fragments) translate it and know no
engine's fields. The view is a frozen tree:

* :class:`Header`: who the character is (name, system, seed and index, sex,
  age, the identity facts, the archetype);
* the figure *strip*: :class:`Line` s of :class:`Group` s of :class:`Figure` s
  (``STR 13 CON 15 · Move 3 · HP 14``), each group with a stable id
  (``characteristics``) that a reader may look up;
* :class:`Table` s (hit locations, with the die they are rolled on);
* :class:`Listing` s (``Weapons: ...; ...``, one line per item) and the notes;
* headline figures: ``columns`` (a roster file's columns after the common
  ones), ``roster`` (the party cover's key figures) and ``key_figures`` (the
  numbers ``chargen stats`` summarises).

``rules`` may be ``None`` (a saved character whose rules are not at hand): an
engine's view then reads what it needs from the document alone.
"""

from __future__ import annotations

from dataclasses import dataclass

Value = int | str
Cell = int | str | tuple[int, int]  # a table's cell: a span of faces is (low, high)


@dataclass(frozen=True, slots=True)
class Figure:
    """One labelled figure: ``label`` as shown ("" for a bare fact), its ``value`` (numbers stay
    numbers), ``key`` a stable id (a roster column's name) where a reader needs one."""

    label: str
    value: Value
    key: str = ""


@dataclass(frozen=True, slots=True)
class Group:
    """Figures read together (``STR 13 CON 15 ...``), under a stable ``id``."""

    id: str
    figures: tuple[Figure, ...]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the figure strip: groups set apart (`` · `` in text)."""

    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A table of the character: its ``columns`` and ``rows``; ``die`` the die its rows are
    rolled on ("1D20"; "" for none) and ``sides`` that die's faces (0 for none)."""

    id: str
    label: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    die: str = ""
    sides: int = 0


@dataclass(frozen=True, slots=True)
class Listing:
    """A list shown as ``Label: item; item`` (each item one line of text)."""

    id: str
    label: str
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Header:
    name: str
    system: str          # the rules module's id
    system_name: str
    version: str
    engine: str
    seed: int
    index: int
    sex: str | None
    age: Value | None
    facts: tuple[str, ...] = ()  # identity facts after sex and age (background, profession ...)
    archetype: str = ""          # the archetype's label, "" when none


@dataclass(frozen=True, slots=True)
class CharacterView:
    header: Header
    strip: tuple[Line, ...] = ()
    tables: tuple[Table, ...] = ()
    lists: tuple[Listing, ...] = ()
    notes: str = ""
    columns: tuple[Figure, ...] = ()      # a roster file's columns after the common ones (key: the column)
    roster: tuple[Figure, ...] = ()       # the party cover's key figures
    key_figures: tuple[Figure, ...] = ()  # what `chargen stats` summarises (whole numbers)
    skills: tuple[Figure, ...] = ()       # every skill as a whole number, higher better (key: its id): the party page's
    trained: tuple[str, ...] = ()         # the keys of the skills above their base: the party page shows those
    flavour: tuple[Figure, ...] = ()      # the flavour tables' values (label, text, key: the table id): chargen.flavour
    relations: tuple[str, ...] | None = None  # a party member's ties, one line each ("Owes money to Red Ulf (...)")
    flavour_line: str = ""                # a block's or card's one line of flavour ("" without)

    def group(self, group_id: str) -> Group | None:
        return next((g for line in self.strip for g in line.groups if g.id == group_id), None)

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def listing(self, listing_id: str) -> Listing | None:
        return next((x for x in self.lists if x.id == listing_id), None)


def header(doc: dict, facts: tuple[str, ...] = ()) -> Header:
    """The header every engine's view starts from: what the document's common part says."""
    s, seed, who = doc["system"], doc["seed"], doc["identity"]
    archetype = doc.get("archetype") or {}
    return Header(who["name"], s["id"], s.get("name", ""), s.get("version", ""), s.get("engine", s["id"]),
                  seed["batch"], seed["index"], who.get("sex", ""), who.get("age", ""), tuple(facts),
                  archetype.get("label", "") if archetype else "")


def plain(doc: dict, rules: object = None) -> CharacterView:
    """The view of an engine that publishes none of its own: the header and the notes."""
    return CharacterView(header(doc), notes=doc.get("notes") or "")


def figures(group_id: str, pairs) -> Group:
    """A group from ``(label, value)`` pairs."""
    return Group(group_id, tuple(Figure(label, value) for label, value in pairs))


def line(*groups: Group) -> Line:
    return Line(tuple(groups))


def one(group_id: str, label: str, value: Value) -> Group:
    """A group of one figure."""
    return Group(group_id, (Figure(label, value),))


def with_flavour(view: CharacterView, doc: dict) -> CharacterView:
    """``view`` with the document's flavour and relations (:mod:`chargen.flavour.show`), whatever its engine."""
    from dataclasses import replace

    from chargen.flavour import DOC_KEY, RELATIONS_KEY, show

    record = doc.get(DOC_KEY) if isinstance(doc.get(DOC_KEY), dict) else {}
    figures = tuple(Figure(show.label(k), text, k) for k, (_, text) in zip(
        [k for k, v in record.items() if isinstance(v, dict) and str(v.get("value", "")).strip()], show.pairs(doc)))
    relations = tuple(show.relation_texts(doc)) if RELATIONS_KEY in doc else None
    return replace(view, flavour=figures, relations=relations, flavour_line=show.block_line(doc))


def roster_pairs(view: CharacterView) -> list[tuple[str, str]]:
    """The cover roster's figures as ``(label, text)`` pairs (what the cover template reads)."""
    return [(f.label, str(f.value)) for f in view.roster]
