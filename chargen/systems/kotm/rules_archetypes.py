"""The KoTM archetypes (archetypes.yaml): a fixed profession, level dice, weapon picks."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.archetypes import Listing, entries
from chargen.ranks import Rank, rank_table, read_rank
from chargen.rules.check import Cursor


@dataclass(frozen=True, slots=True)
class KotmArchetype:
    id: str
    label: str
    tier: str
    profession: str
    level: dicemod.Dice | None          # None: generation.yaml's level dice
    weapons: tuple | None               # WeaponPick entries in place of the profession's
    rank: Rank | None = None            # the band its level should fall in (archetypes.yaml ranks)

    def listing(self) -> Listing:
        parts = [self.profession] + ([f"level {self.level}"] if self.level else []) + \
            (["own weapons"] if self.weapons is not None else [])
        return Listing(self.id, self.label, "; ".join(x for x in (self.tier, ", ".join(parts)) if x))


def archetypes_table(c: Cursor | None, professions: set[str], level_range: tuple[int, int], picks) -> dict:
    """``picks(cursor)``: the engine's reader of a list of weapon picks (generation.yaml's grammar)."""
    if c is None:
        return {}
    out = {}
    items = entries(c)
    table = rank_table(c["ranks"])
    for e in items:
        if not e.mapping(required=("id", "label", "source", "profession"), optional=("tier", "level", "weapons", "rank")):
            continue
        e["source"].source()
        level = e["level"].dice() if e["level"].present else None
        lo, hi = level_range
        if level is not None and (level.minimum < lo or level.maximum > hi):
            e["level"].fail(f"dice {level} roll {level.minimum} to {level.maximum}; levels run {lo} to {hi}")
        a = KotmArchetype(e["id"].ident(), e["label"].str(), e["tier"].str() if e["tier"].present else "",
                          e["profession"].ref(professions, "profession"), level,
                          picks(e["weapons"]) if e["weapons"].present else None,
                          read_rank(e["rank"], table, _signature))
        if a.id:
            out[a.id] = a
    return out


def _signature(c: Cursor, kind: str):
    """A KoTM signature: ``{figure: level}``, the seed's one measure of a fighter (see archetypes.yaml)."""
    if kind != "figure":
        c.fail(f"unknown signature '{kind}' (expected one of: figure)")
        return None
    return c[kind].ref({"level"}, "figure")


def signature(doc: dict, rank: Rank) -> int:
    return doc[rank.what]
