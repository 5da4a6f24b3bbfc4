"""Reading a batch's manifest back for ``--resume``: is it this batch, and what is done.

Only :mod:`chargen.batch` writes ``manifest.json``; this module reads it
(:func:`chargen.output.read_manifest` checks its shape), checks that it is the
batch being resumed, and says which characters are complete (listed, every file
present), which are listed with a file gone, and whether nothing is left to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from chargen.errors import OutputError
from chargen.formats import Format, batch_files
from chargen.output import inside, read_manifest, remove_stale_temporaries


@dataclass(frozen=True)
class ResumeState:
    """What an interrupted batch completed: entries by index, complete or with a file gone."""

    done: dict[int, dict] = field(default_factory=dict)
    partial: dict[int, dict] = field(default_factory=dict)
    complete: bool = False  # the manifest says so and every file it lists is there
    batch_files: dict | None = None


def resume_state(folder: Path, ident: dict, indices: range, formats: tuple[Format, ...]) -> ResumeState:
    """The characters an interrupted batch in ``folder`` completed, after checking it is this batch."""
    old = read_manifest(folder)
    diffs = _differences(old, ident)
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)}); "
                          "give the options and --rules files it was made with")
    names = [f.name for f in formats]
    done, partial = {}, {}
    for n, entry in enumerate(old["characters"]):
        _check_entry(entry, n, indices, formats, folder)
        whole = all((folder / name).is_file() for name in entry["files"].values())
        (done if whole else partial)[entry["index"]] = entry
    wanted = batch_files(formats)
    recorded = old.get("batch_files") if isinstance(old.get("batch_files"), dict) else {}
    complete = (old["complete"] and len(done) == len(indices) and list(recorded) == list(wanted)
                and all((folder / name).is_file() for name in wanted) and names == old["formats"])
    if not complete:
        remove_stale_temporaries(folder)
    return ResumeState(done, partial, complete, dict(recorded) if wanted else None)


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
    for fmt in formats:
        name = files[fmt.name]
        if not isinstance(name, str) or not name.startswith(f"{i:04d}-") or not name.endswith(fmt.suffix):
            raise OutputError(f"{where}.files.{fmt.name}: {str(name)[:60]!r} is not this character's file name")
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
    one given must match it. The sheet options (paper, party name) are there only for a batch of sheets."""
    old = read_manifest(folder)
    taken = {
        "system_id": old["system"]["id"],
        "seed": old["seed"],
        "start": old["first_index"],
        "count": old["count"],
        "formats": tuple(old["formats"]),
        "paper": old.get("paper"),
        "party_name": old.get("party_name"),
    }
    diffs = [f"{_OPTION[k]}: {_show(v)} in the manifest, {_show(given[k])} now"
             for k, v in taken.items() if v is not None and given.get(k) is not None and given[k] != v]
    if diffs:
        raise OutputError(f"cannot resume: '{folder}' holds a different batch ({'; '.join(diffs)})")
    return {**taken, "complete": old["complete"]}


_OPTION = {"system_id": "--system", "seed": "--seed", "start": "--index", "count": "--count", "formats": "--format",
           "paper": "--paper", "party_name": "--party-name"}
