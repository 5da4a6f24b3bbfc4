"""The two table shapes the rules use, parsed and validated from YAML.

* :class:`Banded` - a value by characteristic (or hit-point) band, with the
  seed's "each +N" extension: past the last band, ``add`` is added again for
  every further ``every`` points.
* :class:`DieRanges` - rows that partition the faces of one die (1D20 hit
  locations, D100 backgrounds). On a D100, "00" is 100.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Generic, TypeVar

from chargen import dice as dicemod
from chargen.rules.check import Cursor

T = TypeVar("T")

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)|(\+))?\s*$", re.ASCII)


@dataclass(frozen=True, slots=True)
class Band(Generic[T]):
    low: int
    high: int | None  # None: open-ended ("20+")
    value: T


FAST_LOOKUP_MAX = 64


@dataclass(frozen=True)
class Banded(Generic[T]):
    bands: tuple[Band[T], ...]
    every: int = 0
    add: T | None = None

    def lookup(self, x: int) -> T:
        if 0 <= x <= FAST_LOOKUP_MAX:
            return self._fast[x]
        return self._lookup(x)

    @functools.cached_property
    def _fast(self) -> tuple:
        """Every value from 0 to FAST_LOOKUP_MAX, computed once (generation looks up ~40 a character)."""
        return tuple(self._lookup(x) for x in range(FAST_LOOKUP_MAX + 1))

    def row(self, x: int) -> str:
        """The band ``x`` is read from, as a rules file writes it ("10-12", "20+"), for explain."""
        first = self.bands[0]
        for band in self.bands:
            if x < first.low or band.high is None or x <= band.high:
                return _band_text(band)
        last = self.bands[-1]
        if not self.every:
            return _band_text(last)
        return f"{_band_text(last)}, then +{self.add} every {self.every} ({-(-(x - last.high) // self.every)} steps)"

    def _lookup(self, x: int) -> T:
        first = self.bands[0]
        if x < first.low:
            return first.value
        for band in self.bands:
            if band.high is None or x <= band.high:
                return band.value
        last = self.bands[-1]
        if not self.every:
            return last.value
        steps = -(-(x - last.high) // self.every)  # ceil
        return _add(last.value, self.add, steps)


def _band_text(band: Band) -> str:
    if band.high is None:
        return f"{band.low}+"
    return str(band.low) if band.low == band.high else f"{band.low}-{band.high}"


def _add(value, add, steps: int):
    if isinstance(value, dicemod.Dice):
        return value + add.times(steps)
    return value + add * steps


def parse_range(text: object, die: int | None = None) -> tuple[int, int | None] | None:
    """``"1-4"`` -> (1, 4); ``12`` -> (12, 12); ``"20+"`` -> (20, None); ``"00"`` on a D100 -> (100, 100)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        text = str(text)
    if not isinstance(text, str):
        return None
    m = _RANGE.match(text)
    if not m:
        return None
    low = _face(m.group(1), die)
    if m.group(3):
        return (low, None)
    high = _face(m.group(2), die) if m.group(2) else low
    return (low, high)


def _face(digits: str, die: int | None) -> int:
    value = int(digits)
    if die == 100 and value == 0:
        return 100
    return value


def banded(c: Cursor, value_kind: str = "int", lo: int = -1000, hi: int = 1000,
           extra: tuple[str, ...] = ()) -> Banded | None:
    """Read ``{bands: {range: value, ...}, each: {every, add}}`` at ``c``; ``extra`` keys are the caller's.

    Bands may be written in any order (an overlay adds a band at the end of the
    mapping); sorted by their low end, they must be consecutive.
    """
    if not c.mapping(required=("bands",), optional=("each", "source") + extra):
        return None
    rows, ok = _band_rows(c["bands"])
    bands: list[Band] = []
    previous_high: int | None = 0
    for low, high, key, vc in sorted(rows, key=lambda r: r[0]):
        if high is not None and high < low:
            vc.fail(f"band {key!r} runs backwards")
            ok = False
            continue
        if previous_high is None:
            vc.fail(f"band {key!r} follows an open-ended band")
            ok = False
        elif bands and low != previous_high + 1:
            kind = "overlaps the band before it" if low <= previous_high else f"leaves a gap after {previous_high}"
            vc.fail(f"band {key!r} {kind} (bands must be consecutive)")
            ok = False
        value = _value(vc, value_kind, lo, hi)
        if value is None:
            ok = False
        bands.append(Band(low, high, value))
        previous_high = high
    if not bands:
        if ok:
            c["bands"].fail("expected at least one band")
        return None
    every, add = _each(c["each"], bands[-1], value_kind, lo, hi) if c["each"].present else (0, None)
    return Banded(tuple(bands), every, add) if ok and every is not None else None


def _each(each: Cursor, last: Band, value_kind: str, lo: int, hi: int) -> tuple[int | None, object]:
    """``(every, add)`` of the "each +N" extension; ``every`` is None after a problem."""
    if not each.mapping(required=("every", "add")):
        return None, None
    every, add = each["every"].int(1, 1000), _value(each["add"], value_kind, lo, hi)
    if last.high is None:
        each.fail("an open-ended last band cannot continue with 'each'")
        return None, None
    return (every, add) if add is not None else (None, None)


def _band_rows(c: Cursor) -> tuple[list, bool]:
    """``(low, high, key, cursor)`` of each band that reads as a range; False if one does not."""
    rows, ok = [], True
    for key, vc in c.items():
        r = parse_range(key)
        if r is None:
            vc.fail(f"band {key!r} is not a range (expected '1-4', '12' or '20+')")
            ok = False
            continue
        rows.append((r[0], r[1], key, vc))
    if not isinstance(c.value, dict):
        ok = False
    return rows, ok


def _value(c: Cursor, kind: str, lo: int, hi: int):
    if kind == "dice":
        return c.dice()
    return c.int(lo, hi)


def row_index(rows, face: int, what: str) -> int:
    """Index of the row (anything with ``low`` and ``high``) whose range holds ``face``."""
    for i, r in enumerate(rows):
        if r.low <= face <= r.high:
            return i
    raise ValueError(f"{what} {face} outside the table")


@dataclass(frozen=True, slots=True)
class DieRanges(Generic[T]):
    die: int
    rows: tuple[tuple[int, int, T], ...]

    def lookup(self, face: int) -> T:
        for low, high, value in self.rows:
            if low <= face <= high:
                return value
        raise ValueError(f"face {face} outside 1..{self.die}")


def check_partition(c: Cursor, die: int, ranges: list[tuple[Cursor, tuple[int, int] | None]], what: str) -> bool:
    """Report overlaps, gaps and faces outside the die; True when the ranges partition 1..die."""
    ok = True
    covered: dict[int, tuple[Cursor, tuple[int, int]]] = {}
    for rc, r in ranges:
        if r is None:
            ok = False
            continue
        low, high = r
        if low < 1 or high > die or high < low:
            rc.fail(f"range {low}-{high} falls outside the die (1 to {die})")
            ok = False
            continue
        for face in range(low, high + 1):
            if face in covered:
                other, (olow, ohigh) = covered[face]
                file, line, _ = other.doc.where(other.path)
                rc.fail(f"range {low}-{high} overlaps the {what} row {olow}-{ohigh} ({file}:{line}) at {face}")
                ok = False
                break
            covered[face] = (rc, r)
    missing = [f for f in range(1, die + 1) if f not in covered]
    if missing and ok:
        c.fail(f"{what} rows leave {_faces(missing)} of the 1D{die} unassigned (rows must cover 1 to {die})")
        ok = False
    return ok


def _faces(faces: list[int]) -> str:
    if len(faces) == 1:
        return f"face {faces[0]}"
    return f"faces {faces[0]}..{faces[-1]}" if faces[-1] - faces[0] + 1 == len(faces) else f"faces {', '.join(map(str, faces[:6]))}{'...' if len(faces) > 6 else ''}"


def read_range(c: Cursor, die: int) -> tuple[int, int] | None:
    r = parse_range(c.value, die)
    if r is None or r[1] is None:
        c.fail(f"expected a range on the 1D{die} such as '1-4' or '12', got {c.value!r}")
        return None
    return r
