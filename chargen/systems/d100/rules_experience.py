"""The D100 II previous experience rules: professions, their gains, kit and money (professions.yaml)."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.rules.check import Cursor, check_unique
from chargen.systems.d100.rules_kit import equipment_entry


@dataclass(frozen=True, slots=True)
class Profession:
    id: str
    label: str
    backgrounds: tuple[str, ...]
    skills: tuple[tuple[str, int], ...]  # (skill id, % per year)
    cap: int                             # experience never raises a skill above this
    weapon_per_year: int                 # % per year to the attack and parry of the profession's weapons
    weapon_cap: int
    equipment: tuple                     # equipment entries (the backgrounds' grammar)
    money_dice: dicemod.Dice
    money_times: int
    money_per_year: bool                 # one roll times the years (else one roll in total)


@dataclass(frozen=True, slots=True)
class Experience:
    max_years: int
    weapon_lists: dict[str, tuple[str, ...]]
    professions: dict[str, Profession]


def weapon_lists(c: Cursor, weapons: set[str]) -> dict[str, tuple[str, ...]]:
    """The named weapon lists (the barbarians' tribal weapons): read before the backgrounds, which use them."""
    out: dict[str, tuple[str, ...]] = {}
    if not c["weapon_lists"].present:
        return out
    for key, lc in c["weapon_lists"].items():
        Cursor(lc.doc, lc.path, key, lc.problems).ident()
        if not lc.mapping(required=("source", "weapons")):
            continue
        lc["source"].source()
        # a weapon an overlay removed leaves the list (the removal cascades)
        out[key] = tuple(w for w in (x.ref(weapons, "weapon", removed_ok=True) for x in lc["weapons"].list(1)) if w)
    return out


def professions_table(c: Cursor, refs: dict, skill_ids: set[str], background_ids: set[str],
                      lists: dict[str, tuple[str, ...]]) -> Experience:
    c.mapping(required=("source", "max_years", "professions"), optional=("weapon_lists",))
    c["source"].source()
    max_years = c["max_years"].int(0, 200) or 0
    entries = c["professions"].list()
    check_unique(entries, "id", "profession")
    refs = {**refs, "removed_ok": True}  # a skill, weapon or armour an overlay removed leaves the professions too
    out: dict[str, Profession] = {}
    for e in entries:
        p = _profession(e, refs, skill_ids, background_ids)
        if p is not None and p.id:
            out[p.id] = p
    return Experience(max_years, lists, out)


def _profession(e: Cursor, refs: dict, skill_ids: set[str], background_ids: set[str]) -> Profession | None:
    if not e.mapping(required=("id", "label", "source", "backgrounds", "skills", "cap", "weapon_skill",
                               "equipment", "money")):
        return None
    e["source"].source()
    skills = []
    for key, sc in e["skills"].items():
        if Cursor(sc.doc, sc.path, key, sc.problems).ref(skill_ids, "skill", removed_ok=True):
            skills.append((key, sc.int(0, 100)))
    ws = e["weapon_skill"]
    ws.mapping(required=("per_year", "cap"))
    money = e["money"]
    money.mapping(required=("dice", "per"), optional=("times",))
    dice = money["dice"].dice()
    if dice is not None and dice.minimum < 0:
        money["dice"].fail(f"dice {dice} can roll below 0 (money is at least 0)")
    return Profession(
        id=e["id"].ident(), label=e["label"].str(),
        backgrounds=tuple(b for b in (x.ref(background_ids, "background", removed_ok=True)
                                      for x in e["backgrounds"].list(1)) if b),
        skills=tuple(skills), cap=e["cap"].int(0, 1000) or 0,
        weapon_per_year=ws["per_year"].int(0, 100) or 0, weapon_cap=ws["cap"].int(0, 1000) or 0,
        equipment=tuple(equipment_entry(x, refs) for x in e["equipment"].list()),
        money_dice=dice, money_times=money["times"].int(1, 1000) if money["times"].present else 1,
        money_per_year=money["per"].one_of(("year", "total")) == "year",
    )
