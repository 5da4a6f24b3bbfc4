"""Reading characters back from any file chargen writes or imports: :func:`read_documents`.

* chargen JSON or YAML: one character document (validated, with the built-in
  rules' bounds when it was made with them), or a batch manifest (no characters);
* MEG JSON, an enemies list or a party (:mod:`chargen.systems.d100.interop.meg_read`): one
  d100 document per NPC; what cannot be read is one line per field, handed to ``notice``;
* a PDF chargen wrote: a sheet carries its character as the embedded file
  ``character.json``; ``party.pdf`` carries ``manifest.json`` and every
  character as ``<stem>.json``. A PDF without one is an error that says so.

Every file is read with a size cap; a document is parsed as
:func:`chargen.serialize.parse_document` parses it (duplicate keys, NaN and deep
nesting refused), so a file from elsewhere cannot do more than fail with one line.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import zlib
from collections.abc import Callable
from pathlib import Path

from chargen.errors import CharacterError, RulesError
from chargen.formats import EMBEDDED_CHARACTER
from chargen.run.files import MANIFEST, MANIFEST_SCHEMA

MAX_PDF_BYTES = 500_000_000  # a party.pdf of thousands of sheets
MAX_EMBEDDED_BYTES = 1_000_000  # one character document
EMBEDDED_RATIO = 20  # embedded files decompressed, at most this many times the PDF's size
# characters read back from one PDF: each is parsed and validated (about 15 ms and 100 KB of memory),
# so a 15 MB PDF of 5,000 took minutes and 400 MB; a 2,000-sheet batch's party.pdf still reads back
MAX_READ = 2_000
Notice = Callable[[str], None]


def _ignore(message: str) -> None:
    pass


def read_documents(path: Path, notice: Notice | None = None) -> list[tuple[str, dict]]:
    """Every character in the file at ``path``, as ``(label, document)``, in file order
    (a batch manifest holds none: ``[]``)."""
    if path.suffix.lower() == ".pdf":
        return read_pdf(path)
    return read_text_documents(_text(path), str(path), notice or _ignore)


def read_text_documents(text: str, label: str, notice: Notice | None = None) -> list[tuple[str, dict]]:
    """The characters in a JSON or YAML text (chargen's own, a manifest, MEG, or Foundry brp actors)."""
    from chargen.systems.d100.interop import foundry_read, meg_read
    from chargen.serialize import parse_document

    stripped = text.lstrip()
    if stripped.startswith("["):
        data = _json(text, label)
        if foundry_read.is_foundry(data):
            return foundry_read.read_foundry(data, label, notice or _ignore)
        if meg_read.is_meg(data):
            return meg_read.read_meg(data, label, notice or _ignore)
        raise CharacterError(f"{label}: a JSON list that is neither a MEG enemies list (NPC objects with name and "
                             f"stats) nor Foundry brp actors (objects with type, system and items)")
    if stripped.startswith("{"):
        data = _json(text, label)
        if isinstance(data, dict) and data.get("schema") == MANIFEST_SCHEMA:
            return []
        if meg_read.is_meg(data):
            return meg_read.read_meg(data, label, notice or _ignore)
        if foundry_read.is_foundry(data):
            return foundry_read.read_foundry(data, label, notice or _ignore)
    return [(label, parse_document(text, label))]


def read_pdf(path: Path) -> list[tuple[str, dict]]:
    """The characters a PDF chargen wrote carries (a sheet: one; party.pdf: every one)."""
    from chargen.serialize import parse_document

    data = _read(path, MAX_PDF_BYTES)
    if not data.startswith(b"%PDF-"):
        raise CharacterError(f"{path}: not a PDF (it does not start with %PDF-)")
    files = embedded_files(data, str(path))
    names = [n for n in files if n.endswith(".json") and n != MANIFEST]
    if len(names) > MAX_READ:
        raise CharacterError(f"{path}: embeds {len(names):,} characters (chargen reads back at most {MAX_READ:,} "
                             "from one PDF; read a larger batch from its sheet PDFs or JSON files)")
    if not names:
        raise CharacterError(f"{path}: a PDF with no character in it (chargen's PDFs carry "
                             f"'{EMBEDDED_CHARACTER}'; this one was made elsewhere or before they did)")
    return [(f"{path}#{name}", parse_document(_decode(files[name], f"{path}#{name}"), f"{path}#{name}"))
            for name in names]


def embedded_files(data: bytes, label: str) -> dict[str, bytes]:
    """A PDF's embedded files, by name, in the PDF's order (a file over the cap is refused)."""
    with _quiet("pypdf"):
        return _attachments(data, label)


def _attachments(data: bytes, label: str) -> dict[str, bytes]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        return _bounded_attachments(PdfReader(io.BytesIO(data), strict=False), len(data), label)
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError, zlib.error) as e:
        raise CharacterError(f"{label}: not a PDF chargen can read ({str(e)[:80] or type(e).__name__})") from None


def _bounded_attachments(reader, size: int, label: str) -> dict[str, bytes]:
    """The embedded files, each read within bounds that scale with what chargen writes: at most
    ``MAX_READ`` characters and a manifest; each file its own stream, under its own name, with
    its own contents; each at most ``MAX_EMBEDDED_BYTES`` and all together at most
    ``EMBEDDED_RATIO`` times the PDF's size once decompressed."""
    out: dict[str, bytes] = {}
    streams, digests, total = set(), set(), 0
    for entry in reader.attachment_list:
        name = str(entry.name)
        if len(out) > MAX_READ:
            raise CharacterError(f"{label}: more than {MAX_READ + 1:,} embedded files (chargen reads back at most "
                                 f"{MAX_READ:,} characters and a manifest from one PDF; read a larger batch from "
                                 "its sheet PDFs or JSON files)")
        ref = entry.pdf_object["/EF"].get("/F")
        key = (ref.idnum, ref.generation) if hasattr(ref, "idnum") else None
        if name in out or key is None or key in streams:
            raise CharacterError(f"{label}#{name[:60]}: embedded twice (chargen embeds each file once)")
        streams.add(key)
        blob = _contents(ref.get_object(), f"{label}#{name[:60]}")
        total += len(blob)
        if total > EMBEDDED_RATIO * size:
            raise CharacterError(f"{label}: its embedded files decompress to more than {EMBEDDED_RATIO} times "
                                 "its size (chargen's compress about 5 to 1)")
        digest = hashlib.sha256(blob).digest()
        if digest in digests:
            raise CharacterError(f"{label}#{name[:60]}: the same contents as another embedded file "
                                 "(chargen embeds each character once)")
        digests.add(digest)
        out[name] = blob
    return out


def _contents(stream, label: str) -> bytes:
    """An embedded file's bytes, decompressed no further than ``MAX_EMBEDDED_BYTES`` (chargen's are
    Flate-compressed, or stored)."""
    raw = stream._data  # the stream as stored, before its filter
    kind = stream.get("/Filter")
    if kind is None:
        blob = raw
    elif kind == "/FlateDecode" and "/DecodeParms" not in stream:
        inflate = zlib.decompressobj()
        blob = inflate.decompress(raw, MAX_EMBEDDED_BYTES + 1)
    else:
        raise CharacterError(f"{label}: an embedded file chargen does not write (filter {str(kind)[:40]})")
    if len(blob) > MAX_EMBEDDED_BYTES:
        raise CharacterError(f"{label}: embedded file larger than {MAX_EMBEDDED_BYTES} bytes")
    return blob


@contextlib.contextmanager
def _quiet(name: str):
    """Keep a library's warnings about a damaged file off stderr: the error says it in one line."""
    logger = logging.getLogger(name)
    handler, propagate = logging.NullHandler(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _read(path: Path, cap: int) -> bytes:
    from chargen.rules.yamlio import read_bytes

    return read_bytes(path, str(path), cap, CharacterError)


def _text(path: Path) -> str:
    from chargen.rules.yamlio import read_text

    try:
        return read_text(path, str(path))
    except RulesError as e:
        raise CharacterError(str(e)) from None


def _decode(raw: bytes, label: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CharacterError(f"{label}: not UTF-8 text") from None


def _json(text: str, label: str) -> object:
    from chargen.serialize import _read_json

    return _read_json(text, label)

