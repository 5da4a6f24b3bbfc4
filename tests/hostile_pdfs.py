"""Hostile PDFs for the readers and for ``--resume`` (issue 26, finding 10), shared by the tests and
bench/bench_hostile.py: each function writes one file and returns its path."""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

from pypdf.generic import DictionaryObject, IndirectObject, NameObject, TextStringObject

from chargen.render.pdfmerge import PdfConcatenator


def _objects(objects: list[bytes], root: int) -> bytes:
    """A PDF of ``objects`` (numbered from 1) with a valid cross-reference table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (n, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref))
    return out.getvalue()


def deep_page_tree(path: Path, depth: int = 5_000) -> Path:
    """A page tree ``depth`` /Pages levels deep above one page."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        n = level + 2
        objects.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1 %s>>"
                       % (n + 1, b"" if level == 0 else b"/Parent %d 0 R " % (n - 1)))
    objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 10 10] >>" % (depth + 1))
    path.write_bytes(_objects(objects, 1))
    return path


def one_page_many_times(path: Path, times: int = 200_000) -> Path:
    """A page tree whose one /Kids array names the same page ``times`` times."""
    kids = b" ".join([b"3 0 R"] * times)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, times),
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>"]
    path.write_bytes(_objects(objects, 1))
    return path


def garbage(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.7\n" + hashlib.sha256(b"x").digest() * 4000)
    return path


def sparse(path: Path, size: int = 3_000_000_000) -> Path:
    """A sparse file of ``size`` bytes starting %PDF- (no disk blocks)."""
    with open(path, "wb") as f:
        f.write(b"%PDF-1.7\n")
        f.truncate(size)
    return path


def embedding(path: Path, sheet: bytes, docs: list[bytes]) -> Path:
    """A PDF of ``sheet``'s pages embedding each of ``docs`` as its own file, as party.pdf does."""
    with open(path, "wb") as f:
        out = PdfConcatenator(f, "x")
        out.add(sheet)
        for i, doc in enumerate(docs):
            out.embed(f"{i:04d}-x.json", doc)
        out.close()
    return path


def one_stream_many_names(path: Path, sheet: bytes, doc: bytes, names: int = 2_000) -> Path:
    """``doc`` embedded once and named ``names`` times (each name a file specification of that one stream)."""
    with open(path, "wb") as f:
        out = PdfConcatenator(f, "x")
        out.add(sheet)
        out.embed("0000-x.json", doc)
        _, spec = out.embedded[0]
        for i in range(1, names):
            number = out._reserve()
            out._write_object(number, DictionaryObject({
                NameObject("/Type"): NameObject("/Filespec"), NameObject("/F"): TextStringObject(f"{i:04d}-x.json"),
                NameObject("/EF"): DictionaryObject({NameObject("/F"): IndirectObject(spec - 1, 0, None)})}))
            out.embedded.append((f"{i:04d}-x.json", number))
        out.close()
    return path


def distinct_docs(doc: dict, count: int) -> list[bytes]:
    """``count`` copies of ``doc``, each with its own index and name (as a batch's characters)."""
    out = []
    for i in range(count):
        d = json.loads(json.dumps(doc))
        d["seed"]["index"] = i
        d["identity"]["name"] = f"Copy {i}"
        out.append(json.dumps(d).encode())
    return out


def deep_json(doc: dict, depth: int = 900) -> bytes:
    """``doc`` with a list nested ``depth`` deep under its notes."""
    d = json.loads(json.dumps(doc))
    d["notes"] = "x"
    nested: list = []
    for _ in range(depth):
        nested = [nested]
    d["extra"] = nested
    return json.dumps(d).encode()


def plant(folder: Path, name: str, data_path: Path) -> None:
    """Put the file at ``data_path`` in a finished batch's folder as its sheet ``name``, and record it
    in the manifest (its SHA-256, the batch not complete, party.pdf not written): what ``--resume``
    then reads is the hostile file, as recorded."""
    target = folder / name
    os.replace(data_path, target)
    h = hashlib.sha256()
    with open(target, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    manifest = json.loads((folder / "manifest.json").read_text())
    for entry in manifest["characters"]:
        if entry["files"].get("pdf") == name:
            entry["sha256"]["pdf"] = h.hexdigest()
    manifest["complete"] = False
    manifest.pop("batch_files", None)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))
    for batch_file in ("party.pdf", "index.html"):
        (folder / batch_file).unlink(missing_ok=True)

