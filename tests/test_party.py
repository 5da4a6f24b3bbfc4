"""Party and encounter files: dice counts rolled and recorded, line-stable seeds, every
problem of a bad file with its exact text, rules check, the manifest, --resume, the examples."""

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.errors import RulesError
from chargen.run.party import line_seed, read_party
from tests import manual

ROOT = Path(__file__).parent.parent
HEAD = "name: Bandits of the Old Road\nsystem: d100\nseed: 20261201\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def write(tmp_path, body, name="party.yaml"):
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def make(tmp_path, body, out="out"):
    path = write(tmp_path, body, f"{out}.yaml")
    r = run("party", path, "-o", tmp_path / out)
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / out / "manifest.json").read_text())
    return manifest, {c["name"]: (tmp_path / out / c["files"]["json"]).read_bytes() for c in manifest["characters"]}


def by_line(manifest, folder):
    """Each line key's documents, in order (without their number in the party: their file index)."""
    docs = [json.loads((folder / c["files"]["json"]).read_text()) for c in manifest["characters"]]
    for n, d in enumerate(docs):
        assert d["seed"].pop("number") == n
    out, n = {}, 0
    for line in manifest["party"]["lines"]:
        out[line["key"]] = [json.dumps(d, sort_keys=True) for d in docs[n:n + line["count"]]]
        n += line["count"]
    return out


LINES = ("  - {archetype: bandit_chief, name: Red Ulf}\n"
         "  - {archetype: bandit, count: 1D4+2}\n"
         "  - {archetype: hedge_archer, count: 2, years: 3}\n")


def test_dice_counts_are_rolled_and_recorded(tmp_path):
    manifest, _ = make(tmp_path, HEAD + "members:\n" + LINES)
    lines = manifest["party"]["lines"]
    assert [(ln["key"], ln["count_dice"]) for ln in lines] == [("bandit_chief#1", "1"), ("bandit#1", "1D4+2"),
                                                                 ("hedge_archer#1", "2")]
    assert 3 <= lines[1]["count"] <= 6 and len(manifest["characters"]) == sum(ln["count"] for ln in lines)
    assert lines[1]["seed"] == line_seed(20261201, "bandit#1")
    text = (tmp_path / "out.yaml").read_bytes()
    assert manifest["party"]["sha256"] == "sha256:" + hashlib.sha256(text).hexdigest()
    assert manifest["party"]["file"] == "out.yaml" and manifest["party"]["name"] == "Bandits of the Old Road"
    assert manifest["characters"][0]["name"] == "Red Ulf"


def test_the_same_file_gives_the_same_bytes(tmp_path):
    a = make(tmp_path, HEAD + "members:\n" + LINES, "a")
    b = make(tmp_path, HEAD + "members:\n" + LINES, "b")
    assert a[1] == b[1]


def test_adding_a_line_keeps_the_other_lines(tmp_path):
    before, _ = make(tmp_path, HEAD + "members:\n" + LINES, "a")
    after, _ = make(tmp_path, HEAD + "members:\n  - {archetype: thief, count: 2}\n" + LINES
                    + "  - {archetype: bandit, count: 3, key: rearguard}\n", "b")
    old, new = by_line(before, tmp_path / "a"), by_line(after, tmp_path / "b")
    assert set(new) == set(old) | {"thief#1", "rearguard"}
    for key in old:
        assert new[key] == old[key], key


def test_changing_a_count_keeps_the_other_lines_and_the_first_characters(tmp_path):
    before, _ = make(tmp_path, HEAD + "members:\n" + LINES, "a")
    after, _ = make(tmp_path, HEAD + "members:\n" + LINES.replace("count: 2, years: 3", "count: 5, years: 3"), "b")
    old, new = by_line(before, tmp_path / "a"), by_line(after, tmp_path / "b")
    assert new["bandit_chief#1"] == old["bandit_chief#1"] and new["bandit#1"] == old["bandit#1"]
    assert len(new["hedge_archer#1"]) == 5 and new["hedge_archer#1"][:2] == old["hedge_archer#1"]


def test_a_later_line_of_the_same_archetype_keeps_the_earlier(tmp_path):
    before, _ = make(tmp_path, HEAD + "members:\n" + LINES, "a")
    after, _ = make(tmp_path, HEAD + "members:\n" + LINES + "  - {archetype: bandit, count: 2}\n", "b")
    old, new = by_line(before, tmp_path / "a"), by_line(after, tmp_path / "b")
    assert new["bandit#1"] == old["bandit#1"] and "bandit#2" in new


def test_resume_finishes_a_party(tmp_path):
    manifest, files = make(tmp_path, HEAD + "members:\n" + LINES)
    folder = tmp_path / "out"
    first = folder / manifest["characters"][2]["files"]["json"]
    first.unlink()
    r = run("party", tmp_path / "out.yaml", "-o", folder, "--resume")
    assert r.exit_code == 0, r.output
    assert first.read_bytes() == files[manifest["characters"][2]["name"]]
    (tmp_path / "out.yaml").write_text(HEAD + "members:\n" + LINES + "  - {archetype: thief}\n")
    r = run("party", tmp_path / "out.yaml", "-o", folder, "--resume")
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: cannot resume: '{folder}' holds a different batch (")


def test_rules_check_accepts_a_party_file():
    r = run("rules", "check", ROOT / "examples/town-watch.yaml", ROOT / "examples/bandit-ambush.yaml")
    assert r.exit_code == 0 and r.stdout == (f"ok: {ROOT / 'examples/town-watch.yaml'} (party file)\n"
                                             f"ok: {ROOT / 'examples/bandit-ambush.yaml'} (party file)\n")


BAD = """name: Bad
system: d100
seed: 7
members:
  - {archetype: bandt}
  - {archetype: bandit, count: 1D4+X}
  - {archetype: bandit, count: 2, name: Twins}
  - {archetype: bandit, count: 2D1000}
  - {archetype: bandit, years: 50}
  - {archetype: villager, years: 2}
  - {key: rear, archetype: bandit}
  - {key: rear, archetype: bandit}
  - {archetype: bandit, colour: red}
  - bandit
formats: [json, txt]
layout: cards
"""


def test_every_problem_of_a_bad_party_file(tmp_path):
    path = write(tmp_path, BAD)
    with pytest.raises(RulesError) as e:
        read_party(path)
    assert [p.replace(str(tmp_path) + "/", "") for p in e.value.problems] == [
        "party.yaml:15: formats[1]: 'txt' is not one of: json, yaml, html, pdf, csv, text, meg, foundry, statblock, foundry_npc",
        "party.yaml:16: layout: 'cards' is not one of: block, card, sheet",
        "party.yaml:5: members[0].archetype: unknown archetype 'bandt' (expected one of: bandit, bandit_chief, "
        "barbarian_warrior, guard_sergeant, hedge_archer, hunter, merchant, noble_knight, priest_scholar, recruit, "
        "sailor, soldier, thief, town_guard, veteran_soldier, villager)",
        "party.yaml:6: members[1].count: malformed dice '1D4+X': unexpected 'X' at character 5 (expected notation "
        "such as '3D6', '2D6+6', 'D100', '1D4+1D6')",
        "party.yaml:7: members[2].name: a name is for a line of one character (remove count, or the name)",
        "party.yaml:8: members[3].count: 2D1000 can give 2 to 2000 characters (expected 0 to 1000)",
        "party.yaml:9: members[4].years: 50 years is out of range (expected 0 to 40: professions.yaml max_years)",
        "party.yaml:10: members[5].years: years of previous experience need a profession (add profession, or an "
        "archetype with one)",
        "party.yaml:12: members[7].key: key 'rear' is also the key of the member line at line 11 (each line's key "
        "must be its own: it seeds the line)",
        "party.yaml:13: members[8].colour: unknown key (allowed: archetype, count, key, name, profession, require, set, years)",
        "party.yaml:14: members[9]: expected a mapping, got the text 'bandit'",
    ]
    r = run("rules", "check", path)
    assert r.exit_code == 1 and len(r.stdout.splitlines()) == 11 and r.stderr == "chargen: 11 problems found\n"
    made = run("party", path, "-o", tmp_path / "out")  # every problem, in line order, and nothing written
    lines = [line.replace(str(tmp_path) + "/", "") for line in made.stderr.splitlines()]
    assert made.exit_code == 1 and len(lines) == 11 and all(line.startswith("Error: party.yaml:") for line in lines)
    assert [int(line.split(":")[2]) for line in lines] == sorted(int(line.split(":")[2]) for line in lines)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("body, problems", [
    ("members: 3\n", ["party.yaml:1: (top level): missing key 'name'", "party.yaml:1: (top level): missing key 'system'",
                      "party.yaml:1: (top level): missing key 'seed'", "party.yaml:1: members: expected a list, got the number 3"]),
    ("name: X\nsystem: d200\nseed: -1\nmembers: []\n",
     ["party.yaml:2: system: unknown system 'd200' (expected one of: d100, kotm, rtd)",
      "party.yaml:3: seed: -1 is out of range (expected 0 to 18446744073709551615)",
      "party.yaml:4: members: expected at least 1 item, got 0"]),
    ("name: X\nsystem: d100\nseed: 1\nmembers:\n  - {archetype: bandit, count: 0}\n",
     ["party.yaml:5: members: the counts come to 0 characters (expected 1 to 100,000)"]),
    ("name: X\nsystem: kotm\nseed: 1\nmembers:\n  - {archetype: champion, years: 3}\n",
     ["party.yaml:5: members[0]: profession and years are d100 previous experience (a KoTM archetype sets the profession)"]),
    ("name: X\nsystem: d100\nseed: 1\nmembers:\n  - {archetype: bandit, profession: knight, years: 2}\n",
     ["party.yaml:5: members[0].profession: 'knight' is not open to background peasant, townsfolk, barbarian of "
      "archetype 'bandit' (its backgrounds: poor_noble, rich_noble, very_rich_noble)"]),
])
def test_more_bad_party_files(tmp_path, body, problems):
    path = write(tmp_path, body)
    with pytest.raises(RulesError) as e:
        read_party(path)
    assert [p.replace(str(tmp_path) + "/", "") for p in e.value.problems] == problems


def test_the_cli_error_is_one_line(tmp_path):
    path = write(tmp_path, "name: X\nsystem: d200\nseed: 1\nmembers: [{archetype: x}]\n")
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr == f"Error: {path}:2: system: unknown system 'd200' (expected one of: d100, kotm, rtd)\n"
    assert not (tmp_path / "out").exists()


def test_the_town_watch_example(tmp_path):
    r = run("party", ROOT / "examples/town-watch.yaml", "-o", tmp_path / "watch")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "watch" / "manifest.json").read_text())
    lines = manifest["party"]["lines"]
    assert [ln["archetype"] for ln in lines] == ["guard_sergeant", "town_guard"] and 5 <= lines[1]["count"] <= 10
    page = manual.read(manual.COMMANDS_PAGE)
    assert r.stderr.replace(str(tmp_path / "watch"), "watch") in page  # the manual shows the real output


def test_the_bandit_ambush_example_and_its_roster(tmp_path):
    r = run("party", ROOT / "examples/bandit-ambush.yaml", "-o", tmp_path / "ambush")
    assert r.exit_code == 0, r.output
    assert r.stderr.replace(str(tmp_path / "ambush"), "ambush") in manual.read(manual.COMMANDS_PAGE)
    import subprocess

    pdf = str(tmp_path / "ambush" / "party.pdf")
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    assert len([p for p in pages if p.strip()]) <= 2  # the encounter sheet (layout: block): the roster, 7 blocks
    roster, blocks = text.split("Bandit chief 1", 1)  # the roster first, then the blocks grouped by archetype
    assert [n for n in ("Red Ulf", "Ulla Crookback", "Gerd Reedman") if n in roster] == ["Red Ulf", "Ulla Crookback",
                                                                                         "Gerd Reedman"]
    heads = [line.strip() for line in blocks.splitlines() if line.strip() in ("Bandit 4", "Hedge archer 2")]
    assert heads == ["Bandit 4", "Hedge archer 2"]


def test_a_party_with_house_rules(tmp_path):
    overlay = write(tmp_path, "overlay: d100\nname: pits\nchanges:\n  archetypes:\n    add:\n      archetypes:\n"
                    "        - {id: pit_fighter, label: Pit fighter, source: default, background: townsfolk,\n"
                    "           profession: soldier, years: 3}\n", "house.yaml")
    path = write(tmp_path, HEAD + "members:\n  - {archetype: pit_fighter, count: 2}\n")
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 1 and "unknown archetype 'pit_fighter'" in r.stderr
    r = run("party", path, "-o", tmp_path / "out", "--rules", overlay)
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [o["name"] for o in manifest["system"]["overlays"]] == ["pits"] and len(manifest["characters"]) == 2


def test_the_small_print_of_a_party_member_makes_that_member(tmp_path):
    """Each character's sheet and block name the command that makes it again: a party line's
    archetype, years and name are in it (a command without them would make someone else)."""
    import shlex

    from chargen.edits import reproduce

    r = run("party", ROOT / "examples/bandit-ambush.yaml", "-o", tmp_path / "ambush")
    assert r.exit_code == 0, r.output
    files = sorted((tmp_path / "ambush").glob("0*.json"))
    for path in (files[0], files[1], files[-1]):  # Red Ulf (a name), a bandit (count dice), an archer (years: 3)
        doc = json.loads(path.read_text())
        command = reproduce(doc)["command"]
        assert "--archetype" in command
        again = run(*shlex.split(command)[1:], "--format", "json")
        assert again.exit_code == 0, again.output
        saved = json.loads(path.read_text())  # the same document, and its number in the party (its file index)
        assert saved["seed"].pop("number") == int(path.name[:4])
        assert json.loads(again.stdout) == saved


def test_one_npc_one_number_on_the_encounter_sheet_its_own_block_its_file_and_a_re_render(tmp_path):
    """A party NPC's number is its file index everywhere: its file name, its saved JSON
    (``seed.number``), its own block's "#", the encounter sheet, and ``chargen render`` of the
    saved files (its ``seed.index`` still counts within its line: the reproduce command uses it)."""
    import re

    body = HEAD + "members:\n" + LINES + "formats: [json, html]\nlayout: block\n"
    manifest, _ = make(tmp_path, body)
    folder = tmp_path / "out"
    for c in manifest["characters"]:
        doc = json.loads((folder / c["files"]["json"]).read_text())
        assert c["files"]["json"].startswith(f"{c['index']:04d}-") and doc["seed"]["number"] == c["index"]
        own = (folder / c["files"]["html"]).read_text()
        assert re.findall(r'block-index">#(\d+)<', own) == [str(c["index"])]
    assert [c["index"] for c in manifest["characters"]] == list(range(len(manifest["characters"])))
    assert json.loads((folder / manifest["characters"][2]["files"]["json"]).read_text())["seed"]["index"] == 1
    again = tmp_path / "again"
    r = run("render", *sorted(folder.glob("0*.json")), "-o", again, "--format", "html", "--layout", "block")
    assert r.exit_code == 0, r.output
    for c in manifest["characters"]:
        own = (again / c["files"]["html"]).read_text()
        assert re.findall(r'block-index">#(\d+)<', own) == [str(c["index"])]
