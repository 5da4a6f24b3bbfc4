"""What the formats for other tools read of a d100 character, in one place.

:func:`skill_sources` is a skill's (or weapon's) value split by where it comes
from: the ``sources`` list when the document has one (``{"source": "base" |
"category" | "profession" | ..., "value": n}``, summing to the value), else
``base`` and ``modifier`` (the category modifier) as older documents have them.
"""

from __future__ import annotations

CHARACTERISTICS = ("str", "con", "siz", "int", "pow", "dex", "cha")


def skill_sources(skill: dict) -> list[tuple[str, int]]:
    """``[(source, value), ...]`` summing to the skill's value (zero parts left out, base kept)."""
    sources = skill.get("sources")
    if isinstance(sources, list) and sources:
        parts = [(str(s.get("source")), int(s.get("value", 0))) for s in sources if isinstance(s, dict)]
    else:
        parts = [("base", skill.get("base", 0)), ("category", skill.get("modifier", 0))]
        rest = skill.get("value", 0) - sum(v for _, v in parts)
        if rest:
            parts.append(("other", rest))
    return [(k, v) for k, v in parts if v or k == "base"]


def sources_text(skill: dict) -> str:
    """'base 15 + category 5' (the parts of a skill's value)."""
    return " + ".join(f"{k} {v}" for k, v in skill_sources(skill)).replace("+ -", "- ")


def dice_lower(dice: str | None) -> str:
    """'1D8+1' as MEG and Foundry write dice ('1d8+1')."""
    return (dice or "").replace("D", "d")


def signed_dm(dm: str | None) -> str:
    """A damage modifier with its sign ('0' -> '+0', '1D4' -> '+1d4')."""
    dm = dice_lower(dm) or "0"
    return dm if dm[0] in "+-" else "+" + dm


def weapon_damage(weapon: dict, character_dm: str) -> tuple[str, bool]:
    """The weapon's damage and whether the character's damage modifier is added to it:
    a weapon with the character's own modifier says so; one with another (a thrown
    weapon's half modifier) carries it in its damage string."""
    damage, dm = dice_lower(weapon.get("damage")) or "0", weapon.get("damage_modifier")
    if dm in (None, "0", ""):
        return damage, False
    if dm == character_dm:
        return damage, True
    return damage + signed_dm(dm), False


def range_text(span) -> str:
    """A d20 span as 'NN-NN', both ends zero-padded (one face too: '12-12')."""
    return f"{int(span[0]):02d}-{int(span[1]):02d}"
