"""``meg``: Mythras Encounter Generator JSON for d100 characters.

Each character's file (``<stem>.meg.json``) is an enemies file of one NPC (the Roll20 sheet
imports the first NPC of what is pasted); the batch's ``party.meg.json`` is an enemies file of
every NPC, the shape MEG itself writes for several: a plain array, which the Roll20 sheet
imports too (its ``#`` field picks the NPC). MEG's party object (``{party_name, enemies}``) is
not written: the Foundry Mythras importers fetch parties from MEG's site, never from a file,
and Roll20 cannot read one. Every rule the importers impose (``/work/shared/reference/formats.md``
sections 1 and 5) is met: keys in MEG's order, the seven stats in MEG's order, ``range`` as
"NN-NN", ``strike_rank`` a string the importers' regular expression reads, the four spell
lists always present, every weapon ``type`` one of the four allowed.

What the importers do with it, and how chargen meets it:

* skills under their Mythras names (:mod:`.mythras`, the table ``mythras.yaml``), so neither
  importer files one as a Passion or a STR+STR professional skill; D100 II skills merged under
  one Mythras name, or without one, keep their own values in the feature "D100 II skills: ...";
* the importers roll Mythras' damage modifier (from STR+SIZ) on a weapon with
  ``add_damage_modifier``: every weapon carries D100 II's modifier in its ``damage``
  ("1d8+1+1d4") with ``add_damage_modifier`` false;
* armour once: Foundry builds armour items from ``hit_locations[].armor`` (grouped by name and
  AP) with the ENC of ``hit_locations[].enc``, and equipment items from ``equipment``: armour
  is in the locations only (a piece's ENC on the first location it covers), gear in ``equipment``;
* ``profile.career`` is the profession (Foundry's sheet shows it as the career),
  ``profile.culture`` and ``social_class`` the background;
* ``range`` on every weapon: "r/r/r" for a missile (the importers split it on "/"), null
  for a melee weapon or a shield, as MEG writes them.

What D100 II has and MEG has no field for is written where a reader sees it (the README lists
it): weapon parry, the attack/parry/defence bonuses, the strike ranks, the armour pieces with
their AP and ENC, the previous experience, a characteristic a house rule adds
(``Characteristic EDU: 12``) go to ``features`` and ``notes``; skill bases and category
modifiers have no field (the totals are right; an importer's back-computed "training" means
nothing for them). Chosen where D100 II has no figure (``source: default`` in README terms):
``cult_rank`` "None", ``action_points`` 2, weapon ``size`` "M", ``reach`` "M" for melee and
shields and "-" for missiles, a missile's one range written "r/r/r", ``strike_rank`` "n(n-0)"
where n is the SIZ plus DEX strike rank.
"""

from __future__ import annotations

import json
import textwrap

from chargen.formats import BatchInfo, Format
from chargen.inert import inert_strings
from chargen.systems.d100.interop import mythras
from chargen.systems.d100.interop.d100view import dice_lower, range_text, signed_dm
from chargen.systems.d100.view import unusable
from chargen.flavour.show import features as flavour_features
from chargen.engines import view_of

MEG_STATS = ("STR", "CON", "SIZ", "DEX", "INT", "POW", "CHA")
SPELL_LISTS = ("folk_spells", "theism_spells", "sorcery_spells", "mysticism_spells")
WEAPON_TYPES = ("1h-melee", "2h-melee", "ranged", "shield")
ACTION_POINTS = 2  # D100 II has no action points; the Mythras default for a typical NPC
SIZE, MELEE_REACH, MISSILE_REACH = "M", "M", "-"


def weapon_type(w: dict) -> str:
    if w["kind"] == "shield":
        return "shield"
    if w["kind"] == "missile":
        return "ranged"
    return "2h-melee" if w.get("hands") == 2 else "1h-melee"


def weapon_damage(w: dict) -> str:
    """The weapon's damage with its own damage modifier in it ('1d8+1+1d4'): the importers roll
    Mythras' modifier on a weapon that asks for it, never D100 II's, so none asks."""
    damage, dm = dice_lower(w.get("damage")) or "0", w.get("damage_modifier")
    return damage if dm in (None, "0", "", "+0") else damage + signed_dm(dm)


def weapon_range(w: dict) -> str | None:
    """A missile's one range as MEG's close/effective/long ('30/30/30'), None (null) for the rest."""
    if w["kind"] != "missile":
        return None
    return "/".join([str(w["range"] if w.get("range") is not None else 0)] * 3)


def meg_weapon(w: dict) -> dict:
    return {"name": w["label"], "damage": weapon_damage(w), "ap": w.get("ap") or 0, "hp": w.get("hp") or 0,
            "size": SIZE, "add_damage_modifier": False,
            "reach": MISSILE_REACH if w["kind"] == "missile" else MELEE_REACH,
            "effects": ", ".join(e for e in (w.get("special"), unusable(w)) if e), "range": weapon_range(w),
            "type": weapon_type(w)}


def combat_style(w: dict) -> dict:
    value = w["attack"] if w.get("attack") is not None else (w.get("parry") or 0)
    return {"name": w["label"], "value": value, "weapons": [meg_weapon(w)]}


def location_armour(doc: dict) -> list[tuple[str, float]]:
    """Each hit location's ``armor`` and ``enc``: the pieces on it, and the ENC of those that cover
    it first (Foundry sums a piece's ENC over its locations)."""
    first = {}
    for a in doc["armour"]:
        covered = [h["id"] for h in doc["hit_locations"] if a["label"] in h.get("armour", [])]
        if covered:
            first.setdefault(covered[0], []).append(a.get("enc", 0) or 0)
    return [(", ".join(h.get("armour", [])), sum(first.get(h["id"], []))) for h in doc["hit_locations"]]


def features(doc: dict) -> list[str]:
    c = doc["combat"]
    out = [f"Background: {doc['background']['label']}"]
    out += [f"Parry: {w['label']} {w['parry']}%" for w in doc["weapons"] if w.get("parry") is not None]
    out += [f"D100 II bonus: attack {c['attack']:+d}%, parry {c['parry']:+d}%, defence {c['defence']}%",
            f"D100 II strike ranks: SIZ {c['strike_ranks']['siz']}, DEX {c['strike_ranks']['dex']}"]
    out += [f"Armour: {a['label']} (AP {a['ap']}, ENC {a.get('enc', 0) or 0})" for a in doc["armour"]]
    xp = doc.get("experience")
    if xp:
        out.append(f"Experience: {xp['profession']['label']}, {xp['years']} years ({xp['years_dice']})")
    line = mythras.skill_entries(doc["skills"])[1]
    if line:
        out.append(line)
    chars = view_of(doc).group("characteristics").figures  # a house rule's characteristic MEG has no stat for
    out += [f"Characteristic {f.label}: {f.value}" for f in chars if f.label not in MEG_STATS]
    return out + flavour_features(doc)  # the flavour: "Appearance: ...", "Relation: ..." (chargen.flavour.show)


def notes(doc: dict) -> str:
    s, seed = doc["system"], doc["seed"]
    head = (f"{s['name']} {s['version']} character made by chargen (seed {seed['batch']}, index {seed['index']}). "
            "strike_rank holds the SIZ + DEX strike rank (lower acts first); parry is under features.")
    return head + (f"\n{doc['notes']}" if doc.get("notes") else "")


def npc(doc: dict) -> dict:
    """One character as a MEG NPC, keys in MEG's order, then the 2026 extension block."""
    c, k, who = doc["combat"], doc["characteristics"], doc["identity"]
    sr = c["strike_ranks"]["siz"] + c["strike_ranks"]["dex"]
    out = {
        "name": who["name"],
        "cult_rank": "None",
        "stats": [{stat: k.get(stat.lower(), 0)} for stat in MEG_STATS],
        "skills": mythras.skill_entries(doc["skills"])[0],
        **{name: [] for name in SPELL_LISTS},
        "hit_locations": [{"name": h["label"], "range": range_text(h["melee"]), "hp": h["hp"], "ap": h["ap"],
                           "armor": armor, "enc": enc}
                          for h, (armor, enc) in zip(doc["hit_locations"], location_armour(doc))],
        "combat_styles": [combat_style(w) for w in doc["weapons"]],
        "attributes": {"action_points": ACTION_POINTS, "damage_modifier": signed_dm(c["damage_modifier"]),
                       "magic_points": c["pow_points"], "strike_rank": f"{sr}({sr}-0)", "movement": str(c["mov"]),
                       "hit_points": c["hit_points"]},
        "notes": notes(doc),
        "features": features(doc),
        "cults": [],
        "spirits": [],
        "natural_armor": False,
        "profile": {"career": career(doc), "gender": who.get("sex", ""), "age": who.get("age"),
                    "culture": doc["background"]["label"], "social_class": doc["background"]["label"]},
        "movement": c["mov"],
        "max_magic_points": c["pow_points"],
        "equipment": [{"name": e, "notes": "", "quantity": 1, "enc": 0} for e in doc["equipment"]],
    }
    if doc.get("archetype"):
        out["features"].append(f"Archetype: {doc['archetype']['label']}")
    return inert_strings(out)  # Roll20 and Foundry take MEG's text into rolls and enriched HTML


def career(doc: dict) -> str:
    """The profession (previous experience), else the archetype, else nothing: Foundry's "Career"."""
    xp, arch = doc.get("experience"), doc.get("archetype")
    return xp["profession"]["label"] if xp else (arch["label"] if arch else "")


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def dumps(value: dict) -> str:
    """An NPC as JSON, one key a line and a list of objects one item a line (diff-friendly, still short)."""
    lines = []
    for key, v in value.items():
        if isinstance(v, list) and v and all(isinstance(i, dict) for i in v) and len(_compact(v)) > 100:
            items = ",\n".join("    " + _compact(i) for i in v)
            lines.append(f"  {_compact(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {_compact(key)}: {_compact(v)}")
    return "{\n" + ",\n".join(lines) + "\n}"


class MegFormat(Format):
    name, suffix = "meg", ".meg.json"
    engines = ("d100",)
    batch_file = "party.meg.json"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        """An enemies file of one NPC."""
        self.check_engine(doc["system"]["engine"])
        return ("[\n" + textwrap.indent(dumps(npc(doc)), "  ") + "\n]\n").encode("utf-8")

    def part(self, doc: dict) -> str:
        return dumps(npc(doc))

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        """An enemies file of every NPC (a plain array, as MEG writes several; the party name is not in it)."""
        return ("[\n" + ",\n".join(textwrap.indent(p, "  ") for p in parts) + "\n]\n").encode("utf-8")
