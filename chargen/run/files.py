"""Writing a batch to a folder: safe names, atomic files, a manifest.

Every file is written to a temporary name in the same folder and renamed into
place when complete, so a reader (or a crash) never sees half a file; a
temporary left by a killed process is removed when the batch is resumed.
Renaming replaces a symbolic link planted at the target name, never the file
it points to. The manifest lists what is complete, one character a line; only
:mod:`chargen.run.pipeline` writes it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from chargen.errors import OutputError
from chargen.seeds import MAX_COUNT, MAX_INDEX, MAX_SEED

MANIFEST = "manifest.json"
MANIFEST_SCHEMA = "chargen-batch/1"
TEMP_PREFIX, TEMP_SUFFIX = ".tmp-", ".part"
_UNSAFE = re.compile(r"[^a-z0-9]+")


def slug(name: str, max_len: int = 40) -> str:
    """A file-name-safe slug: ASCII letters and digits joined by '-', never empty, never a path.

    Each character is its NFKD decomposition's ASCII part (``José`` -> ``jose``: what chargen
    has always written) or, where that is nothing, its transliteration by ``anyascii``
    (``Ærwyn`` -> ``aerwyn``, ``Владимир`` -> ``vladimir``, ``山田`` -> ``shantian``, Arabic,
    Greek, kana, ...). A name of another script that still gives nothing is ``character-``
    and 8 hex digits of its sha256: distinct names, distinct files.
    """
    name = str(name)
    text = "".join(_ascii(ch) for ch in name).lower()
    text = _UNSAFE.sub("-", text).strip("-")[:max_len].strip("-")
    if text:
        return text
    if name.isascii():
        return "character"  # as ever: an ASCII name of no letters or digits
    return "character-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _ascii(ch: str) -> str:
    if ch.isascii():
        return ch
    kept = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    if kept:
        return kept
    from anyascii import anyascii

    return anyascii(ch)


def character_stem(index: int, name: str) -> str:
    return f"{index:04d}-{slug(name)}"


def prepare_folder(folder: Path, force: bool, allow_existing: bool = False) -> None:
    """Create ``folder`` or check it is an empty, writable folder (any folder with ``force``)."""
    try:
        _check_folder(folder, force, allow_existing)
    except OSError as e:
        raise OutputError(f"output folder '{folder}': {e.strerror or e}") from None


def _check_folder(folder: Path, force: bool, allow_existing: bool) -> None:
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            raise OutputError(f"output '{folder}' exists and is not a folder")
        if not (force or allow_existing) and any(folder.iterdir()):
            hint = "--force to write into it anyway"
            if (folder / MANIFEST).is_file():
                hint = "--resume to finish the batch in it, or --force to start again"
            raise OutputError(f"output folder '{folder}' is not empty (use {hint})")
    else:
        try:
            folder.mkdir(parents=True)
        except OSError as e:
            raise OutputError(f"cannot create output folder '{folder}': {e.strerror or e}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output folder '{folder}' is not writable")


def inside(folder: Path, name: str) -> Path:
    """``folder/name`` for a plain file name; refuse anything that would leave the folder."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\x00" in name:
        raise OutputError(f"refusing to write '{name}': not a plain file name")
    return folder / name


def temporary(path: Path) -> Path:
    """The temporary name ``path`` is written under: ``.tmp-<name>.part`` beside it."""
    return path.with_name(f"{TEMP_PREFIX}{path.name}{TEMP_SUFFIX}")


def create_new(path: Path) -> int:
    """A descriptor of a new, empty regular file at ``path``, for writing; whatever was at that
    name (a file, a symbolic link, a named pipe) is removed first, never followed or opened.

    ``O_CREAT | O_EXCL`` makes the file here or fails, so a link or pipe planted between
    the removal and the open is an error, not a file written through or a run blocked
    forever; ``O_NOFOLLOW`` says the same for a link at the last component. The mode is
    the one the file is created with (0666 less the umask), on the descriptor: nothing is
    changed through the path afterwards.
    """
    try:
        if os.path.lexists(path) and not (path.is_dir() and not path.is_symlink()):
            os.unlink(path)
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC, 0o666)
    except OSError as e:
        raise OutputError(f"cannot write in '{path.parent}': {e.strerror or e}") from None


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through ``.tmp-<name>.part`` beside it, renamed into place.

    The temporary name is fixed (not ``mkstemp``, which costs several times the
    write itself here): each output file has one writer (the folder is locked for
    the run, :func:`lock_folder`), and what is at the temporary name is removed
    and the file created anew (:func:`create_new`). Renaming replaces a link at
    ``path`` itself, never the file it points to.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = temporary(path)
    fd = create_new(tmp)
    try:
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OutputError(f"cannot write '{path}': {e.strerror or e}") from None
        raise


class FolderLocked(OutputError):
    """Another run holds the output folder."""


@contextlib.contextmanager
def lock_folder(folder: Path, claim: bool = False) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` for the block; another run's lock is an error at once.

    The lock is ``flock`` on the folder's own descriptor, so it leaves no file
    behind (the folder holds only the batch) and is released by the kernel when
    the process ends, however it ends (kill -9 included). A folder this process
    has claimed (:func:`claim_folder`, around the whole run) is locked already:
    its run's own locks cost nothing. Where ``fcntl`` is missing (Windows),
    there is no lock.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    except OSError as e:
        raise OutputError(f"output folder '{folder}': {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        if key not in _CLAIMED:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise FolderLocked(f"output folder '{folder}' is in use by another chargen run "
                                   "(wait for it to finish, or write elsewhere)") from None
        if not claim:
            yield
            return
        _CLAIMED.add(key)
        try:
            yield
        finally:
            _CLAIMED.discard(key)
    finally:
        os.close(fd)


_CLAIMED: set[tuple[int, int]] = set()  # (device, inode) of the folders this process holds for a run


@contextlib.contextmanager
def claim_folder(folder: Path, force: bool, allow_existing: bool = False) -> Iterator[None]:
    """The output folder of a new run, for the block: created if it is missing, locked
    (:func:`lock_folder`), and only then checked to be empty (any folder with ``force``), so the
    check and the lock are one step: of two runs into one new folder, one writes the batch and
    the other is refused (the folder is in use, or no longer empty)."""
    try:
        if (folder.exists() or folder.is_symlink()) and not folder.is_dir():
            raise OutputError(f"output '{folder}' exists and is not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create output folder '{folder}': {e.strerror or e}") from None
    with lock_folder(folder, claim=True):
        prepare_folder(folder, force, allow_existing)
        yield


def manifest_text(manifest: dict) -> str:
    """The manifest as JSON: its fields indented, then one line per character."""
    head = json.dumps({k: v for k, v in manifest.items() if k != "characters"}, indent=2, ensure_ascii=False)
    rows = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in manifest.get("characters", []))
    body = "[\n" + rows + "\n  ]" if rows else "[]"
    return head[:-2] + f',\n  "characters": {body}\n}}\n'


def write_manifest(folder: Path, manifest: dict) -> None:
    atomic_write(folder / MANIFEST, manifest_text(manifest))


def remove_stale_temporaries(folder: Path) -> None:
    """Remove what is left under atomic_write's temporary names (by a killed or stopped run, or
    planted): files, symbolic links (the link, never what it points to), named pipes; not folders."""
    for p in folder.iterdir():
        if p.name.startswith(TEMP_PREFIX) and p.name.endswith(TEMP_SUFFIX) and (p.is_symlink() or not p.is_dir()):
            p.unlink(missing_ok=True)


def _number(n: int) -> str:
    text = f"{n:,}" if n.bit_length() <= 256 else f"an integer of {n.bit_length():,} bits"
    return text if len(text) <= 40 else text[:37] + "..."


_MANIFEST_FIELDS = {
    "schema": str, "chargen": str, "character_schema": str, "system": dict, "seed": int,
    "seed_derivation": str, "first_index": int, "count": int, "formats": list, "complete": bool,
    "characters": list,
}
_OPTIONAL_FIELDS = {"paper": str, "party_name": str, "layout": str, "cards_per_page": int, "pdf_variant": str,
                    "compare": bool,  # party.pdf carries the party at a glance
                    "card_backs": bool,  # cards continue on their backs
                    "each_pdf": bool,  # block and card layouts: a PDF of each character too
                    "batch_files": dict,  # a batch of sheets only
                    "request": dict, "party": dict}  # a batch of archetypes or professions; a party file


def read_manifest(folder: Path) -> dict:
    """The manifest of the batch in ``folder``, checked for shape (a hostile one is an error, not a crash)."""
    from chargen.rules.yamlio import read_bytes
    from chargen.run import manifestcheck

    path = folder / MANIFEST
    if not os.path.lexists(path):
        if os.path.lexists(folder / "index.html"):  # sheets chargen render drew: it keeps no manifest
            raise OutputError(f"cannot resume: '{folder}' holds sheets drawn by chargen render, which keeps no "
                              f"{MANIFEST} and is not resumed; render them again with --force")
        raise OutputError(f"no {MANIFEST} in '{folder}' to resume (run without --resume to start a batch)")
    raw = read_bytes(path, str(path), manifestcheck.max_bytes(), error=OutputError)
    manifestcheck.check_shape(raw, path)  # before parsing: millions of empty objects never built
    m = manifestcheck.parse(raw, path)
    if not isinstance(m, dict) or m.get("schema") != MANIFEST_SCHEMA:
        raise OutputError(f"{path}: not a chargen manifest (expected schema '{MANIFEST_SCHEMA}')")
    for key, kind in _MANIFEST_FIELDS.items():
        if type(m.get(key)) is not kind:
            raise OutputError(f"{path}: {key}: expected {kind.__name__}")
    system = m["system"]
    if not all(isinstance(system.get(k), str) for k in ("id", "version", "rules_hash")) \
            or not isinstance(system.get("overlays"), list):
        raise OutputError(f"{path}: system: expected id, version, rules_hash and overlays")
    if "sheets" in m:
        raise OutputError(f"{path}: sheets: a manifest of an earlier chargen, which recorded the sheets apart "
                          "(and could call a batch complete before its sheets were drawn); it cannot be resumed: "
                          "make the batch again with --force")
    if not m["formats"] or not all(isinstance(f, str) for f in m["formats"]):
        raise OutputError(f"{path}: formats: expected a list of format names")
    from chargen.formats import FORMATS

    unknown = [f for f in m["formats"] if f not in FORMATS]
    if unknown:
        raise OutputError(f"{path}: formats: unknown format {unknown[0][:40]!r} "
                          f"(expected some of: {', '.join(FORMATS)})")
    for key, kind in _OPTIONAL_FIELDS.items():
        if key in m and type(m[key]) is not kind:
            raise OutputError(f"{path}: {key}: expected {kind.__name__}")
    for key, low, high in (("seed", 0, MAX_SEED), ("first_index", 0, MAX_INDEX), ("count", 1, MAX_COUNT)):
        if not low <= m[key] <= high:  # what generate itself accepts (--seed, --index, --count)
            raise OutputError(f"{path}: {key}: {_number(m[key])} is out of range (expected {low:,} to {high:,})")
    if len(m["characters"]) > m["count"]:
        raise OutputError(f"{path}: characters: {len(m['characters']):,} listed, more than count ({m['count']:,})")
    manifestcheck.check_values(m, path)
    manifestcheck.check_fields(m, path)
    return m


def recorded_derivation(folder: Path) -> int:
    """The seed derivation the batch in ``folder`` was made with (its checked manifest's
    ``seed_derivation``): a resumed party makes its characters with it."""
    from chargen.seeds import SEED_DERIVATIONS

    return SEED_DERIVATIONS[read_manifest(folder)["seed_derivation"]]
