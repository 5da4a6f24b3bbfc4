"""A saved D100 II character's derived values, recomputed from its (hand-edited) inputs.

The inputs are the characteristics, the background, the kit (weapon and armour
ids, gear), the money and what previous experience added (each skill's and
weapon's ``sources`` beyond its base and category). Everything else is derived
again with the generator's own functions, and each value recorded on the trail
with the rules entries it read: the combat abilities, damage modifier and hit
points, hit locations, skill categories, every skill (base, category, the
modifier rows of its characteristics) and every weapon skill.
"""

from __future__ import annotations

import copy

from chargen.systems.d100 import experience as xp
from chargen.systems.d100.generate import (
    combat_abilities, experience_modifier, hit_locations, signed, wear_armour, weapon_skills,
)
from chargen.systems.d100.rules import ABILITY, D100Rules, RowSum

OWN = ("base", "category")
SECTION = {"shield": "shields"}
NOT_BODY = ("schema", "system", "seed", "pins", "require", "trail", "edits", "rolls", "reproduce")  # the envelope  # weapons.yaml's section of a weapon kind (else the kind itself)  # the sources recomputed from the rules; the rest (experience, edits) are kept


def band_refs(file: str, key: str, table, x: int, shown=lambda v: v, what: str = "") -> list[tuple]:
    """The rules entries a banded lookup of ``x`` reads: its band, and past the last its ``each``."""
    last = table.bands[-1]
    row = table.row(x)
    note = (what or "value") + f" {x}"
    if last.high is not None and x > last.high and table.every:
        return [(file, f"{key}.bands", row.split(",")[0], shown(last.value), note),
                (file, f"{key}.each", None, {"every": table.every, "add": shown(table.add)}, note)]
    band = next(b for b in table.bands if row.split(",")[0] in (f"{b.low}-{b.high}", str(b.low), f"{b.low}+"))
    return [(file, f"{key}.bands", row, shown(band.value), note)]


def sum_refs(rs: RowSum, chars: dict[str, int]) -> list[tuple]:
    refs = []
    for (c, table), row_id in zip(rs.terms, rs.row_ids):
        refs += band_refs("modifiers.yaml", f"rows.{row_id}", table, chars[c], what=c)
    return refs


def _dice_text(v) -> str:
    return signed(v)


def trace_combat(rules: D100Rules, chars: dict[str, int], combat: dict, trail) -> None:
    if not trail.record:
        return
    for ab in rules.abilities:
        trail.derive(f"combat.{ab.id}", combat[ab.id], f"{ab.label}: the sum of the modifier rows of "
                     f"{', '.join(c for c, _ in ab.terms)}", sum_refs(ab, chars), **{c: chars[c] for c, _ in ab.terms})
    average = -(-sum(chars[c] for c in rules.dm_average_of) // len(rules.dm_average_of))
    trail.derive("combat.damage_modifier", combat["damage_modifier"],
                 f"the damage modifier row of the average of {', '.join(rules.dm_average_of)}, rounded up ({average})",
                 band_refs("combat.yaml", "damage_modifier", rules.damage_modifier, average, _dice_text, "average"),
                 **{c: chars[c] for c in rules.dm_average_of})
    trail.derive("combat.damage_modifier_thrown", combat["damage_modifier_thrown"],
                 f"the thrown damage modifier row of the average of {', '.join(rules.dm_average_of)}, rounded up ({average})",
                 band_refs("combat.yaml", "damage_modifier.thrown", rules.damage_modifier_thrown, average, _dice_text,
                           "average"),
                 **{c: chars[c] for c in rules.dm_average_of})
    refs = []
    for c, table in rules.hp_modifiers:
        refs += band_refs("combat.yaml", f"hit_points.modifiers.{c}", table, chars[c], what=c)
    trail.derive("combat.hit_points", combat["hit_points"],
                 f"{rules.hp_base} plus the hit-point rows of {', '.join(c for c, _ in rules.hp_modifiers)}, "
                 f"at least {rules.hp_minimum}", refs,
                 **{c: chars[c] for c in (rules.hp_base, *(c for c, _ in rules.hp_modifiers))})


def skill_entry(rules: D100Rules, stored: dict, chars: dict[str, int], categories: dict[str, int], trail,
                p: xp.Plan | None = None) -> dict:
    sk = next((s for s in rules.skills if s.id == stored["id"]), None)
    if sk is None:
        return stored
    base = sk.base if sk.base_char is None else chars[sk.base_char] * sk.base_times
    modifier = categories[sk.category]
    extra = [s for s in stored.get("sources", ()) if s.get("source") not in OWN]
    if p is not None:
        extra = recapped(p, extra, base + modifier, xp.skill_gains(p).get(sk.id, []), xp.cap_of(p))
    gained = sum(s["value"] for s in extra)
    sources = [{"source": "base", "value": base}, {"source": "category", "id": sk.category, "value": modifier}] + extra
    cat = next(c for c in rules.categories if c.id == sk.category)
    out = dict(stored)
    out.update(base=base, modifier=modifier, value=base + modifier + gained,
               trained=base > 0 or gained >= 5, sources=sources)
    if not trail.record:
        return out
    yaml_base = sk.base if sk.base_char is None else {"characteristic": sk.base_char, "times": sk.base_times}
    refs = [("skills.yaml", f"skills.{sk.id}.base", None, yaml_base),
            ("skills.yaml", f"categories.{cat.id}.sum", None, dict(zip((c for c, _ in cat.terms), cat.row_ids)))]
    refs += sum_refs(cat, chars)
    how = f"{sk.base_char} x {sk.base_times}" if sk.base_char else "fixed"
    trail.derive(f"skills.{sk.id}.value", base + modifier + gained,
                 f"base ({how}) plus the {cat.label} category modifier" + (" plus its sources" if extra else ""),
                 refs, **{c: chars[c] for c in dict.fromkeys([*(c for c, _ in cat.terms), *([sk.base_char] if sk.base_char else [])])})
    return out


def plan_of(rules: D100Rules, doc: dict) -> xp.Plan:
    """The previous experience a saved character records (profession, years, archetype), for
    re-capping its gains when an input changes as generation caps them."""
    exp = doc.get("experience") if isinstance(doc.get("experience"), dict) else {}
    prof = rules.experience.professions.get(((exp.get("profession") or {}).get("id")) or "")
    arche = rules.archetypes.get((doc.get("archetype") or {}).get("id") or "")
    years = exp.get("years") if isinstance(exp.get("years"), int) else 0
    return xp.Plan(arche, prof, years)


def recapped(p: xp.Plan, extra: list[dict], before: int, gains: list[tuple[str, int]], cap: int) -> list[dict]:
    """The experience sources of a value now at ``before`` (base and ability): the profession's and
    archetype's gains capped again as generation caps them ("experience never raises a value above
    the cap": a raised STR does not take a weapon past it), the other sources kept. Unchanged when
    the stored sources hold no such gain (the value was not trained) or the rules lack the profession."""
    mine = ("profession", "archetype")
    if p.profession is None or not any(s.get("source") in mine for s in extra):
        return extra
    return xp.sources(p, before, gains, cap) + [s for s in extra if s.get("source") not in mine]


def weapon_entry(rules: D100Rules, bg, stored: dict, chars: dict[str, int], combat: dict, trail,
                 p: xp.Plan | None = None) -> dict:
    w = rules.weapons.get(stored["id"])
    if w is None:
        return stored
    old = stored.get("sources") or [{"source": "base", "value": stored.get("base", w.base)}]
    tribal = bg.tribal_base is not None and (old[0]["value"] == bg.tribal_base or w.id in bg.tribal_weapons)
    fresh = weapon_skills(rules, bg, chars, combat, [(w, tribal, False)])[0]
    extra = [s for s in old if s.get("source") not in OWN]
    p = p or xp.Plan()
    own_ability = ABILITY["parry" if w.kind == "shield" else "attack"]
    extra = recapped(p, extra, old[0]["value"] + combat[own_ability], xp.weapon_gains(p, w), xp.cap_of(p, weapon=True))
    has_cat = any(s.get("source") == "category" for s in old)
    base = old[0]["value"]
    own = ABILITY["parry" if w.kind == "shield" else "attack"]  # a shield's sources sum to its parry
    sources = [{"source": "base", "value": base}]
    if has_cat:
        sources.append({"source": "category", "id": own, "value": combat[own]})
    sources += extra
    value = sum(s["value"] for s in sources)
    attack = value
    parry = value if w.kind == "shield" else value - (combat[ABILITY["attack"]] - combat[ABILITY["parry"]] if has_cat else 0)
    out = dict(stored)
    out.update({k: v for k, v in fresh.items() if k not in ("id", "label", "base", "attack", "parry", "sources")})
    out.update(base=base, attack=attack if w.kind != "shield" else None,
               parry=parry if w.kind != "missile" else None, sources=sources)
    out = {k: out[k] for k in stored} | {k: v for k, v in out.items() if k not in stored}
    ref = (("weapons.yaml", f"{SECTION.get(w.kind, w.kind)}.{w.id}.base", None, w.base),) if bg.tribal_base is None else ()
    shown = [s for s in sources if s["source"] not in OWN]
    for role in ("attack", "parry"):
        ability = f"combat.{ABILITY[role]}"
        trail.derive(f"weapons.{w.id}.{role}", out[role], f"base plus the {role} ability" if has_cat else "base",
                     ref, base=base, **({ability: combat[ABILITY[role]]} if has_cat else {}),
                     **({"sources": sum(s["value"] for s in shown)} if shown else {}))
    for key, from_ in (("damage_modifier", "combat.damage_modifier_thrown" if w.thrown else "combat.damage_modifier"),
                       ("sr", "combat.strike_ranks"), ("below_minimum", "characteristics")):
        trail.derive(f"weapons.{w.id}.{key}", out.get(key), f"from {from_}",
                     **({from_: combat.get(from_.split(".")[1])} if from_ != "characteristics"
                        else {"str": chars.get("str"), "dex": chars.get("dex")}))
    return out


def recompute(rules: D100Rules, doc: dict, trail) -> dict:
    """The body of ``doc`` with every derived value recomputed from its inputs."""
    chars = dict(doc["characteristics"])
    bg = next((b for _, _, b in rules.backgrounds.rows if b.id == doc["background"]["id"]), None)
    p = plan_of(rules, doc)
    combat = combat_abilities(rules, chars)
    trace_combat(rules, chars, combat, trail)
    locations = hit_locations(rules, combat["hit_points"])
    pieces = [rules.armour[a["id"]] for a in doc["armour"] if a["id"] in rules.armour]
    wear_armour(rules, locations, pieces)
    for loc in locations:
        trail.derive(f"hit_locations.{loc['id']}.ap", loc["ap"], "the highest AP of the armour covering the location",
                     armour=[p.id for p in pieces if loc["id"] in p.covers])
        trail.derive(f"hit_locations.{loc['id']}.hp", loc["hp"], "the location's hit-point row of the total",
                     hit_points=combat["hit_points"])
    categories = {}
    for cat in rules.categories:
        categories[cat.id] = trail.derive(f"skill_categories.{cat.id}", cat.value(chars),
                                          f"{cat.label}: the sum of the modifier rows of "
                                          f"{', '.join(c for c, _ in cat.terms)}", sum_refs(cat, chars) if trail.record else (),
                                          **{c: chars[c] for c, _ in cat.terms})
    derived = ("combat", "hit_locations", "skill_categories", "experience_modifier", "skills", "weapons", "armour")
    body = {k: None if k in derived else copy.deepcopy(v) for k, v in doc.items() if k not in NOT_BODY}
    body.update(
        combat=combat, hit_locations=locations, skill_categories=categories,
        experience_modifier=experience_modifier(rules, chars),
        skills=[skill_entry(rules, s, chars, categories, trail, p) for s in doc["skills"]],
        weapons=[weapon_entry(rules, bg, w, chars, combat, trail, p) for w in doc["weapons"]] if bg else doc["weapons"],
        armour=[{"id": a.id, "label": a.label, "ap": a.ap, "enc": a.enc, "covers": list(a.covers)}
                for a in (rules.armour[x["id"]] for x in doc["armour"] if x["id"] in rules.armour)],
    )
    return body


def fill(rules: D100Rules, doc: dict) -> list[str]:
    """Weapons, skills and armour pieces added by hand by id alone, completed from the rules (the
    derived figures as the character's characteristics give them; render recomputes them again)."""
    from chargen.fill import fill_list
    from chargen.generate import Trail

    chars, bg_id = doc.get("characteristics"), (doc.get("background") or {}).get("id")
    bg = next((b for _, _, b in rules.backgrounds.rows if b.id == bg_id), None)
    if not isinstance(chars, dict) or bg is None or any(not isinstance(chars.get(c.id), int) for c in rules.characteristics):
        skills = {s.id: s for s in rules.skills}
        return (fill_list(doc, "weapons", rules.weapons, None, "weapon") + fill_list(doc, "skills", skills, None, "skill")
                + fill_list(doc, "armour", rules.armour, None, "armour piece"))
    combat = combat_abilities(rules, chars)
    categories = {cat.id: cat.value(chars) for cat in rules.categories}
    skills = {s.id: s for s in rules.skills}

    def skill(item: dict) -> dict:
        sk = skills[item["id"]]
        made = skill_entry(rules, {"id": sk.id, "sources": []}, chars, categories, Trail())
        return {"id": sk.id, "label": sk.label, "category": sk.category,
                **{k: made[k] for k in ("base", "modifier", "value", "trained", "sources")}}

    def armour(item: dict) -> dict:
        a = rules.armour[item["id"]]
        return {"id": a.id, "label": a.label, "ap": a.ap, "enc": a.enc, "covers": list(a.covers)}

    return (fill_list(doc, "weapons", rules.weapons,
                      lambda i: weapon_skills(rules, bg, chars, combat, [(rules.weapons[i["id"]], False, False)])[0],
                      "weapon")
            + fill_list(doc, "skills", skills, skill, "skill")
            + fill_list(doc, "armour", rules.armour, armour, "armour piece"))
