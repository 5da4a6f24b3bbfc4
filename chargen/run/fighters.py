"""The characters of an attack (``chargen roll --attacker FILE --defender FILE#N``), read from saved files."""

from __future__ import annotations

import re
from pathlib import Path

from chargen.errors import CharacterError

PICK = re.compile(r"[0-9]{1,6}")  # the N of FILE#N: ASCII digits, checked before it is converted


def read_fighter(spec: str) -> dict:
    """A character by ``FILE`` or ``FILE#N`` (the Nth character, from 1, of a file that holds several:
    a MEG party, a party.pdf)."""
    from chargen.run.readers import read_documents

    path, pick = _pick(spec)
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


def _pick(spec: str) -> tuple[str, str]:
    """``FILE#N`` as (FILE, N); a spec whose tail after ``#`` is no number is a file name (N "")."""
    path, _, tail = spec.rpartition("#")
    if not path or not tail.isnumeric():  # digits of any script: a number, to be checked
        return spec, ""
    if not PICK.fullmatch(tail):
        raise CharacterError(f"{spec[:200]}: #N is the Nth character of the file, in ASCII digits 0-9 (at most "
                             "6 of them)")
    return path, tail
