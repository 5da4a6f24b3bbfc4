"""Finding a form's slots in a laid-out WeasyPrint document (:func:`slots_of`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen.render.fill.slots import Context, Count, Frozen, Line, Lines, Unexpected, break_lines, descendants
from chargen.render.fill.shape import Shape, shown

EPSILON = 1e-6


@dataclass
class Found:
    """A document's slots: one per marked value with text (in the order of the shape's values with
    text), one per tick track, one per page for the margin name."""

    values: list = field(default_factory=list)
    counts: list = field(default_factory=list)
    margins: list = field(default_factory=list)


def slots_of(document, shape: Shape) -> Found | None:
    """The slots of ``document`` laid out from a sheet of ``shape`` (None: they are not where the
    shape says)."""
    texts: dict[int, list] = {}
    ticks: dict[int, list] = {}
    margins = []
    for page in document.pages:
        _walk(page._page_box, [], texts, ticks, margins, page._page_box)
    found = Found()
    written = [v for v in shape.values if v]
    if len(texts) != len(written) or len(ticks) != len(shape.counts):
        return None
    for entries, value in zip(texts.values(), written):
        found.values.append(_classify(entries, value))
    for (page, boxes), n in zip(ticks.values(), shape.counts):
        track = Count(page, boxes, n)
        if [b.style["visibility"] == "visible" for b in boxes] != [True] * n + [False] * (len(boxes) - n):
            return None
        try:
            track.prepare()
        except Unexpected:
            return None
        found.counts.append(track)
    for entries in margins:
        slot = _classify(entries, shape.margin or "")
        if not isinstance(slot, Line):
            return None
        found.margins.append(slot)
    return found


def _walk(box, ancestors: list, texts: dict, ticks: dict, margins: list, page) -> None:
    from weasyprint.formatting_structure import boxes

    element = getattr(box, "element", None)
    if isinstance(box, boxes.MarginBox):
        if box.at_keyword == "@bottom-left":
            entries = [(b, ancestors + [box] + path) for b, path in _texts(box)]
            if entries:
                margins.append(entries)
        return
    if isinstance(box, boxes.TextBox):
        if element is not None and element.get("data-fill") is not None:
            texts.setdefault(id(element), []).append((box, ancestors))
        return
    if isinstance(box, boxes.InlineBox) and element is not None and element.get("data-fill-count") is not None:
        track = ticks.setdefault(id(element), (page, []))
        track[1].extend(b for b in box.children if isinstance(b, boxes.InlineBlockBox))
        return
    for child in getattr(box, "children", ()):
        _walk(child, ancestors + [box], texts, ticks, margins, page)


def _texts(box, path=()):
    from weasyprint.formatting_structure import boxes

    for child in getattr(box, "children", ()):
        if isinstance(child, boxes.TextBox):
            yield child, list(path)
        else:
            yield from _texts(child, list(path) + [child])


def _classify(entries: list, written: str):
    """A Line, Lines or, where neither fits exactly, a Frozen slot for one value's text boxes."""
    value = shown(written, entries[0][0].style)
    try:
        if value is not None and len(entries) == 1:
            slot = _line(*entries[0])
            if slot.text.text == value and slot.text.pango_layout.text == value:
                return slot
        elif value is not None:
            slot = _lines(entries)
            if slot is not None and _same_break(slot, value):
                slot.text = value
                return slot
    except Unexpected:
        pass
    return Frozen(written)


def _line(text, ancestors: list) -> Line:
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout.inline import text_align

    lines = [i for i, b in enumerate(ancestors) if isinstance(b, boxes.LineBox)]
    if not lines or lines[-1] == 0:
        raise Unexpected("a marked text outside a line")
    at = lines[-1]
    line, chain, block = ancestors[at], ancestors[at + 1:] + [text], ancestors[at - 1]
    if [c for c in block.children if isinstance(c, boxes.LineBox)] != [line] or len(block.children) != 1:
        raise Unexpected("a value in a block of several lines: a full layout might flow them differently")
    for b in chain[:-1]:
        if not isinstance(b, boxes.InlineBox) or any(
                getattr(b, side) for side in ("margin_left", "margin_right", "padding_left", "padding_right",
                                              "border_left_width", "border_right_width")):
            raise Unexpected("a marked value inside an inline box with its own horizontal edges")
    _plain_line(line)
    flat = list(descendants(line))
    after = flat[flat.index(text) + 1:]
    base_x = block.content_box_x()
    expected = base_x + text_align(Context(), line, block.width, last=True)
    if abs(line.position_x - expected) > EPSILON:
        raise Unexpected("a line not where its alignment puts it")
    return Line(text, chain, after, line, block.width, base_x, _fixed(ancestors[:at]))


def _lines(entries: list) -> Lines | None:
    """A block whose lines each hold one piece of the value and nothing else, left-aligned."""
    from weasyprint.formatting_structure import boxes

    block = entries[0][1][-2] if len(entries[0][1]) >= 2 else None
    lines = []
    for text, ancestors in entries:
        line = ancestors[-1]
        if not isinstance(line, boxes.LineBox) or ancestors[-2] is not block or line.children != [text]:
            return None
        _plain_line(line)
        if text.style["text_align_all"] not in ("start", "left") or abs(
                line.position_x - block.content_box_x()) > EPSILON or abs(line.width - text.width) > EPSILON:
            return None
        lines.append(line)
    if block is None or list(block.children) != lines:
        return None
    return Lines(block, lines, [t for t, _ in entries], block.width)


def _same_break(slot: Lines, value: str) -> bool:
    """Whether breaking the form's own value again gives the form's lines (so the fill breaks as
    WeasyPrint does, here)."""
    pieces = break_lines(value, slot.texts[0].style, Context(), slot.available)
    return pieces is not None and [p[1] for p in pieces] == [t.text for t in slot.texts] and all(
        abs(p[2] - t.width) <= EPSILON for p, t in zip(pieces, slot.texts))


def _plain_line(line) -> None:
    if line.style["direction"] != "ltr" or line.style["text_align_all"] == "justify" or line.text_indent:
        raise Unexpected("a line that is not plainly aligned")


def _fixed(ancestors: list) -> bool:
    """Whether the boxes holding a value keep their widths whatever its text: no shrink-to-fit box
    (a float, an inline block, a flex or grid item) and no table laid out from its content."""
    from weasyprint.formatting_structure import boxes

    for b in ancestors:
        style = b.style
        if isinstance(b, (boxes.FlexContainerBox, boxes.GridContainerBox)):
            return False
        if isinstance(b, boxes.TableBox) and (style["table_layout"] != "fixed" or style["width"] == "auto"):
            return False
        if (style["float"] != "none" or style["position"] in ("absolute", "fixed")
                or isinstance(b, boxes.InlineBlockBox)) and style["width"] == "auto":
            return False
    return True
