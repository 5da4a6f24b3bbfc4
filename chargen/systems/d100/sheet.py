"""What the D100 sheet needs beyond the character document: the ``extra`` of its template.

Everything here is computed at render time from the document, so a hand-edited
character (a raised skill, a new weapon) shows its own degree ranges.
"""

from __future__ import annotations

from chargen.systems.d100.degrees import degree_ranges
from chargen.systems.d100.view import view
from chargen.view import roster_pairs


def sheet_context(doc: dict, rules=None) -> dict:
    shown = view(doc, rules)
    return {
        "skill_rows": skill_rows(doc),
        "weapons": [weapon_line(w) for w in doc["weapons"]],
        "location_labels": {loc["id"]: loc["label"] for loc in doc["hit_locations"]},
        "view": shown,
        "roster": roster_pairs(shown),  # the cover's key figures
    }


def block_context(doc: dict, rules=None) -> dict:
    """The stat block's and card's figures: the sheet's, and the skills above their base (best first)."""
    above = [s for s in doc["skills"] if s["value"] > s["base"]]
    return {**sheet_context(doc, rules), "skills_above_base": sorted(above, key=lambda s: -s["value"])}


def label_of(category_id: str) -> str:
    return category_id.replace("_", " ").capitalize()


def skill_groups(doc: dict) -> list[dict]:
    """Skills by category, in the document's category order; categories only skills name come last."""
    order = list(doc["skill_categories"])
    order += [s["category"] for s in doc["skills"] if s["category"] not in order]
    groups = []
    for cat in dict.fromkeys(order):
        skills = [{"skill": s, "degrees": degree_ranges(s["value"])} for s in doc["skills"] if s["category"] == cat]
        if skills:
            groups.append({"id": cat, "label": label_of(cat), "modifier": doc["skill_categories"].get(cat),
                           "skills": skills})
    return groups


def skill_rows(doc: dict) -> list[tuple[dict | None, dict | None]]:
    """The skill list as two columns side by side, read down the left then the right.

    Each line is a category heading or a skill; the split is at the middle,
    moved up one line so that no heading is left alone at the foot of the
    left column. As rows of one table, the list can break across pages.
    """
    lines: list[dict] = []
    for group in skill_groups(doc):
        lines.append({"kind": "category", **{k: group[k] for k in ("id", "label", "modifier")}})
        lines += [{"kind": "skill", **entry} for entry in group["skills"]]
    split = (len(lines) + 1) // 2
    if split and lines[split - 1]["kind"] == "category":
        split -= 1
    left, right = lines[:split], lines[split:]
    right += [None] * (len(left) - len(right))
    left += [None] * (len(right) - len(left))
    return list(zip(left, right))


def weapon_line(weapon: dict) -> dict:
    def ranges(chance: int | None) -> dict | None:
        return None if chance is None else degree_ranges(chance)

    return {"weapon": weapon, "attack": ranges(weapon["attack"]), "parry": ranges(weapon["parry"])}
