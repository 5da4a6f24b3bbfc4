"""Output formats: one small class each, in one registry.

A format (like a Sphinx builder) has a ``name`` (what ``--format`` takes), a
file ``suffix``, whether it writes one file per character (``per_character``:
all four built-in ones do), the per-batch files it asks for (``batch_files``:
a pdf batch gets ``party.pdf`` and ``index.html``, an html batch
``index.html``), and :meth:`Format.to_bytes`, a character document to the
file's bytes.

A *sheet* format (``sheet = True``) needs a :class:`Renderer`, set up once per
process (WeasyPrint's fonts, the parsed stylesheet), to make its bytes, given
to :meth:`Format.to_bytes` by its caller: :mod:`chargen.run.sheets` draws sheet
formats in worker processes, each with its own renderer. A data format needs nothing and is written by the
batch's own process. Nothing here imports the renderer, so reading the
registry (the CLI's ``--format`` help) stays cheap.

A format may also write one file for the whole batch (``batch_file``, e.g.
``roster.csv``): :meth:`Format.part` turns each character into its piece (a
string, small, made as the character is written) and :meth:`Format.join` puts
the pieces, in index order, into the file's bytes. ``per_character = False``
with a ``batch_file`` is a format of that one file only (csv, text). A format
for some engines only names them in ``engines``; a batch of another engine is
refused before anything is written.

The generic formats for other tools live one module each in this package
(:mod:`~chargen.formats.roster`, :mod:`~chargen.formats.text`) and read the
engine's typed view of a character (:mod:`chargen.view`), so they write every
engine. An engine's own formats live with it and register themselves when
their package is imported (:data:`BUILTIN`: the D100 II interop, MEG, Foundry
and statblock, in :mod:`chargen.systems.d100.interop`).

:data:`FORMATS` is the registry, by name, in registration order;
:func:`register` adds one. :class:`chargen.run.pipeline.Pipeline` writes any of them.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from chargen.errors import OutputError

@dataclass(frozen=True)
class BatchInfo:
    """What a batch file knows of its batch besides the characters."""

    engine: str
    title: str  # the party name (--party-name), else a name made from the system and seed


PARTY_PDF = "party.pdf"
INDEX_HTML = "index.html"
BATCH_FILES = (PARTY_PDF, INDEX_HTML)  # the per-batch files there are, in the order they are written


class Renderer(Protocol):
    """What a sheet format draws with: one per process, reused for every sheet."""

    def html(self, doc: dict, standalone: bool) -> str: ...

    def pdf(self, html: str, what: str, attachments: tuple[tuple[str, bytes], ...] = ()) -> bytes: ...


class Format(ABC):
    """One output format; subclasses set the class attributes and :meth:`to_bytes`."""

    name: ClassVar[str]
    suffix: ClassVar[str]
    per_character: ClassVar[bool] = True
    batch_files: ClassVar[tuple[str, ...]] = ()
    sheet: ClassVar[bool] = False  # needs a Renderer
    batch_file: ClassVar[str | None] = None  # the one file for the whole batch, if any (see part/join)
    batch_holds_characters: ClassVar[bool] = True  # the batch file is the characters (not a companion file)
    engines: ClassVar[tuple[str, ...] | None] = None  # the engines it writes (None: every engine)

    @abstractmethod
    def to_bytes(self, doc: dict, renderer: Renderer | None = None) -> bytes:
        """The file's bytes for ``doc`` (a sheet format draws with ``renderer``)."""

    def part(self, doc: dict) -> str:
        """``doc``'s piece of the batch file (formats with a ``batch_file``)."""
        raise NotImplementedError(f"format {self.name} writes no batch file")

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        """The batch file's bytes from every character's piece, in index order."""
        raise NotImplementedError(f"format {self.name} writes no batch file")

    def check_engine(self, engine: str) -> None:
        """Refuse a character (or batch) of an engine this format does not write."""
        if self.engines is not None and engine not in self.engines:
            raise OutputError(f"format {self.name} writes {', '.join(self.engines)} characters only "
                              f"(not {engine}); leave it out of --format for this system")

    def file_name(self, stem: str) -> str:
        return stem + self.suffix

    def __repr__(self) -> str:
        return f"<format {self.name}>"


class JsonFormat(Format):
    name, suffix = "json", ".json"

    def to_bytes(self, doc: dict, renderer: Renderer | None = None) -> bytes:
        from chargen.serialize import to_json

        return to_json(doc).encode("utf-8")


class YamlFormat(Format):
    name, suffix = "yaml", ".yaml"

    def to_bytes(self, doc: dict, renderer: Renderer | None = None) -> bytes:
        from chargen.serialize import to_yaml

        return to_yaml(doc).encode("utf-8")


class HtmlFormat(Format):
    """A standalone sheet: stylesheet and fonts inside the file."""

    name, suffix, sheet = "html", ".html", True
    batch_files = (INDEX_HTML,)

    def to_bytes(self, doc: dict, renderer: Renderer | None = None) -> bytes:
        return _renderer(renderer, self).html(doc, True).encode("utf-8")


class PdfFormat(Format):
    name, suffix, sheet = "pdf", ".pdf", True
    batch_files = (PARTY_PDF, INDEX_HTML)

    def to_bytes(self, doc: dict, renderer: Renderer | None = None) -> bytes:
        from chargen.serialize import to_json

        r = _renderer(renderer, self)
        embedded = ((EMBEDDED_CHARACTER, to_json(doc).encode("utf-8")),)  # the sheet is also the character's data
        return r.pdf(r.html(doc, False), f"sheet of '{doc['identity']['name']}'", embedded)


EMBEDDED_CHARACTER = "character.json"  # the name of the document a sheet PDF carries (chargen.run.readers reads it)


def _renderer(renderer: Renderer | None, fmt: Format) -> Renderer:
    """The renderer given: a sheet format draws with the one its caller owns (the run wing's
    :class:`chargen.run.workers.SheetRenderer`)."""
    if renderer is None:
        raise TypeError(f"format {fmt.name} draws a sheet: pass to_bytes the renderer to draw it with")
    return renderer


FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Add ``fmt`` to :data:`FORMATS` (a name already taken is an error)."""
    if fmt.name in FORMATS:
        raise ValueError(f"format '{fmt.name}' is already registered ({FORMATS[fmt.name]!r})")
    if not fmt.name.isidentifier() or not fmt.suffix.startswith("."):
        raise ValueError(f"format '{fmt.name}': a name must be a word and its suffix start with '.'")
    FORMATS[fmt.name] = fmt
    return fmt


for _fmt in (JsonFormat(), YamlFormat(), HtmlFormat(), PdfFormat()):
    register(_fmt)

from chargen.formats import roster, text  # noqa: E402 - they subclass Format

for _fmt in (roster.CsvFormat(), text.TextFormat()):
    register(_fmt)

# the packages whose import registers an engine's own formats (the D100 II interop: meg, foundry, statblock)
BUILTIN = ("chargen.systems.d100.interop",)
for _package in BUILTIN:
    importlib.import_module(_package)


def names(sheet: bool | None = None) -> tuple[str, ...]:
    """The registered formats' names (only the sheet, or only the data, formats if ``sheet`` is given)."""
    return tuple(n for n, f in FORMATS.items() if sheet is None or f.sheet == sheet)


def resolve(wanted: Iterable[str]) -> tuple[Format, ...]:
    """The formats named ``wanted`` (in :data:`FORMATS`); an unknown one is an error."""
    table = FORMATS
    wanted = tuple(wanted)
    unknown = [n for n in wanted if n not in table]
    if unknown:
        raise OutputError(f"no writer for format {', '.join(unknown)} (known: {', '.join(table)})")
    return tuple(table[n] for n in wanted)


def batch_files(formats: Iterable[Format]) -> tuple[str, ...]:
    """The per-batch files ``formats`` ask for, in the order they are written: the sheets'
    (party.pdf first, then index.html), then each data format's own, in the formats' order."""
    formats = tuple(formats)
    asked = {name for f in formats for name in f.batch_files}
    return tuple(name for name in BATCH_FILES if name in asked) + data_batch_files(formats)


def data_batch_files(formats: Iterable[Format]) -> tuple[str, ...]:
    return tuple(f.batch_file for f in formats if f.batch_file)


def all_batch_files() -> frozenset[str]:
    """Every batch file name a registered format can write (what a manifest may list)."""
    return frozenset(BATCH_FILES) | frozenset(data_batch_files(FORMATS.values()))
