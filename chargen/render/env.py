"""The one Jinja environment every sheet, cover and index page is rendered in.

Autoescape is on for every template (``select_autoescape`` misses ``*.html.j2``),
undefined variables are errors, and templates run sandboxed: a templates folder
given with ``--template-dir`` is user input. Filters are small pure functions.
"""

from __future__ import annotations

import copy
import math
import os
import re
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from chargen.errors import RenderError
from chargen.render import bounds
from chargen.render.fit import in_heading_face, name_style
from chargen.render.names import without_bidi
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


class _ContainedLoader(jinja2.BaseLoader):
    """Templates from the template folders, first match wins. A file is checked before it is
    read: a regular file, inside a folder once symlinks are resolved, and of at most
    ``bounds.MAX_TEMPLATE_BYTES``."""

    def __init__(self, templates: TemplateSet):
        self._templates = templates

    def get_source(self, environment, template):
        parts = split_template_path(template)  # refuses '..' (TemplateNotFound)
        for root in self._templates.roots:
            path = root.joinpath(*parts)
            if path.is_file():
                return self._read(template, path)
        raise jinja2.TemplateNotFound(template)

    def _read(self, template: str, path: Path):
        label = self._templates.label
        if not self._templates.contains(path):
            raise RenderError(f"{label}: template '{template}' is outside the templates folder")
        size = path.stat().st_size
        if size > bounds.MAX_TEMPLATE_BYTES:
            raise RenderError(f"{label}: template '{template}' is {size:,} bytes, over the limit of "
                              f"{bounds.MAX_TEMPLATE_BYTES:,}")
        with path.open("rb") as f:
            data = f.read(bounds.MAX_TEMPLATE_BYTES + 1)
        if len(data) > bounds.MAX_TEMPLATE_BYTES:
            raise RenderError(f"{label}: template '{template}' is over the limit of {bounds.MAX_TEMPLATE_BYTES:,} bytes")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RenderError(f"{label}: template '{template}' is not UTF-8 text (bad byte at offset {e.start})") from None
        mtime = path.stat().st_mtime
        return source, os.fspath(path), lambda: path.is_file() and path.stat().st_mtime == mtime


class _BoundedCode(CodeGenerator):
    """Jinja's code generator, except that every for loop counts its iterations against the
    render's budget and every ``~`` checks the length of what it joins."""

    def visit_For(self, node: nodes.For, frame) -> None:
        node = copy.copy(node)
        node.iter = nodes.Call(nodes.EnvironmentAttribute("bounded_loop"), [node.iter], [], None, None,
                               lineno=node.iter.lineno)
        super().visit_For(node, frame)

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.bounded_concat(context.eval_ctx.autoescape, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class BoundedEnvironment(SandboxedEnvironment):
    """The sandbox, with every loop, call, filter and amplifying operator bounded (see :mod:`bounds`)."""

    code_generator_class = _BoundedCode
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def call_binop(self, context, operator, left, right):
        return bounds.binop(operator, left, right)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - the sandbox's signature
        bounds.before_call(__obj, args, kwargs)
        return bounds.built(super().call(__context, __obj, *args, **kwargs))

    def bounded_loop(self, iterable):
        return bounds.bounded_loop(iterable)

    def bounded_concat(self, autoescape: bool, parts: tuple):
        bounds.check_text(*parts)
        joined = jinja2.runtime.markup_join(parts) if autoescape else jinja2.runtime.str_join(parts)
        return bounds.built(joined)


def build_environment(templates: TemplateSet) -> SandboxedEnvironment:
    env = BoundedEnvironment(
        loader=_ContainedLoader(templates),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_finalize,
    )
    env.filters.update(FILTERS)
    env.filters = {name: bounds.bounded_filter(name, f) for name, f in env.filters.items()}
    del env.globals["lipsum"]  # lorem ipsum of any length: nothing a sheet needs
    env.globals["range"] = bounds.bounded_range
    env.globals["asset"] = templates.data_url
    return env


def _finalize(value):
    """Each ``{{ value }}`` before it becomes text: a list or dict too long to print is refused."""
    bounds.check_text(value)
    return value
