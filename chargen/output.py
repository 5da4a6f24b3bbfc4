"""Writing a batch to a folder: safe names, atomic files, a manifest.

Every file is written to a temporary name in the same folder and renamed into
place when complete, so a reader (or a crash) never sees half a file. The
manifest is written last and lists what was written.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

from chargen.errors import OutputError

MANIFEST = "manifest.json"
_UNSAFE = re.compile(r"[^a-z0-9]+")


def slug(name: str, max_len: int = 40) -> str:
    """A file-name-safe slug: ASCII letters and digits joined by '-', never empty, never a path."""
    text = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode("ascii").lower()
    text = _UNSAFE.sub("-", text).strip("-")[:max_len].strip("-")
    return text or "character"


def character_stem(index: int, name: str) -> str:
    return f"{index:04d}-{slug(name)}"


def prepare_folder(folder: Path, force: bool, allow_existing: bool = False) -> None:
    """Create ``folder`` or check it is an empty, writable folder (any folder with ``force``)."""
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            raise OutputError(f"output '{folder}' exists and is not a folder")
        if not (force or allow_existing) and any(folder.iterdir()):
            raise OutputError(f"output folder '{folder}' is not empty (use --force to write into it anyway)")
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


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through ``.<name>.part`` beside it, renamed into place.

    The temporary name is fixed (not ``mkstemp``, which costs four times the
    write itself): each output file has one writer, and a ``.part`` left by a
    crash is simply overwritten. ``O_NOFOLLOW`` refuses a planted symlink.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.part")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
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


def write_manifest(folder: Path, manifest: dict) -> None:
    atomic_write(folder / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
