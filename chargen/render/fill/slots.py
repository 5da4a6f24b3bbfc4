"""Where a form's values sit in WeasyPrint's laid-out boxes, and how each takes another value.

Four kinds of slot, each with ``plan(value, context)`` (None: a miss; ``()``: nothing to change)
and ``apply(plan)`` / ``undo()``:

- :class:`Line`: a value alone on the one line of its block, or followed on it by other boxes
  (which move with its end); its text shaped again with WeasyPrint's own line splitting, its line
  aligned again;
- :class:`Lines`: a paragraph of one value (a block of lines, each holding one piece of its text);
  broken into lines again as WeasyPrint breaks it, filled when it takes as many lines, each as high;
- :class:`Count`: a tick track's boxes, shown up to a count (the rest hidden, their room kept);
- :class:`Frozen`: any other marked value: filled only when it does not change.

Every figure compared here is WeasyPrint's own (widths, heights, baselines): a value is set only
where a full layout would set it at the same place, and a test compares filled sheets with full
layouts byte for byte and pixel for pixel (tests/test_fill.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

EPSILON = 1e-6


class Unexpected(Exception):
    """WeasyPrint's box tree is not as a slot expects."""


class Context:
    """What WeasyPrint's line splitting reads of a layout context (hyphenation dictionaries)."""

    def __init__(self):
        self.dictionaries = {}


@dataclass
class Frozen:
    """A value the fill cannot move: filled only with the same value."""

    written: str

    def plan(self, value: str, context, written: str):
        return () if written == self.written else None

    def apply(self, plan) -> None:
        pass

    def undo(self) -> None:
        pass


@dataclass
class Line:
    """One marked value's text box alone on its block's one line (or followed by other boxes on it)."""

    text: object                 # the TextBox
    chain: list                  # the boxes from the line box's child down to the text box (they widen with it)
    after: list                  # the boxes on the line after the value (they move with its end)
    line: object                 # the LineBox (the only line of its block)
    available: float             # the width the line had
    base_x: float                # the line's x before alignment
    fixed: bool                  # whether the boxes around it keep their width whatever the value
    saved: list = field(default_factory=list)

    def plan(self, value: str, context, written: str = ""):
        from weasyprint.layout.inline import text_align
        from weasyprint.text.line_break import split_first_line

        box = self.text
        if value == box.text:
            return ()
        layout, length, resume, width, height, baseline = split_first_line(
            value, box.style, context, self.available, box.justification_spacing, is_line_start=True)
        if resume is not None or layout.text != value or len(value.encode()) != length:
            return None  # it would wrap, or lose a space
        if width > self.available + EPSILON:
            return None  # it would overflow its box
        if not self.fixed and abs(width - box.width) > EPSILON:
            return None  # its box's width follows its content: a full layout might widen it
        margin = (box.margin_height() - height) / 2
        if abs(height - box.height) > EPSILON or abs(baseline + margin - box.baseline) > EPSILON:
            return None  # the line's height or baseline would change
        line = self.line
        old_width = line.width
        line.width = old_width + width - box.width
        if line.width > self.available + EPSILON:
            line.width = old_width
            return None  # the line would overflow its box
        try:
            offset = text_align(context, line, self.available, last=True)
        finally:
            line.width = old_width
        return layout, width, offset

    def apply(self, plan) -> None:
        """Set the new text and move the line to its offset from its block's edge."""
        if not plan:
            return
        layout, width, offset = plan
        text, line = self.text, self.line
        delta = width - text.width
        move = self.base_x + offset - line.position_x
        every = [line] + list(descendants(line))
        self.saved = [(b, b.position_x, b.width) for b in every] + [(text, text.text, text.pango_layout)]
        for b in every:
            b.position_x += move
        for b in self.after:
            b.position_x += delta
        for b in self.chain[:-1]:
            b.width += delta
        line.width += delta
        text.text, text.pango_layout, text.width = layout.text, layout, width

    def undo(self) -> None:
        if not self.saved:
            return
        *moved, (text, old_text, old_layout) = self.saved
        for b, x, w in moved:
            b.position_x, b.width = x, w
        text.text, text.pango_layout = old_text, old_layout
        self.saved = []


@dataclass
class Lines:
    """A paragraph of one value: its block's lines, each holding only a piece of its text. Filled with
    as many lines, or with another number where the block's height does not change (its min-height
    holds them all: then lines are added below the last or taken away)."""

    block: object                # the block box
    lines: list                  # the LineBoxes
    texts: list                  # their TextBoxes
    available: float
    text: str = ""               # the value the form shows (a heading's bookmark label quotes it whole)
    saved: list = field(default_factory=list)

    def plan(self, value: str, context, written: str = ""):
        pieces = break_lines(value, self.texts[0].style, context, self.available)
        if pieces is None or not self._keeps_height(len(pieces)):
            return None  # another number of lines: the block's height would change
        for i, (_, text, width, height, baseline) in enumerate(pieces):
            box = self.texts[min(i, len(self.texts) - 1)]
            margin = (box.margin_height() - height) / 2
            if abs(height - box.height) > EPSILON or abs(baseline + margin - box.baseline) > EPSILON:
                return None  # a line's height or baseline would change
            if width > self.available + EPSILON:
                return None
        return pieces

    def _keeps_height(self, n: int) -> bool:
        if n == len(self.lines):
            return True
        step = self._step()
        if step is None or self.block.style["height"] != "auto":
            return False
        return abs(max(self.block.min_height, n * step) - self.block.height) <= EPSILON

    def _step(self) -> float | None:
        """The height of every line (None: the lines differ in height or spacing)."""
        first = self.lines[0]
        for i, line in enumerate(self.lines):
            if abs(line.height - first.height) > EPSILON or abs(
                    line.position_y - first.position_y - i * first.height) > EPSILON:
                return None
        return first.height

    def apply(self, plan) -> None:
        if not plan:
            return
        self.saved = [(line, line.width, box, box.text, box.pango_layout, box.width)
                      for line, box in zip(self.lines, self.texts)] + [list(self.block.children)]
        lines = []
        for i, (layout, text, width, _, _) in enumerate(plan):
            if i < len(self.lines):
                line, box = self.lines[i], self.texts[i]
            else:  # a line more: the last line's boxes, one line lower each time
                box = self.texts[-1].copy()
                line = self.lines[-1].copy_with_children([box])
                line.translate(dy=(i - len(self.lines) + 1) * self.lines[-1].height)
            box.text, box.pango_layout, box.width = text, layout, width
            line.width = width
            lines.append(line)
        self.block.children = lines

    def undo(self) -> None:
        if not self.saved:
            return
        *kept, children = self.saved
        for line, line_width, box, text, layout, width in kept:
            line.width, box.text, box.pango_layout, box.width = line_width, text, layout, width
        self.block.children = children
        self.saved = []


def break_lines(value: str, style, context, available: float) -> list | None:
    """``value`` broken into lines as WeasyPrint breaks a block's one text: each line's
    (layout, text, width, height, baseline), the line's last spaces trimmed from its text and width
    but kept in the layout it draws (as WeasyPrint's ``remove_last_whitespace`` leaves them)."""
    from weasyprint.text.line_break import split_first_line

    if style["white_space"] != "normal":
        return None
    pieces, remaining = [], value.encode()
    while remaining:
        remaining = remaining.lstrip(b" ")
        if not remaining:
            break
        layout, length, resume, width, height, baseline = split_first_line(
            remaining.decode(), style, context, available, 0, is_line_start=True)
        if length <= 0 or layout.text.encode() != remaining[:length]:
            return None
        text = layout.text
        if text.rstrip(" ") != text:
            text = text.rstrip(" ")
            if not text:
                return None
            width = split_first_line(text, style, context, None, 0, is_line_start=True)[3]
        pieces.append((layout, text, width, height, baseline))
        remaining = b"" if resume is None else remaining[resume:]
    return pieces


@dataclass
class Count:
    """A tick track: its boxes, the first ``shown`` of them visible."""

    page: object                 # the PageBox (a background is placed on its page)
    boxes: list                  # the tick boxes, in order
    shown: int
    looks: list = field(default_factory=list)  # each box's (visible style, background, hidden style)
    saved: list = field(default_factory=list)

    def prepare(self) -> None:
        from weasyprint.layout.background import layout_box_backgrounds

        for box in self.boxes:
            style, background = box.style, box.background
            other = style.copy()
            if style["visibility"] == "visible":
                other["visibility"] = "hidden"
                self.looks.append((style, background, other))
            else:
                other["visibility"] = "visible"
                layout_box_backgrounds(self.page, box, _no_image, layout_children=False, style=other)
                self.looks.append((other, box.background, style))
                box.background = background

    def plan(self, n: int, context=None, written=None):
        if n == self.shown:
            return ()
        return None if n > len(self.boxes) else n

    def apply(self, plan) -> None:
        if plan == ():
            return
        self.saved = [(box, box.style, box.background) for box in self.boxes]
        for i, (box, (visible, background, hidden)) in enumerate(zip(self.boxes, self.looks)):
            box.style, box.background = (visible, background) if i < plan else (hidden, None)

    def undo(self) -> None:
        for box, style, background in self.saved:
            box.style, box.background = style, background
        self.saved = []


def _no_image(*args, **kwargs):
    raise Unexpected("a tick with a background image")


def descendants(box):
    for child in getattr(box, "children", ()):
        yield child
        yield from descendants(child)
