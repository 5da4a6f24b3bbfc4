"""Forms: a sheet laid out once, each character's values set into its boxes (:class:`Form`), and a
process's forms by shape (:class:`Forms`)."""

from __future__ import annotations

from chargen.render.fill.find import Found, slots_of
from chargen.render.fill.shape import Shape, shape_of, shown
from chargen.render.fill.slots import Context, Line, Lines, Unexpected

VALIDATED = "70.0"  # the WeasyPrint version the fill is validated on (pixel tests: tests/test_fill.py)


class Form:
    """A sheet laid out once (``document``: WeasyPrint's) whose values can be replaced."""

    def __init__(self, shape: Shape, document, found: Found):
        self.shape, self.document, self.found = shape, document, found
        self.context = Context()
        self.bookmarks = [list(page.bookmarks) for page in document.pages]
        self.applied: list = []
        self.miss = ""  # why the last fill missed (for benchmarks and tests)

    @classmethod
    def build(cls, html: str, document) -> Form | None:
        """The form of ``html`` laid out as ``document`` (None: it cannot be a form)."""
        import weasyprint

        shape = shape_of(html)
        if shape is None or weasyprint.__version__ != VALIDATED:
            return None
        try:
            found = slots_of(document, shape)
        except (Unexpected, AttributeError, AssertionError, KeyError, TypeError, ValueError):
            return None
        if found is None or any(page.links for page in document.pages):
            return None  # slots not where the shape says; a link's rectangle is a box's: not moved by the fill
        _keep_active(document)
        return cls(shape, document, found)

    def fill(self, shape: Shape):
        """This form's document with ``shape``'s values set (call :meth:`restore` after writing it),
        or None when it cannot be filled exactly."""
        if shape.key != self.shape.key:
            self.miss = "another shape"
            return None
        written = [v for v in shape.values if v]
        work = [(slot, shown(v, slot.text.style) if isinstance(slot, Line) else _shown_any(slot, v), v)
                for slot, v in zip(self.found.values, written)]
        work += [(slot, n, None) for slot, n in zip(self.found.counts, shape.counts)]
        if self.found.margins:
            margin = shown(shape.margin or "", self.found.margins[0].text.style)
            work += [(slot, margin, None) for slot in self.found.margins]
        planned = self._plan(work)
        if planned is None:
            return None
        plans, changed = planned
        if not _lines_fit(plans):
            self.miss = "a line of several values"
            return None
        outline = self._outline(changed)
        if outline is None:
            self.miss = "outline"
            return None
        for slot, plan in plans:
            slot.apply(plan)
            self.applied.append(slot)
        for page, bookmarks in zip(self.document.pages, outline):
            page.bookmarks = bookmarks
        self.document.metadata.title = shape.title or None
        self.document.fonts = {}
        return self.document

    def _plan(self, work: list) -> tuple[list, dict] | None:
        """Each slot's plan for its value (``work``: (slot, value shown, value as written)), and the
        changed texts (old -> new); None (``miss`` says why) when a value cannot be filled exactly."""
        plans, changed = [], {}
        for slot, value, as_written in work:
            if value is None:
                self.miss = f"white space kept: {type(slot).__name__}"
                return None  # white space a full layout keeps: not filled
            try:
                plan = slot.plan(value, self.context, as_written)
            except (AttributeError, AssertionError, KeyError, TypeError, ValueError, Unexpected) as error:
                self.miss = f"unexpected: {type(error).__name__}"
                return None  # WeasyPrint's internals not as expected: laid out in full
            if plan is None:
                self.miss = f"{type(slot).__name__}: {as_written if as_written is not None else value}"[:80]
                return None
            if plan != ():
                plans.append((slot, plan))
                if isinstance(slot, (Line, Lines)):  # a heading's bookmark quotes its text
                    changed[slot.text.text if isinstance(slot, Line) else slot.text] = value
        return plans, changed

    def _outline(self, changed: dict[str, str]) -> list | None:
        """Each page's bookmarks with a changed value's label (an ``h1``'s name) changed with it;
        None when a label quotes a changed value in part."""
        pages = []
        for bookmarks in self.bookmarks:
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
        for slot in reversed(self.applied):
            slot.undo()
        self.applied = []
        for page, bookmarks in zip(self.document.pages, self.bookmarks):
            page.bookmarks = list(bookmarks)
        self.document.metadata.title = self.shape.title or None
        self.document.fonts = {}


def _keep_active(document) -> None:
    """Set up each text's Pango layout once for every sheet drawn from the form: WeasyPrint sets a
    text's layout up again each time it draws it and lets it go after (a tenth of drawing a sheet).
    A text the fill changes gets a layout of its own, drawn as WeasyPrint draws it."""
    from weasyprint.formatting_structure import boxes

    def texts(box):
        if isinstance(box, boxes.TextBox):
            yield box
        for child in getattr(box, "children", ()):
            yield from texts(child)

    for page in document.pages:
        for box in texts(page._page_box):
            layout = box.pango_layout
            if "reactivate" in vars(layout):
                continue  # a layout shared by two boxes (a copy): set up already
            layout.reactivate(box.style)
            layout.reactivate = _kept
            layout.deactivate = _kept


def _kept(*args) -> None:
    """A form's text layout stays set up (see :func:`_keep_active`)."""


def _lines_fit(plans: list) -> bool:
    """Whether every line holding more than one changed value keeps within its width and its place:
    each value's plan aligned its line alone, so a line of several changed values must be one that
    alignment does not move (start-aligned), and their changes together must fit."""
    by_line: dict[int, list] = {}
    for slot, plan in plans:
        if isinstance(slot, Line):
            by_line.setdefault(id(slot.line), []).append((slot, plan))
    for group in by_line.values():
        if len(group) < 2:
            continue
        line = group[0][0].line
        width = line.width + sum(plan[1] - slot.text.width for slot, plan in group)
        if any(abs(slot.base_x + plan[2] - line.position_x) > 1e-6 for slot, plan in group):
            return False
        if width > group[0][0].available + 1e-6:
            return False
    return True


def _shown_any(slot, written: str) -> str | None:
    """The text a Lines slot shows for ``written`` (a Frozen slot compares it as written)."""
    if isinstance(slot, Lines):
        return shown(written, slot.texts[0].style)
    return written


FORMS = 6  # the most shapes a process keeps forms of (the least recently used goes first)
VARIANTS = 3  # the most forms of one shape (laid out from values that took other numbers of lines)


class Forms:
    """One process's forms, by shape: a sheet of a shape seen before is filled into a form of its
    shape, any other laid out in full. A shape's first sheet is kept as it was laid out and becomes
    a form when a second sheet of its shape comes (finding a form's slots is wasted on a shape that
    never repeats). ``counts``: how many sheets were ``filled``, ``missed`` (forms of their shape,
    but none fillable exactly: laid out in full), ``new`` (the first of their shape) or ``plain``
    (no markers)."""

    def __init__(self, most: int = FORMS):
        from collections import Counter, OrderedDict

        self.most = most
        self.forms: OrderedDict[str, list] = OrderedDict()  # a shape's forms, or its first sheet (HTML, layout)
        self.counts: Counter = Counter()

    def render(self, maker, html: str, what: str, attachments: tuple = ()) -> bytes:
        """``html`` as PDF bytes with ``maker`` (a :class:`chargen.render.pdf.PdfMaker`): the same
        bytes whether it is filled into a form or laid out in full."""
        shape = shape_of(html)
        if shape is None:
            self.counts["plain"] += 1
            return maker.render(html, what, attachments).pdf
        forms = self._forms(shape.key)
        for form in forms or ():
            filled = form.fill(shape)
            if filled is None:
                continue
            try:
                pdf = maker.render(html, what, attachments, laid=filled).pdf
            finally:
                form.restore()
            self.counts["filled"] += 1
            return pdf
        self.counts["missed" if forms is not None else "new"] += 1
        laid = maker.lay_out(html, what)
        pdf = maker.render(html, what, attachments, laid=laid).pdf
        self._keep(shape.key, html, laid, forms)
        return pdf

    def _forms(self, key: str) -> list[Form] | None:
        """The forms of the shape ``key`` (None: a shape not seen); a shape seen once gets its form,
        from its first sheet's layout, now that it repeats."""
        forms = self.forms.get(key)
        if forms is None:
            return None
        self.forms.move_to_end(key)
        if forms and isinstance(forms[0], tuple):
            built = Form.build(*forms[0])
            forms[:] = [built] if built is not None else []
        return forms

    def _keep(self, key: str, html: str, laid, forms: list[Form] | None) -> None:
        """Keep a sheet's layout: a shape's first as it is, another (one a form could not take) as a
        form of its shape, up to ``VARIANTS``; the least recently used shape goes past ``most``."""
        if forms is None:
            self.forms[key] = [(html, laid)]
        elif len(forms) < VARIANTS:
            built = Form.build(html, laid)
            if built is None:
                return
            forms.append(built)
        else:
            return
        self.forms.move_to_end(key)
        if len(self.forms) > self.most:
            self.forms.popitem(last=False)
