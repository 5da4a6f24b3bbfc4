"""Reading a batch's manifest back for ``--resume``: is it this batch, and what is done.

Only :mod:`chargen.run.pipeline` writes ``manifest.json``; this module reads it
(:func:`chargen.run.files.read_manifest` checks its shape), checks that it is the
batch being resumed, and says which characters are complete (listed, every file
there as written), which are listed with a file to make again, and whether
nothing is left to do. A recorded file counts only if it is a regular file in
the folder (not a link, a pipe or a folder) whose SHA-256 is the one recorded;
any other is made again, and :attr:`ResumeState.redone` says how many and why.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from chargen.errors import OutputError
from chargen.formats import Format, all_batch_files, batch_files
from chargen.run.files import character_stem, inside, read_manifest, remove_stale_temporaries


@dataclass(frozen=True)
class ResumeState:
    """What an interrupted batch completed: entries by index, complete or with a file to make again
    (``partial``: the entry with only the files that are there as recorded)."""

    done: dict[int, dict] = field(default_factory=dict)
    partial: dict[int, dict] = field(default_factory=dict)
    complete: bool = False  # the manifest says so and every file it lists is there as recorded
    batch_files: dict | None = None
    redone: dict[str, int] = field(default_factory=dict)  # recorded files not there as written, by reason


MAX_NAME = 200  # a character's name (the character schema's limit)
MISSING, NOT_REGULAR, CHANGED = "missing", "not a regular file", "changed since written"
_SHA256 = re.compile(r"[0-9a-f]{64}")


def resume_state(folder: Path, ident: dict, indices: range, formats: tuple[Format, ...],
                 files: tuple[Format, ...] | None = None) -> ResumeState:
    """The characters an interrupted batch in ``folder`` completed, after checking it is this batch.
    ``files``: the formats with a file per character (default: those of ``formats`` that have one)."""
    files = tuple(f for f in formats if f.per_character) if files is None else files
    old = read_manifest(folder)
    refuse_other_command(old, "party" if "party" in ident else "generate", folder)
    diffs = differences(old, ident)
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)}); "
                          "give the options and --rules files it was made with")
    done, partial, redone = {}, {}, Counter()
    for n, entry in enumerate(old["characters"]):
        _check_entry(entry, n, indices, files, folder)
        if entry["index"] in done or entry["index"] in partial:
            raise OutputError(f"{folder / 'manifest.json'}: characters[{n}].index: {entry['index']} is listed twice")
        bad = {f: why for f, name in entry["files"].items() if (why := check_file(folder, name, entry["sha256"][f]))}
        redone.update(bad.values())
        if not bad:
            done[entry["index"]] = entry
        else:
            partial[entry["index"]] = {**entry, "files": {f: v for f, v in entry["files"].items() if f not in bad},
                                       "sha256": {f: v for f, v in entry["sha256"].items() if f not in bad}}
    wanted = batch_files(formats)
    recorded = _batch_files(old, folder)
    bad_batch = [why for name, digest in recorded.items() if (why := check_file(folder, name, digest))]
    complete = (old["complete"] and len(done) == len(indices) and list(recorded) == list(wanted)
                and not bad_batch and [f.name for f in formats] == old["formats"])
    if not complete:
        redone.update(bad_batch)
        remove_stale_temporaries(folder)
    return ResumeState(done, partial, complete, dict(recorded) if wanted else None, dict(redone))


def refuse_other_command(manifest: Mapping, command: str, folder: Path) -> None:
    """Refuse to resume with ``command`` (generate, party) a batch another command made."""
    from chargen.errors import printable

    party = manifest.get("party")
    if command == "generate" and isinstance(party, dict):
        raise OutputError(printable(f"cannot resume: '{folder}' holds the party of {str(party.get('file'))[:60]}, made "
                                    f"by chargen party; finish it with: chargen party {str(party.get('file'))[:60]} "
                                    f"-o {folder} --resume"))
    if command == "party" and party is None:
        raise OutputError(f"cannot resume: '{folder}' holds a batch made by chargen generate (seed {manifest.get('seed')}, "
                          f"{manifest.get('count')} characters), not a party file's; finish it with: chargen generate "
                          f"-o {folder} --resume")


def _batch_files(old: dict, folder: Path) -> dict:
    recorded = old.get("batch_files", {})
    known = all_batch_files()
    for name, digest in recorded.items():
        if name not in known or not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise OutputError(f"{folder / 'manifest.json'}: batch_files: {str(name)[:60]!r}: "
                              f"expected one of {', '.join(sorted(known))} with its SHA-256 (64 hex digits)")
    return recorded


# The per-character formats whose bytes are cheap to make again (ms a character), cheapest first:
# a recorded file in one of them is compared with what the run makes now (:func:`check_names`).
VERIFIED = ("json", "meg", "foundry_npc", "foundry", "statblock")


def verifier(files: tuple[Format, ...]) -> Format | None:
    """The format :func:`check_names` compares the recorded characters in (None: the batch has none)."""
    return min((f for f in files if f.name in VERIFIED), key=lambda f: VERIFIED.index(f.name), default=None)


def check_names(entries: Mapping[int, dict], make, folder: Path, verify: Format | None = None) -> None:
    """Refuse entries whose character is not the one the run makes at that index (``make(index)``):
    an entry renamed, or copied from another with its files, would leave a folder unlike the run's.
    With ``verify``, an entry's file in that format (there as recorded) must also be the bytes the run
    makes: a manifest whose request, pins or requirements were changed would leave files disagreeing."""
    for i in sorted(entries):
        doc = make(i)
        name = doc["identity"]["name"]
        if entries[i]["name"] != name:
            raise OutputError(f"{folder / 'manifest.json'}: characters: the entry of index {i} names "
                              f"{str(entries[i]['name'])[:40]!r}, but this batch's character {i} is {name[:40]!r} "
                              "(the manifest was changed; make the batch again with --force)")
        digest = entries[i]["sha256"].get(verify.name) if verify is not None else None
        if digest is not None and hashlib.sha256(verify.to_bytes(doc)).hexdigest() != digest:
            raise OutputError(f"{folder / 'manifest.json'}: character {i}'s {entries[i]['files'][verify.name]} is not "
                              "the character the manifest's options make (its request, pins or requirements were "
                              "changed; make the batch again with --force)")


def check_file(folder: Path, name: str, digest: str) -> str | None:
    """Why ``folder/name`` is not the file recorded with SHA-256 ``digest`` (None: it is).

    The name is a plain name (checked with the manifest); the file must be a
    regular file, not a symbolic link to one, and is read without following a
    link or blocking on a pipe."""
    path = inside(folder, name)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # a link, pipe, device or folder: never opened
            return NOT_REGULAR
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return MISSING
    except OSError:  # a link (ELOOP), or nothing this run may read
        return NOT_REGULAR
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return NOT_REGULAR
        h = hashlib.sha256()
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return None if h.hexdigest() == digest else CHANGED


def _check_entry(entry: object, n: int, indices: range, formats: tuple[Format, ...], folder: Path) -> None:
    where = f"{folder / 'manifest.json'}: characters[{n}]"
    if not isinstance(entry, dict) or set(entry) != {"index", "name", "files", "sha256"}:
        raise OutputError(f"{where}: expected index, name, files and sha256")
    i, files = entry["index"], entry["files"]
    if type(i) is not int or i not in indices:
        raise OutputError(f"{where}.index: not an index of this batch ({indices.start} to {indices.stop - 1})")
    names = [f.name for f in formats]
    if not isinstance(files, dict) or list(files) != names or not isinstance(entry["sha256"], dict) \
            or list(entry["sha256"]) != names:
        raise OutputError(f"{where}.files: expected one file per format ({', '.join(names)})")
    if not isinstance(entry["name"], str) or not entry["name"].strip() or len(entry["name"]) > MAX_NAME:
        raise OutputError(f"{where}.name: expected the character's name (1 to {MAX_NAME} characters)")
    stem = character_stem(i, entry["name"])
    for fmt in formats:
        name = files[fmt.name]
        if not isinstance(name, str) or not name.startswith(f"{i:04d}-") or not name.endswith(fmt.suffix):
            raise OutputError(f"{where}.files.{fmt.name}: {str(name)[:60]!r} is not this character's file name")
        inside(folder, name)
        if name != fmt.file_name(stem):  # what the run names this character's file, nothing else
            raise OutputError(f"{where}.files.{fmt.name}: {str(name)[:60]!r} is not this character's file name")
        digest = entry["sha256"][fmt.name]
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise OutputError(f"{where}.sha256.{fmt.name}: expected a SHA-256 (64 hex digits)")


def differences(old: dict, ident: dict) -> list[str]:
    """What differs between the manifest's batch and this one, in the user's terms."""
    was, now = dict(old), dict(ident)
    if "paper" in was:
        was.setdefault("layout", "sheet")  # a manifest from before layouts: full sheets
    was_sys, now_sys = was.pop("system"), now.pop("system")
    for key in ("id", "version"):
        was[f"system {key}"], now[f"system {key}"] = was_sys.get(key), now_sys[key]
    was["overlays"], now["overlays"] = _overlays(was_sys.get("overlays")), _overlays(now_sys["overlays"])
    was["rules hash"], now["rules hash"] = was_sys.get("rules_hash"), now_sys["rules_hash"]
    if was["overlays"] != now["overlays"] or was["system id"] != now["system id"]:
        del was["rules hash"], now["rules hash"]  # follows from the overlays or system
    keys = [*now, *(k for k in _RECORDED_WHEN_SET if k in was and k not in now)]  # one the run now lacks differs too
    return [f"{k}: {_show(was.get(k))} in the manifest, {_show(now.get(k))} now" for k in keys if was.get(k) != now.get(k)]


# what a run's manifest records only when it is set (RunSpec.to_manifest): its absence is a difference
_RECORDED_WHEN_SET = ("request", "party", "cards_per_page", "pdf_variant", "pins", "requires", "compare",
                      "card_backs", "each_pdf", "flavour", "force")


def _overlays(records: object) -> str:
    if not isinstance(records, list) or not records:
        return "none"
    return ", ".join(f"{r.get('name')} ({str(r.get('hash'))[:15]}...)" if isinstance(r, dict) else "?" for r in records)


def _show(value: object) -> str:
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def recorded_options(old: dict, given, folder: Path | None = None) -> dict:
    """The options of the batch a manifest records (:meth:`chargen.run.spec.RunSpec.from_manifest`):
    an option ``given`` (a mapping of the options given again) must match the manifest's; one the
    manifest lacks (a sheet option of a batch without sheets) is the given one, if any."""
    taken = {
        "system": old["system"]["id"],
        "seed": old["seed"],
        "first": old["first_index"],
        "count": old["count"],
        "formats": tuple(old["formats"]),
        "paper": old.get("paper"),
        "party_name": old.get("party_name"),
        "layout": old.get("layout", "sheet" if "paper" in old else None),
        "cards_per_page": old.get("cards_per_page"),
        "pdf_variant": old.get("pdf_variant"),
        "compare": old.get("compare"),
        "card_backs": old.get("card_backs"),
        "each_pdf": old.get("each_pdf"),
        "against": old.get("against"),
    }
    diffs = [f"{_OPTION[k]}: {_show(v)} in the manifest, {_show(given[k])} now"
             for k, v in taken.items() if v is not None and given.get(k) is not None and given[k] != v]
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)})")
    return {k: given.get(k) if v is None else v for k, v in taken.items()}


_OPTION = {"system": "--system", "seed": "--seed", "first": "--index", "count": "--count", "formats": "--format",
           "paper": "--paper", "party_name": "--party-name", "layout": "--layout", "cards_per_page": "--cards-per-page",
           "pdf_variant": "--pdf-variant", "compare": "--compare",
           "card_backs": "--card-backs", "each_pdf": "--each-pdf", "against": "--against"}
