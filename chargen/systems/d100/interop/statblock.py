"""``statblock``: Obsidian Fantasy Statblocks notes for d100 characters, and the layout that draws them.

Each character is one Markdown note (``<stem>.md``): its front matter is ``statblock: inline``
and its body one fenced block whose info string is ``statblock``, holding the YAML the
plugin reads (``name``, ``layout`` and the keys the layout draws). So the plugin draws the
block inside the note and files the note in its bestiary. The plugin finds a note's layout
by its **name** (not its id, which it replaces on import): ``layout:`` is :data:`LAYOUT_NAME`
("chargen D100 II"), the same in every chargen version. The plugin has no D100 layout, so
chargen writes its own, :data:`LAYOUT`, into the output folder as ``chargen-d100-layout.json``
(a batch file, listed in the manifest with its SHA-256): import it once in the plugin's
settings ("Layouts" then "Import From JSON"). Its stats table's headers are the rules'
characteristics and its hit-location column the die the rules roll them on, both read from
the character's view (:mod:`chargen.view`); a layout for other headers or die than the
built-in rules' has a name that says them ("chargen D100 II (STR ... EDU, D20)").

The bestiary is keyed by ``name``, so a note's ``name`` is the character's name and its
number in the batch (``Ulla Millbrook #3``, the number the file name starts with): unique
within a batch, whatever names the batch rolled.

User text never becomes live Markdown: the note holds nothing outside the YAML, and every
string in the YAML has the characters that make a link, image, HTML, wiki-link, tag or
autolink backslash-escaped (:func:`md_escape`; the plugin renders property, trait and text
blocks as Markdown, where ``\\[`` reads as ``[``); strings are written in YAML quoted
styles, one line each, so no line of the block can close its fence.
"""

from __future__ import annotations

import json

import yaml

from chargen.formats import BatchInfo, Format
from chargen.systems.d100.interop.d100view import range_text, sources_text
from chargen.systems.d100.view import unusable
from chargen.flavour.show import traits as flavour_traits
from chargen.engines import view_of

LAYOUT_ID = "chargen-d100"
LAYOUT_NAME = "chargen D100 II"  # what a note's layout: names; stable across chargen versions
STAT_HEADERS = ("STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA")


def _block(kind: str, ident: str, **fields) -> dict:
    return {"type": kind, "id": ident, **fields}


def layout_name(stats: tuple[str, ...] = STAT_HEADERS, die: int = 20) -> str:
    """The layout's name: :data:`LAYOUT_NAME` for the built-in rules' headers and die, else one that says them."""
    if tuple(stats) == STAT_HEADERS and die == 20:
        return LAYOUT_NAME
    return f"{LAYOUT_NAME} ({' '.join(stats)}, D{die})"


def layout(stats: tuple[str, ...] = STAT_HEADERS, die: int = 20) -> dict:
    """The plugin's layout for characters of ``stats`` (the rules' characteristics) whose hit
    locations are rolled on 1D``die``."""
    return {
        "name": layout_name(stats, die),
        "id": LAYOUT_ID,
        "blocks": [
            _block("heading", "name", properties=["name"], size=1),
            _block("subheading", "identity", properties=["sex", "age", "background"], separator=", "),
            _block("table", "stats", properties=["stats"], headers=list(stats), calculate=False),
            _block("inline", "combat", properties=[], nested=[
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
            _block("traits", "flavour", properties=["flavour"], heading="Flavour"),
            _block("text", "notes", properties=["notes"], heading="Notes", text=""),
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


MD_SPECIAL = frozenset("\\`*_[]()<>!:.#|~")  # what starts a link, image, HTML, wiki-link, tag, autolink or code


def md_escape(text: str) -> str:
    """``text`` with every Markdown-special character backslash-escaped (it renders as written)."""
    return "".join("\\" + ch if ch in MD_SPECIAL else ch for ch in str(text))


def _escaped(value):
    """Every string in ``value`` (a YAML value: str, number, list, dict) escaped with :func:`md_escape`."""
    if isinstance(value, str):
        return md_escape(value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value


def bestiary_name(doc: dict) -> str:
    """The note's ``name`` (the bestiary's key): the character's name (escaped) and its number in the batch."""
    seed = doc.get("seed", {})
    return f"{md_escape(doc['identity']['name'])} #{seed.get('number', seed.get('index', 0))}"


def statblock(doc: dict) -> dict:
    """The keys the plugin reads, in the layout's order (strings as the document has them)."""
    shown = view_of(doc)
    chars, locations = shown.group("characteristics"), shown.table("hit_locations")
    c, who = doc["combat"], doc["identity"]
    sr = c["strike_ranks"]
    return {
        "layout": layout_name(tuple(f.label for f in chars.figures), locations.sides),
        "name": doc["identity"]["name"],
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
        "flavour": flavour_traits(doc),  # the flavour (chargen.flavour.show)
        "notes": doc.get("notes") or "",
    }


class _Dumper(yaml.SafeDumper):
    """Strings on one line each: a string with a line break or a backslash is double-quoted (escaped)."""


def _str(dumper: yaml.SafeDumper, text: str):
    style = '"' if any(ch in text for ch in "\n\r\\") or not text.isprintable() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _str)


def note(doc: dict) -> str:
    """The note: front matter ``statblock: inline``, then the fenced ``statblock`` block and nothing else."""
    raw = statblock(doc)  # the layout's name is a key the plugin looks up, never drawn: as it is
    block = {**_escaped(raw), "layout": raw["layout"], "name": bestiary_name(doc)}
    body = yaml.dump(block, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=1_000_000, default_flow_style=None)
    return f"---\nstatblock: inline\n---\n\n```statblock\n{body}```\n"


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
