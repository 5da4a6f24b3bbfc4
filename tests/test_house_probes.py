"""The two house-rule probes of issue 20: a characteristic a house rule adds (EDU) shows in every
format and layout, and a hit-location table rolled on 1D12 prints 1D12 (the die is the rules')."""

import csv
import io
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from chargen.cli import cli
from tests.sheetvalues import pdf_text

HOUSE = Path(__file__).parent / "house"
EDU = HOUSE / "edu.yaml"
D12 = HOUSE / "d12-locations.yaml"
EVERY = "json,yaml,html,pdf,csv,text,meg,foundry,statblock"


def run(*args) -> str:
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.stdout


def files(folder: Path, suffix: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(suffix) and p.name[:4].isdigit())


@pytest.fixture(scope="module")
def edu(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edu") / "b"
    run("generate", "--seed", "5", "--count", "2", "--rules", EDU, "--format", EVERY, "-o", out)
    return out


def test_the_probes_pass_rules_check():
    for overlay in (EDU, D12):
        assert run("rules", "check", overlay).startswith("ok: ")


def edu_values(folder: Path) -> list[int]:
    docs = [json.loads(p.read_text()) for p in files(folder, ".json") if p.name.count(".") == 1]
    return [d["characteristics"]["edu"] for d in docs]


def test_edu_in_json_yaml_and_text(edu):
    values = edu_values(edu)
    assert len(values) == 2
    for p, value in zip(files(edu, ".yaml"), values):
        assert yaml.safe_load(p.read_text())["characteristics"]["edu"] == value
    blocks = (edu / "blocks.txt").read_text().split("---\n")
    for block, value in zip(blocks, values):
        assert f" CHA {block.split(' CHA ')[1].split()[0]} EDU {value} · " in block


def test_edu_in_the_roster_csv(edu):
    rows = list(csv.DictReader(io.StringIO((edu / "roster.csv").read_text(encoding="utf-8-sig"))))
    assert list(rows[0])[16:18] == ["CHA", "EDU"]
    assert [int(r["EDU"]) for r in rows] == edu_values(edu)


def test_edu_in_the_sheets(edu):
    for p, value in zip(files(edu, ".html"), edu_values(edu)):
        assert f'<span class="abbr">EDU</span><span class="value" data-fill>{value}</span>' in p.read_text()
    for p, value in zip(files(edu, ".pdf"), edu_values(edu)):
        text, _ = pdf_text(p.read_bytes())
        assert "EDU" in text


@pytest.mark.parametrize("layout", ["block", "card"])
def test_edu_in_the_block_and_card(edu, layout, tmp_path):
    saved = files(edu, ".json")
    saved = [p for p in saved if p.name.count(".") == 1]
    run("render", *saved, "--rules", EDU, "--format", "html", "--layout", layout, "-o", tmp_path / "r")
    for p, value in zip(files(tmp_path / "r", ".html"), edu_values(edu)):
        assert f'<span class="abbr">EDU</span> <b>{value}</b>' in p.read_text()


def test_edu_in_meg_foundry_and_statblock(edu):
    values = edu_values(edu)
    for p, value in zip(files(edu, ".meg.json"), values):
        assert f"Characteristic EDU: {value}" in json.loads(p.read_text())[0]["features"]
    party = json.loads((edu / "party.meg.json").read_text())
    assert [f"Characteristic EDU: {v}" in e["features"] for e, v in zip(party, values)] == [True, True]
    for p, value in zip(files(edu, ".foundry.json"), values):
        assert json.loads(p.read_text())["system"]["stats"]["edu"]["base"] == value
    layout = json.loads((edu / "chargen-d100-layout.json").read_text())
    stats = next(b for b in layout["blocks"] if b["id"] == "stats")
    assert stats["headers"] == ["STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA", "EDU"]
    assert layout["name"] == "chargen D100 II (STR CON SIZ INT POW DEX CHA EDU, D20)"  # not the built-in one's
    for p, value in zip(files(edu, ".md"), values):
        note = p.read_text()
        block = yaml.safe_load(note.split("```statblock\n", 1)[1].split("\n```", 1)[0])
        assert len(block["stats"]) == 8 and block["stats"][-1] == value and block["layout"] == layout["name"]


def test_edu_in_stdout_formats():
    assert "EDU" in run("generate", "--seed", "5", "--count", "2", "--rules", EDU, "--format", "csv").splitlines()[0]
    assert " EDU " in run("generate", "--seed", "5", "--rules", EDU, "--format", "text")


def test_a_1d12_location_table_prints_1d12(tmp_path):
    out = tmp_path / "b"
    run("generate", "--seed", "5", "--count", "1", "--rules", D12, "--format", "json,html,statblock", "-o", out)
    sheet = files(out, ".html")[0].read_text()
    assert "Melee<br>1D12" in sheet and "Missile<br>1D12" in sheet and "1D20" not in sheet
    layout = json.loads((out / "chargen-d100-layout.json").read_text())
    assert next(b for b in layout["blocks"] if b["id"] == "hit_locations")["headers"][0] == "D12"
    run("render", files(out, ".json")[0], "--rules", D12, "--format", "html", "--layout", "block", "-o", tmp_path / "r")
    block = files(tmp_path / "r", ".html")[0].read_text()
    assert '<th class="name">1D12</th>' in block and "1D20" not in block


def test_the_view_takes_the_die_from_the_rules():
    from chargen.generate import make_character
    from chargen.rules import load_module
    from chargen.systems.d100.view import view

    module = load_module("d100", (D12,))
    doc = make_character(module, 5, 0)
    assert view(doc, module.rules).table("hit_locations").die == "1D12"
    assert module.rules.location_die == 12
