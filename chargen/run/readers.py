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
import io
import logging
from collections.abc import Callable
from pathlib import Path

from chargen.errors import CharacterError, RulesError
from chargen.formats import EMBEDDED_CHARACTER
from chargen.run.files import MANIFEST, MANIFEST_SCHEMA

MAX_PDF_BYTES = 500_000_000  # a party.pdf of thousands of sheets
MAX_EMBEDDED_BYTES = 1_000_000  # one character document
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
        reader = PdfReader(io.BytesIO(data), strict=False)
        out = {}
        for name, contents in reader.attachments.items():
            blob = contents[0] if contents else b""
            if len(blob) > MAX_EMBEDDED_BYTES:
                raise CharacterError(f"{label}#{name}: embedded file larger than {MAX_EMBEDDED_BYTES} bytes")
            out[name] = blob
        return out
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise CharacterError(f"{label}: not a PDF chargen can read ({str(e)[:80] or type(e).__name__})") from None


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

