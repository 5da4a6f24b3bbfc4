"""Flavour tables (issue 25): rules data validated at their line, rolled on a stream of their own
(every value chargen rolled before stays byte-identical), pins, --require, explain, --no-flavour,
overlays, and what every format prints of them."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.errors import RulesError
from chargen.flavour.roll import pick
from chargen.rules.flavour import Entry
from chargen.generate import GenerationRequest, make_character
from chargen.rules import BUILTIN_DIR, load_builtin, load_module
from chargen.serialize import to_json

BASE = Path(__file__).parent / "golden" / "flavour" / "pre-flavour-102c43e.json"
SYSTEMS = ("d100", "kotm", "rtd")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def _case(key: str):
    system, seed, index, archetype = key.split(":")
    return system, int(seed), int(index), archetype or None


# -- byte identity ----------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(json.loads(BASE.read_text())))
def test_every_value_rolled_before_is_byte_identical(key):
    """The fixture holds the SHA-256 of each document as main (102c43e) made it, before flavour
    existed: the document made now with seed derivation 1 (what a batch made then resumes with),
    its flavour taken out, has exactly those bytes."""
    system, seed, index, archetype = _case(key)
    doc = make_character(load_builtin(system), seed, index, GenerationRequest(archetype=archetype, derivation=1))
    assert isinstance(doc.pop("flavour"), dict)
    assert hashlib.sha256(to_json(doc).encode("utf-8")).hexdigest() == json.loads(BASE.read_text())[key]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seed", [0, 5, 123456789])
def test_no_flavour_is_the_document_without_its_flavour(system, seed):
    module = load_builtin(system)
    for index in range(4):
        made = make_character(module, seed, index)
        bare = make_character(module, seed, index, GenerationRequest(flavour=False))
        assert "flavour" not in bare
        made.pop("flavour")
        assert to_json(made) == to_json(bare)


def test_the_rules_hash_leaves_the_flavour_tables_out():
    """A character saved before the tables existed still finds its rules (its hash is the same)."""
    doc = json.loads((Path(__file__).parent / "golden" / "kotm" / "seed-42-index-0.json").read_text())
    assert doc["system"]["rules_hash"] == load_builtin("kotm").hash


# -- the tables -----------------------------------------------------------------------------

def test_the_tables_and_their_entries():
    counts = {}
    for system in SYSTEMS:
        f = load_builtin(system).flavour
        tables = sum(1 + len(t.variants) for t in f.tables)
        counts[system] = (tables, f.entry_count)
        assert {"appearance", "manner", "speech", "motive", "secret", "hook", "quirk", "possession"} <= \
            {t.id for t in f.tables}
        data = load_builtin(system).data["flavour"]
        rows = [e for t in data["tables"] for e in [*t["entries"], *(x for v in t.get("variants", {}).values() for x in v)]]
        assert all(e["source"] == "default" for e in rows)
    assert counts == {"d100": (18, 299), "kotm": (15, 259), "rtd": (16, 267)}
    assert sum(t for t, _ in counts.values()) >= 24 and sum(e for _, e in counts.values()) >= 800


def test_a_roll_lands_on_its_weighted_row_at_each_boundary():
    rows = (Entry("a", 2), Entry("b", 1), Entry("c", 3))
    assert [pick(rows, r) for r in range(1, 7)] == [1, 1, 2, 3, 3, 3]
    with pytest.raises(ValueError):
        pick(rows, 7)


def test_a_variant_is_rolled_for_the_characters_background():
    module = load_builtin("d100")
    table = module.flavour.table("appearance")
    for index in range(30):
        doc = make_character(module, 3, index)
        got, background = doc["flavour"]["appearance"], doc["background"]["id"]
        rows = table.variants.get(background, table.entries)
        assert got.get("variant") == (background if background in table.variants else None)
        assert rows[got["row"] - 1].text == got["value"] and 1 <= got["roll"] <= got["of"] == sum(r.weight for r in rows)


def test_kotm_possession_follows_the_pinned_profession():
    doc = make_character(load_builtin("kotm"), 4, 0, GenerationRequest(pins=(("profession", "mage"),)))
    assert doc["flavour"]["possession"]["variant"] == "mage"


# -- validation -----------------------------------------------------------------------------

BROKEN = """overlay: kotm
name: Broken flavour
changes:
  flavour:
    set:
      tables[id=motive].entries[2].weight: 0
      tables[id=fear].entries[0].text: ""
    add:
      tables[id=quirk].entries:
        - {text: "hums off key", weight: 2}
      relations:
        - {id: patron, label: Patron of, other: friend, weight: 1, source: default, reasons: [{text: "paid", weight: 1, source: default}]}
"""


def test_rules_check_names_each_broken_entry_at_its_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    r = run("rules", "check", path)
    assert r.exit_code == 1
    assert r.stdout.replace(str(path), "broken.yaml").splitlines() == [
        "broken.yaml:6: changes.flavour.set.tables[id=motive].entries[2].weight: 0 is out of range (expected 1 to 1000)",
        "broken.yaml:10: changes.flavour.add.tables[id=quirk].entries[0]: missing key 'source'",
        "broken.yaml:7: changes.flavour.set.tables[id=fear].entries[0].text: expected text, got empty text",
        "broken.yaml:12: changes.flavour.add.relations[0].other: 'friend' names 'friend' as its other end, "
        "not 'patron' (set friend's other: patron)"]


def test_a_module_folders_broken_table_is_reported_at_its_file_and_line(tmp_path):
    folder = tmp_path / "mykotm"
    shutil.copytree(BUILTIN_DIR / "kotm", folder)
    (folder / "module.yaml").write_text((folder / "module.yaml").read_text().replace("id: kotm", "id: mykotm"))
    text = (folder / "flavour.yaml").read_text()
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if "weight: 2," in line) + 1
    (folder / "flavour.yaml").write_text(text.replace("weight: 2,", "weight: many,", 1).replace("variant_by:", "varient_by:"))
    with pytest.raises(RulesError) as e:
        load_module("mykotm", rules_dirs=[tmp_path])
    got = [p.replace(str(folder) + "/", "") for p in e.value.problems]
    assert f"flavour.yaml:{n}: tables[0].entries[0].weight: expected a whole number, got the text 'many'" in got
    assert any(p.startswith("flavour.yaml:") and "tables[7]" in p and "varient_by" in p for p in got), got


# -- overlays, pins, --require, explain -------------------------------------------------------

def test_an_overlay_changes_a_table(tmp_path):
    path = tmp_path / "dark.yaml"
    path.write_text("overlay: rtd\nname: Dark valley\nchanges:\n  flavour:\n    set:\n"
                    "      tables[id=motive].entries: [{text: to see the sun again, weight: 1, source: default}]\n")
    module = load_module("rtd", [path])
    doc = make_character(module, 8, 2)
    assert doc["flavour"]["motive"] == {"value": "to see the sun again", "row": 1, "roll": 1, "of": 1}
    before = make_character(load_builtin("rtd"), 8, 2)
    assert {k: v for k, v in doc.items() if k not in ("flavour", "system")} == \
        {k: v for k, v in before.items() if k not in ("flavour", "system")}
    saved = tmp_path / "c.json"
    saved.write_text(to_json(doc))
    r = run("explain", saved, "flavour.motive", "--rules", path)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1] == ("  flavour.yaml: tables[id=motive].entries, row 1: to see the sun again "
                                         "(house rules Dark valley)")


def test_explain_names_the_table_row_and_roll(tmp_path):
    doc = make_character(load_builtin("d100"), 7, 0)
    path = tmp_path / "c.json"
    path.write_text(to_json(doc))
    r = run("explain", path, "flavour.appearance")
    assert r.exit_code == 0, r.output
    v = doc["flavour"]["appearance"]
    assert r.stdout.splitlines() == [
        f"flavour.appearance: {v['value']}",
        f"  rolled {v['roll']} on 1D{v['of']} (the rows' weights summed), on the character's own flavour stream",
        f"  flavour.yaml: tables[id=appearance].variants.{v['variant']}, row {v['row']}: {v['value']}"]


def test_set_pins_a_flavour_value_and_keeps_the_other_rolls():
    r = run("generate", "--system", "kotm", "--seed", "3", "--index", "0", "--set", "flavour.motive=to find the lost lamb")
    assert r.exit_code == 0, r.output
    pinned = json.loads(r.stdout)
    made = make_character(load_builtin("kotm"), 3, 0)
    assert pinned["flavour"]["motive"] == {**made["flavour"]["motive"], "value": "to find the lost lamb", "pinned": True}
    assert {k: v for k, v in pinned["flavour"].items() if k != "motive"} == \
        {k: v for k, v in made["flavour"].items() if k != "motive"}
    assert pinned["pins"] == {"flavour.motive": "to find the lost lamb"}
    r = run("generate", "--system", "kotm", "--seed", "3", "--set", "flavour.motif=x")
    assert r.exit_code == 1 and r.stderr.startswith("Error: --set flavour.motif: not a path that can be pinned")


def test_require_rerolls_until_a_flavour_row():
    r = run("generate", "--system", "rtd", "--seed", "3", "--count", "3", "--require", "flavour.quirk.row==2")
    assert r.exit_code == 0, r.output
    assert [d["flavour"]["quirk"]["row"] for d in json.loads(r.stdout)] == [2, 2, 2]


def test_no_flavour_is_recorded_and_resume_keeps_it(tmp_path):
    out = tmp_path / "b"
    r = run("generate", "--system", "d100", "--seed", "5", "--count", "3", "--no-flavour", "-o", out)
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["flavour"] is False
    files = sorted(out.glob("0*.json"))
    first = files[1].read_bytes()
    files[1].unlink()
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert files[1].read_bytes() == first and b'"flavour"' not in first
    r = run("generate", "--system", "d100", "--seed", "5", "--count", "3", "-o", tmp_path / "c")
    assert "flavour" not in json.loads((tmp_path / "c" / "manifest.json").read_text())


# -- formats ---------------------------------------------------------------------------------

def test_every_format_carries_the_flavour(tmp_path):
    out = tmp_path / "v"
    r = run("generate", "--system", "d100", "--seed", "42", "--count", "2", "--format",
            "json,csv,text,meg,foundry,statblock", "-o", out)
    assert r.exit_code == 0, r.output
    doc = json.loads(next(p for p in out.glob("0000-*.json") if p.name.count(".") == 1).read_text())
    fl = doc["flavour"]
    blocks = (out / "blocks.txt").read_text()
    assert f"Appearance: {fl['appearance']['value']}\n" in blocks and f"Motive: {fl['motive']['value']}\n" in blocks
    roster = (out / "roster.csv").read_text(encoding="utf-8-sig").splitlines()
    assert roster[0].endswith(",appearance,manner,speech,motive,secret,hook,quirk,possession,fear,rumour")
    meg = json.loads((out / "party.meg.json").read_text())[0]
    assert f"Appearance: {fl['appearance']['value']}" in meg["features"]
    actor = json.loads(sorted(out.glob("0000-*.foundry.json"))[0].read_text())
    assert actor["system"]["biography"].startswith("<p><strong>Appearance:</strong> ")
    note = sorted(out.glob("0000-*.md"))[0].read_text()
    import yaml

    matter = yaml.safe_load(note.split("```statblock\n")[1].split("\n```")[0])  # the note's fenced block
    assert matter["flavour"][0] == {"name": "Appearance", "desc": fl["appearance"]["value"]}
    assert [t["name"] for t in matter["flavour"]][-1] == "Rumour"
    layout = json.loads((out / "chargen-d100-layout.json").read_text())
    assert {"type": "traits", "id": "flavour"}.items() <= next(b for b in layout["blocks"] if b.get("id") == "flavour").items()


def test_user_text_in_the_biography_is_escaped():
    from chargen.flavour.show import biography_html

    doc = {"flavour": {"quirk": {"value": "<script>x</script> & co", "row": 1, "roll": 1, "of": 1}}}
    assert biography_html(doc) == "<p><strong>Quirk:</strong> &lt;script&gt;x&lt;/script&gt; &amp; co</p>"


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200f", "\u061c", "\u2028"])
def test_bidi_controls_and_line_separators_in_flavour_text_are_refused_at_their_line(tmp_path, char):
    """Issue 39, item 11: as control characters are, and as the party name and a manifest refuse them."""
    path = tmp_path / "bidi.yaml"
    path.write_text("overlay: kotm\nname: Bidi\nchanges:\n  flavour:\n    add:\n      tables[id=quirk].entries:\n"
                    f'        - {{text: "hums {char}ffo yek", weight: 2, source: default}}\n', encoding="utf-8")
    r = run("rules", "check", path)
    assert r.exit_code == 1 and r.stdout.replace(str(path), "bidi.yaml").splitlines() == [
        f"bidi.yaml:7: changes.flavour.add.tables[id=quirk].entries[0].text: text holds the bidirectional control or "
        f"line separator U+{ord(char):04X} (remove it: it reorders or breaks the text around it wherever the text is shown)"]
    r = run("generate", "--system", "kotm", "--rules", path, "--seed", 1)
    assert r.exit_code == 1 and r.output.startswith("Error: ") and f"U+{ord(char):04X}" in r.output


def test_right_to_left_flavour_text_without_controls_is_taken(tmp_path):
    path = tmp_path / "rtl.yaml"
    path.write_text("overlay: kotm\nname: RTL\nchanges:\n  flavour:\n    set:\n      tables[id=quirk].entries:\n"
                    '        - {text: "يدندن خارج اللحن (hums off key)", weight: 2, source: default}\n', encoding="utf-8")
    r = run("generate", "--system", "kotm", "--rules", path, "--seed", 1, "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)[0]["flavour"]["quirk"]["value"] == "يدندن خارج اللحن (hums off key)"
