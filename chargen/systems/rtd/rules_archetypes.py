"""The RTD archetypes (archetypes.yaml): stat dice, fixed skills with XP dice, weapon picks."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.archetypes import Listing, entries
from chargen.ranks import Rank, rank_table, read_rank
from chargen.rules.check import Cursor


@dataclass(frozen=True, slots=True)
class RtdArchetype:
    id: str
    label: str
    tier: str
    stats: dict[str, dicemod.Dice]                 # stat id -> dice, in place of stats.yaml's
    skills: tuple[tuple[str, str, dicemod.Dice], ...] | None  # (id, label, XP dice); None: rolled from the pool
    weapons: tuple | None                          # Carry picks in place of weapons.yaml's
    rank: Rank | None = None                       # the band its signature skill's XP should fall in

    def listing(self) -> Listing:
        parts = [f"{k.upper()} {d}" for k, d in self.stats.items()]
        if self.skills is not None:
            parts.append(", ".join(f"{sid} {d} XP" for sid, _, d in self.skills))
        if self.weapons is not None:
            parts.append("own weapons")
        return Listing(self.id, self.label, "; ".join(x for x in (self.tier, ", ".join(parts)) if x))


def archetypes_table(c: Cursor | None, stat_range: tuple[int, int], stat_ids: set[str],
                     pool: dict[str, str], picks) -> dict:
    """``pool``: skill id -> label (skills.yaml's generation pool); ``picks(cursor)``: the weapon picks reader."""
    if c is None:
        return {}
    out = {}
    items = entries(c)
    table = rank_table(c["ranks"])
    for e in items:
        if not e.mapping(required=("id", "label", "source"), optional=("tier", "stats", "skills", "weapons", "rank")):
            continue
        e["source"].source()
        skills = _skills(e["skills"], pool) if e["skills"].present else None
        a = RtdArchetype(e["id"].ident(), e["label"].str(), e["tier"].str() if e["tier"].present else "",
                         _stats(e["stats"], stat_range, stat_ids) if e["stats"].present else {},
                         skills, picks(e["weapons"]) if e["weapons"].present else None,
                         read_rank(e["rank"], table, lambda sig, kind: _signature(sig, kind, skills)))
        if a.id:
            out[a.id] = a
    return out


def _stats(c: Cursor, stat_range: tuple[int, int], stat_ids: set[str]) -> dict:
    out = {}
    lo, hi = stat_range
    for key, dc in c.items():
        Cursor(dc.doc, dc.path, key, dc.problems).ref(stat_ids, "stat")
        d = dc.dice()
        if d is not None and (d.minimum < lo or d.maximum > hi):
            dc.fail(f"dice {d} roll {d.minimum} to {d.maximum}; stats run {lo} to {hi}")
        out[key] = d
    return out


def _skills(c: Cursor, pool: dict[str, str]) -> tuple:
    out = []
    for key, dc in c.items():
        Cursor(dc.doc, dc.path, key, dc.problems).ref(pool, "skill")
        d = dc.dice()
        if d is not None and d.minimum < 0:
            dc.fail(f"dice {d} can roll below 0 XP")
        out.append((key, pool.get(key, key), d))
    return tuple(out)


def _signature(c: Cursor, kind: str, skills: tuple | None):
    """An RTD signature: ``{skill: <id>}``, one of the archetype's own skills (its XP)."""
    if kind != "skill":
        c.fail(f"unknown signature '{kind}' (expected one of: skill)")
        return None
    own = {sid for sid, _, _ in skills or ()}
    return c[kind].ref(own, "skill of this archetype ('skills')")


def signature(doc: dict, rank: Rank) -> int:
    """An RTD archetype's signature figure: its signature skill's XP (0 without the skill)."""
    return next((s["xp"] for s in doc["skills"] if s["id"] == rank.what), 0)
