"""A card's content cut into the pieces a continued card is made of (issue 25: cards that continue).

A card's fragment (``templates/<engine>-block.html.j2``) is a run of top-level
elements: a ``<header>`` (name, who, index), tables, paragraphs, the seed line.
:func:`pieces` reads that run from the fragment's HTML text (the exact
characters the template wrote: nothing is parsed and written out again) and
says where each piece may be cut:

* a table with a ``<tbody>``: between its rows, the head (``<thead>``) repeated
  on the next card;
* a paragraph of items (``Skills A 40, B 35, ...``): after an item's separator
  (a comma, a semicolon or a middle dot that follows one of its elements), its
  leading label (``<span class="aside">``) repeated on the next card;
* anything else: whole.

A :class:`Part` of a card is the header pieces and a run of :class:`Unit`
(a piece, or rows or items of one); :func:`part_html` writes a part's HTML.
Where the parts end is measured from a laid-out page (:mod:`chargen.render.cardfit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
SEPARATORS = (",", ";", "&middot;", "\u00b7")


@dataclass(frozen=True, slots=True)
class Piece:
    """One top-level element of a card: its HTML (``text``) and, when it may be cut, the
    HTML every cut-off part opens with (``open``: a table to its ``<tbody>``; a paragraph's
    tag and label), its cuttable ``atoms`` (rows; items, each with its trailing separator in
    ``seps``), what closes it (``close``); ``ends``: for a paragraph's items, the index of
    each item's last element among the paragraph's elements (to find it on the page)."""

    tag: str
    text: str
    open: str = ""
    atoms: tuple[str, ...] = ()
    seps: tuple[str, ...] = ()
    close: str = ""
    ends: tuple[int, ...] = ()
    header: bool = False

    @property
    def size(self) -> int:
        """How many atoms the piece has (1: it is whole)."""
        return len(self.atoms) or 1


@dataclass(frozen=True, slots=True)
class Unit:
    """Piece ``piece`` of a card, atoms ``start`` to ``end`` (exclusive) of it."""

    piece: int
    start: int
    end: int


class _Tags(HTMLParser):
    """The elements of an HTML text, as (tag, depth, start offset, end offset, attrs), in order."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.found: list[list] = []
        self.open: list[list] = []
        self.broken = False
        self.feed(text)
        self.close()
        self.broken = self.broken or bool(self.open)

    def _at(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        start = self._at()
        end = start + len(self.get_starttag_text())
        element = [tag, len(self.open), start, end, dict(attrs), end]  # [5]: the end of its start tag
        self.found.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        start = self._at()
        end = start + len(self.get_starttag_text())
        self.found.append([tag, len(self.open), start, end, dict(attrs), end])

    def handle_endtag(self, tag):
        if not self.open or self.open[-1][0] != tag:
            self.broken = True
            return
        element = self.open.pop()
        element[3] = self.text.index(">", self._at()) + 1


def pieces(fragment: str) -> list[Piece] | None:
    """The top-level pieces of a card's HTML, or None when it is not a plain run of elements
    (text outside any element, a tag left open): such a card is never cut."""
    tags = _Tags(fragment)
    if tags.broken:
        return None
    tops = [t for t in tags.found if t[1] == 0]
    covered = "".join(fragment[a:b] for _, _, a, b, *_ in _gaps(tops, len(fragment)))
    if covered.strip():
        return None
    inner = [t for t in tags.found if t[1] > 0]
    return [_piece(fragment, top, [t for t in inner if top[2] < t[2] < top[3]]) for top in tops]


def _gaps(tops: list, size: int):
    """The text between top-level elements, as (None, None, start, end) spans."""
    at = 0
    for t in tops:
        yield None, None, at, t[2]
        at = t[3]
    yield None, None, at, size


def _piece(fragment: str, top: list, inner: list) -> Piece:
    tag, _, start, end, attrs, _ = top
    text = fragment[start:end]
    header = tag == "header"
    if tag == "table":
        return _table(text, start, inner) or Piece(tag, text)
    if tag == "p":
        return _items(text, start, inner) or Piece(tag, text)
    return Piece(tag, text, header=header)


def _table(text: str, base: int, inner: list) -> Piece | None:
    bodies = [t for t in inner if t[0] == "tbody" and t[1] == 1]
    if len(bodies) != 1:
        return None
    body = bodies[0]
    rows = [t for t in inner if t[0] == "tr" and t[1] == 2 and body[2] < t[2] < body[3]]
    if len(rows) < 2:
        return None
    starts = [r[2] - base for r in rows] + [text.rindex("</tbody", 0, body[3] - base + 1)]
    atoms = tuple(text[a:b] for a, b in zip(starts, starts[1:]))
    return Piece("table", text, open=text[:starts[0]], atoms=atoms, close=text[starts[-1]:])


def _items(text: str, base: int, inner: list) -> Piece | None:
    """A paragraph cut after its items' separators."""
    children = [t for t in inner if t[1] == 1]
    if any(t[0] not in ("span", "b", "i", "em", "strong", "br", "a") for t in children):
        return None
    open_end = text.index(">") + 1
    lead_end = open_end
    if children and children[0][0] == "span" and "aside" in children[0][4].get("class", "").split():
        lead_end = children[0][3] - base
        while lead_end < len(text) and text[lead_end] == " ":
            lead_end += 1
    close_at = text.rindex("</p")
    atoms, seps, ends = [], [], []
    at = lead_end
    for k, child in enumerate(children):
        after = child[3] - base
        following = children[k + 1][2] - base if k + 1 < len(children) else close_at
        gap = text[after:following]
        found = _separator(gap)
        if after <= lead_end or found is None:
            continue
        begin, cut = after + found[0], after + found[1]
        while cut < following and text[cut] == " ":
            cut += 1
        atoms.append(text[at:begin])
        seps.append(text[begin:cut])
        ends.append(k)
        at = cut
    if not atoms:
        return None
    atoms.append(text[at:close_at])
    seps.append("")
    ends.append(len(children) - 1)
    return Piece("p", text, open=text[:lead_end], atoms=tuple(atoms), seps=tuple(seps), close=text[close_at:],
                 ends=tuple(ends))


def _separator(gap: str) -> tuple[int, int] | None:
    """Where the first item separator of ``gap`` (text between two elements) starts and ends
    (spaces before it included), or None."""
    found = [(k, k + len(s)) for s in SEPARATORS for k in [gap.find(s)] if k >= 0
             and (k + len(s) == len(gap) or gap[k + len(s)] in " \n")]
    if not found:
        return None
    begin, end = min(found)
    while begin > 0 and gap[begin - 1] == " ":
        begin -= 1
    return begin, end


def head_count(parts: list[Piece]) -> int:
    """How many leading pieces every part of the card repeats: up to its ``<header>`` (none without one)."""
    for k, p in enumerate(parts):
        if p.header:
            return k + 1
    return 0


def whole(parts: list[Piece]) -> tuple[Unit, ...]:
    """The units of an uncut card: every piece after the head, whole."""
    return tuple(Unit(k, 0, p.size) for k, p in enumerate(parts) if k >= head_count(parts))


def unit_html(piece: Piece, unit: Unit) -> str:
    if unit.start == 0 and unit.end == piece.size:
        return piece.text
    atoms = list(piece.atoms[unit.start:unit.end])
    if piece.seps:  # a paragraph's items: each with its separator, but the last
        seps = list(piece.seps[unit.start:unit.end - 1]) + [""]
        atoms = [a + s for a, s in zip(atoms, seps)]
    return piece.open + "".join(atoms) + piece.close


def part_html(parts: list[Piece], units: tuple[Unit, ...]) -> str:
    """The HTML of one part of a card: its head pieces, then its units."""
    head = [p.text for p in parts[:head_count(parts)]]
    return "\n".join(head + [unit_html(parts[u.piece], u) for u in units]) + "\n"
