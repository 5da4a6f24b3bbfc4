"""A whole batch: generate characters and write them, one file per character per format.

The manifest is rewritten at the end (and when a batch stops part-way), so it
always says which characters are complete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from chargen import __version__
from chargen.generate import SCHEMA_VERSION, make_character
from chargen.output import atomic_write, character_stem, inside, write_manifest
from chargen.rules import RulesModule
from chargen.seeds import SEED_DERIVATION
from chargen.serialize import DUMPERS

DATA_FORMATS = ("json", "yaml")


@dataclass
class BatchResult:
    folder: Path
    written: list[dict] = field(default_factory=list)  # manifest entries
    complete: bool = False


def manifest(module: RulesModule, batch_seed: int, indices: range, result: BatchResult, extra: dict | None = None) -> dict:
    out = {
        "schema": "chargen-batch/1",
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


def write_character(module: RulesModule, batch_seed: int, index: int, folder: Path,
                    data_formats: tuple[str, ...]) -> dict:
    """Generate character ``index`` and write it in each data format; return its manifest entry."""
    doc = make_character(module, batch_seed, index)
    stem = character_stem(index, doc["identity"]["name"])
    files = {}
    for fmt in data_formats:
        name = f"{stem}.{fmt}"
        atomic_write(inside(folder, name), DUMPERS[fmt](doc))
        files[fmt] = name
    return {"index": index, "name": doc["identity"]["name"], "files": files}


def _write_chunk(args: tuple) -> list[dict]:
    module, batch_seed, chunk, folder, data_formats = args
    return [write_character(module, batch_seed, i, folder, data_formats) for i in chunk]


PARALLEL_MIN = 500  # below this, starting worker processes costs more than it saves
CHUNK = 250


def write_batch(module: RulesModule, batch_seed: int, indices: range, folder: Path, formats: tuple[str, ...],
                jobs: int = 1, progress: Callable[[int], None] | None = None) -> BatchResult:
    """Generate ``indices`` and write each in the data ``formats``; return what was written.

    With ``jobs > 1`` and a large batch, chunks of characters are generated and
    written by worker processes; the manifest lists them in index order either way.
    """
    result = BatchResult(folder)
    data_formats = tuple(f for f in formats if f in DATA_FORMATS)
    try:
        if jobs > 1 and len(indices) >= PARALLEL_MIN:
            _parallel(module, batch_seed, indices, folder, data_formats, jobs, result, progress)
        else:
            for i in indices:
                result.written.append(write_character(module, batch_seed, i, folder, data_formats))
                if progress:
                    progress(1)
        result.complete = True
    finally:
        write_manifest(folder, manifest(module, batch_seed, indices, result))
    return result


def _parallel(module, batch_seed, indices, folder, data_formats, jobs, result, progress) -> None:
    import multiprocessing

    chunks = [indices[i:i + CHUNK] for i in range(0, len(indices), CHUNK)]
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(min(jobs, len(chunks))) as pool:
        for entries in pool.imap(_write_chunk, [(module, batch_seed, c, folder, data_formats) for c in chunks]):
            result.written.extend(entries)
            if progress:
                progress(len(entries))
