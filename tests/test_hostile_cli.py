"""Hostile input through the command line: one clear error, or a result rendered inert."""

import hashlib
import json

import pytest
import yaml
from click.testing import CliRunner

from chargen.cli import cli
from chargen.run.files import character_stem, inside, slug
from chargen.errors import OutputError
from chargen.formats import names

FORMATS_LIST = names()


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("expr, message", [
    ("1000000D1000000", "dice '1000000D1000000': 1000000 dice in one term (expected 1 to 1000)"),
    ("1D1000000", "dice '1D1000000': a die of 1000000 sides (expected 1 to 1000)"),
    ("1D6+" + "9" * 400, "dice expression is too long (404 characters, at most 100)"),
    ("1D6+10000000", "dice '1D6+10000000': constant 10000000 is too large (at most 1000000)"),
    ("600D6+600D6", "dice '600D6+600D6' rolls 1200 dice (at most 1000)"),
    ("3D6; rm -rf /", "malformed dice '3D6; rm -rf /': unexpected ';' at character 4 (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')"),
])
def test_roll_refuses_enormous_or_malformed_dice(expr, message):
    r = run("roll", expr, "--seed", "1")
    assert r.exit_code == 1 and r.stdout == "" and r.stderr == f"Error: {message}\n"


@pytest.mark.parametrize("target", ["/dev/null", "/dev/zero"])
def test_output_to_devices_is_refused(target):
    r = run("generate", "--seed", "1", "-o", target)
    assert r.exit_code == 1 and r.stderr == f"Error: output '{target}' exists and is not a folder\n"


def test_output_that_is_a_file_is_a_usage_error(tmp_path):
    f = tmp_path / "party.json"
    f.write_text("{}")
    r = run("generate", "--seed", "1", "-o", f)
    assert r.exit_code == 2 and f"Invalid value for '-o' / '--output': Directory '{f}' is a file." in r.stderr
    assert f.read_text() == "{}"


def test_relative_output_with_dotdot_writes_only_there(tmp_path, monkeypatch):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    r = run("generate", "--seed", "1", "--count", "2", "-o", "../party")
    assert r.exit_code == 0
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert all(f.startswith("a/party/") for f in files) and len(files) == 3


@pytest.mark.parametrize("formats", ["../x", "json,/etc/passwd", "json/../yaml", "", ","])
def test_formats_cannot_name_paths(formats):
    r = run("generate", "--format", formats)
    assert r.exit_code == 2 and "is not a format (expected a comma list of: " + ", ".join(FORMATS_LIST) + ")" in r.stderr


@pytest.mark.parametrize("option, value", [("--seed", "-1"), ("--seed", str(2**64)), ("--count", "0"),
                                           ("--count", "100001"), ("--index", "-3"), ("--seed", "1e400")])
def test_out_of_range_numbers_are_usage_errors(option, value):
    r = run("generate", option, value)
    assert r.exit_code == 2 and f"Invalid value for '{option}'" in r.stderr


@pytest.mark.parametrize("make, message", [
    (lambda p: "/dev/zero", "/dev/zero: not a regular file (a device, pipe or socket cannot be read)"),
    (lambda p: p, "{p}: is a folder (expected a file)"),
    (lambda p: p / "none.yaml", "{p}/none.yaml: cannot read (No such file or directory)"),
])
def test_rules_options_that_are_not_files(tmp_path, make, message):
    r = run("generate", "--rules", make(tmp_path))
    assert isinstance(r.exception, SystemExit)  # never a traceback
    if r.exit_code == 2:  # Click's own check of a folder given as a file
        assert f"Invalid value for '--rules': File '{tmp_path}' is a directory." in r.stderr
    else:
        assert r.exit_code == 1 and r.stderr == "Error: " + message.replace("{p}", str(tmp_path)) + "\n"


def test_rules_dir_that_is_a_device():
    r = run("systems", "--rules-dir", "/dev/null")
    assert r.exit_code == 1 and r.stderr == "Error: --rules-dir '/dev/null': not a folder\n"


def test_names_holding_html_and_paths_are_data_and_never_paths(write, tmp_path):
    path = write("nasty.yaml", NASTY_FIXED)
    out = tmp_path / "out"
    r = run("generate", "--rules", path, "--seed", "3", "--count", "30", "--format", "json,yaml", "-o", out)
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    names = {c["name"] for c in m["characters"]}
    assert any(n.startswith("<script>alert(1)</script> ") for n in names)
    assert "../../etc/passwd .." in names
    for c in m["characters"]:
        doc = json.loads((out / c["files"]["json"]).read_text())
        assert doc["identity"]["name"] == c["name"]  # verbatim: escaping is the sheet's job
        assert yaml.safe_load((out / c["files"]["yaml"]).read_text())["identity"]["name"] == c["name"]
        for name in c["files"].values():
            assert (out / name).resolve().parent == out.resolve()
            assert name == f"{character_stem(c['index'], c['name'])}.{name.rsplit('.', 1)[1]}"
    assert {p.parent for p in tmp_path.rglob("*") if p.is_file() and p.name != "nasty.yaml"} == {out}
    assert m["system"]["overlays"][0]["name"] == "<b>Nasty</b> rules"


NASTY_FIXED = """\
overlay: d100
name: "<b>Nasty</b> rules"
changes:
  names:
    set:
      lists.peasant.female: ["<script>alert(1)</script>", "CON", "NUL"]
      lists.peasant.male: ["../../etc/passwd", "/dev/sda", "C:\\\\Windows"]
      lists.peasant.bynames: ["<img src=x onerror=alert(2)>", "{{ 7*7 }}", ".."]
    remove:
      lists: [townsfolk, barbarian, poor_noble, rich_noble, very_rich_noble]
  backgrounds:
    set:
      backgrounds[id=peasant].roll: 01-100
    remove:
      backgrounds: [townsfolk, barbarian, poor_noble, rich_noble, very_rich_noble]
"""


@pytest.mark.parametrize("name, stem", [
    ("<script>alert(1)</script> <img src=x>", "0007-script-alert-1-script-img-src-x"),
    ("../../etc/passwd", "0007-etc-passwd"),
    ("/dev/sda", "0007-dev-sda"),
    ("CON", "0007-con"),
    ("..", "0007-character"),
    ("日本 語", "0007-riben-yu"),
    ("Ærwyn\u202eevil", "0007-aerwynevil"),
    ("\u202e\u200b", "0007-character-" + hashlib.sha256("\u202e\u200b".encode()).hexdigest()[:8]),
    ("x" * 500, "0007-" + "x" * 40),
])
def test_slugs_are_plain_names(name, stem):
    assert character_stem(7, name) == stem
    assert slug(name) and "/" not in slug(name) and slug(name) not in (".", "..")


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "../x", "/etc/passwd", "a\\b", "a\x00b"])
def test_inside_refuses_anything_but_a_plain_name(tmp_path, name):
    with pytest.raises(OutputError) as e:
        inside(tmp_path, name)
    assert str(e.value) == f"refusing to write '{name}': not a plain file name"


@pytest.mark.parametrize("args, says", [
    (["rules", "check", "L"], "File name too long"), (["generate", "--rules", "L"], "File name too long"),
    (["generate", "-o", "L"], "File name too long"), (["generate", "-o", "L/x"], "File name too long"),
    (["systems", "--rules-dir", "L"], "File name too long"), (["generate", "-o", "L", "--resume"], "no manifest.json"),
    (["rules", "show", "d100", "--rules", "L"], "File name too long"),
])
def test_file_names_too_long_for_the_file_system(args, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*[a.replace("L", "a" * 300) for a in args])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert says in r.output and len(r.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("system", ["../../../../tmp/evilmod", "d100/../kotm", "D100!", "a" * 65, "kotm\x00"])
def test_a_system_id_is_an_id_never_a_path(system, tmp_path):
    (tmp_path / "evilmod").mkdir()
    r = CliRunner().invoke(cli, ["generate", "--system", system, "--rules-dir", str(tmp_path)])
    assert r.exit_code == 1
    assert "a system id is lower-case letters, digits and '_'" in r.output


def test_a_character_whose_rules_hash_is_not_the_built_in_one_is_refused(tmp_path):
    """Its overlay record removed, a house-rules KoTM character would get the built-in odds: refused."""
    import json

    from chargen.generate import make_character
    from chargen.rules import load_module
    from chargen.serialize import to_json

    overlay = tmp_path / "triple.yaml"
    overlay.write_text("overlay: kotm\nname: Triple OS\nchanges:\n  attack:\n    set:\n      damage.os.multiply: 3\n")
    doc = make_character(load_module("kotm", [overlay]), 42, 0)
    doc["system"]["overlays"] = []
    (tmp_path / "c.json").write_text(to_json(doc))
    r = CliRunner().invoke(cli, ["render", str(tmp_path / "c.json"), "-o", str(tmp_path / "out")])
    assert r.exit_code == 1 and not (tmp_path / "out").exists()
    assert "its rules hash (sha256:" in r.output and "is not the built-in kotm module's" in r.output
    json.loads((tmp_path / "c.json").read_text())  # the file itself is untouched
