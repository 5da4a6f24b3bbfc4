"""The characters of an attack (``chargen roll --attacker FILE --defender FILE#N``), read from saved files."""

from __future__ import annotations

from pathlib import Path

from chargen.digits import is_whole
from chargen.errors import CharacterError


def read_fighter(spec: str) -> dict:
    """A character by ``FILE`` or ``FILE#N`` (the Nth character, from 1, of a file that holds several:
    a MEG party, a party.pdf)."""
    from chargen.run.readers import read_documents

    path, _, pick = spec.rpartition("#") if "#" in spec and is_whole(spec.rpartition("#")[2]) else (spec, "", "")
    try:
        docs = read_documents(Path(path))
    except OSError as e:
        raise CharacterError(f"{path}: cannot read the file ({e.strerror or e})") from None
    if not docs:
        raise CharacterError(f"{path}: holds no character (a batch manifest?)")
    if not pick:
        if len(docs) > 1:
            raise CharacterError(f"{path}: holds {len(docs)} characters; name one as {path}#N (1 to {len(docs)})")
        return docs[0][1]
    n = int(pick)
    if not 1 <= n <= len(docs):
        raise CharacterError(f"{spec}: no character {n} in the file (it holds {len(docs)})")
    return docs[n - 1][1]
