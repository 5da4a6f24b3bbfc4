"""Sheets filled into a laid-out form: a sheet laid out once, each character's values set into its boxes.

WeasyPrint pays per box: a D100 II sheet is ~1,400 boxes and most of its CPU
time. A sheet whose look does not depend on its values (fixed column widths, a
value never wrapping) can be laid out once as a *form* and each character's
values set into the laid-out text boxes, below the layout step: each value's
text is shaped with WeasyPrint's own line splitting, its line aligned again,
and the page drawn as WeasyPrint draws it.

A template marks a value with a ``data-fill`` attribute on the element that
holds it (its content plain text, no markup). A sheet's *shape* is its HTML
with every marked value taken out (:func:`shape_of`): two sheets of one shape
differ only in their values. :meth:`Form.fill` sets values into a form of the
same shape and returns the filled document, or None when it cannot be done
exactly (a *miss*): a value that would wrap or overflow, a line whose height or
baseline would change, a value in a box whose width depends on its content,
or WeasyPrint's internals not as expected. A miss is laid out in full by the
caller: correctness is never traded. The fill writes into WeasyPrint's box
tree, which is not public API: it is validated on the exact WeasyPrint version
pyproject.toml pins (:data:`VALIDATED`), and on any other it always misses.
"""

from __future__ import annotations

import hashlib
import html as markup
import re
from dataclasses import dataclass, field

VALIDATED = "70.0"  # the WeasyPrint version the fill is validated on (pixel tests: tests/test_fill.py)
EPSILON = 1e-6

_MARKED = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)((?:\s[^<>]*?)?\sdata-fill(?:=\"\")?(?:\s[^<>]*?)?)>([^<]*)</\1>")
_ATTRIBUTE = re.compile(r"\sdata-fill(?:=\"\")?[\s>/]")
_TITLE = re.compile(r"<title>([^<]*)</title>")
_CSS_SPACE = " \t\n\r\f"  # what CSS collapses (not a no-break space)


@dataclass(frozen=True)
class Shape:
    """A sheet's HTML split into its shape (``key``: a digest of the HTML without its values) and its
    values (each marked element's text as written; "" when only white space), and its title."""

    key: str
    values: tuple[str, ...]  # as written (white space and all): a text box shows them collapsed or not by its style
    title: str


def shape_of(html: str) -> Shape | None:
    """The shape and values of ``html`` (None: it has no markers, or a marker this module cannot read)."""
    if "data-fill" not in html:
        return None
    marked = list(_MARKED.finditer(html))
    if not marked or len(marked) != len(_ATTRIBUTE.findall(html)):
        return None  # no form, or a marked element holding markup
    values, parts, at = [], [], 0
    for m in marked:
        value = markup.unescape(m.group(3))
        parts.append(html[at:m.start(3)])
        # a value of white space only may have no text box, or one: part of the shape, as written
        blank = not value.strip(_CSS_SPACE)
        parts.append("\1" + value if blank else "\0")
        at = m.end(3)
        values.append("" if blank else value)
    parts.append(html[at:])
    skeleton = "".join(parts)
    title = _TITLE.search(skeleton)
    title_text = markup.unescape(title.group(1)) if title else ""
    if title:
        skeleton = skeleton[:title.start(1)] + skeleton[title.end(1):]
    return Shape(hashlib.sha256(skeleton.encode("utf-8")).hexdigest(), tuple(values), title_text)


@dataclass
class _Slot:
    """One marked value's text box in the form, with what aligning its line needs."""

    text: object                 # the TextBox
    chain: list                  # the boxes from the line box's child down to the text box (they widen with it)
    after: list                  # the boxes on the line after the value (they move with its end)
    line: object                 # the LineBox (the only line of its block)
    available: float             # the width the line had
    base_x: float                # the line's x before alignment
    fixed: bool                  # whether the boxes around it keep their width whatever the value
    saved: list = field(default_factory=list)


class _Context:
    """What WeasyPrint's line splitting reads of a layout context (hyphenation dictionaries)."""

    def __init__(self):
        self.dictionaries = {}


class Form:
    """A sheet laid out once (``document``: WeasyPrint's) whose marked values can be replaced."""

    def __init__(self, shape: Shape, document, slots: list[_Slot]):
        self.shape, self.document, self.slots = shape, document, slots
        self.context = _Context()
        self.bookmarks = [list(page.bookmarks) for page in document.pages]

    @classmethod
    def build(cls, html: str, document) -> Form | None:
        """The form of ``html`` laid out as ``document`` (None: it cannot be a form)."""
        import weasyprint

        shape = shape_of(html)
        if shape is None or weasyprint.__version__ != VALIDATED:
            return None
        try:
            slots = _slots(document)
        except _Unexpected:
            return None
        texts = [v for v in shape.values if v]
        if len(slots) != len(texts) or any(s.text.text != _shown(v, s.text.style)
                                           or s.text.pango_layout.text != s.text.text for s, v in zip(slots, texts)):
            return None  # a value wrapped, was transformed, or is not where the markers say
        if any(page.links for page in document.pages):
            return None  # a link's rectangle is a box's: not moved by the fill
        return cls(shape, document, slots)

    def fill(self, shape: Shape):
        """This form with ``shape``'s values set (a context manager's worth of state: call
        :meth:`restore` after writing), or None when it cannot be filled exactly."""
        if shape.key != self.shape.key:
            return None
        texts = [v for v in shape.values if v]
        plans = []
        for slot, written in zip(self.slots, texts):
            value = _shown(written, slot.text.style)
            if value is None:
                return None  # white space a full layout keeps: not filled
            if value == slot.text.text:
                continue
            try:
                plan = self._shaped(slot, value)
            except (AttributeError, AssertionError, KeyError, TypeError, ValueError):
                return None  # WeasyPrint's internals not as expected: laid out in full
            if plan is None:
                return None
            plans.append((slot, plan))
        outline = self._outline({slot.text.text: plan[0].text for slot, plan in plans})
        if outline is None:
            return None
        for slot, plan in plans:
            _apply(slot, *plan)
        for page, bookmarks in zip(self.document.pages, outline):
            page.bookmarks = bookmarks
        self.document.metadata.title = shape.title or None
        self.document.fonts = {}
        return self.document

    def _outline(self, changed: dict[str, str]) -> list | None:
        """Each page's bookmarks with a changed value's label (an ``h1``'s name) changed with it;
        None when a label quotes a changed value in part."""
        pages = []
        for page, bookmarks in zip(self.document.pages, self.bookmarks):
            out = []
            for level, label, target, state in bookmarks:
                if label in changed:
                    label = changed[label]
                elif any(old in label for old in changed):
                    return None
                out.append((level, label, target, state))
            pages.append(out)
        return pages

    def restore(self) -> None:
        """Put the form's own values back."""
        for slot in self.slots:
            if slot.saved:
                _undo(slot)
        for page, bookmarks in zip(self.document.pages, self.bookmarks):
            page.bookmarks = list(bookmarks)
        self.document.metadata.title = self.shape.title or None
        self.document.fonts = {}

    def _shaped(self, slot: _Slot, value: str):
        from weasyprint.layout.inline import text_align
        from weasyprint.text.line_break import split_first_line

        box = slot.text
        layout, length, resume, width, height, baseline = split_first_line(
            value, box.style, self.context, slot.available, box.justification_spacing, is_line_start=True)
        if resume is not None or layout.text != value or len(value.encode()) != length:
            return None  # it would wrap, or lose a space
        if width > slot.available + EPSILON:
            return None  # it would overflow its box
        if not slot.fixed and abs(width - box.width) > EPSILON:
            return None  # its box's width follows its content: a full layout might widen it
        margin = (box.margin_height() - height) / 2
        if abs(height - box.height) > EPSILON or abs(baseline + margin - box.baseline) > EPSILON:
            return None  # the line's height or baseline would change
        line = slot.line
        old_width = line.width
        line.width = old_width + width - box.width
        if line.width > slot.available + EPSILON:
            line.width = old_width
            return None  # the line would overflow its box
        try:
            offset = text_align(self.context, line, slot.available, last=True)
        finally:
            line.width = old_width
        return layout, width, offset


FORMS = 6  # the most forms a process keeps (the least recently used goes first)


class Forms:
    """One process's forms, by shape: a sheet of a shape seen before is filled into its form, any
    other laid out in full (and kept as the form of its shape when it can be one). ``counts``:
    how many sheets were ``filled``, ``missed`` (a form of their shape, but not fillable exactly:
    laid out in full), ``new`` (the first of their shape) or ``plain`` (no markers)."""

    def __init__(self, most: int = FORMS):
        from collections import Counter, OrderedDict

        self.most = most
        self.forms: OrderedDict[str, Form] = OrderedDict()
        self.counts: Counter = Counter()

    def render(self, maker, html: str, what: str, attachments: tuple = ()) -> bytes:
        """``html`` as PDF bytes with ``maker`` (a :class:`chargen.render.pdf.PdfMaker`): the same
        bytes whether it is filled into a form or laid out in full."""
        shape = shape_of(html)
        if shape is None:
            self.counts["plain"] += 1
            return maker.render(html, what, attachments).pdf
        form = self.forms.get(shape.key)
        if form is not None:
            self.forms.move_to_end(shape.key)
            filled = form.fill(shape)
            if filled is not None:
                try:
                    pdf = maker.render(html, what, attachments, laid=filled).pdf
                finally:
                    form.restore()
                self.counts["filled"] += 1
                return pdf
        self.counts["missed" if form is not None else "new"] += 1
        laid = maker.lay_out(html, what)
        pdf = maker.render(html, what, attachments, laid=laid).pdf
        if form is None:
            built = Form.build(html, laid)
            if built is not None:
                self.forms[shape.key] = built
                if len(self.forms) > self.most:
                    self.forms.popitem(last=False)
        return pdf


def _shown(value: str, style) -> str | None:
    """The text a text box of ``style`` shows for ``value`` alone on its line: white space collapsed
    and trimmed where the style collapses it; None where the style keeps white space that the value has,
    or for trailing white space (drawn, though not measured, by a full layout)."""
    collapsed = re.sub(f"[{_CSS_SPACE}]+", " ", value).strip(" ")
    if value.rstrip(_CSS_SPACE) != value:
        return None  # a trailing space WeasyPrint trims from the box but keeps in the text it draws
    space = style["white_space"]
    if space in ("normal", "nowrap") or (space == "pre-line" and "\n" not in value) or collapsed == value:
        return collapsed
    return None


class _Unexpected(Exception):
    """WeasyPrint's box tree is not as the fill expects."""


def _slots(document) -> list[_Slot]:
    """Every marked value's text box, in page order, with its line and what its width depends on."""
    slots = []
    for page in document.pages:
        _walk(page._page_box, [], slots)
    return slots


def _walk(box, ancestors: list, slots: list) -> None:
    from weasyprint.formatting_structure import boxes

    if isinstance(box, boxes.TextBox):
        element = box.element
        if element is not None and element.get("data-fill") is not None:
            slots.append(_slot(box, ancestors))
        return
    for child in getattr(box, "children", ()):
        _walk(child, ancestors + [box], slots)


def _slot(text, ancestors: list) -> _Slot:
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout.inline import text_align

    lines = [i for i, b in enumerate(ancestors) if isinstance(b, boxes.LineBox)]
    if not lines or lines[-1] == 0:
        raise _Unexpected("a marked text outside a line")
    at = lines[-1]
    line, chain, block = ancestors[at], ancestors[at + 1:] + [text], ancestors[at - 1]
    if [c for c in block.children if isinstance(c, boxes.LineBox)] != [line] or len(block.children) != 1:
        raise _Unexpected("a value in a block of several lines: a full layout might flow them differently")
    for b in chain[:-1]:
        if not isinstance(b, boxes.InlineBox) or any(
                getattr(b, side) for side in ("margin_left", "margin_right", "padding_left", "padding_right",
                                              "border_left_width", "border_right_width")):
            raise _Unexpected("a marked value inside an inline box with its own horizontal edges")
    if line.style["direction"] != "ltr" or line.style["text_align_all"] == "justify" or line.text_indent:
        raise _Unexpected("a line that is not plainly aligned")
    flat = list(_descendants(line))
    after = flat[flat.index(text) + 1:]
    base_x = block.content_box_x()
    expected = base_x + text_align(_Context(), line, block.width, last=True)
    if abs(line.position_x - expected) > EPSILON:
        raise _Unexpected("a line not where its alignment puts it")
    return _Slot(text, chain, after, line, block.width, base_x, _fixed(ancestors[:at]))


def _descendants(box):
    for child in getattr(box, "children", ()):
        yield child
        yield from _descendants(child)


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


def _apply(slot: _Slot, layout, width: float, offset: float) -> None:
    """Set the new text (``layout``, ``width``) and move the line to ``offset`` from its block's edge."""
    text, line = slot.text, slot.line
    delta = width - text.width
    move = slot.base_x + offset - line.position_x
    every = [line] + list(_descendants(line))
    slot.saved = [(b, b.position_x, b.width) for b in every] + [(text, text.text, text.pango_layout)]
    for b in every:
        b.position_x += move
    for b in slot.after:
        b.position_x += delta
    for b in slot.chain[:-1]:
        b.width += delta
    line.width += delta
    text.text, text.pango_layout, text.width = layout.text, layout, width


def _undo(slot: _Slot) -> None:
    *boxes, (text, old_text, old_layout) = slot.saved
    for b, x, w in boxes:
        b.position_x, b.width = x, w
    text.text, text.pango_layout = old_text, old_layout
    slot.saved = []
