"""A batch of sheets: one file per character per format, the party PDF and an index page.

Sheets are laid out in parallel by worker processes, each importing WeasyPrint
once (preloaded in a fork server) and keeping its fonts and parsed stylesheet
for every sheet; a worker is replaced after ``RECYCLE`` sheets because
WeasyPrint's memory creeps up with each render. Workers write their files
themselves; the main process keeps only a small summary per character and at
most ``2 x jobs + 2`` characters in flight, so memory stays flat as a batch
grows. The party PDF is the cover followed by the sheets already written,
concatenated without laying them out again (:mod:`chargen.render.pdfmerge`).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from chargen.output import atomic_write, inside

SHEET_FORMATS = ("html", "pdf")
PARTY_PDF = "party.pdf"
INDEX_HTML = "index.html"
RECYCLE = 100
ROSTER_ROWS = (40, 50)  # cover rows on the first page (under the title), then on each further page
DEFAULT_PARTY_NAME = "The party"


@dataclass(frozen=True)
class SheetOptions:
    formats: tuple[str, ...] = ("pdf",)   # of SHEET_FORMATS
    paper: str = "a4"
    template_dir: Path | None = None
    jobs: int = 0                         # worker processes; 0: one per core
    party_name: str | None = None

    @property
    def workers(self) -> int:
        return self.jobs or os.cpu_count() or 1


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


@dataclass
class BundleResult:
    sheets: list[SheetSummary] = field(default_factory=list)
    files: dict = field(default_factory=dict)  # party.pdf, index.html


# --- the worker side -------------------------------------------------------

_WORKER: _Worker | None = None
_INIT_ERROR: Exception | None = None  # raised by the worker's first task (a failing initializer would respawn forever)


class _Worker:
    def __init__(self, template_dir: Path | None, paper: str, pdf: bool, modules: tuple = ()):
        from chargen.render.html import HtmlRenderer
        from chargen.render.templates import TemplateSet

        self.modules = modules  # the rules modules the characters were made with, when known
        self.templates = TemplateSet.load(template_dir)
        self.html = HtmlRenderer(self.templates, paper)
        self.pdf = None
        if pdf:
            from chargen.render.pdf import PdfMaker

            self.pdf = PdfMaker(self.templates)

    def sheet(self, stem: str, doc: dict, folder: Path, formats: tuple[str, ...], files: dict) -> SheetSummary:
        from chargen.render.html import engine_extra

        extra = engine_extra(doc, self.modules)
        files, pages = dict(files), 0
        if "html" in formats:
            files["html"] = _write(folder, f"{stem}.html", self.html.sheet(doc, True, extra))
        if "pdf" in formats:
            rendered = self.pdf.render(self.html.sheet(doc, False, extra), f"sheet of '{doc['identity']['name']}'")
            files["pdf"] = _write(folder, f"{stem}.pdf", rendered.pdf)
            pages = rendered.pages
        return SheetSummary(stem, doc["seed"]["index"], doc["identity"]["name"],
                            f"{doc['system']['name']} {doc['system']['version']}", doc["seed"]["batch"],
                            files, pages, [list(f) for f in extra.get("roster", [])])

    def cover(self, party: dict):
        return self.pdf.render(self.html.cover(party), "party cover")


def _write(folder: Path, name: str, data: str | bytes) -> str:
    atomic_write(inside(folder, name), data)
    return name


def _init(template_dir: Path | None, paper: str, pdf: bool, modules: tuple, engine_modules: list) -> None:
    global _WORKER, _INIT_ERROR
    try:
        from chargen.engines import import_modules

        import_modules(engine_modules)  # engines registered from outside the package, as in the main process
        _WORKER = _Worker(template_dir, paper, pdf, modules)
    except Exception as e:  # noqa: BLE001 - handed to the main process with the first task
        _INIT_ERROR = e


def _ready() -> _Worker:
    if _INIT_ERROR is not None:
        raise _INIT_ERROR
    return _WORKER


def _sheet(stem: str, doc: dict, folder: Path, formats: tuple[str, ...], files: dict) -> SheetSummary:
    return _ready().sheet(stem, doc, folder, formats, files)


def _cover(party: dict):
    return _ready().cover(party)


# --- the main side ---------------------------------------------------------

def _pool(options: SheetOptions, modules: tuple):
    context = multiprocessing.get_context("forkserver")
    pdf = "pdf" in options.formats
    context.set_forkserver_preload(["chargen.render.bundle"] + (["chargen.render.pdf"] if pdf else []))
    from chargen.engines import external_modules

    return context.Pool(options.workers, _init, (options.template_dir, options.paper, pdf, modules, external_modules()),
                        maxtasksperchild=RECYCLE)


def _in_order(pool, tasks: Iterable[tuple], window: int) -> Iterator[SheetSummary]:
    """Results of ``_sheet`` over ``tasks``, in order, with at most ``window`` tasks in flight."""
    pending: deque = deque()
    for task in tasks:
        pending.append(pool.apply_async(_sheet, task))
        if len(pending) >= window:
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()


def write_sheets(characters: Iterable[tuple[str, dict, dict]], folder: Path, options: SheetOptions,
                 progress: Callable[[int], None] | None = None, modules: tuple = ()) -> BundleResult:
    """Render ``(stem, document, data files written)`` into ``folder``, then party.pdf and index.html.

    ``modules`` are the rules modules the characters were made with, when the
    caller has them (a sheet that shows odds needs the character's own rules;
    without them, only built-in modules without house rules can be shown).
    Each sheet PDF goes into party.pdf as soon as it is written, while the
    workers lay out the next ones; the cover is laid out last and put first.
    """
    formats = tuple(f for f in options.formats if f in SHEET_FORMATS)
    result = BundleResult()
    if not formats:
        return result
    pool = _pool(options, tuple(modules))
    party = PartyPdf(folder, options) if "pdf" in formats else None
    try:
        tasks = ((stem, doc, folder, formats, files) for stem, doc, files in characters)
        for summary in _in_order(pool, tasks, 2 * options.workers + 2):
            result.sheets.append(summary)
            if party:
                party.add(summary)
            if progress:
                progress(1)
        if party and result.sheets:
            result.files["party_pdf"] = party.finish(pool, result.sheets)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        if party:
            party.discard()
        pool.join()
    result.files["index_html"] = write_index(result, folder, options)
    return result


def party_summary(sheets: list[SheetSummary], options: SheetOptions) -> dict:
    """The cover's and index's context: name, systems, seeds, and the roster with page numbers.

    Page numbers count the sheets' pages from 1, after the cover (whose own
    pages party.pdf labels i, ii, ...), so they never depend on the cover's length.
    """
    page = 1
    roster = []
    for s in sheets:
        roster.append({"index": s.index, "name": s.name, "system": s.system, "seed": s.batch_seed,
                       "files": s.files, "pages": s.pages, "page": page, "figures": s.roster})
        page += s.pages
    return {"name": options.party_name or DEFAULT_PARTY_NAME,
            "systems": list(dict.fromkeys(s.system for s in sheets)),
            "seeds": list(dict.fromkeys(s.batch_seed for s in sheets)),
            "characters": roster, "count": len(sheets), "sheet_pages": page - 1, "files": {}}


def roster_parts(rows: list) -> list[list]:
    """The roster cut into cover pages: ``ROSTER_ROWS[0]`` rows under the title, then ``ROSTER_ROWS[1]`` a page."""
    first, rest = ROSTER_ROWS
    return [rows[:first]] + [rows[i:i + rest] for i in range(first, len(rows), rest)]


class PartyPdf:
    """party.pdf, built while the sheets are laid out: each sheet as written, then the cover first."""

    def __init__(self, folder: Path, options: SheetOptions):
        from chargen.render.pdfmerge import PdfConcatenator

        self.folder, self.options = folder, options
        self.target = inside(folder, PARTY_PDF)
        self.tmp = folder / f".tmp-{PARTY_PDF}.part"
        self.file = open(self.tmp, "wb")  # noqa: SIM115 - closed by finish() or discard()
        self.writer = PdfConcatenator(self.file, options.party_name or DEFAULT_PARTY_NAME)

    def add(self, sheet: SheetSummary) -> None:
        self.writer.add(self.folder / sheet.files["pdf"], sheet.name)

    def finish(self, pool, sheets: list[SheetSummary]) -> str:
        """Lay out the cover, a page's worth of roster rows per document, in parallel; put it first.

        One long document would hold every cover page in memory at once (a
        thousand-row roster: over 300 MiB) and lay out ever slower page by page.
        """
        party = party_summary(sheets, self.options)
        parts = roster_parts(party["characters"])
        covers = [pool.apply_async(_cover, ({**party, "characters": rows, "part": k, "parts": len(parts)},))
                  for k, rows in enumerate(parts)]
        for k, cover in enumerate(covers):
            self.writer.add(cover.get().pdf, self.options.party_name or DEFAULT_PARTY_NAME if k == 0 else None,
                            front=True)
        self.writer.close()
        self.file.close()
        os.chmod(self.tmp, 0o644)
        os.replace(self.tmp, self.target)
        return PARTY_PDF

    def discard(self) -> None:
        """Close and remove the partial file (after finish, there is none)."""
        self.file.close()
        self.tmp.unlink(missing_ok=True)


def write_index(result: BundleResult, folder: Path, options: SheetOptions) -> str:
    from chargen.render.html import HtmlRenderer
    from chargen.render.templates import TemplateSet

    party = party_summary(result.sheets, options)
    party["files"] = dict(result.files)
    html = HtmlRenderer(TemplateSet.load(options.template_dir), options.paper).index(party)
    return _write(folder, INDEX_HTML, html)


def write_batch_sheets(module, batch_seed: int, entries: list[dict], folder: Path, options: SheetOptions,
                       progress: Callable[[int], None] | None = None) -> BundleResult:
    """The sheets of a batch whose data files (and manifest) :func:`chargen.batch.write_batch` wrote.

    Each character is made again from the seed (the same document, byte for
    byte, and far cheaper than reading it back); the manifest then records the
    sheet formats, paper and bundle files under ``sheets``, so ``--resume``
    knows to render them.
    """
    import json

    from chargen.generate import make_character
    from chargen.output import MANIFEST, character_stem, write_manifest

    def characters() -> Iterator[tuple[str, dict, dict]]:
        for entry in entries:
            doc = make_character(module, batch_seed, entry["index"])
            yield character_stem(entry["index"], doc["identity"]["name"]), doc, entry["files"]

    result = write_sheets(characters(), folder, options, progress, (module,))
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))  # written by write_batch just now
    manifest["sheets"] = {"formats": list(options.formats), "paper": options.paper,
                          "party_name": options.party_name or DEFAULT_PARTY_NAME, **result.files}
    write_manifest(folder, manifest)
    return result


def recorded_sheets(folder: Path) -> dict:
    """The sheet options a batch's manifest records: formats, paper, party_name (empty for data only)."""
    from chargen.output import read_manifest

    sheets = read_manifest(folder).get("sheets")
    if not isinstance(sheets, dict) or not isinstance(sheets.get("formats"), list):
        return {}
    out = {"formats": tuple(f for f in sheets["formats"] if f in SHEET_FORMATS)}
    if sheets.get("paper") in ("a4", "letter"):
        out["paper"] = sheets["paper"]
    if isinstance(sheets.get("party_name"), str):
        out["party_name"] = sheets["party_name"]
    return out


def render_single(doc: dict, fmt: str, options: SheetOptions, modules: tuple = ()) -> str | bytes:
    """One character's sheet as standalone HTML text or PDF bytes, in this process."""
    from chargen.render.html import engine_extra

    worker = _Worker(options.template_dir, options.paper, fmt == "pdf", tuple(modules))
    extra = engine_extra(doc, worker.modules)
    if fmt == "html":
        return worker.html.sheet(doc, True, extra)
    return worker.pdf.render(worker.html.sheet(doc, False, extra), f"sheet of '{doc['identity']['name']}'").pdf
