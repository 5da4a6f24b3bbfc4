"""The rules commands and the --rules / --rules-dir options, through the CLI."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.rules import BUILTIN_DIR, load_builtin
from chargen.rules.overlay import read_overlay

GOOD = """\
overlay: d100
name: Tall folk
changes:
  characteristics:
    set:
      characteristics[id=siz].dice: 2D6+6
"""
BAD = """\
overlay: d100
name: Broken
changes:
  characteristics:
    set:
      characteristics[id=siz].dice: 2D6+X
  skills:
    remove:
      skills: [pick_pockts]
"""


def run(*args, cwd: Path | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def own_module(tmp_path) -> Path:
    """A copy of the d100 module as an own module 'fens' in tmp_path/modules/fens."""
    folder = tmp_path / "modules" / "fens"
    shutil.copytree(BUILTIN_DIR / "d100", folder)
    meta = folder / "module.yaml"
    meta.write_text(meta.read_text().replace("id: d100\nname: D100 II", "id: fens\nname: Fenland folk"))  # keeps engine: d100
    return folder


def test_check_a_valid_overlay(write):
    path = write("tall.yaml", GOOD)
    r = run("rules", "check", path)
    o = read_overlay(path)
    from chargen.rules import load_module

    m = load_module("d100", [path])
    assert r.exit_code == 0
    assert r.stdout == f"ok: {path}: overlay 'Tall folk' ({o.hash}) for module 'd100', 1 change, rules hash {m.hash}\n"


def test_check_prints_every_problem_and_exits_1(write):
    path = write("broken.yaml", BAD)
    r = run("rules", "check", path)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{path}:9: changes.skills.remove.skills[0]: no 'pick_pockts' in 'skills' to remove (expected one of: "
        "evaluate_treasure, read_write_own_language, read_write_other_language, speak_own_language, "
        "speak_other_language, armour_making, climbing, hide_item, jumping, lock_picking, map_making, riding, ...)",
        f"{path}:6: changes.characteristics.set.characteristics[id=siz].dice: malformed dice '2D6+X': unexpected 'X' at character 5 "
        "(expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')",
    ]
    assert r.stderr == "chargen: 2 problems found\n"


def test_generate_with_a_bad_overlay_is_one_error_line(write):
    path = write("broken.yaml", BAD)
    r = run("generate", "--rules", path)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == (f"Error: {path}:9: changes.skills.remove.skills[0]: no 'pick_pockts' in 'skills' to remove "
                        "(expected one of: evaluate_treasure, read_write_own_language, read_write_other_language, "
                        "speak_own_language, speak_other_language, armour_making, climbing, hide_item, jumping, "
                        "lock_picking, map_making, riding, ...) (and 1 more problem; run 'chargen rules check')\n")


def test_check_an_own_module_names_its_files_and_lines(own_module, tmp_path):
    skills = own_module / "skills.yaml"
    skills.write_text(skills.read_text().replace("category: manipulation, base: 15}", "category: athletics, base: 15}", 1))
    chars = own_module / "characteristics.yaml"
    chars.write_text(chars.read_text().replace("dice: 3D6}", "dice: 3D6, colour: red}", 1))
    r = run("rules", "check", own_module)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{own_module}/characteristics.yaml:4: characteristics[0].colour: unknown key (allowed: abbr, dice, id, label)",
        f"{own_module}/skills.yaml:53: skills[6].category: unknown skill category 'athletics' "
        "(expected one of: knowledge, manipulation, oratory, perception, stealth)",
    ]
    # a file of the module, and the folder of modules, check the same module
    assert run("rules", "check", skills).stdout == r.stdout
    assert run("rules", "check", tmp_path / "modules").stdout == r.stdout


def test_check_a_valid_module_folder_and_the_built_in_one(own_module):
    r = run("rules", "check", own_module, BUILTIN_DIR / "d100")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"ok: {own_module}: module 'fens' (Fenland folk 1.0.0, engine d100), rules hash sha256:")
    assert lines[1] == (f"ok: {BUILTIN_DIR / 'd100'}: module 'd100' (D100 II 1.0.0, engine d100), "
                        f"rules hash {load_builtin('d100').hash}")


def test_check_yaml_problems_in_several_files_at_once(own_module):
    (own_module / "armour.yaml").write_text("pieces: [\n")
    (own_module / "weapons.yaml").write_bytes(b"\xff\xfe")
    r = run("rules", "check", own_module)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{own_module}/armour.yaml:2: YAML syntax error: expected the node content, but found '<stream end>'",
        f"{own_module}/weapons.yaml: not UTF-8 text (bad byte at offset 0; save the file as UTF-8)",
    ]


def test_check_what_is_neither_overlay_nor_module(write, tmp_path):
    path = write("notes.yaml", "title: my notes\n")
    r = run("rules", "check", path, tmp_path / "missing.yaml", tmp_path)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{path}:1: title: unknown key (allowed: changes, description, name, overlay)",
        f"{path}:1: (top level): missing key 'overlay'",
        f"{path}:1: (top level): missing key 'name'",
        f"{path}:1: (top level): missing key 'changes'",
        f"{tmp_path}/missing.yaml: cannot read (No such file or directory)",
        f"{tmp_path}: no module.yaml here or in its sub-folders (a rules module is a folder holding module.yaml "
        "and its rules files)",
    ]


def test_check_an_overlay_for_an_own_module(own_module, write):
    path = write("fen.yaml", GOOD.replace("overlay: d100", "overlay: fens"))
    assert run("rules", "check", path).stdout == \
        f"{path}:1: overlay: unknown system 'fens' (expected one of: d100, kotm, rtd)\n"
    r = run("rules", "check", path, "--rules-dir", own_module.parent)
    assert r.exit_code == 0 and r.stdout.startswith(f"ok: {path}: overlay 'Tall folk' (sha256:")


def test_show_prints_the_merged_rules(write):
    path = write("tall.yaml", GOOD)
    r = run("rules", "show", "d100", "--rules", path, "--file", "characteristics")
    from chargen.rules import load_module

    m = load_module("d100", [path])
    lines = r.stdout.splitlines()
    assert r.exit_code == 0
    assert lines[:5] == ["# d100: D100 II 1.0.0 (built in)", f"# rules hash: {m.hash}",
                         f"# overlay: Tall folk ({read_overlay(path).hash})", "characteristics:", "  source: seed"]
    assert "    dice: 2D6+6" in lines[lines.index("  - id: siz"):][:4]


def test_show_all_files_round_trips_to_the_same_rules_hash(tmp_path):
    import yaml

    from chargen.rules import rules_hash
    from chargen.rules.yamlio import Located

    r = run("rules", "show", "d100")
    data = yaml.safe_load(r.stdout)
    assert list(data)[0] == "module"
    from chargen import engines

    docs = {k: Located(v, k) for k, v in data.items()}
    assert rules_hash(docs, engines.get("d100").play_files) == load_builtin("d100").hash
    # the combat tables are outside the hash: a character made before they changed keeps its rules
    assert {"attacks", "fumbles", "wounds"} <= set(docs)
    assert rules_hash({k: d for k, d in docs.items() if k not in ("attacks", "fumbles", "wounds")}) == load_builtin("d100").hash


def test_show_unknown_file_and_system():
    r = run("rules", "show", "d100", "--file", "spells")
    assert r.exit_code == 1 and r.stderr == ("Error: module 'd100' has no rules file 'spells' (expected one of: archetypes, "
                                              "armour, attacks, backgrounds, characteristics, combat, flavour, fumbles, "
                                              "hit_locations, modifiers, module, names, professions, skills, weapons, "
                                              "wounds)\n")
    r = run("rules", "show", "d200")
    assert r.exit_code == 1 and r.stderr == "Error: unknown system 'd200' (expected one of: d100, kotm, rtd)\n"


def test_systems_lists_own_modules(own_module):
    r = run("systems", "--rules-dir", own_module.parent)
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-1] == ("fens   Fenland folk 1.0.0 - D100 roll-under, 01-100 (00 reads as 100); "
                                         f"characteristics 3D6 [{own_module}]")
    data = json.loads(run("systems", "--rules-dir", own_module, "--format", "json").stdout)
    assert data[-1] == {"id": "fens", "name": "Fenland folk", "version": "1.0.0",
                        "mechanic": "D100 roll-under, 01-100 (00 reads as 100); characteristics 3D6",
                        "engine": "d100", "path": str(own_module)}


def test_generate_from_an_own_module_with_an_overlay(own_module, write):
    path = write("fen.yaml", GOOD.replace("overlay: d100", "overlay: fens"))
    r = run("generate", "--system", "fens", "--rules-dir", own_module.parent, "--rules", path, "--seed", "4",
            "--index", "2")
    doc = json.loads(r.stdout)
    assert r.exit_code == 0
    assert doc["system"]["id"] == "fens" and doc["system"]["engine"] == "d100"
    assert doc["system"]["overlays"] == [{"name": "Tall folk", "hash": read_overlay(path).hash}]
    assert doc["characteristics"]["siz"] >= 8


def test_own_module_errors(own_module, tmp_path):
    meta = own_module / "module.yaml"
    meta.write_text(meta.read_text().replace("id: fens", "id: d100"))
    r = run("systems", "--rules-dir", own_module.parent)
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {own_module}/module.yaml: id 'd100' is a built-in module's (choose another id, "
                        "or change the built-in one with an overlay)\n")
    meta.write_text(meta.read_text().replace("engine: d100", "engine: d20").replace("id: d100", "id: fens"))
    r = run("generate", "--system", "fens", "--rules-dir", own_module.parent)
    line = next(n for n, text in enumerate(meta.read_text().splitlines(), 1) if text.startswith("engine:"))
    assert r.stderr == f"Error: {own_module}/module.yaml:{line}: engine: no engine 'd20' (expected one of: d100, kotm, rtd)\n"
    r = run("systems", "--rules-dir", tmp_path / "nowhere")
    assert r.stderr == f"Error: --rules-dir '{tmp_path / 'nowhere'}': not a folder\n"


def test_an_overlay_for_another_module(write):
    path = write("k.yaml", GOOD.replace("overlay: d100", "overlay: kotm"))
    r = run("generate", "--rules", path)
    assert r.exit_code == 1
    assert r.stderr == f"Error: {path}:1: overlay: this overlay changes module 'kotm', not 'd100' (use --system kotm)\n"


def test_every_rules_command_has_an_example():
    for args in (["rules"], ["rules", "show"], ["rules", "check"], ["systems"], ["generate"]):
        r = run(*args, "--help")
        assert r.exit_code == 0 and "Example" in r.stdout, args


def test_rules_check_refuses_an_own_module_with_a_built_in_id(tmp_path):
    """An unedited copy of a built-in module: 'chargen systems --rules-dir' refuses it, so rules check does too."""
    import shutil

    from chargen.rules import BUILTIN_DIR

    shutil.copytree(BUILTIN_DIR / "kotm", tmp_path / "copy")
    r = CliRunner().invoke(cli, ["rules", "check", str(tmp_path)])
    assert r.exit_code == 1
    assert r.stdout == (f"{tmp_path / 'copy'}/module.yaml:8: id: 'kotm' is a built-in module's id; an own module "
                        "needs its own (change it; to change the built-in module, use an overlay)\n")
