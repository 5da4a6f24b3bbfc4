"""A D100 II character as a combatant: his weapons, defence, hit points and locations, from his
saved document; and what one blow does to him (wounds.yaml).

The figures are the document's own (as its sheet shows them); the rules give the
hit-location table the locations are rolled on, the kind of each location, and
what damage does.
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen import paths
from chargen.errors import CharacterError, OptionError
from chargen.systems.d100.rules_attack import AttackRules


@dataclass(frozen=True, slots=True)
class Spot:
    """One hit location of a combatant."""

    id: str
    label: str
    kind: str         # leg, abdomen, chest, arm, head (hit_locations.yaml's hp row)
    hp: int
    ap: int
    melee: tuple[int, int]
    missile: tuple[int, int]


@dataclass(frozen=True)
class Fighter:
    name: str
    doc: dict
    hp: int
    defence: int
    spots: tuple[Spot, ...]
    taken: tuple[int, ...] = ()   # damage each spot has taken so far (a fight); () = none
    hp_taken: int = 0             # damage the total has taken so far

    def left(self, spot: Spot) -> int:
        """The points ``spot`` has left."""
        return spot.hp - (self.taken[self.spots.index(spot)] if self.taken else 0)

    def weapon(self, weapon_id: str) -> dict | None:
        return next((w for w in self.doc.get("weapons") or () if w.get("id") == weapon_id), None)

    def spot(self, spot_id: str) -> Spot:
        found = next((s for s in self.spots if s.id == spot_id), None)
        if found is None:
            raise OptionError(f"--aim {spot_id[:40]!r}: no such hit location (expected one of: "
                              f"{', '.join(s.id for s in self.spots)})")
        return found

    def spot_at(self, face: int, column: str) -> Spot:
        return next(s for s in self.spots if getattr(s, column)[0] <= face <= getattr(s, column)[1])


def fighter(doc: dict, rules) -> Fighter:
    """The combatant a saved D100 II character is."""
    name = doc["identity"]["name"]
    stored = {x.get("id"): x for x in doc.get("hit_locations") or () if isinstance(x, dict)}
    spots = []
    for loc in rules.locations:
        s = stored.get(loc.id)
        if s is None or not isinstance(s.get("hp"), int):
            raise CharacterError(f"{name}: no hit location '{loc.id}' with hit points (the rules' hit-location "
                                 "table names it; give the rules the character was made with)")
        spots.append(Spot(loc.id, loc.label, loc.hp_row, s["hp"], int(s.get("ap") or 0), loc.melee, loc.missile))
    combat = doc.get("combat") or {}
    return Fighter(name, doc, int(combat.get("hit_points") or 0), int(combat.get("defence") or 0), tuple(spots))


def usable(w: dict) -> bool:
    return not w.get("below_minimum")


def attack_weapon(f: Fighter, weapon_id: str | None) -> dict:
    """The weapon the attacker strikes with: the one named, or his best usable one."""
    if weapon_id is None:
        best = paths.best_weapon(f.doc)
        if best is None:
            raise CharacterError(f"{f.name} has no weapon to attack with")
        return best
    w = f.weapon(weapon_id)
    if w is None:
        have = ", ".join(str(x.get("id")) for x in f.doc.get("weapons") or ()) or "none"
        raise CharacterError(f"{f.name} has no weapon '{weapon_id[:40]}' (weapons: {have})")
    if w.get("attack") is None or w.get("kind") == "shield":
        raise CharacterError(f"{f.name}'s {w.get('label')} parries; it has no attack")
    if not usable(w):
        short = w.get("below_minimum") or {}
        need = ", ".join(f"{k.upper()} {short[k]}" for k in ("str", "dex") if short.get(k))
        raise CharacterError(f"{f.name} cannot use the {w.get('label')} ({need} short of its minimums)")
    return w


def parry_item(f: Fighter, item_id: str | None, weapon: dict, t: AttackRules) -> dict | None:
    """The item the defender parries with: the one named, none, or his best (a shield wins a tie)."""
    allowed = t.missile_items if weapon.get("kind") == "missile" else frozenset({"shield", "weapon"})
    if item_id == "none":
        return None
    if item_id is not None:
        w = f.weapon(item_id)
        if w is None or w.get("parry") is None or w.get("kind") == "missile" or not usable(w):
            have = ", ".join(str(x["id"]) for x in f.doc.get("weapons") or () if x.get("parry") is not None
                             and x.get("kind") != "missile" and usable(x)) or "none"
            raise CharacterError(f"{f.name} cannot parry with '{item_id[:40]}' (can parry with: {have})")
        if item_kind(w) not in allowed:
            raise OptionError(f"--parry {item_id}: a missile can be parried only with: {', '.join(sorted(allowed))} "
                              "(attacks.yaml: parry.missile_items)")
        return w
    items = [w for w in f.doc.get("weapons") or () if usable(w) and w.get("kind") != "missile"
             and isinstance(w.get("parry"), int) and item_kind(w) in allowed]
    return max(items, key=lambda w: (w["parry"], w.get("kind") == "shield"), default=None)


def item_kind(w: dict) -> str:
    return "shield" if w.get("kind") == "shield" else "weapon"


@dataclass(frozen=True, slots=True)
class Wound:
    spot: Spot
    blow: int         # the damage through armour
    applied: int      # what comes off the location and the total (the limb limit keeps the rest)
    hp_left: int
    spot_left: int
    state: str
    effects: tuple[str, ...]  # the texts of wounds.yaml's rows that apply


def wound(t: AttackRules, f: Fighter, spot: Spot, blow: int) -> Wound:
    """What a blow of ``blow`` points through armour does to ``f`` at ``spot`` (with the damage ``f``
    has taken so far: a limb takes at most twice its points in all; a single blow past twice them
    incapacitates; the location's points equalled or exceeded count from the points it had left, and
    exceeded by 6 from those, or from 0 when it had none left: the 6 are of this one blow)."""
    states, texts = [], []
    before = f.left(spot)
    applied = blow
    if blow > 0:
        states.append("hurt")
    if spot.kind in t.limb_kinds:
        applied = min(blow, max(0, t.limb_times * spot.hp - (spot.hp - before)))
        if blow > t.limb_times * spot.hp:
            states.append(t.limb_effect.state)
            texts.append(t.limb_effect.text)
    spot_left, hp_left = before - applied, f.hp - f.hp_taken - applied
    for effect, applies in ((t.equalled.get(spot.kind), blow > 0 and spot_left <= 0),
                            (t.exceeded.get(spot.kind), blow > 0 and blow - max(before, 0) >= t.exceeded_points)):
        if applies and effect is not None:
            states.append(effect.state)
            texts.append(effect.text)
    if blow > 0 and hp_left <= t.dead_at:
        states.append("dead")
        texts.append(f"total hit points {hp_left}: dead")
    return Wound(spot, blow, applied, hp_left, spot_left, t.worst(states), tuple(texts))
