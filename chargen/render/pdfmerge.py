"""Concatenate PDFs into one, streaming: the party PDF reuses the laid-out sheets.

Each input is read with pypdf, its pages and everything they reference are
renumbered and written to the output at once, and the input is let go, so
memory stays flat however many sheets a party has (pypdf's PdfWriter keeps
every page in memory until the end). Inputs added as ``front`` matter (the
party cover, written last because its roster needs every sheet's page count)
come first in page order and are labelled i, ii, ...; the pages after them are
numbered from 1. At the close come the page tree, the page labels, one
bookmark per input, the catalogue, the cross-reference table and a trailer
whose document identifier is the SHA-256 of the bytes written: the same
inputs give the same file. Files embedded with :meth:`PdfConcatenator.embed`
(each character's JSON document, the batch manifest) are written as they
come and listed, by name, in the catalogue's ``EmbeddedFiles`` name tree.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
from pathlib import Path
from typing import BinaryIO

from pypdf import PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import (
    ArrayObject, ByteStringObject, DictionaryObject, IndirectObject, NameObject, NumberObject, PdfObject,
    StreamObject, TextStringObject,
)

from chargen.errors import RenderError
from chargen.render.contain.bounds import MAX_TAGS
from chargen.render.contain.names import without_bidi

_SKIP_PAGE_KEYS = {"/Parent", "/StructParents"}
# What a sheet PDF read back from a folder (a resumed batch's) may be: chargen's largest sheet (the
# 100,000-HP one) is 104 KB and 2 pages; a template's sheet is at most MAX_TAGS elements, so pages.
MAX_INPUT_BYTES = 100_000_000
MAX_INPUT_PAGES = MAX_TAGS


class PdfConcatenator:
    """Writes one PDF to ``out`` from whole PDFs added one after the other."""

    def __init__(self, out: BinaryIO, title: str, producer: str = "chargen"):
        self.out = out
        self.pos = 0
        self.digest = hashlib.sha256()
        self.offsets: list[int | None] = [None]  # by object number; 0 is the free head
        self.kids: list[int] = []
        self.front: list[int] = []  # front matter's pages, first in page order
        self.bookmarks: list[tuple[str, int]] = []
        self.front_bookmarks: list[tuple[str, int]] = []
        self.title, self.producer = title, producer
        self.embedded: list[tuple[str, int]] = []  # (name, file specification's object number)
        self.catalog, self.page_tree = self._reserve(), self._reserve()
        self._write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    @property
    def page_count(self) -> int:
        return len(self.front) + len(self.kids)

    def _reserve(self) -> int:
        self.offsets.append(None)
        return len(self.offsets) - 1

    def _write(self, data: bytes) -> None:
        self.out.write(data)
        self.digest.update(data)
        self.pos += len(data)

    def _write_object(self, number: int, obj: PdfObject) -> None:
        buffer = io.BytesIO()
        obj.write_to_stream(buffer)
        self.offsets[number] = self.pos
        self._write(b"%d 0 obj\n%s\nendobj\n" % (number, buffer.getvalue()))

    def add(self, source: Path | bytes, bookmark: str | None = None, front: bool = False) -> int:
        """Append every page of one PDF (a path or its bytes), after the front matter if ``front``
        else at the end; returns how many pages it had."""
        label = "a laid-out part of party.pdf" if isinstance(source, bytes) else f"'{source}'"
        try:
            with _quiet_pypdf():
                return self._add(_reader(source, label), bookmark, front, label)
        except (PyPdfError, RecursionError, ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
            raise RenderError(f"{label} is not a sheet PDF chargen can read ({str(e)[:80] or type(e).__name__}): "
                              "delete it to have it drawn again") from None

    def _add(self, reader: PdfReader, bookmark: str | None, front: bool, label: str) -> int:
        pages = list(reader.pages)
        refs = [(p.indirect_reference.idnum, p.indirect_reference.generation) for p in pages]
        if len(pages) > MAX_INPUT_PAGES or len(set(refs)) != len(refs):
            raise RenderError(f"{label} is not a sheet PDF chargen wrote ({len(pages):,} pages, "
                              f"{len(refs) - len(set(refs)):,} of them repeated; a sheet has at most "
                              f"{MAX_INPUT_PAGES:,}, each once): delete it to have it drawn again")
        copier = _Copier(self)
        numbers = [copier.claim(page.indirect_reference) for page in pages]
        for page, number in zip(pages, numbers):
            entries = {NameObject(k): copier.copy(v) for k, v in page.items() if k not in _SKIP_PAGE_KEYS}
            entries[NameObject("/Parent")] = IndirectObject(self.page_tree, 0, None)
            page_dict = DictionaryObject(entries)
            copier.drain()
            self._write_object(number, page_dict)
        copier.drain()
        if bookmark is not None and numbers:
            (self.front_bookmarks if front else self.bookmarks).append((bookmark, numbers[0]))
        (self.front if front else self.kids).extend(numbers)
        return len(numbers)

    def embed(self, name: str, data: bytes) -> None:
        """Embed the file ``name`` (compressed, no dates: the same data gives the same bytes)."""
        raw = StreamObject()
        raw.set_data(data)
        stream = raw.flate_encode()
        stream[NameObject("/Type")] = NameObject("/EmbeddedFile")
        stream[NameObject("/Subtype")] = NameObject("/application#2Fjson")
        stream[NameObject("/Params")] = DictionaryObject({NameObject("/Size"): NumberObject(len(data))})
        data_number, spec_number = self._reserve(), self._reserve()
        self._write_object(data_number, stream)
        self._write_object(spec_number, DictionaryObject({
            NameObject("/Type"): NameObject("/Filespec"), NameObject("/F"): TextStringObject(name),
            NameObject("/UF"): TextStringObject(name),
            NameObject("/EF"): DictionaryObject({NameObject("/F"): IndirectObject(data_number, 0, None)})}))
        self.embedded.append((name, spec_number))

    def close(self) -> None:
        ref = lambda n: IndirectObject(n, 0, None)  # noqa: E731
        kids = self.front + self.kids
        self.bookmarks = self.front_bookmarks + self.bookmarks
        self._write_object(self.page_tree, DictionaryObject({
            NameObject("/Type"): NameObject("/Pages"), NameObject("/Count"): NumberObject(len(kids)),
            NameObject("/Kids"): ArrayObject(ref(k) for k in kids)}))
        catalog = {NameObject("/Type"): NameObject("/Catalog"), NameObject("/Pages"): ref(self.page_tree)}
        if self.front:  # i, ii, ... for the front matter, then 1, 2, 3, ...
            catalog[NameObject("/PageLabels")] = DictionaryObject({NameObject("/Nums"): ArrayObject([
                NumberObject(0), DictionaryObject({NameObject("/S"): NameObject("/r")}),
                NumberObject(len(self.front)), DictionaryObject({NameObject("/S"): NameObject("/D")})])})
        if self.embedded:  # a name tree's keys in sorted order
            names = ArrayObject()
            for name, number in sorted(self.embedded):
                names.extend([TextStringObject(name), ref(number)])
            catalog[NameObject("/Names")] = DictionaryObject({NameObject("/EmbeddedFiles"): DictionaryObject(
                {NameObject("/Names"): names})})
        if self.bookmarks:
            catalog[NameObject("/Outlines")] = ref(self._write_bookmarks())
            catalog[NameObject("/PageMode")] = NameObject("/UseOutlines")
        self._write_object(self.catalog, DictionaryObject(catalog))
        info = self._reserve()
        self._write_object(info, DictionaryObject({NameObject("/Title"): TextStringObject(without_bidi(self.title)),
                                                   NameObject("/Producer"): TextStringObject(self.producer)}))
        self._write_trailer(info)

    def _write_bookmarks(self) -> int:
        root = self._reserve()
        items = [self._reserve() for _ in self.bookmarks]
        for i, ((title, page), number) in enumerate(zip(self.bookmarks, items)):
            entry = {NameObject("/Title"): TextStringObject(without_bidi(title)), NameObject("/Parent"): IndirectObject(root, 0, None),
                     NameObject("/Dest"): ArrayObject([IndirectObject(page, 0, None), NameObject("/Fit")])}
            if i:
                entry[NameObject("/Prev")] = IndirectObject(items[i - 1], 0, None)
            if i + 1 < len(items):
                entry[NameObject("/Next")] = IndirectObject(items[i + 1], 0, None)
            self._write_object(number, DictionaryObject(entry))
        self._write_object(root, DictionaryObject({
            NameObject("/Type"): NameObject("/Outlines"), NameObject("/Count"): NumberObject(len(items)),
            NameObject("/First"): IndirectObject(items[0], 0, None),
            NameObject("/Last"): IndirectObject(items[-1], 0, None)}))
        return root

    def _write_trailer(self, info: int) -> None:
        missing = [n for n, offset in enumerate(self.offsets) if n and offset is None]
        if missing:  # a bug, not a user error: every reserved number must be written
            raise AssertionError(f"PDF objects reserved but not written: {missing[:5]}")
        identifier = ByteStringObject(self.digest.digest()[:16])
        xref_at = self.pos
        lines = [b"xref\n0 %d\n" % len(self.offsets), b"0000000000 65535 f \n"]
        lines += [b"%010d 00000 n \n" % offset for offset in self.offsets[1:]]
        self._write(b"".join(lines))
        trailer = DictionaryObject({
            NameObject("/Size"): NumberObject(len(self.offsets)),
            NameObject("/Root"): IndirectObject(self.catalog, 0, None),
            NameObject("/Info"): IndirectObject(info, 0, None),
            NameObject("/ID"): ArrayObject([identifier, identifier])})
        buffer = io.BytesIO()
        trailer.write_to_stream(buffer)
        self._write(b"trailer\n" + buffer.getvalue() + b"\nstartxref\n%d\n%%%%EOF\n" % xref_at)


def _reader(source: Path | bytes, label: str) -> PdfReader:
    """A reader of ``source`` (a file is refused past ``MAX_INPUT_BYTES``, before it is read)."""
    if isinstance(source, bytes):
        return PdfReader(io.BytesIO(source))
    with open(source, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_INPUT_BYTES:
            raise RenderError(f"{label} is not a sheet PDF chargen wrote ({size:,} bytes; a sheet has at most "
                              f"{MAX_INPUT_BYTES:,}): delete it to have it drawn again")
        return PdfReader(io.BytesIO(f.read(MAX_INPUT_BYTES + 1)))


@contextlib.contextmanager
def _quiet_pypdf():
    """pypdf's warnings about a damaged file stay off stderr: the error says it in one line."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


class _Copier:
    """Copies one input's objects into the output, renumbered, each written once."""

    def __init__(self, writer: PdfConcatenator):
        self.writer = writer
        self.numbers: dict[tuple[int, int], int] = {}
        self.pending: list[IndirectObject] = []

    def claim(self, ref: IndirectObject) -> int:
        """A number for an object the caller writes itself (a page)."""
        key = (ref.idnum, ref.generation)
        self.numbers[key] = self.writer._reserve()
        return self.numbers[key]

    def number_of(self, ref: IndirectObject) -> int:
        key = (ref.idnum, ref.generation)
        if key not in self.numbers:
            self.numbers[key] = self.writer._reserve()
            self.pending.append(ref)
        return self.numbers[key]

    def copy(self, obj):
        if isinstance(obj, IndirectObject):
            return IndirectObject(self.number_of(obj), 0, None)
        if isinstance(obj, StreamObject):
            stream = StreamObject()
            stream._data = obj._data
            stream.update({NameObject(k): self.copy(v) for k, v in obj.items() if k != "/Length"})
            return stream
        if isinstance(obj, DictionaryObject):
            return DictionaryObject({NameObject(k): self.copy(v) for k, v in obj.items()})
        if isinstance(obj, ArrayObject):
            return ArrayObject(self.copy(v) for v in obj)
        return obj

    def drain(self) -> None:
        """Write every object reached so far, and what they reach in turn."""
        while self.pending:
            ref = self.pending.pop()
            self.writer._write_object(self.numbers[(ref.idnum, ref.generation)], self.copy(ref.get_object()))
