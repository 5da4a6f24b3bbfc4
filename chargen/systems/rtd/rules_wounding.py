"""RTD's wounding table (wounding.yaml, optional): the part a blow strikes and the wound its damage makes."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.rules.check import Cursor
from chargen.rules.tables import check_partition, parse_range, read_range


@dataclass(frozen=True, slots=True)
class Wounding:
    die: int
    parts: tuple[tuple[int, int, str], ...]   # (low, high, body part id)
    bands: tuple[tuple[int, int | None, str], ...]  # (low damage, high or None, wound state id)

    def part(self, face: int) -> str:
        return next(p for lo, hi, p in self.parts if lo <= face <= hi)

    def wound(self, damage: int) -> str | None:
        for lo, hi, state in self.bands:
            if damage >= lo and (hi is None or damage <= hi):
                return state
        return None


def wounding(c: Cursor | None, part_ids: set, state_ids: set) -> Wounding | None:
    if c is None:
        return None
    c.mapping(required=("source", "location", "damage"), optional=("reading",))
    c["source"].source()
    if c["reading"].present:
        c["reading"].str(1000)
    loc = c["location"]
    loc.mapping(required=("die", "rows"))
    die = loc["die"].int(1, 1000) or 6
    parts, ranges = [], []
    for e in loc["rows"].list(1):
        if e.mapping(required=("roll", "part")):
            r = read_range(e["roll"], die)
            ranges.append((e["roll"], r))
            part = e["part"].ref(part_ids, "body part")
            if r and part:
                parts.append((r[0], r[1], part))
    check_partition(loc["rows"], die, ranges, "body-part")
    dmg = c["damage"]
    dmg.mapping(required=("bands",))
    bands = []
    for key, vc in sorted(dmg["bands"].items(), key=lambda kv: (parse_range(kv[0]) or (0, 0))[0]):
        r, state = parse_range(key), vc.ref(state_ids, "wound state")
        if r is None or r[0] < 1:
            vc.fail(f"band {key!r} is not a range of damage from 1 (expected '1-3', '12' or '15+')")
        elif bands and (bands[-1][1] is None or r[0] != bands[-1][1] + 1):
            vc.fail(f"band {key!r} does not follow the band before it (bands must be consecutive)")
        elif state:
            bands.append((r[0], r[1], state))
    return Wounding(die, tuple(parts), tuple(bands))
