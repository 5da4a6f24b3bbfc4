"""A whole batch: the one orchestrator, and the only writer of ``manifest.json``.

Every character is made once, and written in every format the batch asks for
(:mod:`chargen.formats`): data formats (json, yaml) by this process, sheet
formats (html, pdf) by the sheet stage's worker processes
(:class:`chargen.run.sheets.SheetStage`), which also builds the batch files
the sheet formats ask for (``party.pdf``, ``index.html``). Every file is
written whole or not at all (:func:`chargen.run.files.atomic_write`).

The manifest records the batch's formats and says what is complete: it is
written before the first character (``complete: false``, none done), again
after 1, 2, 4, 8, ... characters, when the batch stops for any reason (Ctrl-C,
a full disk, a sheet that fails) and at the end. A character is listed, with
every one of its files and their sha256, once all its files are written; the
batch files are listed with their sha256 once written; ``complete: true`` only
when every file asked for exists. A stopped batch raises
:class:`BatchIncomplete`; ``resume=True`` finishes it, writing only what is
missing (and party.pdf and index.html again), so the folder ends byte for byte
as an uninterrupted run leaves it.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from chargen import __version__
from chargen.errors import ChargenError, OutputError
from chargen.formats import BatchInfo, Format, WriterFormat, batch_files, resolve
from chargen.generate import SCHEMA_VERSION, GenerationRequest, make_character
from chargen.run.resume import ResumeState, resume_state
from chargen.run.files import (
    MANIFEST_SCHEMA, atomic_write, character_stem, ignore_interrupts, inside, lock_folder, remove_stale_temporaries,
    write_manifest,
)
from chargen.rules import RulesModule
from chargen.seeds import SEED_DERIVATION
from chargen.serialize import DUMPERS

if TYPE_CHECKING:
    from chargen.run.sheets import SheetOptions

Writer = Callable[[dict], "str | bytes"]


class BatchIncomplete(OutputError):
    """A batch stopped part-way; the manifest lists what is complete."""

    def __init__(self, message: str, done: int, total: int, exit_code: int = 1):
        super().__init__(message)
        self.done, self.total, self.exit_code = done, total, exit_code


@dataclass
class BatchResult:
    folder: Path
    written: list[dict] = field(default_factory=list)  # manifest entries, by index
    complete: bool = False
    new: int = 0  # characters written by this run (the rest were done before a resume)
    drawn: int = 0  # sheet files drawn by this run
    batch_files: dict | None = None  # party.pdf, index.html: their sha256 once written (None: none asked)
    already_complete: bool = False  # a resume that found nothing to do
    redone: dict[str, int] = field(default_factory=dict)  # recorded files made again on a resume, by reason


def data_writers() -> dict[str, Writer]:
    """The data formats as plain functions (for ``write_batch(writers=...)``)."""
    return dict(DUMPERS)


@dataclass(frozen=True, slots=True)
class Slot:
    """How one character of a batch is made: ``make_character(module, seed, index, request)``."""

    seed: int
    index: int
    request: GenerationRequest


@dataclass(frozen=True)
class Members:
    """A batch whose characters are not all one seed's indices (a party file): the slot of
    each file index, and what the manifest records of the plan (``record``: the party file,
    its hash and its lines with their rolled counts)."""

    slots: tuple[Slot, ...]
    record: dict


def request_record(request: GenerationRequest | None) -> dict:
    """The request as the manifest records it: the fields given (none: an empty mapping)."""
    return {} if request is None else request.asked()


def identity(module: RulesModule, batch_seed: int, indices: range, formats: tuple[Format, ...],
             sheets: SheetOptions | None = None, title: str | None = None,
             request: GenerationRequest | None = None, members: Members | None = None) -> dict:
    """What makes a batch the same batch: the manifest's fields that --resume checks
    (with ``sheets``, the options that change a sheet's bytes: paper and party name; the
    request, when it asks for anything; a party file's record)."""
    ident = {
        "schema": MANIFEST_SCHEMA,
        "chargen": __version__,
        "character_schema": SCHEMA_VERSION,
        "system": {"id": module.id, "version": module.version, "rules_hash": module.hash,
                   "overlays": [dict(o) for o in module.overlays]},
        "seed": batch_seed,
        "seed_derivation": SEED_DERIVATION,
        "first_index": indices.start,
        "count": len(indices),
        "formats": [f.name for f in formats],
    }
    if request_record(request):
        ident["request"] = request_record(request)
    if members is not None:
        ident["party"] = members.record
    if sheets is not None:
        ident.update(paper=sheets.paper, party_name=sheets.title, layout=sheets.layout)
        if sheets.layout == "card":
            ident["cards_per_page"] = sheets.cards_per_page
        if sheets.pdf_variant:
            ident["pdf_variant"] = sheets.pdf_variant
    elif any(f.batch_file for f in formats):  # a batch file may carry the party's name (meg's party_name)
        ident.update(party_name=title or batch_title(None))
    if request is not None and request.pins:
        ident["pins"] = [list(p) for p in request.pins]
    if request is not None and request.requires:
        ident["requires"] = [str(r) for r in request.requires]
    return ident


def batch_title(sheets: SheetOptions | None) -> str:
    """The party's name in batch files (party.pdf's title, meg's party_name): --party-name, else
    the same default as party.pdf's."""
    from chargen.run.sheets import DEFAULT_PARTY_NAME

    return sheets.title if sheets is not None else DEFAULT_PARTY_NAME


def manifest(ident: dict, result: BatchResult) -> dict:
    files = {} if result.batch_files is None else {"batch_files": result.batch_files}
    return {**ident, "complete": result.complete, **files, "characters": result.written}


@dataclass(frozen=True)
class _Job:
    """What every character of the batch is made and written with."""

    module: RulesModule
    batch_seed: int
    folder: Path
    formats: tuple[Format, ...]
    title: str  # the party's name in batch files
    request: GenerationRequest | None = None
    members: Members | None = None

    def make(self, index: int) -> dict:
        """Character ``index`` of the batch (of a party: its slot's seed, index and request)."""
        if self.members is None:
            return make_character(self.module, self.batch_seed, index, self.request)
        slot = self.members.slots[index]
        return make_character(self.module, slot.seed, slot.index, slot.request)

    @property
    def data(self) -> tuple[Format, ...]:
        """The data formats with a file per character."""
        return tuple(f for f in self.formats if not f.sheet and f.per_character)

    @property
    def files(self) -> tuple[Format, ...]:
        """The formats with a file per character."""
        return tuple(f for f in self.formats if f.per_character)

    @property
    def whole(self) -> tuple[Format, ...]:
        """The formats with a file for the whole batch, made from every character's part."""
        return tuple(f for f in self.formats if f.batch_file)

    @property
    def sheets(self) -> tuple[Format, ...]:
        return tuple(f for f in self.formats if f.sheet)


class _Record:
    """The characters complete so far, and the manifest that says so (checkpoints at 1, 2, 4, 8, ...)."""

    def __init__(self, ident: dict, result: BatchResult, done: dict[int, dict]):
        self.ident, self.result, self.done = ident, result, done
        self.parts: dict[int, dict[str, str]] = {}  # each character's piece of the batch files, by index

    def add(self, entries: list[dict]) -> None:
        before = len(self.done)
        for entry in entries:
            if "parts" in entry:
                self.parts[entry["index"]] = entry.pop("parts")
            self.done[entry["index"]] = entry
        if any(_checkpoint(n) for n in range(before + 1, len(self.done) + 1)):
            self.save()

    def save(self) -> None:
        self.result.written = [self.done[k] for k in sorted(self.done)]
        write_manifest(self.result.folder, manifest(self.ident, self.result))

    def snapshot(self) -> dict:
        """The manifest as it stands before the batch files (what party.pdf embeds): the same
        for a batch run whole and one finished by --resume."""
        return {**self.ident, "complete": False, "characters": [self.done[k] for k in sorted(self.done)]}


def write_batch(module: RulesModule, batch_seed: int, indices: range, folder: Path, formats: tuple[str, ...],
                progress: Callable[[int], None] | None = None, writers: Mapping[str, Writer] | None = None,
                resume: bool = False, jobs: int = 1, sheets: SheetOptions | None = None,
                request: GenerationRequest | None = None, members: Members | None = None) -> BatchResult:
    """Generate ``indices`` and write each in ``formats``; with ``resume``, only what is not done yet.

    ``formats`` are names in :data:`chargen.formats.FORMATS` (or, with
    ``writers``, in ``writers``: plain functions from a document to a data
    file's text). ``sheets`` (:class:`chargen.run.sheets.SheetOptions`) gives
    the sheet formats' paper, templates, workers and party name. Without sheet
    formats, ``jobs > 1`` and at least ``PARALLEL_MIN`` characters to write,
    worker processes generate and write chunks of characters; the files and the
    manifest are the same bytes as with one process. The folder is locked for the
    call (:func:`chargen.run.files.lock_folder`): a second batch into it fails at once.
    ``request`` is what every character is asked for (an archetype); ``members`` makes
    each index from its own slot instead (a party file: :mod:`chargen.run.party`); its pins and
    constraints are recorded in the manifest.
    """
    job = _Job(module, batch_seed, folder, _formats(formats, writers), batch_title(sheets), request, members)
    for fmt in job.formats:
        fmt.check_engine(module.engine)
    options = _sheet_options(job, sheets)
    with lock_folder(folder):
        return _run(job, indices, options, progress, resume, jobs)


def _run(job: _Job, indices: range, options: SheetOptions | None, progress, resume: bool, jobs: int) -> BatchResult:
    folder = job.folder
    ident = identity(job.module, job.batch_seed, indices, job.formats, options, job.title, job.request, job.members)
    result = BatchResult(folder, batch_files={} if batch_files(job.formats) else None)
    state = resume_state(folder, ident, indices, job.formats) if resume else ResumeState()
    result.redone = state.redone
    record = _Record(ident, result, dict(state.done))
    if state.complete:
        result.written, result.batch_files = [state.done[k] for k in sorted(state.done)], state.batch_files
        result.complete = result.already_complete = True
        return result
    if not resume:
        record.save()
    try:
        if job.sheets:
            _draw_batch(job, indices, state, record, options, progress)
        else:
            _write_data_batch(job, [i for i in indices if i not in state.done], record, progress, jobs)
        _write_whole(job, indices, record, BatchInfo(job.module.engine, job.title))
    except BaseException as e:
        _stopped(record, len(indices), e)
        raise
    result.complete = True
    record.save()
    return result


def _formats(names: tuple[str, ...], writers: Mapping[str, Writer] | None) -> tuple[Format, ...]:
    table = None if writers is None else {n: WriterFormat(n, w) for n, w in writers.items()}
    formats = resolve(names, table)
    nothing = [f.name for f in formats if not f.per_character and not f.batch_file]
    if nothing:  # neither a file per character nor one for the batch: nothing to write
        raise OutputError(f"format {', '.join(nothing)} writes no file per character "
                          "(a batch writes only formats that do, or that write a batch file)")
    return formats


def _sheet_options(job: _Job, sheets: SheetOptions | None) -> SheetOptions | None:
    """The sheet options, checked against the templates before anything is written (None: no sheets)."""
    if not job.sheets:
        return None
    from chargen.run.sheets import SheetOptions, check_templates

    options = sheets or SheetOptions()
    check_templates(options, job.sheets)
    return options


# --- data formats only -------------------------------------------------------------


def _write_data_batch(job: _Job, todo: list[int], record: _Record, progress, jobs: int) -> None:
    if hasattr(progress, "begin"):
        progress.begin(len(todo))  # a resumed batch writes only what it lacks
    with contextlib.closing(_entries(job, todo, jobs)) as chunks:  # closed at once on a stop: workers end
        for entries in chunks:
            record.result.new += len(entries)
            record.add(entries)
            if progress:
                progress(len(entries))


def _write_files(job: _Job, doc: dict, files: dict, formats: tuple[Format, ...]) -> dict[str, str]:
    """Write ``doc`` in ``formats`` under the names in ``files``; their sha256, by format."""
    digests = {}
    for fmt in formats:
        raw = fmt.to_bytes(doc)
        atomic_write(inside(job.folder, files[fmt.name]), raw)
        digests[fmt.name] = hashlib.sha256(raw).hexdigest()
    return digests


def _file_names(job: _Job, stem: str) -> dict[str, str]:
    return {f.name: f.file_name(stem) for f in job.files}


def _parts(job: _Job, doc: dict) -> dict[str, str]:
    return {f.name: f.part(doc) for f in job.whole}


def _write_character(job: _Job, index: int) -> dict:
    doc = job.make(index)
    files = _file_names(job, character_stem(index, doc["identity"]["name"]))
    entry = {"index": index, "name": doc["identity"]["name"], "files": files,
             "sha256": _write_files(job, doc, files, job.files)}
    return {**entry, "parts": _parts(job, doc)} if job.whole else entry


def _write_whole(job: _Job, indices: range, record: _Record, info: BatchInfo) -> None:
    """The batch files of the data formats (roster.csv, ...), from every character's part, in index
    order; a character done by an earlier run is made again for its part."""
    if not job.whole:
        return
    for i in indices:
        if i not in record.parts:
            record.parts[i] = _parts(job, job.make(i))
    for fmt in job.whole:
        raw = fmt.join([record.parts[i][fmt.name] for i in indices], info)
        atomic_write(inside(job.folder, fmt.batch_file), raw)
        record.result.batch_files[fmt.batch_file] = hashlib.sha256(raw).hexdigest()
        record.save()


PARALLEL_MIN = 500  # below this, starting worker processes costs more than it saves
CHUNK = 250
_JOB: _Job | None = None  # what forked workers write: set by the parent before the pool starts


def _entries(job: _Job, todo: list[int], jobs: int) -> Iterator[list[dict]]:
    """Manifest entries for ``todo``, one list per chunk, in index order."""
    if jobs <= 1 or len(todo) < PARALLEL_MIN or not _can_fork():
        for i in todo:
            yield [_write_character(job, i)]
        return
    import multiprocessing

    global _JOB
    _JOB = job
    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks)), ignore_interrupts) as pool:
            yield from pool.imap(_write_chunk, chunks)
    finally:
        _JOB = None


def _write_chunk(chunk: list[int]) -> list[dict]:
    return [_write_character(_JOB, i) for i in chunk]


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


# --- with sheet formats ---------------------------------------------------------------


def _draw_batch(job: _Job, indices: range, state: ResumeState, record: _Record, options: SheetOptions,
                progress: Callable[[int], None] | None) -> None:
    """Every character through the sheet stage, in order (a complete one only for party.pdf and
    index.html), then the batch files."""
    from chargen.run.sheets import SheetStage

    kept: dict[int, tuple[dict, bool]] = {}  # by index: sha256 of the files written or kept, and whether new
    made: dict[int, dict] = {}  # the characters made before drawing starts (see SheetStage.collection_first)

    def tasks():
        for i in indices:
            task, digests, new = _prepare(job, i, state, made.pop(i, None))
            kept[i] = digests, new
            if job.whole:
                record.parts[i] = _parts(job, task.doc)
            yield task

    with SheetStage(job.folder, options, job.sheets, (job.module,), work=len(indices)) as stage:
        if stage.collects_first(len(indices)):
            made.update(_made_first(job, indices))
            stage.collection_first([(i, made[i]) for i in indices if i in made])
        for task, drawn in stage.draw(tasks()):
            index = task.index
            digests, new = kept.pop(index)
            if drawn.failed:  # not listed: --resume draws it (once the machine has the font)
                if progress:
                    progress(1)
                continue
            if index not in state.done:
                digests = {**digests, **drawn.sha256}
                record.result.new += new
                record.result.drawn += len(task.draw)
                record.add([{"index": index, "name": task.doc["identity"]["name"], "files": task.files,
                             "sha256": {name: digests[name] for name in task.files}}])
            if progress:
                progress(1)
        for name, digest in stage.finish(record.snapshot()):
            record.result.batch_files[name] = digest
            record.save()
        stage.check_failed()


def _made_first(job: _Job, indices: range) -> dict[int, dict]:
    """Every character of the batch, made before any is drawn; none when one cannot be made (a
    --require no attempt meets), which then fails in its turn, after the characters before it."""
    try:
        return {i: job.make(i) for i in indices}
    except ChargenError:
        return {}


def _prepare(job: _Job, index: int, state: ResumeState, doc: dict | None = None):
    """Make character ``index`` (unless ``doc`` is it, made already); write its data files unless
    it is done; the sheet task for it.

    A character listed with a file to make again keeps the sheets still there as
    recorded (:func:`chargen.run.resume.resume_state` checked their sha256); its
    data files are written again (they cost little).
    Returns the task, the sha256 of the files written or kept, and whether the
    character counts as new (not listed, or a data file gone)."""
    from chargen.run.sheets import SheetTask

    doc = job.make(index) if doc is None else doc
    stem = character_stem(index, doc["identity"]["name"])
    files = _file_names(job, stem)
    if index in state.done:
        return SheetTask(stem, doc, files, (), index), dict(state.done[index]["sha256"]), False
    old = state.partial.get(index)
    present = {} if old is None else {n: old["sha256"][n] for n, name in files.items()
                                      if old["files"].get(n) == name}
    new = old is None or any(f.name not in present for f in job.data)
    digests = {**present, **_write_files(job, doc, files, job.data)}
    return SheetTask(stem, doc, files, tuple(f.name for f in job.sheets if f.name not in present), index), digests, new


def _checkpoint(n: int) -> bool:
    """Rewrite the manifest after 1, 2, 4, 8, ... characters: at most twice the final manifest's bytes in all."""
    return n & (n - 1) == 0


def _stopped(record: _Record, total: int, cause: BaseException) -> None:
    """Record what is complete, then raise :class:`BatchIncomplete` (for a bug, let it propagate)."""
    folder = record.result.folder
    saved = ""
    try:
        remove_stale_temporaries(folder)  # the workers are stopped: what is under a temporary name is partial
        record.save()
    except (ChargenError, OSError) as e:
        saved = f" (the manifest could not be updated: {e}; it lists fewer characters than are complete)"
    if isinstance(cause, KeyboardInterrupt):
        why, code = "interrupted", 130
    elif isinstance(cause, ChargenError):
        why, code = str(cause), 1
    elif isinstance(cause, OSError):
        why, code = f"{cause.strerror or cause}", 1
    else:
        return
    n = len(record.result.written)
    from chargen.require import RequireError

    # a --require no attempt meets fails the same way on every run: --resume cannot finish it
    then = ("loosen the --require (it is in the manifest: start again in a new folder, or with --force)"
            if isinstance(cause, RequireError) else "run the same command with --resume to finish it")
    raise BatchIncomplete(
        f"batch incomplete: {why}; {n} of {total} character{'s' if total != 1 else ''} complete in '{folder}'"
        f"{saved}; {then}", n, total, code) from cause
