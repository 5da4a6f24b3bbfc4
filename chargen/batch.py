"""A whole batch: generate characters and write them, one file per character per format.

The manifest is rewritten at the end (and when a batch stops part-way), so it
always says which characters are complete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from chargen import __version__
from chargen.generate import SCHEMA_VERSION, make_character
from chargen.output import atomic_write, character_stem, inside, write_manifest
from chargen.rules import RulesModule
from chargen.seeds import SEED_DERIVATION
from chargen.serialize import DUMPERS

DATA_FORMATS = ("json", "yaml")
SHEET_FORMATS = ("html", "pdf")  # rendered by chargen.render.bundle
MANIFEST_SCHEMA = "chargen-batch/1"


@dataclass
class BatchResult:
    folder: Path
    written: list[dict] = field(default_factory=list)  # manifest entries
    complete: bool = False
    bundle: dict = field(default_factory=dict)  # party.pdf and index.html, when sheets were rendered


def manifest(module: RulesModule, batch_seed: int, indices: range, result: BatchResult, extra: dict | None = None) -> dict:
    out = {
        "schema": MANIFEST_SCHEMA,
        "chargen": __version__,
        "character_schema": SCHEMA_VERSION,
        "system": {"id": module.id, "version": module.version, "rules_hash": module.hash,
                   "overlays": [dict(o) for o in module.overlays]},
        "seed": batch_seed,
        "seed_derivation": SEED_DERIVATION,
        "first_index": indices.start,
        "count": len(indices),
        "complete": result.complete,
        "characters": result.written,
    }
    if extra:
        out.update(extra)
    return out


def write_batch(module: RulesModule, batch_seed: int, indices: range, folder: Path, formats: tuple[str, ...],
                progress: Callable[[int], None] | None = None, sheets=None) -> BatchResult:
    """Generate ``indices`` and write each in ``formats``; return what was written.

    Data files are written as each character is made; sheet formats (html,
    pdf) go to :func:`chargen.render.bundle.write_sheets` with the options
    ``sheets`` (a ``SheetOptions``), which also writes party.pdf and index.html.
    """
    result = BatchResult(folder)
    data_formats = [f for f in formats if f in DATA_FORMATS]
    sheet_formats = tuple(f for f in formats if f in SHEET_FORMATS)

    def made():
        for i in indices:
            doc = make_character(module, batch_seed, i)
            stem = character_stem(i, doc["identity"]["name"])
            files = {}
            for fmt in data_formats:
                name = f"{stem}.{fmt}"
                atomic_write(inside(folder, name), DUMPERS[fmt](doc))
                files[fmt] = name
            result.written.append({"index": i, "name": doc["identity"]["name"], "files": files})
            if progress and not sheet_formats:
                progress(1)
            yield stem, doc, files

    try:
        if sheet_formats:
            from chargen.render.bundle import SheetOptions, write_sheets

            options = replace(sheets or SheetOptions(), formats=sheet_formats)
            bundle = write_sheets(made(), folder, options, progress)
            for entry, summary in zip(result.written, bundle.sheets):
                entry["files"] = summary.files
            result.bundle = bundle.files
        else:
            for _ in made():
                pass
        result.complete = True
    finally:
        write_manifest(folder, manifest(module, batch_seed, indices, result,
                                        {"bundle": result.bundle} if sheet_formats else None))
    return result
