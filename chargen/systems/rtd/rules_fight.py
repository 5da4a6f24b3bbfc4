"""RTD's fight rules (fight.yaml, optional; a play file): the order of a round, the parts whose wound
penalties a roll takes, and when wounds put a fighter out, each problem at its file and line."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.rules.check import Cursor


@dataclass(frozen=True, slots=True)
class FightRules:
    order_die: int
    weapon_arm: str
    other_arm: str
    dodge_parts: tuple[str, ...]
    out_when: tuple[tuple[tuple[str, ...], str], ...]   # (parts, the least wound state of every one)
    to_hit_skills: tuple[str, ...] = ()   # skills whose level's bonus a to-hit roll takes (the best of them)
    dodge_skills: tuple[str, ...] = ()    # the same for the dodge roll


def fight(c: Cursor | None, part_ids: set, state_ids: list, skill_ids: set) -> FightRules | None:
    if c is None:
        return None
    c.mapping(required=("source", "order", "weapon_arm", "other_arm", "dodge_parts", "out_when", "skills"),
              optional=("reading",))
    c["source"].source()
    if c["reading"].present:
        c["reading"].str(2000, multiline=True)
    c["order"].mapping(required=("die",))
    die = c["order"]["die"].int(2, 2)
    arm, other = c["weapon_arm"].ref(part_ids, "body part"), c["other_arm"].ref(part_ids, "body part")
    dodge = tuple(p.ref(part_ids, "body part") for p in c["dodge_parts"].list(1))
    groups = []
    for g in c["out_when"].list():
        if g.mapping(required=("parts", "at")):
            parts = tuple(p.ref(part_ids, "body part") for p in g["parts"].list(1))
            at = g["at"].ref(state_ids, "wound state")
            if at and all(parts):
                groups.append((parts, at))
    sk = c["skills"]
    sk.mapping(required=("to_hit", "dodge"))
    to_hit, dodge_skills = (tuple(x.ref(skill_ids, "skill") for x in sk[k].list()) for k in ("to_hit", "dodge"))
    if None in (die, arm, other) or not all(dodge) or not all(to_hit + dodge_skills):
        return None
    return FightRules(die, arm, other, dodge, tuple(groups), to_hit, dodge_skills)
