"""Ranks: what a game master judges an archetype by, as rules data.

An ``archetypes.yaml`` may give one rank table (``ranks``: named bands of a
signature figure, on the system's own scale) and each archetype a ``rank``: the
band its signature figure should fall in (``band``) and what that figure is
(``signature``: ``{weapon: missile}``, ``{skill: oratory}``, ``{figure: sd}``;
each engine says which kinds it reads and how). ``chargen stats --archetype``
prints the band and the share of the sample in it; the calibration test holds
every archetype to it. Python reads the bands; it never restates them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chargen.rules.check import Cursor, check_unique


@dataclass(frozen=True, slots=True)
class Band:
    id: str
    label: str
    low: int | None   # None: no lower bound
    high: int | None  # None: no upper bound

    def holds(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def span(self) -> str:
        if self.low is None:
            return f"up to {self.high}"
        return f"{self.low} and above" if self.high is None else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class RankTable:
    of: str                       # what the bands measure (shown by `chargen stats`)
    bands: tuple[Band, ...]

    def band(self, band_id: str) -> Band | None:
        return next((b for b in self.bands if b.id == band_id), None)

    def band_of(self, value: int) -> Band | None:
        return next((b for b in self.bands if b.holds(value)), None)


@dataclass(frozen=True, slots=True)
class Rank:
    band: Band
    kind: str        # the signature's kind: weapon, skill, figure (the engine's)
    what: object     # its argument: a weapon kind or ids, a skill id, a figure name
    shown: str       # the signature as written, for `chargen stats`
    of: str = ""     # what the module's bands measure (its rank table's ``of``)


def rank_table(c: Cursor) -> RankTable | None:
    """``ranks: {source, of, bands: [{id, label, min?, max?}]}``: contiguous bands, in rising order."""
    if not c.present:
        return None
    if not c.mapping(required=("source", "of", "bands")):
        return None
    c["source"].source()
    items = c["bands"].list(1)
    check_unique(items, "id", "rank")
    bands = []
    for n, b in enumerate(items):
        if not b.mapping(required=("id", "label"), optional=("min", "max", "source")):
            continue
        low = b["min"].int(-100_000, 100_000) if b["min"].present else None
        high = b["max"].int(-100_000, 100_000) if b["max"].present else None
        if (low is None and n > 0) or (high is None and n < len(items) - 1):
            b.fail("only the first band may leave out 'min', and only the last 'max'")
        elif bands and bands[-1].high is not None and low is not None and low != bands[-1].high + 1:
            b["min"].fail(f"expected {bands[-1].high + 1} (the bands run on without gaps or overlaps)")
        if low is not None and high is not None and low > high:
            b.fail(f"min {low} is above max {high}")
        bands.append(Band(b["id"].ident(), b["label"].str(), low, high))
    return RankTable(c["of"].str(), tuple(bands))


def read_rank(c: Cursor, table: RankTable | None, check: Callable[[Cursor, str], object]) -> Rank | None:
    """An archetype's ``rank: {band, signature: {kind: what}}``; ``check(cursor, kind)`` validates the
    signature's argument for the engine (and returns it normalised, None when wrong)."""
    if not c.present:
        return None
    if not c.mapping(required=("band", "signature")):
        return None
    if table is None:
        c.fail("a rank needs the module's rank table ('ranks' in archetypes.yaml)")
        return None
    band_id = c["band"].ident()
    band = table.band(band_id) if band_id else None
    if band_id and band is None:
        c["band"].fail(f"unknown rank '{band_id}' (expected one of: {', '.join(str(b.id) for b in table.bands)})")
    sig = c["signature"]
    if not isinstance(sig.value, dict) or len(sig.value) != 1:
        sig.fail("expected one mapping entry, such as {weapon: missile} or {skill: oratory}")
        return None
    (kind, _), = sig.value.items()
    what = check(sig, str(kind))
    if band is None or what is None:
        return None
    raw = sig[str(kind)].value
    shown = f"{kind} {raw if not isinstance(raw, list) else '/'.join(map(str, raw))}"
    return Rank(band, str(kind), what, shown, table.of)
