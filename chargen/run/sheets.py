"""The sheet stage of a batch: sheet formats drawn in worker processes, party.pdf and index.html.

:func:`chargen.run.pipeline.write_batch` (the only orchestrator) hands a
:class:`SheetStage` one :class:`SheetTask` per character, in order: the
document, every file name the character has, and the sheet formats still to
draw. Sheets are drawn in parallel by worker processes, each importing
WeasyPrint once (preloaded in a fork server) and keeping one
:class:`SheetRenderer` (fonts, parsed stylesheet) for every sheet; a worker is
replaced after at most about ``RECYCLE`` sheets (:func:`recycle_after`)
because WeasyPrint's memory creeps up with each render. Workers write their
files themselves and hand back only their hashes and the cover's roster
figures; at most ``2 x jobs + 2`` characters are
in flight, so memory stays flat as a batch grows. The stage drives party.pdf
and index.html (:mod:`chargen.run.partyfiles`): each sheet is appended to
party.pdf as it completes, and party.pdf's cover (or, in the block and card
layouts, its collection) is handed to the workers as early as it can be.
This module never writes the manifest.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from chargen.errors import ChargenError, RenderError
from chargen.formats import FORMATS, INDEX_HTML, PARTY_PDF, Format, batch_files, names
from chargen.seeds import batch_number
from chargen.run.files import remove_stale_temporaries
from chargen.run.procs import record_semaphores, terminate, wait
from chargen.run.spec import DEFAULT_PARTY_NAME, SheetOptions  # noqa: F401 - with the stage, for callers
from chargen.run.workers import (  # noqa: F401 - SheetRenderer, quiet_collector, draw: with the stage, for callers
    SEMAPHORES, Drawn, SheetRenderer, SheetTask, _init, _sheet, draw, quiet_collector)
from chargen.run.partyfiles import (  # noqa: F401 - ROSTER_ROWS, roster_parts: with the rest, for callers
    EARLY_COLLECTION, EARLY_COVER, ROSTER_ROWS, PartyPdf, SheetSummary, glance_of, json_bytes, party_summary,
    roster_parts, write_index)

SHEET_FORMATS = names(sheet=True)
# the most tasks a worker does before it is replaced (see recycle_after): a worker filling forms grows
# about 25 MiB over its first 400 sheets (75 -> 105 MiB at 100 sheets, 129 MiB at 400), mostly its forms
RECYCLE = 250


@dataclass
class BundleResult:
    sheets: list[SheetSummary] = field(default_factory=list)
    files: dict = field(default_factory=dict)  # party_pdf, index_html
    data_files: list = field(default_factory=list)  # converting: the data files written (chargen.run.convert)


def _summary(task: SheetTask, index: int, pages: int, roster: list) -> SheetSummary:
    doc = task.doc
    archetype = doc.get("archetype")
    return SheetSummary(task.stem, index, doc["identity"]["name"], f"{doc['system']['name']} {doc['system']['version']}",
                        doc["seed"]["batch"], dict(task.files), pages, roster,
                        archetype.get("label", "") if isinstance(archetype, dict) else "")

# --- the main side ---------------------------------------------------------

def start_early(formats: tuple[str, ...]) -> None:
    """Start the sheet workers' fork server now, when ``formats`` (names) have a sheet format: a
    command calls it first thing, so WeasyPrint is imported while it loads its rules and makes
    its characters (a cold start of one PDF: 1.35 -> 1.27 s)."""
    sheets = tuple(FORMATS[f] for f in formats if f in SHEET_FORMATS)
    if sheets:
        _start_forkserver(sheets)


def _start_forkserver(formats: tuple[Format, ...]) -> None:
    """Start the fork server (which imports WeasyPrint, about a second) without waiting for it,
    so the main process's own set-up (party.pdf's writer) runs meanwhile."""
    from chargen.run.early import start_forkserver

    start_forkserver(PARTY_PDF in batch_files(formats))


def recycle_after(work: int | None, workers: int) -> int:
    """How many tasks a worker does before it is replaced: at most about ``RECYCLE``, evened out
    over a batch of ``work`` characters (when known), so that no worker is replaced for its last few
    tasks. A new worker sets up again (about 0.5 s) and lays out each shape's first sheet in full again,
    and at a batch's end that is where the cover's pages are laid out."""
    if work is None:
        return RECYCLE
    share = -(-(work + work // ROSTER_ROWS[1] + 2) // workers)  # its sheets, and its part of the cover's pages
    if share <= RECYCLE:
        return share + share // 10 + 1  # no worker replaced: the workers' shares are not exactly even
    cycles = -(-share // RECYCLE)
    return -(-share // cycles)  # cycles of even length: the last one is as long as the others, give or take


def _pool(options: SheetOptions, formats: tuple[Format, ...], modules: tuple, workers: int, scratch: str,
          recycle: int = RECYCLE):
    context = multiprocessing.get_context("forkserver")
    _start_forkserver(formats)  # if not started yet
    from chargen.engines import external_modules

    pool = context.Pool(workers, _init, (options, formats, modules, external_modules(), scratch),
                        maxtasksperchild=recycle)
    record_semaphores(pool, os.path.join(scratch, SEMAPHORES))  # for its workers, if chargen is killed
    return pool


def _in_order(pool, folder: Path, tasks: Iterable[SheetTask], window: int,
              last: Callable[[list[SheetTask]], None] | None = None) -> Iterator[tuple[SheetTask, Drawn]]:
    """``(task, drawn)`` for ``tasks``, in order, with at most ``window`` tasks in flight; once the
    last task is handed out, ``last`` is called with the tasks still in flight."""
    pending: deque = deque()
    for task in tasks:
        pending.append((task, pool.apply_async(_sheet, (folder, task))))
        if len(pending) >= window:
            task, result = pending.popleft()
            yield task, wait(pool, result, "sheet")
    if last is not None:
        last([task for task, _ in pending])
    while pending:
        task, result = pending.popleft()
        yield task, wait(pool, result, "sheet")


def check_templates(options: SheetOptions, formats: tuple[Format, ...]) -> None:
    """Fail before anything is written when the templates folder cannot serve these formats."""
    from chargen.render.html import HtmlRenderer
    from chargen.render.templates import TemplateSet

    templates = TemplateSet.load(options.template_dir)
    HtmlRenderer(templates, options.paper, options.cards_per_page, options.card_backs)
    templates.inline_stylesheet()  # reads the stylesheet and every file it names (fonts)
    check_layout(options.layout)


def check_layout(layout: str) -> None:
    from chargen.engines import layout_ids

    if layout not in layout_ids():
        raise RenderError(f"unknown layout '{layout}' (expected one of: {', '.join(layout_ids())})")


class SheetStage:
    """The sheet formats of one batch (a context manager: the worker pool and party.pdf's partial file).

    ``formats`` are the sheet formats; ``modules`` the rules modules the characters
    were made with, when the caller has them (a sheet that shows odds needs the
    character's own rules; without them, only built-in modules without house rules can be shown).
    ``work`` is how many characters there are, when known: never more workers than that.
    Workers keep their temporary files (WeasyPrint's font folders) in one folder of the
    stage's, removed when the stage ends: a worker that is replaced or stopped cleans nothing.
    """

    def __init__(self, folder: Path, options: SheetOptions, formats: tuple[Format, ...], modules: tuple = (),
                 work: int | None = None):
        self.folder, self.options, self.formats, self.modules = folder, options, formats, tuple(modules)
        self.batch_files = batch_files(formats)
        self.sheets: list[SheetSummary] = []
        self.failed: list[str] = []  # the sheets that could not be drawn, each a line saying why
        self.pool = None
        self.party: PartyPdf | None = None
        # never more workers than pieces of work: the characters, and party.pdf's cover or collection
        # (laid out beside the last sheets: with one character, on a second worker)
        pieces = None if work is None else work + (PARTY_PDF in self.batch_files)
        self.workers = max(1, min(options.workers, pieces)) if pieces is not None else options.workers
        self.recycle = recycle_after(work, self.workers)
        self.scratch: str | None = None

    def __enter__(self) -> SheetStage:
        import tempfile

        _start_forkserver(self.formats)
        if PARTY_PDF in self.batch_files:
            self.party = PartyPdf(self.folder, self.options, self.modules)
        try:
            self.scratch = tempfile.mkdtemp(prefix="chargen-sheets-")
            self.pool = _pool(self.options, self.formats, self.modules, self.workers, self.scratch, self.recycle)
        except BaseException:
            self._cleanup()
            raise
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.pool.close()
        else:
            terminate(self.pool)  # pool.terminate(), safe when a worker died
        self.pool.join()
        if exc_type is not None:  # what a stopped worker left under a temporary name is partial
            remove_stale_temporaries(self.folder)
        self._cleanup()

    def _cleanup(self) -> None:
        import shutil

        if self.party:
            self.party.discard()
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)

    @property
    def collects(self) -> bool:
        """Whether party.pdf is a collection (the block or card layout: its characters laid out together)."""
        from chargen.engines import layout_scope

        return self.party is not None and layout_scope(self.options.layout).fragment

    def collects_first(self, count: int | None) -> bool:
        """Whether to hand party.pdf's collection of ``count`` characters to the workers before
        their own PDFs (:meth:`collection_first`): up to ``EARLY_COLLECTION`` of them."""
        return self.collects and count is not None and count <= EARLY_COLLECTION

    def collection_first(self, docs: list[tuple[int, dict]]) -> None:
        """Start laying out party.pdf's collection of ``docs`` (``(index, document)``, every character
        of the batch in order) before the characters' own PDFs, so that it is laid out beside them
        and not after them on one worker alone. It is used when every one of them is drawn; else
        the collection of those drawn is laid out at the end, as without this call."""
        if self.collects and docs:
            self.party.lay_out_collection(self.pool, docs)

    def draw(self, tasks: Iterable[SheetTask]) -> Iterator[tuple[SheetTask, Drawn]]:
        """Draw ``tasks`` (in order), appending each sheet to party.pdf as it completes."""
        early_cover = self.cover_first if self.party and not self.collects else None
        for task, drawn in _in_order(self.pool, self.folder, tasks, 2 * self.workers + 2, early_cover):
            if drawn.failed:
                self.failed.append(drawn.failed)
                yield task, drawn
                continue
            doc = task.doc
            embedded = (f"{task.stem}.json", json_bytes(doc))
            index = batch_number(doc) if task.index is None else task.index
            if self.collects:
                self.party.docs.append((index, doc))  # laid out together, several to a page, at the end
                self.party.writer.embed(*embedded)
                pages = 1
            else:
                pages = self.party.add(self.folder / task.files["pdf"], doc["identity"]["name"],
                                       embedded) if self.party else 0
            self.sheets.append(_summary(task, index, pages, drawn.roster))
            if self.party and self.options.compare:
                self.party.glances.append(glance_of(index, doc))
            yield task, drawn

    def cover_first(self, in_flight: list[SheetTask]) -> None:
        """The sheet layout, once the last sheet is handed out: lay party.pdf's cover out now, on
        the worker that frees first, guessing that the sheets still in flight have as many pages
        as most sheets so far. At the end it is used when the guess held (the cover is the same),
        else laid out again: so only for a cover of at most ``EARLY_COVER`` pages, whose second
        layout costs little."""
        from collections import Counter

        from chargen.run.figures import engine_extra

        first, rest = ROSTER_ROWS
        if len(self.sheets) + len(in_flight) > first + rest * (EARLY_COVER - 1):
            return
        pages = Counter(s.pages for s in self.sheets).most_common(1)[0][0] if self.sheets else 1
        try:
            guessed = [_summary(task, batch_number(task.doc) if task.index is None else task.index, pages,
                                [list(f) for f in engine_extra(task.doc, self.modules, "sheet").get("roster", [])])
                       for task in in_flight]
        except ChargenError:
            return  # the sheet's own worker meets the same problem, in its turn
        self.party.lay_out_cover(self.pool, party_summary(self.sheets + guessed, self.options))

    def finish(self, manifest: dict | None = None) -> Iterator[tuple[str, str]]:
        """Write the batch files (party.pdf, then index.html): ``(name, sha256)`` as each is written.
        ``manifest`` (the batch's, as it stands) is embedded in party.pdf."""
        links = {}
        if self.party and self.sheets:
            yield PARTY_PDF, self.party.finish(self.pool, self.sheets, manifest)
            links["party_pdf"] = PARTY_PDF
        if INDEX_HTML in self.batch_files:
            yield INDEX_HTML, write_index(self.sheets, links, self.folder, self.options)

    def check_failed(self) -> None:
        """Raise one error naming every sheet that could not be drawn (after the rest are written)."""
        if self.failed:
            n = len(self.failed)
            raise RenderError(f"{n} sheet{'s' if n != 1 else ''} could not be drawn: " + "; ".join(self.failed))


def render_single(doc: dict, fmt: str, options: SheetOptions, modules: tuple = ()) -> str | bytes:
    """One character's sheet as standalone HTML text or PDF bytes, in this process."""
    renderer = SheetRenderer(options.template_dir, options.paper, fmt == "pdf", tuple(modules), options.layout,
                             options.cards_per_page, options.pdf_variant, options.card_backs)
    data = FORMATS[fmt].to_bytes(doc, renderer)
    return data.decode("utf-8") if fmt == "html" else data
