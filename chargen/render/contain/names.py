"""Text given on the command line to be drawn on a sheet: checked before the first character is made."""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from pathlib import Path

from chargen.errors import RenderError, printable
from chargen.render.templates import TemplateSet

# The longest --party-name: it is set in 20 pt type on the cover, a line holds about 40 characters.
MAX_PARTY_NAME = 100
# Bidirectional-text controls (ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI): in a
# title, a bookmark or the PDF's metadata they would reorder what a viewer shows around a name.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_FONT_URL = re.compile(r"""url\(\s*['"]?([^'"()]+\.(?:otf|ttf|woff2?))['"]?\s*\)""", re.IGNORECASE)  # no '(': linear


def without_bidi(text: str) -> str:
    return _BIDI.sub("", text)


def check_party_name(name: str, templates: TemplateSet) -> str:
    """``name`` if the cover can draw it: at most ``MAX_PARTY_NAME`` characters, each printable and
    in every font the stylesheet names (so the cover never falls back to the machine's fonts)."""
    if not name.strip():
        raise RenderError("the party name is empty")
    if len(name) > MAX_PARTY_NAME:
        raise RenderError(f"the party name is {len(name):,} characters long (at most {MAX_PARTY_NAME})")
    drawable = sheet_characters(templates)
    for c in name:
        if not (c.isprintable() and ord(c) in drawable):
            raise RenderError(printable(f"party name '{name[:40]}': {_describe(c)} is not a character the sheet "
                                        f"fonts can draw (letters of Latin script, digits and punctuation)"))
    return name


def _describe(c: str) -> str:
    shown = f"'{c}' " if c.isprintable() else ""
    return f"{shown}U+{ord(c):04X} ({unicodedata.name(c, 'unnamed').lower()})"


def sheet_characters(templates: TemplateSet) -> frozenset[int]:
    """The code points every font the stylesheet names has a glyph for."""
    paths = [templates.path_of(url) for url in _FONT_URL.findall(templates.stylesheet())]
    covered = [_cmap(str(p), os.stat(p).st_mtime_ns) for p in paths]
    return frozenset.intersection(*covered) if covered else frozenset(range(0x20, 0x7F))


@functools.lru_cache(maxsize=16)
def _cmap(path: str, mtime: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont, TTLibError

    try:
        return frozenset(TTFont(path, lazy=True).getBestCmap() or ())
    except (TTLibError, OSError, ValueError, AssertionError) as e:
        raise RenderError(f"{Path(path).name}: not a font chargen can read ({e})") from None
