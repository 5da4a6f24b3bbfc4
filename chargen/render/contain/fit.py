"""Fitting a name into a box of fixed size: the header never grows, whatever the name.

A sheet's heading holds the character's name in a box of one line at the
sheet's largest name size. :func:`name_style` measures the name with the
heading face's own advance widths (Vollkorn SemiBold, shipped in
``templates/fonts``; a character it lacks is measured as its fallback face
sets it: a full em for wide East Asian characters, nothing for combining
marks, 0.62 em for others) and picks the number of lines and the size that
show it largest inside that box. A 33-character name shrinks on one line, an
80-character name takes two smaller lines, a 200-character name (the schema's
limit) three or four; nothing below the heading moves. The estimate keeps a
margin for word wrapping, and the heading still wraps anywhere (CSS
``overflow-wrap: anywhere``) so no name can run out of its column.
"""

from __future__ import annotations

import functools
import math
import unicodedata

from chargen.render.templates import builtin_dir

HEADING_FONT = "fonts/Vollkorn-SemiBold-Latin.ttf"
MIN_PT = 5.0
WRAP_SLACK = 1.18   # a line broken at word boundaries is not filled to the last point
ONE_LINE_SLACK = 1.04
PT_PER_MM = 72 / 25.4


# The fallback heading face (Debian's fonts-noto-core), measured when a name is set in it.
FALLBACK_FONT = "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"


@functools.lru_cache(maxsize=2)
def _widths(fallback: bool = False) -> dict[int, float]:
    """Advance width in em of each code point the heading face (or its fallback) has."""
    from fontTools.ttLib import TTFont  # only when a name is measured: not at start-up

    try:
        font = TTFont(FALLBACK_FONT if fallback else str(builtin_dir() / HEADING_FONT), lazy=True)
        em = font["head"].unitsPerEm
        hmtx = font["hmtx"]
        return {cp: hmtx[glyph][0] / em for cp, glyph in (font.getBestCmap() or {}).items()}
    except Exception:  # noqa: BLE001 - a missing font: every character measured as a fallback one
        return {}


def in_heading_face(text: str) -> bool:
    """Whether the heading face draws every character of ``text`` (else it is set in the fallback)."""
    have = _widths()
    return all(ord(c) in have for c in str(text) if not c.isspace() and unicodedata.category(c) != "Cf")


def char_em(c: str, fallback: bool = False) -> float:
    width = _widths(fallback).get(ord(c))
    if width is not None:
        return width
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
        return 0.0
    if unicodedata.east_asian_width(c) in ("W", "F"):
        return 1.0
    return 0.62


def text_em(text: str, fallback: bool = False) -> float:
    return sum(char_em(c, fallback) for c in text)


def fit(text: str, width_mm: float, max_pt: float, line_height: float = 1.05) -> tuple[float, int]:
    """(size in pt, lines): the largest size at which ``text`` fits a box ``width_mm`` wide and
    one line of ``max_pt`` high."""
    width_pt = width_mm * PT_PER_MM
    box = max_pt * line_height
    fallback = not in_heading_face(text)
    em = max(text_em(text, fallback), 0.01)
    best = (MIN_PT, 1)
    longest_word = max((text_em(w, fallback) for w in text.split()), default=em)
    for lines in range(1, 7):
        lh = line_height if lines == 1 else 1.0
        by_height = box / (lines * lh)
        slack = ONE_LINE_SLACK if lines == 1 else WRAP_SLACK
        by_width = width_pt * lines / (em * slack)
        if lines > 1:  # a word longer than a line would be broken inside it
            by_width = min(by_width, width_pt / (longest_word * ONE_LINE_SLACK))
        size = min(max_pt, by_height, by_width)
        if size > best[0] + 0.05:
            best = (size, lines)
        if size >= max_pt:
            break
    return best


def name_style(name: str, width_mm: float, max_pt: float = 21.0, step: float = 0.1) -> str:
    """The heading's inline style: its size (rounded down to a multiple of ``step`` points: a form
    sheet takes whole points, so that names of about one length share its shape), line height, and
    the padding that keeps its box one line of ``max_pt`` high (the name sits at the foot of the box)."""
    size, lines = fit(str(name), float(width_mm), float(max_pt))
    size = math.floor(round(size / float(step), 6)) * float(step)
    lh = 1.05 if lines == 1 else 1.0
    pad = max(0.0, max_pt * 1.05 - size * lh * lines)
    return f"font-size: {size:.1f}pt; line-height: {lh}; height: {max_pt * 1.05:.2f}pt; padding-top: {pad:.2f}pt"
