"""What a run writes for each character: its formats, the character made from the run's spec, its
files' names, its data files and its pieces of the batch files. :class:`chargen.run.pipeline.Pipeline`
is a :class:`Writer` that also orchestrates; :mod:`chargen.run.sheetbatch` draws with one."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from chargen.errors import OutputError
from chargen.flavour import RELATIONS_KEY
from chargen.formats import BatchInfo, Format, resolve
from chargen.generate import make_character, numbered
from chargen.require import Budget
from chargen.run.files import atomic_write, character_stem, inside
from chargen.run.spec import RunSpec


class Writer:
    """The characters of ``spec`` with ``module`` (its rules, loaded) and their files in ``folder``
    (None: stdout), on ``jobs`` processes, telling ``progress`` (a callable taking a count, or None)."""

    def __init__(self, spec: RunSpec, module, folder: Path | None = None, jobs: int = 1,
                 progress: Callable[[int], None] | None = None):
        self.spec = spec.with_module(module) if module is not None else spec  # None: saved characters
        self.module, self.folder, self.jobs, self.progress = module, folder, jobs, progress
        self.formats = _formats(spec.formats)
        self.budget = Budget()  # what the batch's --require may still take
        for fmt in self.formats if module is not None else ():
            fmt.check_engine(module.engine)

    def make(self, index: int) -> dict:
        """Character ``index`` of the batch (of a party: its slot's seed, index and request)."""
        members = self.spec.members
        if members is None:
            return make_character(self.module, self.spec.seed, index, self.spec.request,
                                  (self.budget, index - self.spec.first))
        slot = members.slots[index]  # its index counts within its line; its number is its file index
        doc = numbered(make_character(self.module, slot.seed, slot.index, slot.request, (self.budget, index)), index)
        if members.relations is not None:
            doc[RELATIONS_KEY] = members.relations.get(index, [])
        return doc

    @property
    def data(self) -> tuple[Format, ...]:
        """The data formats with a file per character."""
        return tuple(f for f in self.formats if not f.sheet and f.per_character)

    @property
    def files(self) -> tuple[Format, ...]:
        """The formats with a file per character (in the block and card layouts, pdf only with --each-pdf)."""
        return self.spec.sheets.per_character(self.formats)

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

def _formats(names: tuple[str, ...]) -> tuple[Format, ...]:
    formats = resolve(names)
    nothing = [f.name for f in formats if not f.per_character and not f.batch_file]
    if nothing:  # neither a file per character nor one for the batch: nothing to write
        raise OutputError(f"format {', '.join(nothing)} writes no file per character "
                          "(a batch writes only formats that do, or that write a batch file)")
    return formats
