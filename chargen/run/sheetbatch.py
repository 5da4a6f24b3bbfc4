"""A run with sheet formats: every character through the sheet stage, in order, then party.pdf and
index.html (:class:`chargen.run.sheets.SheetStage`). Called by :class:`chargen.run.pipeline.Pipeline` (a :class:`~chargen.run.writer.Writer`):
:func:`draw_batch` for the characters a run makes, :func:`draw_saved` for saved ones (``chargen render``)."""

from __future__ import annotations

from collections.abc import Iterator

from chargen.errors import ChargenError
from chargen.formats import INDEX_HTML, PARTY_PDF
from chargen.run.files import character_stem, lock_folder
from chargen.run.procs import WorkerDied
from chargen.run.record import Record
from chargen.run.resume import ResumeState
from chargen.run.sheets import BundleResult, SheetStage, SheetTask
from chargen.seeds import batch_number
from chargen.run.writer import Writer


def draw_batch(run: Writer, state: ResumeState, record: Record) -> None:
    """Every character through the sheet stage, in order (a complete one only for party.pdf and
    index.html), then the batch files."""
    indices, progress = run.spec.indices, run.progress
    kept: dict[int, tuple[dict, bool]] = {}  # by index: sha256 of the files written or kept, and whether new
    made: dict[int, dict] = {}  # the characters made before drawing starts (see SheetStage.collection_first)

    def tasks():
        for i in indices:
            task, digests, new = _prepare(run, i, state, made.pop(i, None))
            kept[i] = digests, new
            if run.whole:
                record.parts[i] = run.parts(task.doc)
            yield task

    with SheetStage(run.folder, run.spec.sheets, run.sheets, (run.module,), work=len(indices)) as stage:
        if stage.collects_first(len(indices)):
            made.update(_made_first(run, indices))
            stage.collection_first([(i, made[i]) for i in indices if i in made])
        for task, drawn in stage.draw(tasks()):
            digests, new = kept.pop(task.index)
            if not drawn.failed and task.index not in state.done:
                _drawn(record, task, {**digests, **drawn.sha256}, new)
            if progress:
                progress(1)
        for name, digest in stage.finish(record.snapshot()):
            record.result.batch_files[name] = digest
            record.save()
        stage.check_failed()


def _drawn(record: Record, task: SheetTask, digests: dict, new: bool) -> None:
    """List a character whose files are all written (a failed sheet is not listed: --resume draws it,
    once the machine has the font)."""
    record.result.new += new
    record.result.drawn += len(task.draw)
    record.add([{"index": task.index, "name": task.doc["identity"]["name"], "files": task.files,
                 "sha256": {name: digests[name] for name in task.files}}])


def _made_first(run: Writer, indices: range) -> dict[int, dict]:
    """Every character of the batch, made before any is drawn; none when one cannot be made (a
    --require no attempt meets), which then fails in its turn, after the characters before it."""
    try:
        return {i: run.make(i) for i in indices}
    except ChargenError:
        return {}


def _prepare(run: Writer, index: int, state: ResumeState, doc: dict | None = None):
    """Make character ``index`` (unless ``doc`` is it, made already); write its data files unless
    it is done; the sheet task for it.

    A character listed with a file to make again keeps the sheets still there as
    recorded (:func:`chargen.run.resume.resume_state` checked their sha256); its
    data files are written again (they cost little).
    Returns the task, the sha256 of the files written or kept, and whether the
    character counts as new (not listed, or a data file gone)."""
    doc = run.make(index) if doc is None else doc
    stem = character_stem(index, doc["identity"]["name"])
    files = run.file_names(stem)
    if index in state.done:
        return SheetTask(stem, doc, files, (), index), dict(state.done[index]["sha256"]), False
    old = state.partial.get(index)
    present = {} if old is None else {n: old["sha256"][n] for n, name in files.items()
                                      if old["files"].get(n) == name}
    new = old is None or any(f.name not in present for f in run.data)
    digests = {**present, **run.write_files(doc, files, run.data)}
    draw = tuple(f.name for f in run.sheets if f.name in files and f.name not in present)
    return SheetTask(stem, doc, files, draw, index, check=_in_collection_only(run.spec.sheets, run.sheets)), digests, new


def _in_collection_only(options, formats) -> bool:
    """Whether a character's PDF is only its part of party.pdf's collection (block and card layouts
    without --each-pdf): its task checks that the fonts draw it (:meth:`SheetRenderer.check_glyphs`)."""
    return any(f.name == "pdf" for f in formats) and not options.pdf_each


def draw_saved(run: Writer) -> BundleResult:
    """The sheets of a spec's saved characters (``spec.saved``) into the run's folder, then party.pdf
    and index.html; no manifest. The folder is locked for the call (:func:`chargen.run.files.lock_folder`)."""
    from chargen.run.saved import characters

    saved, formats, progress = run.spec.saved, run.sheets, run.progress
    count = len(saved.planned)
    result = BundleResult()
    if not formats:
        return result
    drawn = characters(list(saved.planned), saved.modules)

    each = run.spec.sheets.per_character(formats)  # in the block and card layouts, pdf only with --each-pdf

    def tasks() -> Iterator[SheetTask]:
        for stem, doc, files in drawn:
            yield SheetTask(stem, doc, {**files, **{f.name: f.file_name(stem) for f in each}},
                            tuple(f.name for f in each), check=_in_collection_only(run.spec.sheets, formats))

    with lock_folder(run.folder), SheetStage(run.folder, run.spec.sheets, formats, saved.modules, count) as stage:
        try:
            if stage.collects_first(count):  # party.pdf holds every character anyway: read them all, lay it out first
                drawn = list(drawn)
                stage.collection_first([(batch_number(doc), doc) for _, doc, _ in drawn])
            for _ in stage.draw(tasks()):
                if progress:
                    progress(1)
            written = dict(stage.finish())
        except WorkerDied as e:
            raise WorkerDied(f"{e}; {len(stage.sheets)} of {count} sheets drawn in '{run.folder}', without party.pdf "
                             "and index.html; run the same command with --force to draw them all") from None
    stage.check_failed()
    result.sheets = stage.sheets
    result.files = {key: name for key, name in (("party_pdf", PARTY_PDF), ("index_html", INDEX_HTML))
                    if name in written}
    return result
