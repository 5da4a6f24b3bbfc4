"""A run without a folder: one format to stdout (what ``chargen generate`` writes without ``-o``).

json and yaml stream every character as it is made (memory stays flat); a
format for other tools writes its batch file (a roster, blocks, a MEG list) for
any count, else its one file for one character; a sheet (html, pdf) is for one
character only. What cannot go to stdout is a :class:`StreamRefused` (the CLI
shows it as a usage error).
"""

from __future__ import annotations

from typing import BinaryIO, TextIO

from chargen.errors import ChargenError
from chargen.run.pipeline import Pipeline


class StreamRefused(ChargenError):
    """A run that cannot be written to stdout as asked (a usage error)."""


def stream(run: Pipeline, out: TextIO, single: bool = False) -> None:
    """Write ``run`` (one format) to ``out`` (text; bytes go to ``out.buffer``). ``single``: the run is
    one character asked by index (json and yaml write the bare document, not a list)."""
    from chargen.formats import names
    from chargen.serialize import to_json, to_yaml, write_stream

    spec = run.spec
    every = names()
    if len(spec.formats) != 1:
        raise StreamRefused(f"without -o, give exactly one --format ({', '.join(every[:-1])} or {every[-1]})")
    name = spec.formats[0]
    if name not in ("json", "yaml") and name not in spec.sheet_formats:
        _write_bytes(out.buffer, _other(run, name))
        return
    if name in spec.sheet_formats:
        if spec.count != 1:
            raise StreamRefused(f"without -o, {name} is written for one character only (use -o DIR for a batch)")
        sheet_to(out, run.make(spec.first), name, spec.sheets, (run.module,))
        return
    docs = _characters(run)
    if single:
        out.write((to_json if name == "json" else to_yaml)(next(iter(docs))))
        return
    write_stream(name, docs, out)  # each document as it is made: memory stays flat


def _characters(run: Pipeline):
    from chargen.generate import characters

    return characters(run.module, run.spec.seed, run.spec.indices, run.spec.request)


def _other(run: Pipeline, name: str) -> bytes:
    """A format for other tools: its batch file for any count, else its one file for one character."""
    from chargen.formats import FORMATS

    fmt = FORMATS[name]
    if fmt.batch_file and fmt.batch_holds_characters and not (fmt.per_character and run.spec.count == 1):
        return fmt.join([fmt.part(doc) for doc in _characters(run)], run.info)
    if run.spec.count != 1:
        raise StreamRefused(f"without -o, {name} is written for one character only (use -o DIR for a batch)")
    return fmt.to_bytes(next(iter(_characters(run))))


def sheet_to(out: TextIO, doc: dict, fmt: str, options, modules: tuple = ()) -> None:
    """One character's sheet (html or pdf) to ``out``, drawn in this process."""
    from chargen.run.sheets import render_single

    if fmt == "pdf" and out.isatty():
        raise StreamRefused("refusing to write a PDF to a terminal (redirect stdout to a file, or use -o DIR)")
    data = render_single(doc, fmt, options, modules)
    if isinstance(data, bytes):
        _write_bytes(out.buffer, data)
    else:
        out.write(data)


def _write_bytes(out: BinaryIO, data: bytes) -> None:
    out.write(data)
    out.flush()
