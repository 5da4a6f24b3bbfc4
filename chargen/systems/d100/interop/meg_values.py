"""The values of a MEG file, read one by one: numbers (bounded), dice, lists, objects, d20 ranges, ids.

Each refuses what it cannot read with a :class:`~chargen.errors.CharacterError` naming where it is
(one ``Error:`` line at the command line): a number beyond :data:`MAX_NUMBER` (10^400 included),
a range that is not low-high from 01 with low not above high ("20-01").
"""

from __future__ import annotations

import re

from chargen.errors import CharacterError

_RANGE = re.compile(r"^\s*(\d{1,3})\s*-\s*(\d{1,3})\s*$", re.ASCII)
_ONE = re.compile(r"^\s*(\d{1,3})\s*$", re.ASCII)
_DECIMAL = re.compile(r"\s*[+-]?[0-9]{1,12}(?:\.[0-9]{0,12})?\s*|[+-]?[0-9.e+-]+", re.ASCII)
_SLUG = re.compile(r"[^a-z0-9]+")
MAX_NUMBER = 1_000_000  # larger than any figure a sheet can hold; a MEG number beyond it is refused
# entries of one list: NPCs of a MEG file, actors of a Foundry file, an NPC's skills, features, ...
# (D100 II has 27 skills and at most 20 hit locations; a character's features are its flavour lines and
# at most 1,000 relations); past it a list is refused before any entry is read
MAX_ENTRIES = 2_000


def ident(text: str) -> str:
    return _SLUG.sub("_", str(text).lower()).strip("_") or "item"


def _int(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise CharacterError(f"{where}: expected a number, not {type(value).__name__}")
    try:  # text in ASCII digits only: float() also reads other scripts' digits, '4_2' and '1e9'
        number = value if isinstance(value, int) else int(float(value if _DECIMAL.fullmatch(str(value)) else "x"))
    except (ValueError, OverflowError):
        raise CharacterError(f"{where}: expected a number, not {str(value)[:40]!r}") from None
    if abs(number) > MAX_NUMBER:
        raise CharacterError(f"{where}: {str(value)[:20]}{'...' if len(str(value)) > 20 else ''} is out of range "
                             f"(at most {MAX_NUMBER})")
    return number


def _dice(value: str | None) -> str:
    text = str(value or "0").replace("d", "D").replace(" ", "")
    text = text.lstrip("+") if text.lstrip("+") != "" else "0"
    return "0" if text in ("0", "-0") else (text if text.startswith("-") else "+" + text)


def _list(value, where: str) -> list:
    """A MEG list field: a list of at most ``MAX_ENTRIES``, or nothing (absent or null); anything else is
    an error."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise CharacterError(f"{where}: expected a list, not {type(value).__name__}")
    if len(value) > MAX_ENTRIES:
        raise CharacterError(f"{where}: {len(value):,} entries, more than a character or a file of them "
                             f"holds (at most {MAX_ENTRIES:,})")
    return value


def _mapping(value, where: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CharacterError(f"{where}: expected an object, not {type(value).__name__}")
    return value


def _span(text, where: str) -> list[int]:
    m = _RANGE.match(str(text)) or _ONE.match(str(text))
    if not m:
        raise CharacterError(f"{where}: expected a range like \"01-03\", not {str(text)[:40]!r}")
    low = int(m[1])
    high = int(m[2]) if m.lastindex == 2 else low
    if low > high or low < 1:
        raise CharacterError(f"{where}: {str(text)[:40]!r} is not a range (expected low-high, from 01, "
                             f"low not above high, like \"01-03\")")
    return [low, high]
