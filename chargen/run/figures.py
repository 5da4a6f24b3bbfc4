"""What a sheet shows besides the character document: the layout's figures, worked out from the
rules the character was made with when the layout needs them, and the reproduce line.

The run works these out once per document (:class:`chargen.run.workers.SheetRenderer`) and hands
the renderer a :class:`~chargen.render.html.Figured`; :mod:`chargen.render` itself finds no rules
and recomputes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from chargen import engines
from chargen.edits import reproduce
from chargen.engines import View
from chargen.render.html import Figured, layout_of
from chargen.rules.saved import made_with


def sheet_view(doc: dict, modules: Iterable = (), layout: str = "sheet") -> View:
    """The typed view a layout's template is given; the rules the character was made with when
    the layout shows figures computed from them (see :func:`sheet_rules`)."""
    entry = layout_of(doc, layout)
    if entry is None:
        return View(doc, {})
    return View(doc, entry.figures(doc, sheet_rules(doc, modules) if entry.needs_rules else None))


def engine_extra(doc: dict, modules: Iterable = (), layout: str = "sheet") -> dict:
    """The figures a layout adds to the character for its template (``extra``)."""
    return dict(sheet_view(doc, modules, layout).figures)


def needs_rules(engine: str, layout: str = "sheet") -> bool:
    """Whether the engine's layout shows figures computed from the rules (and so needs them)."""
    entry = engines.layout(engine, layout)
    return entry is not None and entry.needs_rules


def sheet_rules(doc: dict, modules: Iterable = ()) -> object:
    """The rules a character was made with (:func:`chargen.rules.saved.made_with`)."""
    return made_with(doc, modules).rules


def figured(doc: dict, modules: Iterable = (), layout: str = "sheet") -> Figured:
    """``doc`` with its ``layout``'s figures (from ``modules``, the rules it was made with, when the
    layout needs them) and its reproduce line (:func:`chargen.edits.reproduce`)."""
    return Figured(doc, engine_extra(doc, modules, layout), reproduce(doc))
