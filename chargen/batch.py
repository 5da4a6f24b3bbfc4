"""A whole batch: generate characters and write them, one file per character per format.

Every file is written whole or not at all (:func:`chargen.output.atomic_write`).
The manifest says which characters are complete: it is written before the
first character (``complete: false``, none done), again after 1, 2, 4, 8, ...
characters, when the batch stops for any reason (Ctrl-C, a full disk, a
failing writer) and at the end (``complete: true``). A stopped batch raises
:class:`BatchIncomplete`; ``resume=True`` finishes it, writing only the
characters the manifest does not list, so the folder ends byte for byte as an
uninterrupted run leaves it.

A format is written by a *writer*: a function from the character document to
the file's text or bytes (``{"json": to_json, "yaml": to_yaml}`` by default;
sheet formats add theirs). The file is ``<stem>.<format>``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from chargen import __version__
from chargen.errors import ChargenError, OutputError
from chargen.generate import SCHEMA_VERSION, make_character
from chargen.output import (
    MANIFEST_SCHEMA, atomic_write, character_stem, inside, read_manifest, remove_stale_temporaries, write_manifest,
)
from chargen.rules import RulesModule
from chargen.seeds import SEED_DERIVATION
from chargen.serialize import DUMPERS

DATA_FORMATS = ("json", "yaml")
Writer = Callable[[dict], "str | bytes"]


class BatchIncomplete(OutputError):
    """A batch stopped part-way; the manifest lists what is complete."""

    def __init__(self, message: str, done: int, total: int, exit_code: int = 1):
        super().__init__(message)
        self.done, self.total, self.exit_code = done, total, exit_code


@dataclass
class BatchResult:
    folder: Path
    written: list[dict] = field(default_factory=list)  # manifest entries, by index
    complete: bool = False
    new: int = 0  # characters written by this run (the rest were done before a resume)


def data_writers() -> dict[str, Writer]:
    return dict(DUMPERS)


def identity(module: RulesModule, batch_seed: int, indices: range, formats: tuple[str, ...]) -> dict:
    """What makes a batch the same batch: the manifest's fields that --resume checks."""
    return {
        "schema": MANIFEST_SCHEMA,
        "chargen": __version__,
        "character_schema": SCHEMA_VERSION,
        "system": {"id": module.id, "version": module.version, "rules_hash": module.hash,
                   "overlays": [dict(o) for o in module.overlays]},
        "seed": batch_seed,
        "seed_derivation": SEED_DERIVATION,
        "first_index": indices.start,
        "count": len(indices),
        "formats": list(formats),
    }


def manifest(ident: dict, result: BatchResult) -> dict:
    return {**ident, "complete": result.complete, "characters": result.written}


def write_batch(module: RulesModule, batch_seed: int, indices: range, folder: Path, formats: tuple[str, ...],
                progress: Callable[[int], None] | None = None, writers: Mapping[str, Writer] | None = None,
                resume: bool = False, jobs: int = 1) -> BatchResult:
    """Generate ``indices`` and write each in ``formats``; with ``resume``, only what is not done yet.

    With ``jobs > 1`` and at least ``PARALLEL_MIN`` characters to write, worker
    processes generate and write chunks of characters; the files and the
    manifest are the same bytes as with one process.
    """
    writers = dict(writers) if writers is not None else data_writers()
    unknown = [f for f in formats if f not in writers]
    if unknown:
        raise OutputError(f"no writer for format {', '.join(unknown)} (known: {', '.join(writers)})")
    ident = identity(module, batch_seed, indices, formats)
    result = BatchResult(folder)
    done = _resume_from(folder, ident, indices) if resume else {}
    if not resume:
        write_manifest(folder, manifest(ident, result))
    result.written = [done[i] for i in sorted(done)]
    todo = [i for i in indices if i not in done]
    try:
        for entries in _entries(module, batch_seed, todo, folder, formats, writers, jobs):
            before = len(done)
            for entry in entries:
                done[entry["index"]] = entry
            result.new += len(entries)
            if any(_checkpoint(n) for n in range(before + 1, len(done) + 1)):
                result.written = [done[k] for k in sorted(done)]
                write_manifest(folder, manifest(ident, result))
            if progress:
                progress(len(entries))
    except BaseException as e:
        result.written = [done[k] for k in sorted(done)]
        _stopped(folder, ident, result, len(indices), e)
        raise
    result.written = [done[k] for k in sorted(done)]
    result.complete = True
    write_manifest(folder, manifest(ident, result))
    return result


def _write_character(module: RulesModule, batch_seed: int, index: int, folder: Path,
                     formats: tuple[str, ...], writers: Mapping[str, Writer]) -> dict:
    doc = make_character(module, batch_seed, index)
    stem = character_stem(index, doc["identity"]["name"])
    files, digests = {}, {}
    for fmt in formats:
        data = writers[fmt](doc)
        raw = data.encode("utf-8") if isinstance(data, str) else data
        name = f"{stem}.{fmt}"
        atomic_write(inside(folder, name), raw)
        files[fmt] = name
        digests[fmt] = hashlib.sha256(raw).hexdigest()
    return {"index": index, "name": doc["identity"]["name"], "files": files, "sha256": digests}


PARALLEL_MIN = 500  # below this, starting worker processes costs more than it saves
CHUNK = 250
_JOB: tuple = ()  # what forked workers write: set by the parent before the pool starts


def _entries(module, batch_seed, todo, folder, formats, writers, jobs):
    """Manifest entries for ``todo``, one list per chunk, in index order."""
    if jobs <= 1 or len(todo) < PARALLEL_MIN or not _can_fork():
        for i in todo:
            yield [_write_character(module, batch_seed, i, folder, formats, writers)]
        return
    import multiprocessing

    global _JOB
    _JOB = (module, batch_seed, folder, formats, writers)
    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            yield from pool.imap(_write_chunk, chunks)
    finally:
        _JOB = ()


def _write_chunk(chunk: list[int]) -> list[dict]:
    module, batch_seed, folder, formats, writers = _JOB
    return [_write_character(module, batch_seed, i, folder, formats, writers) for i in chunk]


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _checkpoint(n: int) -> bool:
    """Rewrite the manifest after 1, 2, 4, 8, ... characters: at most twice the final manifest's bytes in all."""
    return n & (n - 1) == 0


def _stopped(folder: Path, ident: dict, result: BatchResult, total: int, cause: BaseException) -> None:
    """Record what is complete, then raise :class:`BatchIncomplete` (for a bug, let it propagate)."""
    saved = ""
    try:
        write_manifest(folder, manifest(ident, result))
    except (ChargenError, OSError) as e:
        saved = f" (the manifest could not be updated: {e}; it lists fewer characters than are complete)"
    if isinstance(cause, KeyboardInterrupt):
        why, code = "interrupted", 130
    elif isinstance(cause, ChargenError):
        why, code = str(cause), 1
    elif isinstance(cause, OSError):
        why, code = f"{cause.strerror or cause}", 1
    else:
        return
    n = len(result.written)
    raise BatchIncomplete(
        f"batch incomplete: {why}; {n} of {total} character{'s' if total != 1 else ''} complete in '{folder}'"
        f"{saved}; run the same command with --resume to finish it", n, total, code) from cause


def _resume_from(folder: Path, ident: dict, indices: range) -> dict[int, dict]:
    """The characters an interrupted batch in ``folder`` completed, after checking it is this batch."""
    old = read_manifest(folder)
    diffs = _differences(old, ident)
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)}); "
                          "give the options and --rules files it was made with")
    remove_stale_temporaries(folder)
    done: dict[int, dict] = {}
    for n, entry in enumerate(old["characters"]):
        _check_entry(entry, n, indices, ident["formats"], folder)
        if all((folder / name).is_file() for name in entry["files"].values()):
            done[entry["index"]] = entry
    return done


def _check_entry(entry: object, n: int, indices: range, formats: list, folder: Path) -> None:
    where = f"{folder / 'manifest.json'}: characters[{n}]"
    if not isinstance(entry, dict) or set(entry) != {"index", "name", "files", "sha256"}:
        raise OutputError(f"{where}: expected index, name, files and sha256")
    i, files = entry["index"], entry["files"]
    if type(i) is not int or i not in indices:
        raise OutputError(f"{where}.index: not an index of this batch ({indices.start} to {indices.stop - 1})")
    if not isinstance(files, dict) or list(files) != formats or not isinstance(entry["sha256"], dict):
        raise OutputError(f"{where}.files: expected one file per format ({', '.join(formats)})")
    for fmt, name in files.items():
        if not isinstance(name, str) or not name.startswith(f"{i:04d}-") or not name.endswith(f".{fmt}"):
            raise OutputError(f"{where}.files.{fmt}: {str(name)[:60]!r} is not this character's file name")
        inside(folder, name)


def _differences(old: dict, ident: dict) -> list[str]:
    """What differs between the manifest's batch and this one, in the user's terms."""
    was, now = dict(old), dict(ident)
    was_sys, now_sys = was.pop("system"), now.pop("system")
    for key in ("id", "version"):
        was[f"system {key}"], now[f"system {key}"] = was_sys.get(key), now_sys[key]
    was["overlays"], now["overlays"] = _overlays(was_sys.get("overlays")), _overlays(now_sys["overlays"])
    was["rules hash"], now["rules hash"] = was_sys.get("rules_hash"), now_sys["rules_hash"]
    if was["overlays"] != now["overlays"] or was["system id"] != now["system id"]:
        del was["rules hash"], now["rules hash"]  # follows from the overlays or system
    return [f"{k}: {_show(was.get(k))} in the manifest, {_show(v)} now" for k, v in now.items() if was.get(k) != v]


def _overlays(records: object) -> str:
    if not isinstance(records, list) or not records:
        return "none"
    return ", ".join(f"{r.get('name')} ({str(r.get('hash'))[:15]}...)" if isinstance(r, dict) else "?" for r in records)


def _show(value: object) -> str:
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def plan_resume(folder: Path, **given) -> dict:
    """The options of the batch in ``folder``: an option not ``given`` (None) is read from its manifest;
    one given must match it."""
    old = read_manifest(folder)
    taken = {
        "system_id": old["system"]["id"],
        "seed": old["seed"],
        "start": old["first_index"],
        "count": old["count"],
        "formats": tuple(old["formats"]),
    }
    diffs = [f"{_OPTION[k]}: {_show(v)} in the manifest, {_show(given[k])} now"
             for k, v in taken.items() if given.get(k) is not None and given[k] != v]
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)})")
    return {**taken, "complete": old["complete"]}


_OPTION = {"system_id": "--system", "seed": "--seed", "start": "--index", "count": "--count", "formats": "--format"}
