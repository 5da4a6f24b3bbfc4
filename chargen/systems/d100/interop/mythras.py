"""D100 II skills under Mythras names (the table is data: ``mythras.yaml`` beside this module).

:func:`skill_entries` is what MEG out writes: one ``{"Mythras Name": total}`` per Mythras skill
(the best value of the D100 II skills written under it, in the rules' order) and the feature
line that keeps every D100 II skill whose own value the list does not carry (merged under one
Mythras name, or without one). :func:`reverse` is what MEG in reads: a Mythras name to the
D100 II skill it stands for, where exactly one does.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

SKILLS_FEATURE = "D100 II skills: "  # the feature line: "D100 II skills: Climbing 15%, Jumping 20%"
_ENTRY = re.compile(r"^(.+) (-?\d+)%$", re.ASCII)


@functools.cache
def table() -> dict[str, str | None]:
    """D100 II skill id -> Mythras name (None: Mythras has none)."""
    data = yaml.safe_load(Path(__file__).with_name("mythras.yaml").read_text(encoding="utf-8"))
    return dict(data["skills"])


def name_of(skill: dict) -> str | None:
    """The Mythras name ``skill`` is written as: the table's, or its own label for a skill the
    D100 II rules do not have (a Mythras skill read from MEG), None for a rules skill without one."""
    names = table()
    if skill["id"] in names:
        return names[skill["id"]]
    return skill["label"] if skill.get("category") == MYTHRAS_CATEGORY else None


MYTHRAS_CATEGORY = "mythras"  # the category of a skill read from MEG that D100 II does not have


def skill_entries(skills: list[dict]) -> tuple[list[dict], str | None]:
    """MEG's ``skills`` list for ``skills`` and the feature line of the D100 II values it does not carry.

    A Mythras skill read from MEG is written as it came; D100 II skills under a Mythras name are
    written with the best of their values unless such a skill holds that name already."""
    best: dict[str, int] = {}
    members: dict[str | None, list[dict]] = {}
    for s in skills:
        name = name_of(s)
        members.setdefault(name, []).append(s)
        if name is not None and s.get("category") == MYTHRAS_CATEGORY:
            best[name] = s["value"]
    for name, group in members.items():
        if name is not None and name not in best:
            best[name] = max(s["value"] for s in group)
    kept = [s for name, group in members.items() for s in group
            if s.get("category") != MYTHRAS_CATEGORY and (name is None or len(group) > 1)]
    order = {id(s): n for n, s in enumerate(skills)}
    kept.sort(key=lambda s: order[id(s)])
    line = SKILLS_FEATURE + ", ".join(f"{s['label']} {s['value']}%" for s in kept) if kept else None
    first = {}
    for s in skills:
        if name_of(s) is not None:
            first.setdefault(name_of(s), best[name_of(s)])
    return [{name: value} for name, value in first.items()], line


def merged(key: str, value: int, given: dict[str, int], labels: dict[str, str]) -> bool:
    """Whether ``value`` under the Mythras name ``key`` (lower case) is the best of the D100 II skills
    written under it, whose own values ``given`` (the feature line) holds: then it is theirs, not a
    Mythras skill of its own. ``labels``: rules skill id -> label."""
    values = [given.get(labels[sid].lower()) for sid, name in table().items()
              if name is not None and name.lower() == key and sid in labels]
    return bool(values) and None not in values and value == max(values)


def feature_values(line: str) -> dict[str, int]:
    """The D100 II skill values a "D100 II skills: ..." feature line gives, by lower-case label."""
    out = {}
    for part in line[len(SKILLS_FEATURE):].split(", "):
        m = _ENTRY.match(part.strip())
        if m:
            out[m[1].lower()] = int(m[2])
    return out


def reverse(labels: dict[str, str]) -> dict[str, str | None]:
    """Lower-case Mythras name -> the id of the one D100 II skill written under it (None where
    several are: the name stands for none of them alone). ``labels``: rules skill id -> label."""
    out: dict[str, str | None] = {}
    for sid, name in table().items():
        if name is not None and sid in labels:
            key = name.lower()
            out[key] = None if key in out else sid
    return out


def own_skill(sid: str, label: str, value: int) -> dict:
    """A Mythras skill D100 II has no skill for, as a skill of its own (category "mythras", base 0)."""
    return {"id": sid, "label": label, "category": MYTHRAS_CATEGORY, "base": 0, "modifier": value, "value": value,
            "trained": value > 0}
