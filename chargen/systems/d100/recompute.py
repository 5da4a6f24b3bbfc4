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

from chargen.fill import fill_list
from chargen.generate import Trail
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
    if trail.record:
        trace_weapon(rules, bg, w, out, sources, has_cat, combat, chars, p, trail)
    return out


def _part(s: dict) -> str:
    """A source's name as an explain line gives it: ``profession soldier (11 years)``, ``archetype bandit``."""
    years = f" ({s['years']} years)" if "years" in s else ""
    return f"{s['source']} {s.get('id', '')}{years}".replace("  ", " ").strip()


def _experience_refs(p: xp.Plan, w, shown: list[dict]) -> list[tuple]:
    refs = []
    for s in shown:
        if s["source"] == "profession" and p.profession is not None:
            refs.append(("professions.yaml", f"professions.{p.profession.id}.weapon_skill", None,
                         {"per_year": p.profession.weapon_per_year, "cap": p.profession.weapon_cap}))
        elif s["source"] == "archetype" and p.archetype is not None:
            by = {k: n for k, n in p.archetype.weapon_skill_by if k in (w.kind, w.id)}
            refs.append(("archetypes.yaml", f"archetypes.{p.archetype.id}.weapon_skill", None,
                         {"all": p.archetype.weapon_skill, **by} if by else p.archetype.weapon_skill))
    return refs


def trace_weapon(rules: D100Rules, bg, w, out: dict, sources: list[dict], has_cat: bool, combat: dict,
                 chars: dict[str, int], p: xp.Plan, trail) -> None:
    """Each figure of a weapon with every part it adds up from: its base, the ability, each
    experience source by name (profession and years, archetype; capped), and its strike rank."""
    ref = (("weapons.yaml", f"{SECTION.get(w.kind, w.kind)}.{w.id}.base", None, w.base),) if bg.tribal_base is None else ()
    shown = [s for s in sources if s["source"] not in OWN]
    refs = ref + tuple(_experience_refs(p, w, shown))
    for role in ("attack", "parry"):
        ability = f"combat.{ABILITY[role]}"
        rule = "base" + (f" plus the {role} ability" if has_cat else "") + \
            (" plus " + ", ".join(_part(s) for s in shown) + (f" (experience capped at {xp.cap_of(p, weapon=True)})"
                                                              if p.profession else "") if shown else "")
        trail.derive(f"weapons.{w.id}.{role}", out[role], rule, refs, base=out["base"],
                     **({ability: combat[ABILITY[role]]} if has_cat else {}), **{_part(s): s["value"] for s in shown})
    dm = "combat.damage_modifier_thrown" if w.thrown else "combat.damage_modifier"
    trail.derive(f"weapons.{w.id}.damage_modifier", out.get("damage_modifier"), f"from {dm}",
                 **{dm: combat.get(dm.split(".")[1])})
    sr = combat["strike_ranks"]
    if w.kind == "melee":
        trail.derive(f"weapons.{w.id}.sr", out.get("sr"), "the SIZ strike rank plus the DEX strike rank plus the "
                     "weapon's own strike rank", (("weapons.yaml", f"melee.{w.id}.sr", None, w.sr),),
                     **{"combat.strike_ranks.siz": sr["siz"], "combat.strike_ranks.dex": sr["dex"], "weapon sr": w.sr})
    elif w.kind == "missile":
        trail.derive(f"weapons.{w.id}.sr", out.get("sr"), "the DEX strike rank (a missile weapon adds no SIZ or own SR)",
                     **{"combat.strike_ranks.dex": sr["dex"]})
    trail.derive(f"weapons.{w.id}.below_minimum", out.get("below_minimum"),
                 "the STR and DEX points short of the weapon's minimums (2 STR above its minimum stand in for 1 DEX): "
                 "null when it can be used", (("weapons.yaml", f"{SECTION.get(w.kind, w.kind)}.{w.id}.min", None,
                                              {"str": w.min_str, "dex": w.min_dex}),),
                 str=chars.get("str"), dex=chars.get("dex"))


def trace_more(rules: D100Rules, doc: dict, chars: dict[str, int], combat: dict, p: xp.Plan, trail) -> None:
    """What generation computed from rolls and the rules beyond the combat figures: the experience
    modifier, the strike ranks, the age and the money (from the document's own rolls)."""
    if not trail.record:
        return
    x = chars[rules.experience_char]
    trail.derive("experience_modifier", experience_modifier(rules, chars),
                 f"the experience modifier of {rules.experience_char.upper()} {x}: "
                 + "; ".join(f"{n:+d} per point {side} {t}" for side, t, n in rules.experience_steps),
                 (("skills.yaml", "experience.steps", None,
                   [{side: t, "per_point": n} for side, t, n in rules.experience_steps]),),
                 **{rules.experience_char: x})
    for ch, table, name in (("siz", rules.sr_siz, "siz"), ("dex", rules.sr_dex, "dex")):
        trail.derive(f"combat.strike_ranks.{name}", combat["strike_ranks"][name], f"the {ch.upper()} strike rank row",
                     band_refs("combat.yaml", f"strike_ranks.{name}", table, chars[ch], what=ch), **{ch: chars[ch]})
    years = p.years if p.profession else 0
    trail.derive("identity.age", rules.age + years, f"{rules.age} (the seed's starting age) plus the years of "
                 "previous experience", (("names.yaml", "age.years", None, rules.age),), years=years)  # (a pin: explain says so)
    _trace_money(rules, doc, p, trail)


def _trace_money(rules: D100Rules, doc: dict, p: xp.Plan, trail) -> None:
    rolls = {r.get("for"): r for r in doc.get("rolls", ()) if isinstance(r, dict)}
    bg = next((b for _, _, b in rules.backgrounds.rows if b.id == (doc.get("background") or {}).get("id")), None)
    if "money" not in rolls or bg is None:
        return  # no roll recorded (a hand-made or imported character): as stored
    rolled = rolls["money"]["total"]
    if p.undergone:
        prof = p.profession
        years = p.years if prof.money_per_year else 1
        trail.derive("money.starting", rolled * prof.money_times * years,
                     f"the profession's money roll{f' x {prof.money_times}' if prof.money_times != 1 else ''}"
                     + (f" per year x {p.years} years" if prof.money_per_year else "") + " (not cumulative with the "
                     "background's starting wealth)", (("professions.yaml", f"professions.{prof.id}.money", None,
                                                        {"dice": str(prof.money_dice), "times": prof.money_times,
                                                         "per": "year" if prof.money_per_year else "total"}),),
                     roll=rolled)
        allowance = rolls.get("money.allowance")
        if allowance is not None:
            trail.derive("money.income", allowance["total"] * bg.money_times, "the background's yearly allowance, "
                         f"until age {bg.income_until_age}", (("backgrounds.yaml", f"backgrounds.{bg.id}.money", None,
                                                                {"dice": str(bg.money_dice), "times": bg.money_times}),),
                         roll=allowance["total"])
        return
    amount = rolled * bg.money_times
    ref = (("backgrounds.yaml", f"backgrounds.{bg.id}.money", None, {"dice": str(bg.money_dice), "times": bg.money_times}),)
    trail.derive("money.starting", amount, "the background's money roll" + (f" x {bg.money_times}" if bg.money_times != 1
                                                                            else ""), ref, roll=rolled)
    if bg.income:
        trail.derive("money.income", amount, "a noble's yearly allowance: his starting money, each year"
                     + (f" until age {bg.income_until_age}" if bg.income_until_age else ""), ref, roll=rolled)


def recompute(rules: D100Rules, doc: dict, trail) -> dict:
    """The body of ``doc`` with every derived value recomputed from its inputs."""
    chars = dict(doc["characteristics"])
    bg = next((b for _, _, b in rules.backgrounds.rows if b.id == doc["background"]["id"]), None)
    combat = combat_abilities(rules, chars)
    trace_combat(rules, chars, combat, trail)
    p = plan_of(rules, doc)
    trace_more(rules, doc, chars, combat, p, trail)
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
