"""One run, the one orchestrator: :class:`Pipeline`, and the only writer of ``manifest.json``.

Every character is made once, and written in every format the run asks for
(:mod:`chargen.formats`): data formats (json, yaml) by this process, sheet
formats (html, pdf) by the sheet stage's worker processes
(:mod:`chargen.run.sheetbatch`, :class:`chargen.run.sheets.SheetStage`), which
also builds the batch files the sheet formats ask for (``party.pdf``,
``index.html``). Every file is written whole or not at all
(:func:`chargen.run.files.atomic_write`). Without a folder, a run streams to
stdout (:mod:`chargen.run.stream`).

The manifest is the run's :class:`~chargen.run.spec.RunSpec` (``to_manifest``)
and what is complete: it is written before the first character (``complete:
false``, none done), again after 1, 2, 4, 8, ... characters, when the batch
stops for any reason (Ctrl-C, a full disk, a sheet that fails) and at the end.
A character is listed, with every one of its files and their sha256, once all
its files are written; the batch files are listed with their sha256 once
written; ``complete: true`` only when every file asked for exists. A stopped
batch raises :class:`BatchIncomplete`; ``run(resume=True)`` finishes it, writing
only what is missing (and party.pdf and index.html again), so the folder ends
byte for byte as an uninterrupted run leaves it.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from chargen.errors import ChargenError, OutputError
from chargen.formats import BatchInfo, Format, batch_files, resolve
from chargen.generate import make_character, numbered
from chargen.run.files import atomic_write, character_stem, ignore_interrupts, inside, lock_folder, \
    remove_stale_temporaries, write_manifest
from chargen.run.resume import ResumeState, resume_state
from chargen.run.spec import RunSpec, SheetOptions


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


class Pipeline:
    """One run of ``spec`` with ``module`` (its rules, loaded) into ``folder`` (None: stdout), on
    ``jobs`` processes, telling ``progress`` (a callable taking a count, or None) as characters are done."""

    def __init__(self, spec: RunSpec, module, folder: Path | None = None, jobs: int = 1,
                 progress: Callable[[int], None] | None = None):
        self.spec = spec.with_module(module)
        self.module, self.folder, self.jobs, self.progress = module, folder, jobs, progress
        self.formats = _formats(spec.formats)
        for fmt in self.formats:
            fmt.check_engine(module.engine)

    def make(self, index: int) -> dict:
        """Character ``index`` of the batch (of a party: its slot's seed, index and request)."""
        members = self.spec.members
        if members is None:
            return make_character(self.module, self.spec.seed, index, self.spec.request)
        slot = members.slots[index]  # its index counts within its line; its number is its file index
        return numbered(make_character(self.module, slot.seed, slot.index, slot.request), index)

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

    @property
    def info(self) -> BatchInfo:
        return BatchInfo(self.module.engine, self.spec.title)

    def run(self, resume: bool = False) -> BatchResult:
        """Write the run into its folder; with ``resume``, only what is not done yet. Without sheet
        formats, ``jobs > 1`` and at least ``PARALLEL_MIN`` characters to write, worker processes
        generate and write chunks of characters (the same bytes as one process). The folder is
        locked for the call (:func:`chargen.run.files.lock_folder`): a second run into it fails at once."""
        if self.sheets:
            from chargen.run.sheets import check_templates

            check_templates(self.spec.sheets, self.sheets)
        with lock_folder(self.folder):
            return self._run(resume)

    def _run(self, resume: bool) -> BatchResult:
        spec, folder = self.spec, self.folder
        ident = spec.to_manifest()
        result = BatchResult(folder, batch_files={} if batch_files(self.formats) else None)
        state = resume_state(folder, ident, spec.indices, self.formats) if resume else ResumeState()
        result.redone = state.redone
        record = _Record(ident, result, dict(state.done))
        if state.complete:
            result.written, result.batch_files = [state.done[k] for k in sorted(state.done)], state.batch_files
            result.complete = result.already_complete = True
            return result
        if not resume:
            record.save()
        try:
            if self.sheets:
                from chargen.run.sheetbatch import draw_batch

                draw_batch(self, state, record)
            else:
                self._write_data([i for i in spec.indices if i not in state.done], record)
            self._write_whole(record)
        except BaseException as e:
            _stopped(record, spec.count, e)
            raise
        result.complete = True
        record.save()
        return result

    # --- data formats only --------------------------------------------------------

    def _write_data(self, todo: list[int], record: _Record) -> None:
        progress = self.progress
        if hasattr(progress, "begin"):
            progress.begin(len(todo))  # a resumed batch writes only what it lacks
        with contextlib.closing(_entries(self, todo)) as chunks:  # closed at once on a stop: workers end
            for entries in chunks:
                record.result.new += len(entries)
                record.add(entries)
                if progress:
                    progress(len(entries))

    def write_files(self, doc: dict, files: dict, formats: tuple[Format, ...]) -> dict[str, str]:
        """Write ``doc`` in ``formats`` under the names in ``files``; their sha256, by format."""
        digests = {}
        for fmt in formats:
            raw = fmt.to_bytes(doc)
            atomic_write(inside(self.folder, files[fmt.name]), raw)
            digests[fmt.name] = hashlib.sha256(raw).hexdigest()
        return digests

    def file_names(self, stem: str) -> dict[str, str]:
        return {f.name: f.file_name(stem) for f in self.files}

    def parts(self, doc: dict) -> dict[str, str]:
        return {f.name: f.part(doc) for f in self.whole}

    def write_character(self, index: int) -> dict:
        doc = self.make(index)
        files = self.file_names(character_stem(index, doc["identity"]["name"]))
        entry = {"index": index, "name": doc["identity"]["name"], "files": files,
                 "sha256": self.write_files(doc, files, self.files)}
        return {**entry, "parts": self.parts(doc)} if self.whole else entry

    def _write_whole(self, record: _Record) -> None:
        """The batch files of the data formats (roster.csv, ...), from every character's part, in index
        order; a character done by an earlier run is made again for its part."""
        if not self.whole:
            return
        indices = self.spec.indices
        for i in indices:
            if i not in record.parts:
                record.parts[i] = self.parts(self.make(i))
        for fmt in self.whole:
            raw = fmt.join([record.parts[i][fmt.name] for i in indices], self.info)
            atomic_write(inside(self.folder, fmt.batch_file), raw)
            record.result.batch_files[fmt.batch_file] = hashlib.sha256(raw).hexdigest()
            record.save()


def run_batch(spec: RunSpec, module, folder: Path, jobs: int = 1, progress: Callable[[int], None] | None = None,
              resume: bool = False) -> BatchResult:
    """``Pipeline(spec, module, folder, jobs, progress).run(resume)``."""
    return Pipeline(spec, module, folder, jobs, progress).run(resume)


def _formats(names: tuple[str, ...]) -> tuple[Format, ...]:
    formats = resolve(names)
    nothing = [f.name for f in formats if not f.per_character and not f.batch_file]
    if nothing:  # neither a file per character nor one for the batch: nothing to write
        raise OutputError(f"format {', '.join(nothing)} writes no file per character "
                          "(a batch writes only formats that do, or that write a batch file)")
    return formats


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
        files = {} if self.result.batch_files is None else {"batch_files": self.result.batch_files}
        write_manifest(self.result.folder, {**self.ident, "complete": self.result.complete, **files,
                                            "characters": self.result.written})

    def snapshot(self) -> dict:
        """The manifest as it stands before the batch files (what party.pdf embeds): the same
        for a batch run whole and one finished by --resume."""
        return {**self.ident, "complete": False, "characters": [self.done[k] for k in sorted(self.done)]}


PARALLEL_MIN = 500  # below this, starting worker processes costs more than it saves
CHUNK = 250
_PIPELINE: Pipeline | None = None  # what forked workers write: set by the parent before the pool starts


def _entries(pipeline: Pipeline, todo: list[int]) -> Iterator[list[dict]]:
    """Manifest entries for ``todo``, one list per chunk, in index order."""
    if pipeline.jobs <= 1 or len(todo) < PARALLEL_MIN or not _can_fork():
        for i in todo:
            yield [pipeline.write_character(i)]
        return
    import multiprocessing

    global _PIPELINE
    _PIPELINE = pipeline
    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(min(pipeline.jobs, len(chunks)), ignore_interrupts) as pool:
            yield from pool.imap(_write_chunk, chunks)
    finally:
        _PIPELINE = None


def _write_chunk(chunk: list[int]) -> list[dict]:
    return [_PIPELINE.write_character(i) for i in chunk]


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


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


__all__ = ["BatchIncomplete", "BatchResult", "Pipeline", "RunSpec", "SheetOptions", "run_batch"]
