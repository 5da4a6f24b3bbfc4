"""One KoTM attack between two saved characters (``chargen roll --attacker --defender``).

The attacker's SD, level and weapon modifier come from his document; the roll,
OS/CS/CF/TF, damage and the fumble table are :mod:`chargen.systems.kotm.resolve`'s.
The seed gives KoTM characters no damage points, no defence and no parry: the
damage is reported, not applied (``defender: not modelled``), and --parry,
--defence and --aim do not apply. A Total Failure's fumble chain (rerolls without
a fixed end) is rolled at the table only: its odds count the first fumble row.
"""

from __future__ import annotations

from chargen import paths
from chargen.combat import Choices
from chargen.errors import CharacterError, OptionError
from chargen.resolve import Resolution, Step
from chargen.systems.kotm.mechanics import classify, damage, damage_steps
from chargen.systems.kotm.resolve import fumble_chain, fumble_step
from chargen.systems.kotm.rules import CONDITION, OUTCOME, KotmRules


def attack(rules: KotmRules, draws, attacker: dict, defender: dict, choices: Choices) -> Resolution:
    for name in ("parry", "defence", "aim"):
        if getattr(choices, name) is not None:
            raise OptionError(f"--{name} does not apply to KoTM (the seed's attack has no parry, defence or aiming)")
    weapon = _weapon(attacker, choices.weapon)
    a, sd, level = rules.attack, int(attacker["sd"]), int(attacker["level"])
    modifier = int(weapon.get("damage_modifier") or 0)
    first = draws.die(a.sides, "attack")
    second = draws.die(a.sides, "attack")
    outcome = classify(a, first, second, sd)
    read = a.read(first, second)
    name, target = attacker["identity"]["name"], defender["identity"]["name"]
    steps = [Step("weapon", f"{name}'s {weapon['label']}", text=f"SD {sd}, level {level}, damage modifier {modifier:+d}"),
             Step("attack", outcome.label, f"2D{a.sides}", (first, second), f"{read:02d}",
                  f"faces {first} {second}" if outcome in a.exceptions else
                  f"read {read:02d} is {'at or under' if outcome.hit else 'over'} SD {sd}")]
    tally = {"attack": outcome.id, "damage": "none", "self damage": "none", "fumble": "none"}
    if outcome.hit:
        tally["damage"] = str(damage(a, outcome, second, modifier, level))
        steps.append(Step("damage", outcome.label, text=damage_steps(a, outcome, second, modifier, level)))
    elif outcome.id == OUTCOME["critical_fumble"]:
        tally["self damage"] = str(rules.critical_fumble_damage(level))
        steps.append(Step("critical fumble damage", f"level {level}", text=f"{tally['self damage']} damage to the fumbler"))
    elif outcome.id == OUTCOME["total_fumble"]:
        tally["fumble"] = _fumble(rules, draws, weapon, steps)
    steps.append(Step("damage points", "not modelled", text="the seed gives KoTM characters no damage points: "
                      "the damage is for the game master to apply"))
    summary = f"{name} attacks {target} with the {weapon['label']}: {outcome.label}"
    if tally["damage"] != "none":
        summary += f", {tally['damage']} damage"
    inputs = {"attacker": name, "defender": target, "weapon": weapon["id"]}
    return Resolution("kotm", "attack", inputs, outcome.id, summary, tuple(steps), {"tally": tally, "sd": sd})


def _weapon(doc: dict, weapon_id: str | None) -> dict:
    name = doc["identity"]["name"]
    if weapon_id is None:
        best = paths.best_weapon(doc)
        if best is None:
            raise CharacterError(f"{name} has no weapon to attack with")
        return best
    found = next((w for w in doc.get("weapons") or () if w.get("id") == weapon_id), None)
    if found is None:
        have = ", ".join(str(w.get("id")) for w in doc.get("weapons") or ()) or "none"
        raise CharacterError(f"{name} has no weapon '{weapon_id[:40]}' (weapons: {have})")
    return found


def _fumble(rules: KotmRules, draws, weapon: dict, steps: list) -> str:
    """The fumble chain at the table (its first row's id); for the odds, the first row alone."""
    conditions = frozenset({CONDITION["missile_weapon"]}) if weapon.get("kind") == "missile" else frozenset()
    table = rules.fumbles
    roller = getattr(draws, "roller", None)
    if roller is None:
        first = draws.die(table.sides, "fumble")
        second = draws.die(table.sides, "fumble")
        return table.lookup(table.read(first, second)).id
    entries = fumble_chain(table, roller, conditions)
    steps.extend(fumble_step(e, table.sides) for e in entries)
    return entries[0].row.id
