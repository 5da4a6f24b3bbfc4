"""The house-rules examples and every command of the manual's House rules page (docs/house-rules.md), run."""

import json
import re
import shlex
import shutil
from math import ceil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.rules import load_module
from tests import manual

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "house-rules"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_examples_are_valid_and_the_typos_are_not():
    r = run("rules", "check", EXAMPLES / "grim-north.yaml", EXAMPLES / "saltmarsh.yaml")
    assert r.exit_code == 0 and [line[:4] for line in r.stdout.splitlines()] == ["ok: ", "ok: "]
    r = run("rules", "check", EXAMPLES / "typos.yaml")
    assert r.exit_code == 1 and len(r.stdout.splitlines()) == 4


def test_grim_north_changes_int_siz_and_the_damage_modifier(tmp_path):
    r = run("generate", "--seed", "7", "--count", "60", "--rules", EXAMPLES / "grim-north.yaml", "-o", tmp_path / "p")
    assert r.exit_code == 0
    table = {(1, 6): "-1D6", (7, 10): "-1D4", (11, 14): "0", (15, 18): "+1D4", (19, 22): "+1D6", (23, 28): "+2D6"}
    seen = set()
    for f in sorted((tmp_path / "p").glob("0*.json")):
        doc = json.loads(f.read_text())
        ch = doc["characteristics"]
        assert 8 <= ch["int"] <= 18 and 8 <= ch["siz"] <= 18
        avg = ceil((ch["str"] + ch["siz"]) / 2)
        expected = next(v for (lo, hi), v in table.items() if lo <= avg <= hi)
        assert doc["combat"]["damage_modifier"] == expected
        seen.add(expected)
        assert doc["system"]["overlays"][0]["name"] == "Grim north"
    assert len(seen) >= 3


def test_saltmarsh_adds_fisher_folk_with_their_names_and_kit(tmp_path):
    module = load_module("d100", [EXAMPLES / "saltmarsh.yaml"])
    names = module.rules.names["fisher_folk"]
    r = run("generate", "--seed", "7", "--count", "80", "--rules", EXAMPLES / "saltmarsh.yaml", "-o", tmp_path / "p")
    assert r.exit_code == 0
    docs = [json.loads(f.read_text()) for f in sorted((tmp_path / "p").glob("0*.json"))]
    fishers = [d for d in docs if d["background"]["id"] == "fisher_folk"]
    assert 2 <= len(fishers) < 30
    for d in fishers:
        given, byname = d["identity"]["name"].split(" ")
        assert given in names.given[d["identity"]["sex"]] and byname in names.bynames
        assert {"Net", "Gutting knife", "Tarred rope", "Rowing boat (shared)"} <= set(d["equipment"])
        assert [a["id"] for a in d["armour"]] == ["oilskins"]
        assert {w["id"] for w in d["weapons"]} & {"harpoon", "short_spear"}
    harpoons = [w for d in fishers for w in d["weapons"] if w["id"] == "harpoon"]
    assert harpoons and all(w["damage"] == "1D8+1" and w["kind"] == "missile" for w in harpoons)
    for d in docs:  # peasants now roll 01-15, fisher folk 16-25
        roll = next(r["total"] for r in d["rolls"] if r["for"] == "background")
        assert (d["background"]["id"] == "peasant") == (roll <= 15)
        assert (d["background"]["id"] == "fisher_folk") == (16 <= roll <= 25)


def _readme_commands() -> list[tuple[str, list[str]]]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", manual.read(manual.HOUSE_RULES_PAGE), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *expected = chunk.rstrip("\n").split("\n")
            out.append((command, expected))
    return out


def _matches(expected: list[str], actual: list[str]) -> bool:
    """``...`` in the manual stands for any lines."""
    pattern = "".join(".*?" if line == "..." else re.escape(line + "\n") for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual), re.S) is not None


def test_readme_has_commands():
    assert len(_readme_commands()) >= 6


@pytest.mark.parametrize("command, expected", _readme_commands(), ids=lambda x: x[:60] if isinstance(x, str) else "")
def test_readme_house_rules_commands(command, expected, tmp_path, monkeypatch):
    shutil.copytree(EXAMPLES, tmp_path / "examples" / "house-rules")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)
    assert args[0] == "chargen"
    if "--resume" in args:  # the manual runs the batch just before
        assert run(*shlex.split("generate --seed 11 --count 9 --format json,yaml -o resumed-party")).exit_code == 0
    r = run(*args[1:])
    assert r.exit_code == (1 if expected and "rules check" in command and "typos" in command else 0), r.output
    if expected:
        assert _matches(expected, r.stdout.splitlines()), r.stdout
