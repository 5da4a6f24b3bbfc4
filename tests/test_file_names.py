"""File names for names in any script (issue 22, point 6): readable, safe, distinct ASCII."""

import json
import re

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.run.files import character_stem, slug

SAFE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


@pytest.mark.parametrize("name, expected", [
    ("Ærwyn", "aerwyn"), ("Łukasz Ørsted", "lukasz-orsted"), ("Straße", "strasse"), ("Đorđe", "dorde"),
    ("Владимир", "vladimir"), ("Ἀχιλλεύς", "achilleys"), ("山田太郎", "shantiantailang"),
    ("やまだ たろう", "yamada-tarou"), ("محمد العلي", "mhmd-l-ly"),
    # Latin names keep the file names chargen has always given them
    ("José Núñez", "jose-nunez"), ("Isgerd Frostbeard", "isgerd-frostbeard"), ("Red Ulf", "red-ulf"),
])
def test_every_script_gives_a_readable_ascii_name(name, expected):
    assert slug(name) == expected


def test_distinct_names_of_one_script_give_distinct_files():
    names = ["山田太郎", "鈴木花子", "佐藤健", "سارة", "محمد العلي", "فاطمة", "Ærwyn", "Æthelred"]
    stems = [character_stem(0, n) for n in names]
    assert len(set(stems)) == len(names)
    assert all(SAFE.fullmatch(s.split("-", 1)[1]) for s in stems)


def test_a_name_that_transliterates_to_nothing_gets_a_short_hash():
    a, b = slug("\u200b\u202e"), slug("\u200c\u202e")
    assert re.fullmatch(r"character-[0-9a-f]{8}", a) and a != b
    assert slug("!!!") == "character"  # an ASCII name of no letters: as ever


def _party(tmp_path, stem, names):
    lines = "".join(f"  - {{archetype: bandit, name: {n}}}\n" for n in names)
    path = tmp_path / f"{stem}.yaml"
    path.write_text(f"name: {stem}\nsystem: d100\nseed: 5\nmembers:\n{lines}", encoding="utf-8")
    r = run("party", path, "-o", tmp_path / stem)
    assert r.exit_code == 0, r.output
    return sorted((tmp_path / stem).glob("0*.json"))


def test_two_parties_in_other_scripts_render_into_one_folder(tmp_path):
    japanese = _party(tmp_path, "japan", ["山田太郎", "鈴木花子"])
    arabic = _party(tmp_path, "arabia", ["محمد العلي", "فاطمة"])
    assert [p.name for p in japanese] == ["0000-shantiantailang.json", "0001-lingmuhuazi.json"]
    assert [p.name for p in arabic] == ["0000-mhmd-l-ly.json", "0001-ftmh.json"]
    r = run("render", *japanese, *arabic, "-o", tmp_path / "all", "--format", "html")
    assert r.exit_code == 0, r.output
    assert len(list((tmp_path / "all").glob("000*.html"))) == 4


def test_names_that_make_one_file_name_are_named_in_the_error(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    r = run("generate", "--system", "d100", "--seed", "1", "--set", "identity.name=Ann-Marie", "--format", "json")
    doc = json.loads(r.stdout)[0]
    a.write_text(json.dumps(doc))
    doc["identity"]["name"] = "Ann Marie"
    b.write_text(json.dumps(doc))
    r = run("render", a, b, "-o", tmp_path / "out", "--format", "html")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {a} and {b} would both be written as 0000-ann-marie.* (the same number, and "
                        "names whose file name is the same: 'Ann-Marie' and 'Ann Marie'; rename one or render "
                        "them separately)\n")
