"""A character no installed font can draw: which one, and the Debian package that would draw it.

WeasyPrint logs ``.notdef glyph rendered for Unicode string unsupported by
fonts: "..." (U+XXXX)`` when no font on the machine has a character of the
text. :func:`missing_glyph` turns that message into a :class:`MissingGlyph`
error naming the character, the code point and the package to install, so
that only that character's sheet fails (:mod:`chargen.run.sheets` carries
on with the rest of the batch, and ``--resume`` draws it once the font is there).
"""

from __future__ import annotations

import re
import unicodedata

from chargen.errors import RenderError

_NOTDEF = re.compile(r"\.notdef glyph rendered.*?\(U\+([0-9A-Fa-f]{4,6})\)")

# (first, last, Debian package): the ranges the set-up's font packages cover (see tools/system_libraries.py)
PACKAGES = (
    (0x1100, 0x11FF, "fonts-noto-cjk"),      # Hangul Jamo
    (0x2E80, 0x2FDF, "fonts-noto-cjk"),      # CJK radicals
    (0x3000, 0x303F, "fonts-noto-cjk"),      # CJK symbols and punctuation
    (0x3040, 0x30FF, "fonts-noto-cjk"),      # Hiragana, Katakana
    (0x3100, 0x31FF, "fonts-noto-cjk"),      # Bopomofo, Hangul compatibility Jamo, Kanbun
    (0x3200, 0x4DBF, "fonts-noto-cjk"),      # enclosed CJK, CJK extension A
    (0x4E00, 0x9FFF, "fonts-noto-cjk"),      # CJK unified ideographs
    (0xA960, 0xA97F, "fonts-noto-cjk"),
    (0xAC00, 0xD7FF, "fonts-noto-cjk"),      # Hangul syllables
    (0xF900, 0xFAFF, "fonts-noto-cjk"),      # CJK compatibility ideographs
    (0xFE30, 0xFE4F, "fonts-noto-cjk"),
    (0xFF00, 0xFFEF, "fonts-noto-cjk"),      # half- and full-width forms
    (0x20000, 0x3FFFF, "fonts-noto-cjk"),    # CJK extensions B and later (in part)
    (0x2600, 0x27BF, "fonts-noto-color-emoji"),
    (0x1F000, 0x1FAFF, "fonts-noto-color-emoji"),
)


class MissingGlyph(RenderError):
    """A sheet draws a character no installed font has (only that sheet fails).
    ``detail``: the message without the sheet it is about."""

    def __init__(self, what: str, detail: str, code_point: int):
        super().__init__(f"{what}: {detail}")
        self.what, self.detail, self.code_point = what, detail, code_point

    def __reduce__(self):  # raised in a worker, it is pickled to the main process
        return type(self), (self.what, self.detail, self.code_point)


def package_for(code_point: int) -> str | None:
    """The Debian font package that draws ``code_point``, or None (private use, unassigned)."""
    c = chr(code_point)
    if unicodedata.category(c) in ("Co", "Cn", "Cs"):
        return None
    for first, last, package in PACKAGES:
        if first <= code_point <= last:
            return package
    return "fonts-noto-core"


def describe(code_point: int) -> str:
    c = chr(code_point)
    shown = f"'{c}' " if c.isprintable() and unicodedata.category(c) not in ("Co", "Cn") else ""
    kind = unicodedata.category(c)
    name = unicodedata.name(c, "") or {"Co": "a private-use character", "Cn": "an unassigned code point"}.get(
        kind, "unnamed")
    return f"{shown}U+{code_point:04X} ({name.lower() if unicodedata.name(c, '') else name})"


def hint(code_point: int) -> str:
    package = package_for(code_point)
    if package is None:
        return ("no font package has it (install a font that draws it; fontconfig finds fonts in "
                "~/.local/share/fonts)")
    return f"install the Debian package {package} ('make system-deps' does)"


def missing_glyph(message: str, what: str) -> MissingGlyph | None:
    """The error for WeasyPrint's .notdef warning ``message`` about ``what`` (a sheet), else None."""
    m = _NOTDEF.search(message)
    if m is None:
        return None
    code_point = int(m.group(1), 16)
    return MissingGlyph(what, f"no installed font can draw {describe(code_point)}; {hint(code_point)}", code_point)


class Drawable:
    """The characters one process has seen its fonts draw, in a check that found none missing: a text
    made only of them draws too, and need not be laid out to know it (a batch's blocks share their
    alphabet: 12 D100 checks laid out 12 pages, now one or two). Only characters that draw alone are
    remembered: those before U+0590 (Latin, Greek, Cyrillic, Armenian: no shaping across letters) and
    general punctuation and currency signs (U+2000 to U+20CF), not marks, nor format, control or
    private-use characters; a text with any other is laid out."""

    def __init__(self) -> None:
        self.known: set[str] = set()

    def new(self, text: str) -> bool:
        """Whether ``text`` has a character not known to draw (it must be laid out to check it)."""
        return not set(text) <= self.known

    def add(self, text: str) -> None:
        """``text`` was laid out and drawn, no glyph missing."""
        self.known.update(c for c in set(text) if _alone(c))


def _alone(c: str) -> bool:
    """Whether ``c`` is drawn alike whatever its neighbours (see :class:`Drawable`)."""
    return (ord(c) < 0x0590 or 0x2000 <= ord(c) <= 0x20CF) and unicodedata.category(c)[0] in "LNPSZ"
