"""The sheet stage's worker side: what draws sheets in a worker process (and in this one, for one
sheet to stdout). Each worker keeps one :class:`SheetRenderer` (templates, fonts, the parsed
stylesheet) for every sheet, writes its files itself and hands back only their hashes and the
cover's roster figures (:class:`Drawn`). :mod:`chargen.run.sheets` runs the pool."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from chargen.formats import PARTY_PDF, Format, batch_files
from chargen.render.html import Figured
from chargen.run.figures import figured
from chargen.run.files import atomic_write, inside
from chargen.run.htmlparse import cache_patterns
from chargen.run.spec import SheetOptions

# A worker's garbage collector: the objects it starts with (WeasyPrint, the parsed stylesheet,
# fonts) are frozen out of collection, and the young generation is collected every
# GC_YOUNG allocations instead of Python's 700. A render makes hundreds of thousands of
# short-lived objects; at the default threshold the collector runs hundreds of times a sheet
# (measured: 3-10% of a sheet). Cycles are still collected, and RECYCLE bounds the rest.
GC_YOUNG = 50_000
SEMAPHORES = "semaphores"  # in the stage's scratch folder: its pool's semaphores (chargen.run.procs.record_semaphores)

cache_patterns()  # the HTML parser's, once a process: every HTML laid out or checked here is parsed faster


@dataclass(frozen=True)
class SheetTask:
    """One character for the stage: its document, every file it has (by format, in the batch's
    order) and the sheet formats to draw now (the others are written already)."""

    stem: str
    doc: dict
    files: dict
    draw: tuple[str, ...]
    index: int | None = None  # the character's index in the batch (default: its seed index; a party's differs)
    check: bool = False  # no file of its own to draw, but in party.pdf's collection: check that its fonts draw it


@dataclass(frozen=True)
class Drawn:
    """What a worker hands back for a task: the sha256 of each file it drew, and the roster figures;
    ``failed``: why this character's sheet could not be drawn (a character no installed font has),
    the rest of the batch carrying on without it."""

    sha256: dict
    roster: list
    failed: str | None = None


class SheetRenderer:
    """What sheet formats draw with in one process: the templates, the HTML renderer and
    (for pdf) the PDF maker, set up once; the engine's sheet figures computed once per document."""

    def __init__(self, template_dir: Path | None = None, paper: str = "a4", pdf: bool = True,
                 modules: tuple = (), layout: str = "sheet", cards_per_page: int = 4,
                 pdf_variant: str | None = None, card_backs: bool = False):
        from chargen.render.html import HtmlRenderer
        from chargen.render.templates import TemplateSet

        self.modules = modules  # the rules modules the characters were made with, when known
        self.layout = layout
        self.pdf_variant = pdf_variant
        self.templates = TemplateSet.load(template_dir)
        self.renderer = HtmlRenderer(self.templates, paper, cards_per_page, card_backs)
        self._maker = None
        self._figured: Figured | None = None
        self._fitted: tuple | None = None  # a card's (document, parts, HTML for PDF, its layout): cardfit.fit's, once
        self.forms = None  # sheets of a template with form markers: filled into laid-out forms (chargen.render.fill)
        self.drawable = None  # the characters check_glyphs has seen drawn (chargen.render.contain.glyphs.Drawable)
        if pdf:
            self.maker()

    def maker(self):
        if self._maker is None:
            from chargen.render.pdf import PdfMaker

            self._maker = PdfMaker(self.templates, self.pdf_variant)
        return self._maker

    def figured(self, doc: dict) -> Figured:
        """``doc`` with its figures and reproduce line, worked out once per document."""
        if self._figured is None or self._figured.doc is not doc:
            self._figured = figured(doc, self.modules, self.layout)
        return self._figured

    def extra(self, doc: dict) -> dict:
        return self.figured(doc).extra

    def html(self, doc: dict, standalone: bool) -> str:
        sheet = self.figured(doc)
        if not self.continues(doc):
            return self.renderer.sheet(sheet, standalone, self.layout)
        if self._fitted is None or self._fitted[0] is not doc:  # a card: cut into parts that fit, once per document
            from chargen.render.cardfit import fit

            what = f"sheet of '{doc['identity']['name']}'"
            html, laid, parts = fit(lambda p: self.renderer.sheet(sheet, False, self.layout, parts=p),
                                    lambda h: self.maker().lay_out(h, what))
            self._fitted = (doc, parts, html, laid)
        return self.renderer.sheet(sheet, True, self.layout, parts=self._fitted[1]) if standalone else self._fitted[2]

    def continues(self, doc: dict) -> bool:
        """Whether ``doc`` is drawn in fixed boxes that continue when full (the card layout)."""
        from chargen.render.html import layout_of

        entry = layout_of(doc, self.layout)
        return entry is not None and entry.fragment and entry.choices is not None

    def collection(self, docs: list[tuple[int, dict]], party: dict | None):
        """Blocks or cards of ``docs`` (``(number in the batch, document)``) on pages, as PDF
        (party.pdf's part in a block or card layout); cards that do not fit continue."""
        what = f"{self.layout} layout of {len(docs)} characters"

        def render(parts):
            return collection_html(self.renderer, self.modules, self.layout, docs, party, parts)

        if not self.continues(docs[0][1]):
            return self.maker().render(render({}), what)
        from chargen.render.cardfit import fit

        html, laid, _ = fit(render, lambda h: self.maker().lay_out(h, what))
        return self.maker().render(html, what, laid=laid)

    def check_glyphs(self, doc: dict) -> None:
        """Raise :class:`~chargen.render.contain.glyphs.MissingGlyph` when no installed font draws a
        character of ``doc``'s block or card, as its own PDF would, for a character whose only PDF is
        its part of party.pdf (so that it fails alone, as its own PDF would): the fragment's text,
        one paragraph, laid out and drawn (WeasyPrint warns of a missing glyph as it draws), unless an
        earlier check drew every character of it (:class:`~chargen.render.contain.glyphs.Drawable`)."""
        import html as markup
        import re

        html = self.renderer.sheet(self.figured(doc), False, self.layout)  # a card whole, not cut to fit
        shown = re.sub(r"(?is)<(head|style|script)\b.*?</\1\s*>", " ", html)
        text = " ".join(markup.unescape(re.sub(r"<[^>]*>", " ", shown)).split())
        if self.drawable is None:
            from chargen.render.contain.glyphs import Drawable

            self.drawable = Drawable()
        if not self.drawable.new(text):
            return  # every character of it drawn by an earlier check
        page = (f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>{markup.escape(text)}</p>'
                f'<p><b>{markup.escape(text)}</b></p></body></html>')
        self.maker().render(page, f"sheet of '{doc['identity']['name']}'")
        self.drawable.add(text)

    def pdf(self, html: str, what: str, attachments: tuple[tuple[str, bytes], ...] = ()) -> bytes:
        laid = self._fitted[3] if self._fitted is not None and self._fitted[2] == html else None
        if laid is None:
            return self._forms().render(self.maker(), html, what, attachments)
        return self.maker().render(html, what, attachments, laid).pdf

    def cover(self, party: dict) -> bytes:
        """A page of party.pdf's cover: filled into a form of its shape when a page of that shape
        came before (a roster page of 50 rows with as many figures each: 0.1 s against 0.45 s)."""
        return self._forms().render(self.maker(), self.renderer.cover(party), "party cover")

    def _forms(self):
        if self.forms is None:
            from chargen.render.fill import Forms

            self.forms = Forms()
        return self.forms

    def glance(self, title: str, glances: list[dict]):
        return self.maker().render(self.renderer.glance(title, glances), "the party at a glance")


def collection_html(renderer, modules: tuple, layout: str, docs: list[tuple[int, dict]], party: dict | None,
                    parts: dict) -> str:
    """The HTML of ``docs`` (``(number in the batch, document)``) in ``layout``, with ``renderer`` (a
    :class:`chargen.render.html.HtmlRenderer`): a worker's, or the main process's for the encounter sheet
    (:meth:`chargen.run.partyfiles.PartyPdf._collection_task`)."""
    entries = [figured(doc, modules, layout) for _, doc in docs]
    return renderer.collection(entries, layout, False, party, numbers=[n for n, _ in docs], parts=parts)


# --- the worker side -------------------------------------------------------

_WORKER: SheetRenderer | None = None
_WORKER_FORMATS: dict[str, Format] = {}
_INIT_ERROR: Exception | None = None  # raised by the worker's first task (a failing initializer would respawn forever)


def _init(options: SheetOptions, formats: tuple[Format, ...], modules: tuple, engine_modules: list,
          scratch: str) -> None:
    global _WORKER, _WORKER_FORMATS, _INIT_ERROR
    try:
        import tempfile

        tempfile.tempdir = scratch  # WeasyPrint's font folders: removed with the stage, however the worker ends
        from chargen.engines import import_modules
        from chargen.run.procs import worker_signals

        worker_signals(os.path.join(scratch, SEMAPHORES))

        import_modules(engine_modules)  # engines registered from outside the package, as in the main process
        _WORKER_FORMATS = {f.name: f for f in formats}
        _WORKER = SheetRenderer(options.template_dir, options.paper, PARTY_PDF in batch_files(formats), modules,
                                options.layout, options.cards_per_page, options.pdf_variant, options.card_backs)
        quiet_collector()
    except Exception as e:  # noqa: BLE001 - handed to the main process with the first task
        _INIT_ERROR = e


def quiet_collector() -> None:
    """Set up the garbage collector of a process that renders sheets from now on (see ``GC_YOUNG``)."""
    import gc

    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, older, oldest)


def _ready() -> SheetRenderer:
    if _INIT_ERROR is not None:
        raise _INIT_ERROR
    return _WORKER


def _sheet(folder: Path, task: SheetTask) -> Drawn:
    renderer = _ready()
    return draw(renderer, _WORKER_FORMATS, folder, task)


def draw(renderer: SheetRenderer, formats: dict[str, Format], folder: Path, task: SheetTask) -> Drawn:
    """Draw ``task``'s sheet formats into ``folder`` (in this process)."""
    from chargen.render.contain.glyphs import MissingGlyph

    digests = {}
    for name in task.draw + (("",) if task.check else ()):
        try:
            data = formats[name].to_bytes(task.doc, renderer) if name else renderer.check_glyphs(task.doc)
        except MissingGlyph as e:
            return Drawn(digests, [], f"sheet of '{task.doc['identity']['name']}' (index {task.doc['seed']['index']}): "
                                      f"{e.detail}")
        if not name:
            continue
        atomic_write(inside(folder, task.files[name]), data)
        digests[name] = hashlib.sha256(data).hexdigest()
    return Drawn(digests, [list(f) for f in renderer.extra(task.doc).get("roster", [])])
