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
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

from chargen.errors import ChargenError, OutputError
from chargen.formats import batch_files
from chargen.require import BLOCK, RequireError
from chargen.run.files import atomic_write, inside, lock_folder, remove_stale_temporaries
from chargen.run.procs import each, no_hangup_for_helpers, terminate, worker_signals
from chargen.run.record import BatchResult, Record
from chargen.run.record import checkpoint as _checkpoint  # noqa: F401 - the checkpoints, with the run
from chargen.run.resume import ResumeState, check_names, resume_state, verifier
from chargen.run.sheetbatch import draw_batch, draw_saved
from chargen.run.sheets import check_templates
from chargen.run.spec import RunSpec, Saved, SheetOptions
from chargen.run.writer import Writer


class BatchIncomplete(OutputError):
    """A batch stopped part-way; the manifest lists what is complete."""

    def __init__(self, message: str, done: int, total: int, exit_code: int = 1):
        super().__init__(message)
        self.done, self.total, self.exit_code = done, total, exit_code


class Pipeline(Writer):
    """One run of ``spec`` with ``module`` (its rules, loaded) into ``folder`` (None: stdout), on
    ``jobs`` processes, telling ``progress`` (a callable taking a count, or None) as characters are done."""

    def run(self, resume: bool = False) -> BatchResult:
        """Write the run into its folder; with ``resume``, only what is not done yet. Without sheet
        formats, ``jobs > 1`` and at least ``PARALLEL_MIN`` characters to write, worker processes
        generate and write chunks of characters (the same bytes as one process). The folder is
        locked for the call (:func:`chargen.run.files.lock_folder`): a second run into it fails at once.
        A spec of saved characters (``spec.saved``: ``chargen render``) draws their sheets and writes no
        manifest (:func:`chargen.run.sheetbatch.draw_saved`; its result, a ``BundleResult``)."""
        if self.spec.saved is not None:
            from chargen.run.convert import write_data

            data = write_data(self)  # converting: the data formats asked, then the sheets
            result = draw_saved(self)
            result.data_files = data
            return result
        if self.sheets:
            check_templates(self.spec.sheets, self.sheets)
        with lock_folder(self.folder):
            return self._run(resume)

    def _run(self, resume: bool) -> BatchResult:
        spec, folder = self.spec, self.folder
        ident = spec.to_manifest()
        result = BatchResult(folder, batch_files={} if batch_files(self.formats) else None)
        state = resume_state(folder, ident, spec.indices, self.formats, self.files) if resume else ResumeState()
        check_names({**state.done, **state.partial}, self.make, folder, verifier(self.files))  # this batch's
        result.redone = state.redone
        record = Record(ident, result, dict(state.done))
        if state.complete:
            result.written, result.batch_files = [state.done[k] for k in sorted(state.done)], state.batch_files
            result.complete = result.already_complete = True
            return result
        if not resume:
            record.save()
        try:
            if self.sheets:
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

    def _write_data(self, todo: list[int], record: Record) -> None:
        progress = self.progress
        if hasattr(progress, "begin"):
            progress.begin(len(todo))  # a resumed batch writes only what it lacks
        with contextlib.closing(_entries(self, todo)) as chunks:  # closed at once on a stop: workers end
            for entries in chunks:
                record.result.new += len(entries)
                record.add(entries)
                if progress:
                    progress(len(entries))

    def _write_whole(self, record: Record) -> None:
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


PARALLEL_MIN = 500  # below this, starting worker processes costs more than it saves
CHUNK = BLOCK  # a chunk is a block of the --require budget (chargen.require.Budget), as in one process
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
    chunks = [list(group) for _, group in itertools.groupby(todo, lambda i: (i - pipeline.spec.first) // CHUNK)]
    try:
        with no_hangup_for_helpers():  # the resource tracker the pool starts: SIGHUP is this process's
            pool = multiprocessing.get_context("fork").Pool(min(pipeline.jobs, len(chunks)), worker_signals)
        with pool:
            try:
                yield from each(pool, pool.imap(_write_chunk, chunks), "--jobs data")
            except BaseException:
                terminate(pool)  # pool.terminate(), safe when a worker died
                raise
    finally:
        _PIPELINE = None


def _write_chunk(chunk: list[int]) -> list[dict]:
    return [_PIPELINE.write_character(i) for i in chunk]


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _stopped(record: Record, total: int, cause: BaseException) -> None:
    """Record what is complete, then raise :class:`BatchIncomplete` (for a bug, let it propagate)."""
    folder = record.result.folder
    saved = ""
    try:
        remove_stale_temporaries(folder)  # the workers are stopped: what is under a temporary name is partial
        record.save()
    except (ChargenError, OSError) as e:
        saved = f" (the manifest could not be updated: {e}; it lists fewer characters than are complete)"
    if isinstance(cause, KeyboardInterrupt):  # Ctrl-C, or SIGTERM or SIGHUP (chargen.run.procs.Stopped)
        why, code = (f"stopped by {cause.name}", cause.exit_code) if hasattr(cause, "signum") else ("interrupted", 130)
    elif isinstance(cause, ChargenError):
        why, code = str(cause), 1
    elif isinstance(cause, OSError):
        why, code = f"{cause.strerror or cause}", 1
    else:
        return
    n = len(record.result.written)
    # a --require no attempt meets fails the same way on every run: --resume cannot finish it
    then = ("loosen the --require (it is in the manifest: start again in a new folder, or with --force)"
            if isinstance(cause, RequireError) else "run the same command with --resume to finish it")
    raise BatchIncomplete(
        f"batch incomplete: {why}; {n} of {total} character{'s' if total != 1 else ''} complete in '{folder}'"
        f"{saved}; {then}", n, total, code) from cause


__all__ = ["BatchIncomplete", "BatchResult", "Pipeline", "RunSpec", "Saved", "SheetOptions", "Writer", "run_batch"]
