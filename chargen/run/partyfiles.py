"""party.pdf and index.html: the batch files a sheet batch ends with.

:class:`PartyPdf` builds party.pdf while the sheets are laid out
(:class:`chargen.run.sheets.SheetStage` drives it): in the sheet layout each
sheet is appended as it is written, without laying it out again
(:mod:`chargen.render.pdfmerge`), and the cover, laid out a page per document,
is put first; in the block and card layouts the characters are laid out
together, several to a page, in a few documents. The cover and the collection
are laid out by the sheet workers (``_cover``, ``_collection``: they run there,
with the worker's renderer), handed to them as early as what they show is known,
so that they are laid out beside the sheets rather than after them.
:func:`party_summary` is what the cover and index.html show; :func:`write_index`
writes index.html.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from chargen.formats import INDEX_HTML, PARTY_PDF
from chargen.run.files import atomic_write, create_new, inside, temporary
from chargen.run.procs import wait
from chargen.run.spec import SheetOptions

ROSTER_ROWS = (40, 50)  # cover rows on the first page (under the title), then on each further page
# the same when a row has two lines (a party of several systems names each character's): 33 and 37 fit
# on A4 and Letter with one name of three lines; these leave room for several
ROSTER_ROWS_TALL = (28, 32)
# the most cover pages laid out before the last sheets are done (see bundle.SheetStage.cover_first): 290
# sheets; a wrong guess (a sheet still in flight of another page count than most) lays them out again:
# at most 6 pages of 50 roster rows, 0.3-0.5 s each on one worker (a page filled into the form of one
# laid out before it: 0.06-0.1 s)
EARLY_COVER = 6
# the most characters whose collection (block, card layouts) is laid out beside their own PDFs: they are
# all made, held and handed to the workers first (see bundle.SheetStage.collection_first)
EARLY_COLLECTION = 1_000


def _scope(layout: str):
    """How layout ``layout`` sets characters on pages (:class:`chargen.engines.Layout`): whether several
    to a page, and the characters in each document of party.pdf (``chunk``: whole pages)."""
    from chargen.engines import layout_scope

    return layout_scope(layout)


@dataclass(frozen=True)
class SheetSummary:
    """What the cover and index need to know about one written character."""

    stem: str
    index: int
    name: str
    system: str
    batch_seed: int
    files: dict
    pages: int
    roster: list
    archetype: str = ""  # the archetype's label, when the character was made from one (the cover groups by it)


# --- laid out by the sheet workers ---------------------------------------

def _cover(party: dict) -> bytes:
    # plain bytes: unpickling a Rendered would import WeasyPrint (a second or so) in the main process
    from chargen.run.workers import _ready

    return _ready().cover(party)


def _glance(title: str, glances: list[dict]) -> bytes:
    from chargen.run.workers import _ready

    return _ready().glance(title, glances).pdf


def glance_of(index: int, doc: dict) -> dict:
    """What the party at a glance shows of one character (:func:`chargen.render.glance.glance`), from its view."""
    from chargen import engines
    from chargen.render.glance import glance

    engine = engines.get(doc["system"]["engine"])
    return glance(engine.view(doc, None), index)


def _collection(docs: list[tuple[int, dict]], party: dict | None) -> bytes:
    # plain bytes, as _cover's (unpickling a Rendered imported WeasyPrint in the main process: 0.5-1 s of 12 blocks)
    from chargen.run.workers import _ready

    return _ready().collection(docs, party).pdf


def _laid_out(html: str, what: str) -> bytes:
    """A collection whose HTML the main process made (the block layout's encounter sheet), laid out as
    :meth:`chargen.run.workers.SheetRenderer.collection` lays it out."""
    from chargen.run.workers import _ready

    return _ready().maker().render(html, what).pdf


# --- the main side ---------------------------------------------------------

def party_summary(sheets: list[SheetSummary], options: SheetOptions) -> dict:
    """The cover's and index's context: name, systems, seeds, and the roster with page numbers.

    Page numbers count the sheets' pages from 1, after the cover (whose own
    pages party.pdf labels i, ii, ...), so they never depend on the cover's length.
    """
    page = 1
    roster = []
    for s in sheets:
        roster.append({"index": s.index, "name": s.name, "system": s.system, "seed": s.batch_seed,
                       "files": s.files, "pages": s.pages, "page": page, "figures": s.roster,
                       "group": s.archetype})
        page += s.pages
    if any(r["group"] for r in roster):  # grouped by archetype, in order of first appearance
        first = {g: n for n, g in reversed(list(enumerate(r["group"] for r in roster)))}
        roster.sort(key=lambda r: first[r["group"]])
    return {"name": options.title,
            "systems": list(dict.fromkeys(s.system for s in sheets)),
            "seeds": list(dict.fromkeys(s.batch_seed for s in sheets)),
            "characters": roster, "count": len(sheets), "sheet_pages": page - 1, "files": {}}


def roster_parts(rows: list, tall: bool = False) -> list[list]:
    """The roster cut into cover pages: ``ROSTER_ROWS[0]`` rows under the title, then ``ROSTER_ROWS[1]`` a page
    (``ROSTER_ROWS_TALL`` when ``tall``: rows of two lines)."""
    first, rest = ROSTER_ROWS_TALL if tall else ROSTER_ROWS
    return [rows[:first]] + [rows[i:i + rest] for i in range(first, len(rows), rest)]


class PartyPdf:
    """party.pdf, built while the sheets are laid out: each sheet as written, then the cover first."""

    def __init__(self, folder: Path, options: SheetOptions, modules: tuple = ()):
        from chargen.render.pdfmerge import PdfConcatenator

        self.folder, self.options, self.modules = folder, options, modules
        self.estimate: dict | None = None  # with --against: the encounter's estimate and combat order
        self.target = inside(folder, PARTY_PDF)
        self.tmp = temporary(self.target)
        self.file = os.fdopen(create_new(self.tmp), "wb")  # closed by finish() or discard()
        self.writer = PdfConcatenator(self.file, options.title)
        self.docs: list[tuple[int, dict]] = []  # block and card layouts: (number, character), laid out in finish()
        self.collection: tuple[list[tuple[int, dict]], list] | None = None  # docs, and their collection's parts in the pool
        self.cover: tuple[dict, list] | None = None  # the sheet layout: a cover's summary, and its parts in the pool
        self.glances: list[dict] = []  # with --compare: each character's figures for the party at a glance

    def add(self, path: Path, name: str, embedded: tuple[str, bytes] | None = None) -> int:
        """Append one sheet PDF (and embed its character's document); its page count."""
        pages = self.writer.add(path, name)
        if embedded is not None:
            self.writer.embed(*embedded)
        return pages

    def finish(self, pool, sheets: list[SheetSummary], manifest: dict | None = None) -> str:
        """Lay out the cover, a page's worth of roster rows per document, in parallel; put it first.
        Returns party.pdf's sha256.

        One long document would hold every cover page in memory at once (a
        thousand-row roster: over 300 MiB) and lay out ever slower page by page.
        """
        glance = pool.apply_async(_glance, (self.options.title, self.glances)) if self.glances else None
        if _scope(self.options.layout).fragment:
            return self._finish_collection(pool, manifest, glance)
        party = party_summary(sheets, self.options)
        covers = self.cover[1] if self.cover is not None and self.cover[0] == party else self._cover_parts(pool, party)
        for k, cover in enumerate(covers):
            self.writer.add(wait(pool, cover, "sheet"), self.options.title if k == 0 else None, front=True)
        self._add_glance(pool, glance)
        return self._close(manifest)

    def _add_glance(self, pool, glance) -> None:
        """The party at a glance, front matter after the cover (or, in the block and card layouts, first)."""
        if glance is not None:
            self.writer.add(wait(pool, glance, "sheet"), f"{self.options.title}: at a glance", front=True)

    def lay_out_cover(self, pool, party: dict) -> None:
        """Hand the cover of ``party`` (a :func:`party_summary`) to the pool (see :meth:`chargen.run.sheets.SheetStage.cover_first`)."""
        self.cover = party, self._cover_parts(pool, party)

    @staticmethod
    def _cover_parts(pool, party: dict) -> list:
        parts = roster_parts(party["characters"], tall=len(party["systems"]) > 1)
        return [pool.apply_async(_cover, ({**party, "characters": rows, "part": k, "parts": len(parts)},))
                for k, rows in enumerate(parts)]

    def lay_out_collection(self, pool, docs: list[tuple[int, dict]]) -> None:
        """Hand the collection of ``docs`` to the pool (see :meth:`chargen.run.sheets.SheetStage.collection_first`)."""
        self.collection = docs, self._collection_parts(pool, docs)

    def _collection_parts(self, pool, docs: list[tuple[int, dict]]) -> list:
        """party.pdf in the block layout (the encounter sheet: the roster, then the blocks, grouped by
        archetype) or the card layout (the cards, 4 or 9 a page): a few documents of
        ``COLLECTION_CHUNK`` characters each (a whole page of cards each), laid out in parallel."""
        scope = _scope(self.options.layout)
        chunk = scope.chunk
        chunk -= chunk % (scope.per_page or self.options.cards_per_page)
        parts = [docs[i:i + chunk] for i in range(0, len(docs), chunk)]
        head = {"name": self.options.title,
                "systems": list(dict.fromkeys(f"{d['system']['name']} {d['system']['version']}" for _, d in docs)),
                "seeds": list(dict.fromkeys(d["seed"]["batch"] for _, d in docs))}
        odds = {"estimate": self._estimate(docs)} if self.options.against and scope.encounter else {}
        return [self._collection_task(pool, part, {**head, "count": len(part), **(odds if k == 0 else {})})
                for k, part in enumerate(parts)]

    def _collection_task(self, pool, docs: list[tuple[int, dict]], party: dict):
        """One document of the collection handed to the pool. The block layout's HTML is made here, while
        the workers start (importing WeasyPrint, setting up fonts), so that the worker that lays it out
        starts on the layout itself; the card layout's, cut to fit as it is laid out, is made there, as
        is HTML that fails here (the worker meets the same error, in its turn, as before)."""
        from chargen.errors import ChargenError

        if _scope(self.options.layout).choices is None:
            try:
                html = self._collection_html(docs, party)
            except ChargenError:
                html = None
            if html is not None:
                return pool.apply_async(_laid_out, (html, f"{self.options.layout} layout of {len(docs)} characters"))
        return pool.apply_async(_collection, (docs, party))

    def _collection_html(self, docs: list[tuple[int, dict]], party: dict) -> str:
        """The HTML :meth:`chargen.run.workers.SheetRenderer.collection` makes of ``docs`` (the same
        figures, from the same rules modules, and the same templates)."""
        from chargen.render.html import HtmlRenderer
        from chargen.render.templates import TemplateSet
        from chargen.run.workers import collection_html

        o = self.options
        renderer = HtmlRenderer(TemplateSet.load(o.template_dir), o.paper, o.cards_per_page, o.card_backs)
        return collection_html(renderer, self.modules, o.layout, docs, party, {})

    def _estimate(self, docs: list[tuple[int, dict]]) -> dict:
        """The encounter's estimate against the side it is meant for (computed once; the batch's seed)."""
        if self.estimate is None:
            from chargen.fight.encounter import encounter
            from chargen.fight.estimate import SideSpec
            from chargen.run.fightsides import against_side, sides_module

            npcs = SideSpec(self.options.title, tuple(d for _, d in docs))
            party = against_side(self.options)
            module = sides_module((npcs, party), [m for m in self.modules if m is not None][:1],
                                  (), ())
            self.estimate = encounter(module, npcs, party, docs[0][1]["seed"]["batch"])
        return self.estimate

    def _finish_collection(self, pool, manifest: dict | None, glance=None) -> str:
        early = self.collection is not None and len(self.collection[0]) == len(self.docs) and all(
            n == m and a is b for (n, a), (m, b) in zip(self.collection[0], self.docs))
        laid = self.collection[1] if early else self._collection_parts(pool, self.docs)
        self._add_glance(pool, glance)
        for k, part in enumerate(laid):
            self.writer.add(wait(pool, part, "sheet"), self.options.title if k == 0 else None)
        return self._close(manifest)

    def _close(self, manifest: dict | None) -> str:
        """Embed the manifest, finish the file and put it in place; party.pdf's sha256."""
        if manifest is not None:
            self.writer.embed("manifest.json", json_bytes(manifest))
        self.writer.close()
        self.file.close()
        os.replace(self.tmp, self.target)
        return self.writer.digest.hexdigest()

    def discard(self) -> None:
        """Close and remove the partial file (after finish, there is none)."""
        self.file.close()
        self.tmp.unlink(missing_ok=True)


def json_bytes(doc: dict) -> bytes:
    """A document as party.pdf embeds it (and a sheet PDF: the same bytes as its JSON file)."""
    from chargen.serialize import to_json

    return to_json(doc).encode("utf-8")


def write_index(sheets: list[SheetSummary], links: dict, folder: Path, options: SheetOptions) -> str:
    """index.html for ``sheets`` (``links``: party_pdf when there is one); its sha256."""
    from chargen.render.html import HtmlRenderer
    from chargen.render.templates import TemplateSet

    party = party_summary(sheets, options)
    party["files"] = dict(links)
    data = HtmlRenderer(TemplateSet.load(options.template_dir), options.paper).index(party).encode("utf-8")
    atomic_write(inside(folder, INDEX_HTML), data)
    return hashlib.sha256(data).hexdigest()
