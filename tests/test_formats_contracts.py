"""Each format for other tools parsed the way its consumer parses it (the rules in
/work/shared/reference/formats.md), never through chargen's own reader."""

import copy
import csv
import io
import json
import re

import pytest
import yaml

from chargen.formats import FORMATS, BatchInfo
from chargen.generate import make_character

SYSTEMS = ("d100", "kotm", "rtd")


@pytest.fixture(scope="module")
def docs(d100, kotm, rtd):
    modules = {"d100": d100, "kotm": kotm, "rtd": rtd}
    return {s: [make_character(modules[s], 42, i) for i in range(6)] for s in SYSTEMS}


def batch(fmt: str, docs: list, title: str = "The party") -> bytes:
    f = FORMATS[fmt]
    return f.join([f.part(d) for d in docs], BatchInfo(docs[0]["system"]["engine"], title))


# --- csv --------------------------------------------------------------------------------------------

HEADERS = {
    "d100": "index,name,sex,age,system,seed,archetype,background,profession,years,STR,CON,SIZ,INT,POW,DEX,CHA,hit_points,pow_points,mov,"
            "damage_modifier,sr_siz,sr_dex,attack_bonus,parry_bonus,defence,armour,weapons,skills,money",
    "kotm": "index,name,sex,age,system,seed,archetype,profession,level,sd,save_check,critical_fumble_damage,weapons",
    "rtd": "index,name,sex,age,system,seed,archetype,STR,DEX,CON,INT,WIS,CHA,skills,weapons",
}
FLAVOUR = ",appearance,manner,speech,motive,secret,hook,quirk,possession,fear,rumour"  # issue 25: each flavour table
HEADERS = {system: header + FLAVOUR for system, header in HEADERS.items()}
NUMERIC = {"index", "age", "seed", "STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA", "WIS", "hit_points",
           "pow_points", "mov", "sr_siz", "sr_dex", "attack_bonus", "parry_bonus", "defence", "level", "sd",
           "save_check", "critical_fumble_damage"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_csv_reads_with_pythons_csv_module(system, docs):
    data = batch("csv", docs[system])
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert ",".join(rows[0]) == HEADERS[system]  # stable names, stable order
    assert [int(r["index"]) for r in rows] == list(range(6))
    assert [r["name"] for r in rows] == [d["identity"]["name"] for d in docs[system]]


@pytest.mark.parametrize("system", SYSTEMS)
def test_csv_reads_as_a_spreadsheet_does(system, docs):
    """A spreadsheet's reading: the BOM says UTF-8, CRLF ends a record, a number is a cell that parses
    as one, and a text cell starting with = + - @ would be a formula."""
    data = batch("csv", docs[system])
    assert data.startswith(b"\xef\xbb\xbf") and data.endswith(b"\r\n")
    records = data[3:].decode("utf-8").split("\r\n")[:-1]
    assert len(records) == 7 and not any("\n" in r for r in records)  # one line per record
    table = list(csv.reader(records))
    header = table[0]
    for row in table[1:]:
        assert len(row) == len(header)
        for name, value in zip(header, row):
            if name in NUMERIC:
                assert re.fullmatch(r"-?\d+", value), (name, value)
            else:
                assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), (name, value)


def test_csv_never_writes_a_formula_and_keeps_every_script(docs):
    doc = copy.deepcopy(docs["d100"][0])
    doc["identity"]["name"] = '=HYPERLINK("http://x","Æthelric")'
    doc["combat"]["damage_modifier"] = "+1D4"
    row = next(csv.DictReader(io.StringIO(batch("csv", [doc]).decode("utf-8-sig"))))
    assert row["name"] == "'=HYPERLINK(\"http://x\",\"Æthelric\")" and row["damage_modifier"] == "'+1D4"


# --- text -------------------------------------------------------------------------------------------

BLOCK_HEAD = re.compile(r"^(?P<system>\w+) · (?P<sysname>.+?) (?P<version>\S+) · seed (?P<seed>\d+) · index (?P<index>\d+)")
D100_STATS = re.compile(r"^STR (\d+) CON (\d+) SIZ (\d+) INT (\d+) POW (\d+) DEX (\d+) CHA (\d+) · Move (\d+) · HP (\d+)")
D100_WEAPON = re.compile(r"^(?P<name>.+?) (?P<attack>\d+|-)%?(?: parry (?P<parry>\d+)%)? (?P<damage>[0-9D+\-]+|-)"
                         r"(?: SR (?P<sr>\d+))?(?: range (?P<range>\d+))?$")


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_blocks_split_on_the_separator_and_parse_with_the_documented_grammar(system, docs):
    text = batch("text", docs[system]).decode("utf-8")
    blocks = text.split("\n---\n")
    assert len(blocks) == 6
    for block, doc in zip(blocks, docs[system]):
        lines = block.strip("\n").split("\n")
        assert lines[0] == doc["identity"]["name"]
        head = BLOCK_HEAD.match(lines[1])
        assert head and head["system"] == system and int(head["index"]) == doc["seed"]["index"]
        for line in lines[2:]:
            assert re.match(r"^([A-Z][A-Za-z ]*: .+|[A-Z].*\d.*)$", line), line


def test_text_d100_block_gives_the_figures(docs):
    doc = docs["d100"][3]
    lines = FORMATS["text"].part(doc).split("\n")
    stats = D100_STATS.match(lines[2])
    k = doc["characteristics"]
    assert [int(v) for v in stats.groups()[:7]] == [k[c] for c in ("str", "con", "siz", "int", "pow", "dex", "cha")]
    assert int(stats[9]) == doc["combat"]["hit_points"]
    weapons = next(line for line in lines if line.startswith("Weapons: "))[len("Weapons: "):].split("; ")
    for text, w in zip(weapons, doc["weapons"]):
        m = D100_WEAPON.match(text)
        assert m and m["name"] == w["label"] and int(m["attack"]) == w["attack"], text


# --- MEG, by the Roll20 importer's rules ---------------------------------------------------------------

NPC_KEYS = ["name", "cult_rank", "stats", "skills", "folk_spells", "theism_spells", "sorcery_spells",
            "mysticism_spells", "hit_locations", "combat_styles", "attributes", "notes", "features", "cults",
            "spirits", "natural_armor"]
STRIKE_RANK = re.compile(r"^(\d+)(?:\((\d+)-(\d+)\))?$")


def check_npc(npc: dict, doc: dict) -> None:
    assert list(npc)[:len(NPC_KEYS)] == NPC_KEYS
    assert [list(s) for s in npc["stats"]] == [["STR"], ["CON"], ["SIZ"], ["DEX"], ["INT"], ["POW"], ["CHA"]]
    assert all(isinstance(v, int) for s in npc["stats"] for v in s.values())
    assert npc["cult_rank"] in ("None", "Common", "Dedicated", "Proven", "Overseer", "Leader")
    for key in ("folk_spells", "theism_spells", "sorcery_spells", "mysticism_spells"):
        assert isinstance(npc[key], list) and len(npc[key]) == 0  # .length read
    assert all(len(s) == 1 and isinstance(next(iter(s.values())), int) for s in npc["skills"])
    assert 1 <= len(npc["hit_locations"]) <= 12
    for loc in npc["hit_locations"]:
        assert re.fullmatch(r"\d\d-\d\d", loc["range"]) and isinstance(loc["hp"], int) and isinstance(loc["ap"], int)
    for style in npc["combat_styles"]:
        assert isinstance(style["name"], str) and isinstance(style["value"], int)
        for w in style["weapons"]:
            assert w["type"] in ("1h-melee", "2h-melee", "ranged", "shield")
            assert w["size"] in "SMLHEC" and len(w["size"]) == 1
            assert w["reach"] in ("-", "T", "S", "M", "L", "VL", "U")
            assert isinstance(w["add_damage_modifier"], bool) and isinstance(w["ap"], int) and isinstance(w["hp"], int)
            assert re.fullmatch(r"[0-9d+\-]+", w["damage"])
            assert "range" in w  # on every weapon, as MEG writes them (null for melee and shields)
            if w["type"] == "ranged":
                assert all(part.isdigit() for part in w["range"].split("/")) and len(w["range"].split("/")) == 3
            assert w["add_damage_modifier"] is False  # the importers would roll Mythras' modifier
    a = npc["attributes"]
    assert isinstance(a["strike_rank"], str) and STRIKE_RANK.match(a["strike_rank"])
    assert isinstance(a["action_points"], int) and isinstance(a["magic_points"], int)
    assert re.fullmatch(r"[+-][0-9d+\-]+", a["damage_modifier"]) and isinstance(a["movement"], str)
    assert isinstance(npc["notes"], str) and all(isinstance(f, str) and ": " in f for f in npc["features"])
    # the figures
    assert npc["name"] == doc["identity"]["name"]
    assert {k: v for s in npc["stats"] for k, v in s.items()} == {k.upper(): v for k, v in doc["characteristics"].items()}
    from chargen.systems.d100.interop.mythras import SKILLS_FEATURE, feature_values, table

    written = {k: v for s in npc["skills"] for k, v in s.items()}
    kept = next((feature_values(f) for f in npc["features"] if f.startswith(SKILLS_FEATURE)), {})
    for s in doc["skills"]:  # each D100 II value: under its Mythras name, or in the features
        name = table().get(s["id"])
        assert kept.get(s["label"].lower(), written.get(name)) == s["value"], s["label"]
    sr = STRIKE_RANK.match(a["strike_rank"])
    assert int(sr[1]) == sum(doc["combat"]["strike_ranks"].values())
    assert [w["name"] for s in npc["combat_styles"] for w in s["weapons"]] == [w["label"] for w in doc["weapons"]]
    two = [w["type"] for s in npc["combat_styles"] for w in s["weapons"] if "2h" in w["type"]]
    assert len(two) == sum(1 for w in doc["weapons"] if w["kind"] == "melee" and w["hands"] == 2)
    parried = [f for f in npc["features"] if f.startswith("Parry: ")]
    assert len(parried) == sum(1 for w in doc["weapons"] if w["parry"] is not None)


def test_meg_character_file_is_an_enemies_list_the_roll20_importer_reads(docs):
    for doc in docs["d100"]:
        data = json.loads(FORMATS["meg"].to_bytes(doc))
        assert isinstance(data, list) and len(data) == 1
        check_npc(data[0], doc)


def test_meg_batch_file_is_an_enemies_file_roll20_pastes(docs):
    """Roll20 reads jsonData[0] of what is pasted (its # field picks another): a plain array of NPCs,
    as MEG writes several; a party object ({party_name, enemies}) has no [0] (TypeError)."""
    enemies = json.loads(batch("meg", docs["d100"], "The Red Lanterns"))
    assert isinstance(enemies, list) and enemies[0]["name"] == docs["d100"][0]["identity"]["name"]
    for npc, doc in zip(enemies, docs["d100"], strict=True):
        check_npc(npc, doc)


def test_meg_covers_every_weapon_kind(d100):
    """Over many characters: shields, two-handed weapons and missiles all meet the rules."""
    kinds = set()
    for i in range(120):
        doc = make_character(d100, 3, i)
        check_npc(json.loads(FORMATS["meg"].to_bytes(doc))[0], doc)
        kinds |= {(w["kind"], w["hands"]) for w in doc["weapons"]}
    assert {("melee", 1), ("melee", 2), ("missile", 1), ("missile", 2)} <= kinds


# --- Foundry VTT (brp) ---------------------------------------------------------------------------------

SKILL_FIELDS = ("base", "xp", "culture", "profession", "personality", "personal", "effects")


def test_foundry_actor_has_the_brp_fields(docs):
    for doc in docs["d100"]:
        actor = json.loads(FORMATS["foundry"].to_bytes(doc))
        assert {"name", "type", "img", "system", "items", "effects", "flags", "_stats"} <= set(actor)
        assert actor["type"] == "character" and actor["name"] == doc["identity"]["name"]
        assert actor["_stats"]["systemId"] == "brp" and {"systemVersion", "coreVersion"} <= set(actor["_stats"])
        stats = actor["system"]["stats"]
        assert set(stats) == {"str", "con", "siz", "int", "pow", "dex", "cha", "edu"}
        for key, value in doc["characteristics"].items():
            assert set(stats[key]) == {"base", "redist", "culture", "exp", "age", "effects"} and stats[key]["base"] == value
        skills = [i for i in actor["items"] if i["type"] == "skill"]
        assert [s["name"] for s in skills] == [s["label"] for s in doc["skills"]] + [w["label"] for w in doc["weapons"]]
        held = {c["flags"]["brp"]["brpidFlag"]["id"]: c["system"]["mod"] for c in actor["items"] if c["type"] == "skillcat"}
        for item, skill in zip(skills, doc["skills"]):
            assert set(SKILL_FIELDS) | {"category"} <= set(item["system"])
            assert item["system"]["base"] == skill["base"]  # apart, never back-computed
            # the category modifier is held by the skillcat the skill's category names, once
            assert sum(item["system"][f] for f in SKILL_FIELDS) + held[item["system"]["category"]] == skill["value"]
            assert re.fullmatch(r"i\.skill\.[a-z0-9-]+", item["flags"]["brp"]["brpidFlag"]["id"])
        locations = [i for i in actor["items"] if i["type"] == "hit-location"]
        assert [(h["system"]["lowRoll"], h["system"]["highRoll"], h["system"]["maxHP"]) for h in locations] == \
            [(h["melee"][0], h["melee"][1], h["hp"]) for h in doc["hit_locations"]]


def test_foundry_keeps_each_source_of_a_skill_apart(docs):
    doc = copy.deepcopy(docs["d100"][0])
    skill = doc["skills"][6]
    doc["skill_categories"][skill["category"]] = 5
    skill["sources"] = [{"source": "base", "value": 15}, {"source": "category", "value": 5},
                        {"source": "profession", "value": 20}, {"source": "edit", "value": 3}]
    skill["value"] = 43
    actor = json.loads(FORMATS["foundry"].to_bytes(doc))
    item = next(i for i in actor["items"] if i["name"] == skill["label"])["system"]
    # the category's 5 is the skillcat's (held once), not the skill's effects
    assert (item["base"], item["effects"], item["profession"], item["personal"], item["xp"]) == (15, 0, 20, 3, 0)


# --- Obsidian Fantasy Statblocks -----------------------------------------------------------------------
# A model of the plugin (javalent/fantasy-statblocks 4.10): the watcher reads a note whose front matter
# says `statblock: inline` from the first fenced block whose info string is `statblock`
# (watcher.worker.ts findFirstStatBlock); LayoutManager.getLayoutOrDefault finds the note's layout by
# NAME, else the default (Basic 5e); "Import From JSON" replaces the layout's id with a random one and
# names a layout whose name is taken "NAME Copy"; the bestiary is keyed by name.

STATBLOCK_FENCE = re.compile(r"^```[^\S\r\n]*statblock\s?\n([\s\S]+?)^```", re.M)  # the plugin's regex
DEFAULT_LAYOUT = {"name": "Basic 5e Layout", "id": "basic-5e-layout", "blocks": []}


def front_matter(note: str) -> dict:
    assert note.startswith("---\n")
    end = note.index("\n---\n", 4)
    return yaml.safe_load(note[4:end])


def plugin_statblock(note: str) -> dict | None:
    """What the plugin reads of a note (None: nothing, not in the bestiary, nothing drawn)."""
    matter = front_matter(note)
    if matter.get("statblock") == "inline":
        m = STATBLOCK_FENCE.search(note)
        return yaml.safe_load(m[1]) if m else None
    return matter if matter.get("statblock") in (True, "true") else None


def draws_in_note(note: str) -> bool:
    """The plugin draws the block in the note only from an inline fenced block."""
    return front_matter(note).get("statblock") == "inline" and STATBLOCK_FENCE.search(note) is not None


def import_layout(installed: list[dict], data: dict) -> list[dict]:
    """The plugin's "Import From JSON": name and blocks required; a fresh id; a taken name gets " Copy"."""
    assert isinstance(data.get("name"), str) and isinstance(data.get("blocks"), list)
    name = data["name"] + " Copy" if any(lay["name"] == data["name"] for lay in installed) else data["name"]
    return [*installed, {**data, "name": name, "id": f"random-{len(installed)}", "diceParsing": []}]


def layout_or_default(installed: list[dict], name: str) -> dict:
    return next((lay for lay in installed if lay["name"] == name), DEFAULT_LAYOUT)


LAYOUT_TYPE = {  # the plugin's TypeScript Layout type (layout.types.ts): each block type's required keys
    "heading": {"properties", "size"}, "subheading": {"properties"}, "property": {"properties"},
    "table": {"properties", "headers", "calculate"}, "traits": {"properties"}, "text": {"properties", "text"},
    "inline": {"properties", "nested"}, "group": {"properties", "nested"},
}


def layout_type_problems(blocks: list[dict]) -> list[str]:
    out = []
    for b in blocks:
        missing = {"id", "type"} | LAYOUT_TYPE.get(b.get("type"), set())
        out += [f"{b.get('id')}: {b.get('type')} needs {k}" for k in sorted(missing - set(b))]
        if b.get("type") == "text" and not isinstance(b.get("text"), str):
            out.append(f"{b.get('id')}: text must be a string")
        out += layout_type_problems(b.get("nested", []))
    return out


def layout_properties(blocks):
    for b in blocks:
        yield from ((p, b) for p in b.get("properties", []))
        yield from layout_properties(b.get("nested", []))


def md_unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def test_statblock_note_is_drawn_with_chargens_layout_found_by_name(docs):
    layout = json.loads(batch("statblock", docs["d100"]))
    installed = import_layout([DEFAULT_LAYOUT], layout)
    for doc in docs["d100"]:
        note = FORMATS["statblock"].to_bytes(doc).decode("utf-8")
        block = plugin_statblock(note)
        assert draws_in_note(note) and block is not None
        assert layout_or_default(installed, block["layout"])["blocks"] == layout["blocks"]  # not the default


def test_statblock_layout_name_is_stable_and_reimporting_makes_a_copy(docs):
    layout = json.loads(batch("statblock", docs["d100"]))
    assert layout["name"] == "chargen D100 II"  # what every chargen version's notes name
    twice = import_layout(import_layout([DEFAULT_LAYOUT], layout), layout)
    assert [lay["name"] for lay in twice] == ["Basic 5e Layout", "chargen D100 II", "chargen D100 II Copy"]
    assert layout_or_default(twice, "chargen D100 II") is twice[1]  # the first import still draws the notes


def test_statblock_layout_meets_the_plugins_layout_type(docs):
    layout = json.loads(batch("statblock", docs["d100"]))
    assert layout_type_problems(layout["blocks"]) == []


def test_statblock_note_holds_what_the_layout_reads(docs):
    layout = json.loads(batch("statblock", docs["d100"]))
    for doc in docs["d100"]:
        block = plugin_statblock(FORMATS["statblock"].to_bytes(doc).decode("utf-8"))
        assert md_unescape(block["name"]) == f"{doc['identity']['name']} #{doc['seed']['index']}"
        for prop, b in layout_properties(layout["blocks"]):
            assert prop in block, prop
            value = block[prop]
            if b["type"] == "table":
                rows = [value] if not isinstance(value[0], list) else value
                assert all(len(r) == len(b["headers"]) for r in rows) and b["calculate"] is False
            if b["type"] == "traits":
                assert all(set(t) == {"name", "desc"} and all(isinstance(v, str) for v in t.values()) for t in value)
        assert block["stats"] == [doc["characteristics"][k] for k in ("str", "con", "siz", "int", "pow", "dex", "cha")]


def test_statblock_bestiary_keeps_every_note_of_a_batch(d100):
    """The bestiary is keyed by name: a batch whose characters share names still files each note."""
    docs = [make_character(d100, 42, i) for i in range(6)]
    for doc in docs[3:]:
        doc["identity"]["name"] = docs[0]["identity"]["name"]
    bestiary = {plugin_statblock(FORMATS["statblock"].to_bytes(d).decode("utf-8"))["name"]: d for d in docs}
    assert len(bestiary) == len(docs)


def test_statblock_layout_is_the_same_bytes_for_any_batch(docs):
    assert batch("statblock", docs["d100"][:1]) == batch("statblock", docs["d100"])


# --- any seed ----------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SEEDS = st.integers(0, 2**64 - 1)
INDICES = st.integers(0, 5000)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=SEEDS, index=INDICES)
def test_any_d100_character_meets_the_meg_rules_and_reads_back(d100, seed, index):
    from chargen.systems.d100.interop.meg_read import read_meg

    doc = make_character(d100, seed, index)
    data = json.loads(FORMATS["meg"].to_bytes(doc))
    check_npc(data[0], doc)
    notices = []
    (_, back), = read_meg(data, "x", notices.append)
    assert json.loads(FORMATS["meg"].to_bytes(back)) == data and notices == []


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(system=st.sampled_from(SYSTEMS), seed=SEEDS, index=INDICES)
def test_any_character_makes_one_csv_row_and_one_text_block(docs, system, seed, index):
    from chargen.rules import load_builtin

    doc = make_character(load_builtin(system), seed, index)
    rows = list(csv.reader(io.StringIO(batch("csv", [doc]).decode("utf-8-sig"), newline="")))
    assert len(rows) == 2 and len(rows[0]) == len(rows[1]) and rows[1][1].lstrip("'") == doc["identity"]["name"]
    text = batch("text", [doc, doc]).decode("utf-8")
    assert text.count("\n---\n") == 1 and text.split("\n", 1)[0] == doc["identity"]["name"]
