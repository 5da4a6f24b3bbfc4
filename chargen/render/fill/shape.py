"""A sheet's shape: its HTML without the values a form can take (:func:`shape_of`).

Three kinds of value are taken out of a sheet's HTML:

- the text of an element marked ``data-fill`` (plain text, no markup inside);
- the count of a tick track, ``<span class="ticks" data-fill-count="N">`` holding
  tick boxes, those from the N-th on of class ``off`` (hidden, their room kept);
- the name a page's ``@bottom-left`` margin box shows, a CSS string in the
  sheet's own ``<style>`` (every character but letters, digits and spaces a
  six-digit escape: :func:`chargen.render.env.css_string`).

Two sheets of one shape differ only in those values (and their titles).
"""

from __future__ import annotations

import hashlib
import html as markup
import re
from dataclasses import dataclass

CSS_SPACE = " \t\n\r\f"  # what CSS collapses (not a no-break space)

# an element holding plain text, its attributes one run of [^<>] (each character read once from each
# '<'; a pattern that looked for data-fill inside the run backtracked over every split of it: 2,000
# attributes in one tag took 5.2 s, 20,000 past 120 s); whether it is marked is asked of the run alone
_ELEMENT = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)(\s[^<>]*)?>([^<]*)</\1>")
_MARK = re.compile(r"\sdata-fill(?:=\"\")?(?=\s|$)")
_ATTRIBUTE = re.compile(r"\sdata-fill(?:=\"\")?[\s>/]")
_COUNT = re.compile(r'data-fill-count="(\d{1,9})">((?:<span class="tick(?: fifth)?(?: off)?"></span>)*)')
_COUNTS = re.compile(r"data-fill-count=")
_TICK = re.compile(r'class="(tick[^"]*)"')
_MARGIN = re.compile(r'@bottom-left \{ content: "((?:[a-zA-Z0-9 ]|\\[0-9a-f]{6}|[^\x00-\x7f])*)"; \}')
_ESCAPE = re.compile(r"\\([0-9a-f]{6})")
_TITLE = re.compile(r"<title>([^<]*)</title>")


@dataclass(frozen=True)
class Shape:
    """A sheet's HTML split into its shape (``key``: a digest of the HTML without its values) and its
    values: each marked element's text as written ("" when only white space), each tick track's
    count, the margin name (None: no ``@bottom-left`` literal), and the title."""

    key: str
    values: tuple[str, ...]  # as written (white space and all): a text box shows them collapsed or not by its style
    counts: tuple[int, ...]
    margin: str | None
    title: str


def shape_of(html: str) -> Shape | None:
    """The shape and values of ``html`` (None: it has no markers, or a marker this module cannot read)."""
    if "data-fill" not in html:
        return None
    marked = [m for m in _ELEMENT.finditer(html) if m.group(2) and _MARK.search(m.group(2))]
    counted = list(_COUNT.finditer(html))
    if len(marked) != len(_ATTRIBUTE.findall(html)) or len(counted) != len(_COUNTS.findall(html)):
        return None  # a marked element holding markup, or a track this module cannot read
    if not marked and not counted:
        return None
    cuts = []  # (start, end, replacement) in the HTML, in order
    values = []
    for m in marked:
        value = markup.unescape(m.group(3))
        blank = not value.strip(CSS_SPACE)  # no text box, or one of white space: part of the shape, as written
        cuts.append((m.start(3), m.end(3), "\1" + value if blank else "\0"))
        values.append("" if blank else value)
    counts = []
    for m in counted:
        n, ticks = int(m.group(1)), m.group(2)
        offs = [" off" in c for c in _TICK.findall(ticks)]
        if n > len(offs) or offs != [False] * n + [True] * (len(offs) - n):
            return None  # the ticks on and off are not the count's (a count past its ticks: never a list of it)
        cuts.append((m.start(1), m.end(2), "\0" + ticks.replace(" off", "")))
        counts.append(n)
    margin = None
    found = _MARGIN.search(html)
    if found:
        codes = [int(e, 16) for e in _ESCAPE.findall(found.group(1))]
        if any(c > 0x10FFFF or 0xD800 <= c <= 0xDFFF for c in codes):
            return None  # an escape of no character (a full layout draws U+FFFD for it)
        margin = _ESCAPE.sub(lambda e: chr(int(e.group(1), 16)), found.group(1))
        cuts.append((found.start(1), found.end(1), "\0"))
    title = _TITLE.search(html)
    title_text = markup.unescape(title.group(1)) if title else ""
    if title:
        cuts.append((title.start(1), title.end(1), ""))
    skeleton, at = [], 0
    for start, end, replacement in sorted(cuts):
        if start < at:
            return None  # values inside one another
        skeleton += [html[at:start], replacement]
        at = end
    skeleton.append(html[at:])
    key = hashlib.sha256("".join(skeleton).encode("utf-8")).hexdigest()
    return Shape(key, tuple(values), tuple(counts), margin, title_text)


def shown(value: str, style) -> str | None:
    """The text a text box of ``style`` shows for ``value``: white space collapsed and trimmed where the
    style collapses it; None where the style keeps white space that the value has, or for trailing
    white space (drawn, though not measured, by a full layout)."""
    collapsed = re.sub(f"[{CSS_SPACE}]+", " ", value).strip(" ")
    if value.rstrip(CSS_SPACE) != value:
        return None  # a trailing space WeasyPrint trims from the box but keeps in the text it draws
    space = style["white_space"]
    if space in ("normal", "nowrap") or (space == "pre-line" and "\n" not in value) or collapsed == value:
        return collapsed
    return None
