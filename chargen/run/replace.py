"""``--force`` over a batch: the batch in the folder goes before a new one is written there.

Two batches never mix in one folder (the old bandit chief beside the new one, a
folder no longer rendered): ``generate -o DIR --force`` and ``party FILE -o DIR
--force`` remove the files the folder's ``manifest.json`` lists (each character's
files, the batch files), then the manifest itself, and nothing else: a name that
is not a plain file name in the folder is never followed, a symbolic link is
removed as a link, a file the manifest does not list stays. A folder whose
manifest cannot be read, or that holds files named as chargen names its own that
the manifest does not list (a batch stopped between two checkpoints), is refused
in one line and left as it is: removing only part of a batch would mix two.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from chargen.errors import OutputError
from chargen.run.files import MANIFEST, inside, lock_folder, read_manifest, remove_stale_temporaries

# what chargen names a character's file: 0007-red-ulf.json, 0007-red-ulf.meg.json, ...
_CHARACTER_FILE = re.compile(r"[0-9]{4,}-[a-z0-9-]+(\.[a-z0-9]+)+")


def replace_batch(folder: Path) -> int:
    """Remove the batch in ``folder`` (the files its manifest lists, then the manifest); how many
    files of it were there (0: no batch in the folder). Refuses (:class:`OutputError`), removing
    nothing, a manifest it cannot read or a folder that holds more of chargen's files than it lists."""
    if not folder.is_dir() or not os.path.lexists(folder / MANIFEST):
        return 0
    with lock_folder(folder):
        listed = _listed(folder)
        _check_nothing_unlisted(folder, listed)
        removed = 0
        for name in sorted(listed):
            path = inside(folder, name)
            if os.path.lexists(path) and (path.is_symlink() or not path.is_dir()):
                _unlink(path)
                removed += 1
        remove_stale_temporaries(folder)
        _unlink(folder / MANIFEST)
    return removed


def _listed(folder: Path) -> set[str]:
    """Every file name the manifest in ``folder`` lists; a name that is not a plain file name is refused."""
    try:
        manifest = read_manifest(folder)
    except OutputError as e:
        raise OutputError(f"--force: {e}; nothing removed (remove the batch yourself, or write elsewhere)") from None
    names = []
    for entry in manifest["characters"]:
        files = entry.get("files") if isinstance(entry, dict) else None
        names += list(files.values()) if isinstance(files, dict) else [None]
    names += list(manifest.get("batch_files", {}))
    for name in names:
        if not isinstance(name, str) or not name or name in (".", "..", MANIFEST) or "/" in name \
                or "\\" in name or "\x00" in name:
            raise OutputError(f"--force: {folder / MANIFEST} lists {str(name)[:60]!r}, not a file of the batch "
                              "in the folder; nothing removed (remove the batch yourself, or write elsewhere)")
    return set(names)


def _check_nothing_unlisted(folder: Path, listed: set[str]) -> None:
    from chargen.formats import all_batch_files

    ours = all_batch_files()
    unlisted = sorted(p.name for p in folder.iterdir() if p.name not in listed
                      and (_CHARACTER_FILE.fullmatch(p.name) or p.name in ours))
    if unlisted:
        shown = ", ".join(unlisted[:3]) + (f" and {len(unlisted) - 3:,} more" if len(unlisted) > 3 else "")
        raise OutputError(f"--force: output folder '{folder}' holds chargen files its {MANIFEST} does not list "
                          f"({shown}); nothing removed, so that two batches do not mix (remove them yourself, "
                          "or write elsewhere)")


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise OutputError(f"--force: cannot remove '{path}': {e.strerror or e}") from None
