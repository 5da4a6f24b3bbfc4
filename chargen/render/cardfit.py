"""Cards that continue (issue 25): a card whose content does not fit its box goes on to a second card.

A card is a fixed box (``templates/layouts.css``). :func:`fit` lays the page of
cards out with WeasyPrint, finds each card whose content runs past the bottom of
its box, measures where its rows, items and pieces end (:func:`measure`), and
cuts it (:func:`cut`) into parts at the last piece, table row or item that
fits (:mod:`chargen.render.cardparts`); each part is a card of its own, with the
card's header again and its mark ``1/2``, ``2/2`` (drawn by
``collection.html.j2``). The page is laid out again and checked, until every
card fits (at most :data:`ROUNDS` times; a single piece taller than a card, with
no row or item to cut at, stays cut at the card's edge).

A page whose cards all fit is laid out once and its HTML is the same, byte for
byte, as without this stage. Everything here is a function of the HTML and the
layout: the same characters give the same parts, whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from markupsafe import Markup

from chargen.digits import is_whole
from chargen.render.cardparts import Piece, Unit, head_count, part_html, pieces, whole

ROUNDS = 8          # the most layouts of one page of cards
SLACK_PT = 1.5      # room kept at a card's foot when a cut is predicted (the new layout checks it)
EDGE_PT = 0.05      # what a box may pass the card's edge by and still fit (rounding)
MARK_CLASS = "card-part"


@dataclass(frozen=True, slots=True)
class Atom:
    """The smallest run of a card's content that is never cut: a whole piece, a row, an item.
    ``bottom``: where it ends on the laid-out page; ``opening``: for a row or an item, how
    much its piece takes above its first atom (a table's head, a paragraph's top) when a part
    opens inside it; ``first``: whether it is its unit's first atom."""

    unit: int
    index: int
    bottom: float
    opening: float
    first: bool


def _card_id(element_id: str) -> tuple[int, int] | None:
    """(anchor, part) of a card's ``id``: ``c-3`` is card 3 (its first part), ``c-3-2`` its second."""
    bits = element_id.split("-")
    if len(bits) not in (2, 3) or bits[0] != "c" or not all(is_whole(b) for b in bits[1:]):
        return None
    return int(bits[1]), (int(bits[2]) - 1 if len(bits) == 3 else 0)


def cards(document, tag: str = "article") -> list[tuple[int, int, object]]:
    """Every card box of a laid-out document: (anchor, part, box), in page order."""
    found = []
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if getattr(box, "element_tag", None) == tag and element is not None:
                ids = _card_id(element.get("id") or "")
                if ids is not None:
                    found.append((*ids, box))
    return found


def _bottom(box) -> float:
    return box.border_box_y() + box.border_height()


def _limit(card) -> float:
    return card.content_box_y() + card.height


def overflows(card) -> bool:
    """Whether any box inside ``card`` ends past the foot of its content box (a line, not the
    glyphs' own boxes, which may reach a point or two past their line at any size)."""
    from weasyprint.formatting_structure.boxes import InlineBox, TextBox

    limit = _limit(card) + EDGE_PT
    return any(_bottom(b) > limit for b in card.descendants()
               if b is not card and hasattr(b, "border_height") and not isinstance(b, (InlineBox, TextBox)))


def _children(card) -> list:
    """The card's boxes of its top-level elements, in order, without the part mark."""
    elements = [e for e in card.element if isinstance(e.tag, str)]
    seen, boxes = set(), []
    for child in card.children:
        element = getattr(child, "element", None)
        if element is None or element is card.element or id(element) in seen:
            continue
        if MARK_CLASS in (element.get("class") or "").split() or not any(element is e for e in elements):
            continue
        seen.add(id(element))
        boxes.append(child)
    return boxes


def _rows(box) -> list:
    table = box.get_wrapped_table() if box.is_table_wrapper else box
    groups = [g for g in table.children if getattr(g, "element_tag", None) == "tbody"]
    return list(groups[0].children) if len(groups) == 1 else []


def _item_bottoms(box, ends: tuple[int, ...]) -> list[float] | None:
    """The bottom of the line each item of a paragraph ends on."""
    elements = [e for e in box.element if isinstance(e.tag, str)]
    line_of: dict[int, float] = {}
    for line in box.children:
        bottom = line.position_y + line.height
        for b in line.descendants():
            element = getattr(b, "element", None)
            for k, e in enumerate(elements):
                if element is e:
                    line_of[k] = max(line_of.get(k, bottom), bottom)
    if any(k not in line_of for k in ends):
        return None
    return [line_of[k] for k in ends]


def measure(card, parts: list[Piece], units: tuple[Unit, ...]) -> tuple[float, list[Atom]] | None:
    """(the bottom of the card's head, its atoms in order), read from the laid-out ``card``
    showing ``units``; None when its boxes are not the pieces (a template that restructures)."""
    heads = head_count(parts)
    boxes = _children(card)
    if len(boxes) != heads + len(units):
        return None
    head_bottom = _bottom(boxes[heads - 1]) if heads else card.content_box_y()
    atoms: list[Atom] = []
    before = head_bottom
    for k, (unit, box) in enumerate(zip(units, boxes[heads:])):
        bottoms, opening = _atom_bottoms(box, parts[unit.piece], unit, before)
        if bottoms is None:
            return None
        for j, bottom in enumerate(bottoms):
            atoms.append(Atom(k, unit.start + j, bottom, opening, j == 0))
        before = _bottom(box)
    return head_bottom, atoms


def _atom_bottoms(box, piece: Piece, unit: Unit, before: float) -> tuple[list[float] | None, float]:
    """Where each atom of ``unit`` ends, and how much the piece opens with above them."""
    whole_bottom = _bottom(box)
    if unit.end - unit.start == 1 or not piece.atoms:
        return [whole_bottom], 0.0
    if piece.tag == "table":
        rows = _rows(box)
        if len(rows) != unit.end - unit.start:
            return None, 0.0
        bottoms = [r.position_y + r.height for r in rows]
        return bottoms[:-1] + [whole_bottom], rows[0].position_y - before
    ends = piece.ends[unit.start:unit.end]
    bottoms = _item_bottoms(box, ends)
    if bottoms is None:
        return None, 0.0
    return bottoms[:-1] + [whole_bottom], box.content_box_y() - before


def cut(limit: float, head_bottom: float, atoms: list[Atom], units: tuple[Unit, ...]) -> list[tuple[Unit, ...]]:
    """The units of one card's parts: as many atoms to a part as fit above ``limit``, each part
    after the first opening under the head again (a table's head, a paragraph's label repeated)."""
    groups: list[list[Atom]] = [[]]
    offset, previous = 0.0, head_bottom
    for atom in atoms:
        if atom.bottom + offset > limit - SLACK_PT and groups[-1]:
            groups.append([])
            offset = head_bottom - previous + (0.0 if atom.first else atom.opening)
        groups[-1].append(atom)
        previous = atom.bottom
    return [_units(group, units) for group in groups]


def _units(group: list[Atom], units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    out: list[Unit] = []
    for atom in group:
        piece = units[atom.unit].piece
        if out and out[-1].piece == piece and out[-1].end == atom.index:
            out[-1] = Unit(piece, out[-1].start, atom.index + 1)
        else:
            out.append(Unit(piece, atom.index, atom.index + 1))
    return tuple(out)


def _inner(html: str, anchor: int) -> str | None:
    """The HTML inside card ``anchor``'s element, as the collection wrote it."""
    at = html.find(f' id="c-{anchor}"')
    if at < 0:
        return None
    start = html.index(">", at) + 1
    end = html.find("</article>", start)
    return html[start:end] if end > 0 else None


def fit(render: Callable[[Mapping[int, list]], str], lay_out: Callable[[str], object]):
    """(html, laid-out document, parts) of a page of cards in which every card fits: ``render(parts)``
    writes the page (``parts``: each cut card's anchor to its parts' HTML), ``lay_out(html)``
    lays it out. A page whose cards fit is written and laid out once, with no parts."""
    html = render({})
    document = lay_out(html)
    found: dict[int, list[Piece] | None] = {}
    plan: dict[int, list[tuple[Unit, ...]]] = {}
    bodies: dict[int, list[Markup]] = {}
    for _ in range(ROUNDS):
        if not _recut(html, document, found, plan):
            break
        bodies = {a: [Markup(part_html(found[a], units)) for units in parts] for a, parts in sorted(plan.items())}
        html = render(bodies)
        document = lay_out(html)
    return html, document, bodies


def _recut(html: str, document, found: dict, plan: dict) -> bool:
    """Cut each card of ``document`` that overflows into more parts (in ``plan``); whether any was."""
    changed = False
    over = sorted(((a, k, card) for a, k, card in cards(document) if overflows(card)), key=lambda t: (t[0], -t[1]))
    for anchor, k, card in over:  # a card's later parts first: cutting one moves the parts after it
        if anchor not in found:
            inner = _inner(html, anchor) if anchor not in plan else None
            found[anchor] = pieces(inner) if inner is not None else None
        parts = found[anchor]
        if not parts:
            continue
        current = plan.setdefault(anchor, [whole(parts)])
        measured = measure(card, parts, current[k])
        if measured is None:
            continue
        new = cut(_limit(card), *measured, current[k])
        if len(new) > 1:
            current[k:k + 1] = new
            changed = True
    return changed
