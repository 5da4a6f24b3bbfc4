"""The one Jinja environment every sheet, cover and index page is rendered in.

Autoescape is on for every template (``select_autoescape`` misses ``*.html.j2``),
undefined variables are errors, and templates run sandboxed: a templates folder
given with ``--template-dir`` is user input (the sandbox, its loader and its bounds
are in :mod:`chargen.render.contain.sandbox`). Filters are small pure functions.
"""

from __future__ import annotations

import math
import re

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from chargen.render.contain.fit import in_heading_face, name_style
from chargen.render.contain.names import without_bidi
from chargen.render.contain.sandbox import BoundedEnvironment, ContainedLoader, bound_globals, finalize
from chargen.render.templates import TemplateSet


def signed(n: int | None) -> str:
    """A modifier as printed on a sheet: +5, -5, 0."""
    if n is None:
        return ""
    return f"+{n}" if n > 0 else str(n)


def face(n: int, sides: int = 100) -> str:
    """A die face in two digits; on a D100, 100 reads "00"."""
    if sides == 100 and n == 100:
        return "00"
    return f"{n:02d}"


def faces(low: int, high: int, sides: int = 100) -> str:
    """A range of faces: "01-04", "12", "98-00" (with an en dash)."""
    return face(low, sides) if low == high else f"{face(low, sides)}\u2013{face(high, sides)}"


def num(x: float | int | None) -> str:
    """A number without a needless ".0": 4.0 -> "4", 0.25 -> "0.25"."""
    if x is None:
        return ""
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"num: {x} is not a number a sheet can print")
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def dashes(text: str) -> str:
    """A range as a sheet prints it: a hyphen between digits becomes an en dash ("05-50" -> "05\u201350")."""
    return _RANGE_HYPHEN.sub("\u2013", str(text))


_RANGE_HYPHEN = re.compile(r"(?<=\d)-(?=\d)")


def roman(n: int) -> str:
    """A page number in lower-case roman numerals, as party.pdf labels its cover pages: 1 -> "i"."""
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                           (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        count, n = divmod(n, value)
        out += letters * count
    return out


def plain(text: str) -> str:
    """``text`` without bidi controls, for a <title> (which becomes the PDF's title)."""
    stripped = without_bidi(str(text))
    return Markup(stripped) if isinstance(text, Markup) else stripped


def css_string(text: str) -> Markup:
    """``text`` as the inside of a CSS string: letters, digits and spaces as they are, every
    other character a hex escape (so no quote, backslash or ``</style`` can end the string)."""
    out = []
    for ch in str(text):
        out.append(ch if ch.isalnum() or ch == " " else f"\\{ord(ch):06x}")
    return Markup("".join(out))


FILTERS = {"signed": signed, "face": face, "faces": faces, "num": num, "roman": roman, "dashes": dashes,
           "plain": plain, "css_string": css_string, "name_style": name_style,
           "in_heading_face": in_heading_face}


def build_environment(templates: TemplateSet) -> SandboxedEnvironment:
    env = BoundedEnvironment(
        loader=ContainedLoader(templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=finalize,
    )
    env.filters.update(FILTERS)
    bound_globals(env)
    env.globals["asset"] = templates.data_url
    return env
