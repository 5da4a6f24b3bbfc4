"""D100 II character generation: the SRD's five creation steps, as small functions.

Each step reads the typed rules and rolls through the injected :class:`Roller`;
the character is a plain dict in a fixed key order (the JSON document's body).
"""

from __future__ import annotations

from chargen.archetypes import pick
from chargen.dice import Roller, parse
from chargen.generate import GenerationRequest
from chargen.systems.d100 import experience as xp
from chargen.systems.d100.pins import pin_characteristics
from chargen.systems.d100.rules import ABILITY, CHAR, D100Rules
from chargen.systems.d100.rules_kit import Background, Weapon

D100 = parse("D100")


def signed(dice) -> str:
    """A damage modifier as shown on a sheet: '+1D4', '-1D4' or '0'."""
    text = str(dice)
    if text in ("", "0"):
        return "0"
    return text if text.startswith("-") else "+" + text


def generate(rules: D100Rules, request, ctx) -> dict:
    """One character's body; sex and background were drawn first by the name service (:func:`draw_identity`)."""
    roller = ctx.roller
    sex = ctx.identity["sex"]
    background = next(bg for _, _, bg in rules.backgrounds.rows if bg.id == ctx.identity["background"])
    p = xp.plan(rules, request, roller)
    rolled = roll_characteristics(rules, roller, p.archetype)
    chars = pin_characteristics(request, rolled)  # --set: derived values follow, the kit stays as rolled
    combat = combat_abilities(rules, chars)
    trace_combat(rules, chars, combat, ctx.trail)
    locations = hit_locations(rules, combat["hit_points"])
    categories = {cat.id: cat.value(chars) for cat in rules.categories}
    money = xp.profession_money(rules, p, background, roller) if p.undergone \
        else starting_money(rules, background, roller)
    kit = outfit(rules, background, rolled, roller, xp.kit_entries(p))
    wear_armour(rules, locations, kit["armour"])
    names = rules.names[p.archetype.names if p.archetype and p.archetype.names else background.id]
    body = {"identity": {"name": ctx.names.unique(names.given[sex], names.bynames, names.format),
                         "sex": sex, "age": rules.age + p.years}}
    if p.archetype is not None:
        body["archetype"] = {"id": p.archetype.id, "label": p.archetype.label}
    body.update({
        "characteristics": chars,
        "combat": combat,
        "hit_locations": locations,
        "skill_categories": categories,
        "experience_modifier": experience_modifier(rules, chars),
        "skills": skills(rules, chars, categories, p),
        "weapons": weapon_skills(rules, background, chars, combat, kit["weapons"], p),
        "background": {"id": background.id, "label": background.label},
    })
    if p.experienced:
        body["experience"] = xp.experience_block(p)
    body.update({
        "money": money,
        "armour": [{"id": a.id, "label": a.label, "ap": a.ap, "enc": a.enc, "covers": list(a.covers)}
                   for a in kit["armour"]],
        "equipment": kit["gear"],
        "notes": "",
    })
    return body


def draw_identity(rules: D100Rules, roller: Roller, request=None) -> dict[str, str]:
    """Sex and background: what a name depends on, rolled on the identity generator
    (background first in the mapping: the name list is the background's, then the sex's).
    An archetype's background is its own (fixed or weighted); see :func:`experience.draw_background`."""
    sex = roller.choose(rules.sexes, "identity.sex")
    background = xp.draw_background(rules, roller, request or GenerationRequest())
    return {"background": background, "sex": sex}


def roll_characteristics(rules: D100Rules, roller: Roller, archetype=None) -> dict[str, int]:
    """Each characteristic on its dice (an archetype's in place of the module's)."""
    own = archetype.characteristics if archetype is not None else {}
    return {ch.id: max(0, roller.roll(own.get(ch.id, ch.dice), f"characteristics.{ch.id}"))
            for ch in rules.characteristics}


def combat_abilities(rules: D100Rules, chars: dict[str, int]) -> dict:
    out: dict = {ab.id: ab.value(chars) for ab in rules.abilities}
    average = -(-sum(chars[c] for c in rules.dm_average_of) // len(rules.dm_average_of))  # rounded up
    out["damage_modifier"] = signed(rules.damage_modifier.lookup(average))
    out["damage_modifier_thrown"] = signed(rules.damage_modifier_thrown.lookup(average))
    hp = chars[rules.hp_base] + sum(row.lookup(chars[c]) for c, row in rules.hp_modifiers)
    out["hit_points"] = max(rules.hp_minimum, hp)
    out["pow_points"] = chars[rules.pow_points_from]
    out["strike_ranks"] = {"siz": rules.sr_siz.lookup(chars[CHAR["size"]]),
                           "dex": rules.sr_dex.lookup(chars[CHAR["dexterity"]])}
    out["mov"] = rules.mov
    return out


def trace_combat(rules: D100Rules, chars: dict[str, int], combat: dict, trail) -> None:
    """The derivation of each combat figure: the rule (from the rules data) and its inputs."""
    for ab in rules.abilities:
        trail.derive(f"combat.{ab.id}", combat[ab.id], f"{ab.label}: sum of the modifier rows of "
                     f"{', '.join(c for c, _ in ab.terms)}", **{c: chars[c] for c, _ in ab.terms})
    average = {c: chars[c] for c in rules.dm_average_of}
    trail.derive("combat.damage_modifier", combat["damage_modifier"],
                 f"damage modifier row of the average of {', '.join(average)}, rounded up", **average)
    parts = {c: chars[c] for c in (rules.hp_base, *(c for c, _ in rules.hp_modifiers))}
    trail.derive("combat.hit_points", combat["hit_points"],
                 f"{rules.hp_base} plus the hit-point rows of {', '.join(c for c, _ in rules.hp_modifiers)}, "
                 f"at least {rules.hp_minimum}", **parts)


def hit_locations(rules: D100Rules, total_hp: int) -> list[dict]:
    return [
        {"id": loc.id, "label": loc.label, "melee": list(loc.melee), "missile": list(loc.missile),
         "hp": rules.location_hp[loc.hp_row].lookup(total_hp), "ap": 0, "armour": []}
        for loc in rules.locations
    ]


def experience_modifier(rules: D100Rules, chars: dict[str, int]) -> int:
    x = chars[rules.experience_char]
    total = 0
    for side, threshold, per_point in rules.experience_steps:
        points = x - threshold if side == "above" else threshold - x
        total += per_point * max(0, points)
    return total


def skills(rules: D100Rules, chars: dict[str, int], categories: dict[str, int], p: xp.Plan | None = None) -> list[dict]:
    """Each skill: base plus category modifier plus previous experience (capped), with the
    ``sources`` its value is the sum of. A 0% skill is trained once it has 05% or more of
    experience (seed: "Characters must buy at least 05% training")."""
    p = p or xp.Plan()
    gains, cap = xp.skill_gains(p), xp.cap_of(p)
    out = []
    for sk in rules.skills:
        base = sk.base if sk.base_char is None else chars[sk.base_char] * sk.base_times
        modifier = categories[sk.category]
        sources = [{"source": "base", "value": base}, {"source": "category", "id": sk.category, "value": modifier}]
        trained = 0
        if sk.id in gains:
            extra = xp.sources(p, base + modifier, gains[sk.id], cap)
            sources += extra
            trained = sum(s["value"] for s in extra)
        out.append({"id": sk.id, "label": sk.label, "category": sk.category, "base": base,
                    "modifier": modifier, "value": base + modifier + trained, "trained": base > 0 or trained >= 5,
                    "sources": sources})
    return out


def starting_money(rules: D100Rules, bg: Background, roller: Roller) -> dict:
    amount = roller.roll(bg.money_dice, "money") * bg.money_times
    dice = str(bg.money_dice) if bg.money_times == 1 else f"{bg.money_times}x{bg.money_dice}"
    return {
        "starting": amount,
        "dice": dice,
        "income": amount if bg.income else None,
        "income_until_age": bg.income_until_age,
        "currency": rules.currency.get("abbr", ""),
    }


def shortfall(w: Weapon, chars: dict[str, int]) -> dict[str, int]:
    """The STR and DEX points the character lacks to use ``w`` (seed, "Minimum STR & DEX"):
    2 points of STR above the weapon's minimum stand in for each missing point of DEX,
    except for a weapon with a minimum DEX and no minimum STR. Both 0: the weapon is usable."""
    s, d = chars[CHAR["strength"]], chars[CHAR["dexterity"]]
    need_str, need_dex = max(0, w.min_str - s), max(0, w.min_dex - d)
    if need_dex and not need_str and w.min_str > 0:
        need_dex = max(0, need_dex - (s - w.min_str) // 2)
    return {"str": need_str, "dex": need_dex}


def usable(w: Weapon, chars: dict[str, int]) -> bool:
    """Whether the character meets the weapon's minimums (see :func:`shortfall`)."""
    return not any(shortfall(w, chars).values())


def outfit(rules: D100Rules, bg: Background, chars: dict[str, int], roller: Roller, profession_kit=None) -> dict:
    """The kit: the common equipment and the background's. With previous experience
    (``profession_kit``), the background's gear only, then the profession's weapons, armour
    and kit: "the same basic gear, but their weapons, armour and wealth will be as given under
    their profession" (seed). The common equipment, belt knife included, is basic gear."""
    kit: dict = {"gear": [], "weapons": [], "armour": []}
    for entry in rules.common_equipment:
        _take(rules, entry, chars, roller, kit)
    for entry in bg.equipment:
        _take(rules, entry, chars, roller, kit, arms=profession_kit is None)
    for entry in profession_kit or ():
        _take(rules, entry, chars, roller, kit, trained=True)
    return kit


def _take(rules: D100Rules, entry: dict, chars: dict[str, int], roller: Roller, kit: dict,
          arms: bool = True, trained: bool = False) -> None:
    """Add one entry's items to ``kit``; without ``arms``, its weapons and armour are left out
    (unrolled); ``trained``: weapons the profession trains (they take its weapon-skill gains)."""
    if "gear" in entry:
        kit["gear"].extend(entry["gear"])
    elif "chance" in entry:
        if roller.roll(D100, f"equipment.{entry['for']}") <= entry["chance"]:
            _take(rules, entry["then"], chars, roller, kit, arms, trained)
    elif "choose" in entry:
        _take(rules, roller.choose(entry["choose"], f"equipment.{entry['for']}"), chars, roller, kit, arms, trained)
    elif "if" in entry:
        test = entry["if"]
        branch = "then" if chars[test["characteristic"]] >= test["at_least"] else "else"
        _take(rules, entry[branch], chars, roller, kit, arms, trained)
    elif not arms:
        return
    elif "weapon" in entry:
        options, weights = [rules.weapons[w] for w in entry["weapon"]], entry["weights"]
        if entry["usable"]:
            if entry.get("fallback") and not any(usable(w, chars) for w in options):
                options, weights = [rules.weapons[w] for w in entry["fallback"]], None  # none usable: the fallback's
            options, weights = nearest_usable(options, chars, weights)
        w = pick(roller, tuple(options), weights, "equipment.weapon")
        kit["weapons"].append((w, entry["tribal"], trained))
    else:
        pieces = [rules.armour[a] for a in entry["armour"]]
        kit["armour"].append(pick(roller, tuple(pieces), entry["weights"], "equipment.armour"))


def nearest_usable(options: list[Weapon], chars: dict[str, int], weights: tuple | None = None):
    """The options the character can use (and their weights); when there are none, those he
    comes nearest to using (fewest STR and DEX points short), so that the kit still holds the weapon."""
    short = {w.id: sum(shortfall(w, chars).values()) for w in options}
    least = min(short.values())
    keep = [i for i, w in enumerate(options) if short[w.id] == least]
    return [options[i] for i in keep], (None if weights is None else tuple(weights[i] for i in keep))


def wear_armour(rules: D100Rules, locations: list[dict], pieces: list) -> None:
    """Each location takes the highest AP of the pieces covering it."""
    for loc in locations:
        covering = [p for p in pieces if loc["id"] in p.covers]
        if covering:
            best = max(covering, key=lambda p: p.ap)
            loc["ap"] = best.ap
            loc["armour"] = [best.label]


def weapon_skills(rules: D100Rules, bg: Background, chars: dict[str, int], combat: dict, weapons: list,
                  p: xp.Plan | None = None) -> list[dict]:
    p = p or xp.Plan()
    out = []
    sr = combat["strike_ranks"]
    for w, tribal, trained in weapons:
        sources = weapon_sources(rules, bg, w, tribal, trained, combat, p)
        value = sum(s["value"] for s in sources)
        other = "attack" if w.kind == "shield" else "parry"
        entry = {"id": w.id, "label": w.label, "kind": w.kind, "base": sources[0]["value"],
                 "attack": value if w.kind != "shield" else None,
                 "parry": (value if w.kind == "shield" else value - _ability(sources, combat)
                           + _ability(sources, combat, other)) if w.kind != "missile" else None}
        if w.kind == "melee":
            entry.update(damage=str(w.damage), damage_modifier=combat["damage_modifier"],
                         sr=sr["siz"] + sr["dex"] + w.sr)
        elif w.kind == "missile":
            entry.update(damage=str(w.damage),
                         damage_modifier=combat["damage_modifier_thrown"] if w.thrown else "0",
                         sr=sr["dex"])
        else:
            entry.update(damage=None, damage_modifier=None, sr=None)
        entry.update(range=w.range, ap=w.ap, hp=w.hp, enc=w.enc, special=w.special,
                     min_str=w.min_str, min_dex=w.min_dex, hands=w.hands,
                     below_minimum=below_minimum(w, chars), sources=sources)
        out.append(entry)
    return out


def weapon_sources(rules: D100Rules, bg: Background, w: Weapon, tribal: bool, trained: bool,
                   combat: dict, p: xp.Plan) -> list[dict]:
    """What a weapon's attack (a shield's parry) is the sum of: its base, the attack (parry)
    ability (a ``category`` source with the ability's id) and, for a weapon the profession trains,
    experience (capped). A weapon's parry is the same with the parry ability in place of the attack
    ability. A barbarian's non-tribal weapon is at its flat base, and takes ability modifiers once
    he has 05% or more of training in it (seed: "once a barbarian character has purchased an
    additional 05% in training")."""
    ability = ABILITY["parry" if w.kind == "shield" else "attack"]
    base, modifiers = w.base, True
    if bg.tribal_base is not None:
        tribal = tribal or w.id in bg.tribal_weapons  # a tribal weapon whoever hands it out, or added by hand
        base, modifiers = (bg.tribal_base, True) if tribal else (bg.other_base, bg.other_modifiers)
    gains = xp.weapon_gains(p, w) if trained else []
    extra = xp.sources(p, base + combat[ability], gains, xp.cap_of(p, weapon=True))
    if sum(s["value"] for s in extra) >= 5:
        modifiers = True
    sources = [{"source": "base", "value": base}]
    if modifiers:
        sources.append({"source": "category", "id": ability, "value": combat[ability]})
    return sources + extra


def _ability(sources: list[dict], combat: dict, role: str | None = None) -> int:
    """The value of the ability ``sources`` count (or of the ``role`` ability in its place);
    0 when the weapon takes no ability modifiers."""
    entry = next((s for s in sources if s["source"] == "category"), None)
    if entry is None:
        return 0
    return combat[ABILITY[role]] if role else entry["value"]


def below_minimum(w: Weapon, chars: dict[str, int]) -> dict | None:
    """None for a usable weapon; else the points short and the cost: the seed's minimums are
    what "a character must have to use the weapon", so below them it cannot be used at all."""
    short = shortfall(w, chars)
    if not any(short.values()):
        return None
    return {"str": short["str"], "dex": short["dex"], "usable": False}
