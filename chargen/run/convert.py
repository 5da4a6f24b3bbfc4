"""Saved characters written in any registered format (``chargen render X --format json,csv,meg,...``):
one format to another.

Whatever :func:`chargen.run.readers.read_documents` reads (chargen JSON or YAML, MEG, Foundry brp
actors, a PDF chargen wrote) is a character document; each is written as stored (not recomputed:
a conversion changes the shape, not the figures) in every data format asked, under its sheets' stem,
and the formats' batch files (``roster.csv``, ``party.meg.json``, ``party.foundry.json``, ...) from
every character in the planned order. Sheets (html, pdf) are drawn as ``chargen render`` draws them
(:func:`chargen.run.sheetbatch.draw_saved`). What a format cannot write (meg, foundry and statblock
write d100 characters only; a batch file holds one engine's characters) is refused before anything
is written.
"""

from __future__ import annotations

from chargen.errors import CharacterError
from chargen.formats import BatchInfo, Format, resolve
from chargen.run.files import atomic_write, inside, lock_folder


def check(planned: list, formats: tuple[str, ...]) -> None:
    """Every planned character can be written in every format asked (one ``Error:`` line if not)."""
    from chargen.errors import OutputError
    from chargen.run.saved import _documents

    fmts = [f for f in resolve(formats) if not f.sheet]
    engines: dict[str, str] = {}
    for p, doc in _documents(planned):
        engine = doc["system"]["engine"]
        engines.setdefault(engine, p.label)
        for fmt in fmts:
            try:
                fmt.check_engine(engine)
            except OutputError as e:
                raise CharacterError(f"{p.label}: {e}") from None
    batch = [f.name for f in fmts if f.batch_file]
    if batch and len(engines) > 1:
        raise CharacterError(f"{', '.join(batch)}: one batch file holds one engine's characters, and these are of "
                             f"{len(engines)} ({', '.join(f'{e}: {label}' for e, label in engines.items())}); "
                             "convert them separately")


def write_data(run) -> list[str]:
    """The data files of ``run`` (a :class:`~chargen.run.pipeline.Pipeline` of saved characters) in its
    folder: each character's, then the batch files; the names written, in order."""
    from chargen.run.saved import _documents

    saved = run.spec.saved
    data: tuple[Format, ...] = run.data
    whole: tuple[Format, ...] = run.whole
    if not data and not whole:
        return []
    parts: dict[str, list[str]] = {f.name: [] for f in whole}
    written, engine = [], ""
    with lock_folder(run.folder):
        for p, doc in _documents(list(saved.planned)):
            files = {f.name: f.file_name(p.stem) for f in data}
            run.write_files(doc, files, data)
            written += files.values()
            for f in whole:
                parts[f.name].append(f.part(doc))
            engine = engine or doc["system"]["engine"]
            if run.progress and not run.sheets:
                run.progress(1)
        for f in whole:
            atomic_write(inside(run.folder, f.batch_file), f.join(parts[f.name], BatchInfo(engine, run.spec.title)))
            written.append(f.batch_file)
    return written


def to_bytes(docs: list[dict], name: str, title: str) -> bytes:
    """One data format's bytes for stdout: the batch file of a format that has one (for one character
    too, unless it writes one file per character), else the one character's file."""
    import io

    from chargen.formats import FORMATS
    from chargen.serialize import write_stream

    fmt = FORMATS[name]
    if name in ("json", "yaml") and len(docs) != 1:  # as chargen generate writes several to stdout
        out = io.StringIO()
        write_stream(name, docs, out)
        return out.getvalue().encode("utf-8")
    if fmt.batch_file and fmt.batch_holds_characters and not (fmt.per_character and len(docs) == 1):
        return fmt.join([fmt.part(d) for d in docs], BatchInfo(docs[0]["system"]["engine"], title))
    if len(docs) != 1:
        raise CharacterError(f"without -o, {name} is written for one character only (use -o DIR for several)")
    return fmt.to_bytes(docs[0])
