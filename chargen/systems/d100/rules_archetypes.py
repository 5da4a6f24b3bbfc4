"""The D100 II archetypes (archetypes.yaml): named NPC types built on backgrounds and professions."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.archetypes import Listing, entries, weighted
from chargen.ranks import Rank, RankTable, rank_table, read_rank
from chargen.rules.check import Cursor
from chargen.systems.d100.rules_experience import Experience
from chargen.systems.d100.rules_kit import equipment_entry


@dataclass(frozen=True, slots=True)
class Archetype:
    id: str
    label: str
    tier: str
    backgrounds: tuple[str, ...]
    weights: tuple[int, ...] | None
    profession: str | None
    years: dicemod.Dice | None
    characteristics: dict[str, dicemod.Dice]
    skills: tuple[tuple[str, int], ...]
    weapon_skill: int
    equipment: tuple | None      # None: the profession's
    names: str | None            # None: the background's name list
    rank: Rank | None = None     # the band its signature skill should fall in (chargen.ranks)
    weapon_skill_by: tuple[tuple[str, int], ...] = ()  # (weapon kind or id, %) on top of weapon_skill

    def listing(self) -> Listing:
        parts = [f"background {'/'.join(self.backgrounds)}"]
        if self.profession:
            parts.append(f"{self.profession} {self.years} years")
        parts += [f"{c.upper()} {d}" for c, d in self.characteristics.items()]
        if self.equipment is not None:
            parts.append("own kit")
        return Listing(self.id, self.label, f"{self.tier}; " + ", ".join(parts) if self.tier else ", ".join(parts))


_KEYS = ("tier", "background", "profession", "years", "characteristics", "skills", "weapon_skill",
         "equipment", "names", "rank")
WEAPON_KINDS = ("melee", "missile", "shield")


def archetypes_table(c: Cursor | None, refs: dict, ids: dict[str, set[str]], experience: Experience) -> dict[str, Archetype]:
    """``ids``: the characteristic, skill, background and name-list ids an archetype may name."""
    if c is None:
        return {}
    out: dict[str, Archetype] = {}
    refs = {**refs, "removed_ok": True}  # what an overlay removed leaves the archetypes too
    items = entries(c)
    table = rank_table(c["ranks"])
    for e in items:
        a = _archetype(e, refs, ids, experience, table)
        if a is not None and a.id and a.backgrounds:  # every background removed by an overlay: no archetype
            out[a.id] = a
    return out


def _archetype(e: Cursor, refs: dict, ids: dict[str, set[str]], experience: Experience,
               table: RankTable | None = None) -> Archetype | None:
    if not e.mapping(required=("id", "label", "source", "background"), optional=_KEYS):
        return None
    e["source"].source()
    backgrounds, weights = weighted(e["background"], ids["background"], "background", removed_ok=True)
    profession = e["profession"].ref(experience.professions, "profession", removed_ok=True) \
        if e["profession"].present else None
    if e["profession"].present and profession is None and e["profession"].removed():
        return None  # its profession was removed by an overlay: so is the archetype
    years = _years(e, profession, experience)
    if profession:
        allowed = experience.professions[profession].backgrounds
        for bg in backgrounds:
            if bg and bg not in allowed:
                e["background"].fail(f"background '{bg}' may not take profession '{profession}' "
                                     f"(its backgrounds: {', '.join(allowed)})")
    chars = {}
    for key, dc in (e["characteristics"].items() if e["characteristics"].present else ()):
        if not Cursor(dc.doc, dc.path, key, dc.problems).ref(ids["characteristic"], "characteristic", removed_ok=True):
            continue
        d = dc.dice()
        if d is not None and d.minimum < 0:
            dc.fail(f"dice {d} can roll below 0 (a characteristic is at least 0)")
        chars[key] = d
    skills = []
    for key, sc in (e["skills"].items() if e["skills"].present else ()):
        if Cursor(sc.doc, sc.path, key, sc.problems).ref(ids["skill"], "skill", removed_ok=True):
            skills.append((key, sc.int(0, 100)))
    return Archetype(
        id=e["id"].ident(), label=e["label"].str(), tier=e["tier"].str() if e["tier"].present else "",
        backgrounds=backgrounds, weights=weights, profession=profession, years=years,
        characteristics=chars, skills=tuple(skills),
        **_weapon_skill(e["weapon_skill"], refs["weapon"]),
        equipment=tuple(equipment_entry(x, refs) for x in e["equipment"].list()) if e["equipment"].present else None,
        names=e["names"].ref(ids["names"], "name list") if e["names"].present else None,
        rank=read_rank(e["rank"], table, lambda sig, kind: _signature(sig, kind, refs["weapon"], ids["skill"])),
    )


def _weapon_skill(c: Cursor, weapons: set[str]) -> dict:
    """``weapon_skill: N`` (every weapon the profession or archetype trains) or ``{all: N, missile: M,
    <weapon id>: K}``: N for all, and M or K more for a weapon of that kind or id."""
    if not c.present:
        return {"weapon_skill": 0}
    if not isinstance(c.value, dict):
        return {"weapon_skill": c.int(0, 100) or 0}
    by = []
    for key, v in c.items():
        if key != "all" and key not in WEAPON_KINDS and not Cursor(v.doc, v.path, key, v.problems).ref(
                weapons, "weapon or weapon kind (melee, missile, shield, all)", removed_ok=True):
            continue  # unknown (a problem), or removed by an overlay (no part for it)
        by.append((key, v.int(0, 100) or 0))
    return {"weapon_skill": dict(by).pop("all", 0), "weapon_skill_by": tuple((k, n) for k, n in by if k != "all")}


def _signature(c: Cursor, kind: str, weapons: set[str], skills: set[str]):
    """A D100 signature: ``{weapon: <kind, id or [ids]>}`` (the best attack, a shield's parry, among
    those the character carries and can use) or ``{skill: <id>}`` (its value)."""
    arg = c[kind]
    if kind == "skill":  # (an id an overlay removed: no rank, like the archetype's other removed ids)
        return arg.ref(skills, "skill", removed_ok=True)
    if kind != "weapon":
        c.fail(f"unknown signature '{kind}' (expected one of: weapon, skill)")
        return None
    if isinstance(arg.value, str) and arg.value in WEAPON_KINDS:
        return arg.value
    ids = [x.ref(weapons, "weapon", removed_ok=True) for x in arg.list(1)] if isinstance(arg.value, list) \
        else [arg.ref(weapons, "weapon", removed_ok=True)]
    return tuple(i for i in ids if i) or None


def _years(e: Cursor, profession: str | None, experience: Experience) -> dicemod.Dice | None:
    if not e["years"].present:
        if profession:
            e.fail("missing key 'years' (an archetype with a profession gives its years, a number or dice)")
        return None
    if not profession:
        e["years"].fail("years of previous experience need a profession (add 'profession')")
    return years_dice(e["years"], experience.max_years)


def years_dice(c: Cursor, max_years: int) -> dicemod.Dice | None:
    """Years of previous experience: a number or dice, from 0 to ``max_years``."""
    d = c.dice()
    if d is not None and (d.minimum < 0 or d.maximum > max_years):
        c.fail(f"{d} can give {d.minimum} to {d.maximum} years (expected 0 to {max_years}: professions.yaml max_years)")
        return None
    return d
