"""``statblock``: Obsidian Fantasy Statblocks notes for d100 characters, and the layout that draws them.

Each character is one Markdown note (``<stem>.md``) whose YAML front matter
holds ``statblock: true``, ``layout`` (the id of chargen's layout) and the keys
the layout draws; the note's body is the character's plain-text stat block. The
plugin has no D100 layout, so chargen writes its own, :data:`LAYOUT`, into the
output folder as ``chargen-d100-layout.json`` (a batch file, listed in the
manifest with its SHA-256): import it once in the plugin's settings ("Layouts"
then "Import"). It is the same bytes in every batch of the same rules; its stats
table's headers are the rules' characteristics (a house rule's EDU is one more)
and its hit-location column the die the rules roll them on, both read from the
character's view (:mod:`chargen.view`).
"""

from __future__ import annotations

import json

import yaml

from chargen.formats import BatchInfo, Format
from chargen.formats.text import block
from chargen.systems.d100.interop.d100view import range_text, sources_text
from chargen.systems.d100.view import unusable
from chargen.flavour.show import traits as flavour_traits
from chargen.engines import view_of

LAYOUT_ID = "chargen-d100"
STAT_HEADERS = ("STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA")


def _block(kind: str, ident: str, **fields) -> dict:
    return {"type": kind, "id": ident, **fields}


def layout(stats: tuple[str, ...] = STAT_HEADERS, die: int = 20) -> dict:
    """The plugin's layout for characters of ``stats`` (the rules' characteristics) whose hit
    locations are rolled on 1D``die``."""
    return {
        "name": "chargen D100 II",
        "id": LAYOUT_ID,
        "blocks": [
            _block("heading", "name", properties=["name"], size=1),
            _block("subheading", "identity", properties=["sex", "age", "background"], separator=", "),
            _block("table", "stats", properties=["stats"], headers=list(stats), calculate=False),
            _block("inline", "combat", nested=[
                _block("property", "hit_points", properties=["hit_points"], display="Hit points"),
                _block("property", "pow_points", properties=["pow_points"], display="POW points"),
                _block("property", "move", properties=["move"], display="Move"),
                _block("property", "damage_modifier", properties=["damage_modifier"], display="Damage modifier"),
                _block("property", "strike_ranks", properties=["strike_ranks"], display="Strike ranks"),
                _block("property", "bonuses", properties=["bonuses"], display="Bonuses"),
            ]),
            _block("table", "hit_locations", properties=["hit_locations"], headers=[f"D{die}", "Location", "AP", "HP"],
                   calculate=False),
            _block("traits", "weapons", properties=["weapons"], heading="Weapons"),
            _block("traits", "skills", properties=["skills"], heading="Skills"),
            _block("property", "armour", properties=["armour"], display="Armour"),
            _block("property", "equipment", properties=["equipment"], display="Equipment"),
            _block("traits", "flavour", properties=["flavour"], heading="Flavour"),  # i25: chargen.flavour
            _block("text", "notes", properties=["notes"], heading="Notes"),
        ],
    }


def layout_bytes(stats: tuple[str, ...] = STAT_HEADERS, die: int = 20) -> bytes:
    return (json.dumps(layout(stats, die), indent=2) + "\n").encode("utf-8")


LAYOUT = layout()  # the built-in rules' layout
LAYOUT_BYTES = layout_bytes()


def _weapon_desc(w: dict) -> str:
    parts = [f"attack {w['attack']}%" if w.get("attack") is not None else None,
             f"parry {w['parry']}%" if w.get("parry") is not None else None,
             w.get("damage"), f"SR {w['sr']}" if w.get("sr") is not None else None,
             f"range {w['range']}" if w.get("range") is not None else None, w.get("special"), unusable(w)]
    return ", ".join(str(p) for p in parts if p)


def front_matter(doc: dict) -> dict:
    shown = view_of(doc)
    chars, locations = shown.group("characteristics"), shown.table("hit_locations")
    c, who = doc["combat"], doc["identity"]
    sr = c["strike_ranks"]
    return {
        "statblock": True,
        "layout": LAYOUT_ID,
        "name": who["name"],
        "sex": who.get("sex", ""),
        "age": who.get("age"),
        "background": doc["background"]["label"],
        "system": f"{doc['system']['name']} {doc['system']['version']}",
        "source": f"chargen seed {doc['seed']['batch']} index {doc['seed']['index']}",
        "stats": [f.value for f in chars.figures],
        "hit_points": c["hit_points"],
        "pow_points": c["pow_points"],
        "move": c["mov"],
        "damage_modifier": c["damage_modifier"],
        "strike_ranks": f"SIZ {sr['siz']}, DEX {sr['dex']}",
        "bonuses": f"attack {c['attack']:+d}%, parry {c['parry']:+d}%, defence {c['defence']}%",
        "hit_locations": [[range_text(melee), label, ap, hp] for label, melee, _, ap, hp in locations.rows],
        "weapons": [{"name": w["label"], "desc": _weapon_desc(w)} for w in doc["weapons"]],
        "skills": [{"name": s["label"], "desc": f"{s['value']}% ({sources_text(s)})"}
                   for s in doc["skills"] if s["value"]],
        "armour": ", ".join(f"{a['label']} (AP {a['ap']})" for a in doc["armour"]) or "none",
        "equipment": ", ".join(doc["equipment"]) or "none",
        "flavour": flavour_traits(doc),  # i25: chargen.flavour.show
        "notes": doc.get("notes") or "",
    }


def note(doc: dict) -> str:
    matter = yaml.safe_dump(front_matter(doc), sort_keys=False, allow_unicode=True, width=1000,
                            default_flow_style=None)
    body = block(doc).replace("\n", "  \n")  # Markdown line breaks: the block reads as it is written
    return f"---\n{matter}---\n\n{body}"


class StatblockFormat(Format):
    name, suffix = "statblock", ".md"
    engines = ("d100",)
    batch_file = "chargen-d100-layout.json"
    batch_holds_characters = False

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        self.check_engine(doc["system"]["engine"])
        return note(doc).encode("utf-8")

    def part(self, doc: dict) -> str:
        """What the layout depends on: the characteristics' headers and the hit-location die (the rules')."""
        shown = view_of(doc)
        return json.dumps([[f.label for f in shown.group("characteristics").figures],
                           shown.table("hit_locations").sides])

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        if not parts:
            return LAYOUT_BYTES
        stats, die = json.loads(parts[0])
        return layout_bytes(tuple(stats), die)
