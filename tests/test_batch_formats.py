"""Batches in the formats for other tools: batch files in the manifest with their SHA-256,
an interrupted batch finished by --resume to the same bytes, engines a format does not write refused."""

import hashlib
import json

import pytest
from click.testing import CliRunner
from tests.test_batch import fail_on, snapshot

from chargen.cli import cli

ALL = "json,csv,text,meg,foundry,statblock"
CASES = {  # system, formats, the batch files they write
    "d100": ("d100", ALL, ["roster.csv", "blocks.txt", "party.meg.json", "party.foundry.json", "chargen-d100-layout.json"]),
    "kotm": ("kotm", "csv,text,json", ["roster.csv", "blocks.txt"]),
    "rtd": ("rtd", "yaml,text,csv", ["blocks.txt", "roster.csv"]),
}


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def args(system, formats):
    return ["generate", "--system", system, "--seed", "8", "--count", "5", "--format", formats]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    out = {}
    for key, (system, formats, _) in CASES.items():
        folder = tmp_path_factory.mktemp(key)
        r = run(*args(system, formats), "-o", folder)
        assert r.exit_code == 0, r.output
        out[key] = snapshot(folder)
    return out


@pytest.mark.parametrize("key", CASES)
def test_the_manifest_lists_every_batch_file_with_its_sha256(key, whole):
    system, formats, names = CASES[key]
    files = whole[key]
    m = json.loads(files["manifest.json"])
    assert m["complete"] and m["formats"] == formats.split(",")
    assert list(m["batch_files"]) == names
    for name, digest in m["batch_files"].items():
        assert hashlib.sha256(files[name]).hexdigest() == digest
    per_character = [f for f in formats.split(",") if f not in ("csv", "text")]
    for entry in m["characters"]:
        assert list(entry["files"]) == per_character
        for fmt, name in entry["files"].items():
            assert hashlib.sha256(files[name]).hexdigest() == entry["sha256"][fmt]


@pytest.mark.parametrize("key", CASES)
@pytest.mark.parametrize("where", ["0002-", "roster.csv", "blocks.txt"])
def test_ctrl_c_then_resume_gives_the_same_bytes(key, where, whole, tmp_path, monkeypatch):
    system, formats, _ = CASES[key]
    out = tmp_path / "out"
    fail_on(monkeypatch, where, KeyboardInterrupt())
    r = run(*args(system, formats), "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 130 and "run the same command with --resume" in r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] is False and where not in m.get("batch_files", {})
    if where == "0002-":
        assert_only_complete_files_in(out, m)
    r = run(*args(system, formats), "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert snapshot(out) == whole[key]


def assert_only_complete_files_in(out, m):
    assert [e["index"] for e in m["characters"]] == [0, 1]
    assert not [p for p in out.iterdir() if p.name.endswith(".part")]


def test_a_changed_batch_file_is_made_again_on_resume(whole, tmp_path):
    system, formats, _ = CASES["d100"]
    out = tmp_path / "out"
    assert run(*args(system, formats), "-o", out).exit_code == 0
    (out / "roster.csv").write_text("edited")
    m = json.loads((out / "manifest.json").read_text())
    m["complete"] = False
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0 and "made 1 recorded file again (1 changed since written)" in r.stderr
    assert snapshot(out) == whole["d100"]


@pytest.mark.parametrize("fmt", ["meg", "foundry", "statblock"])
def test_a_d100_only_format_for_another_system_is_refused_before_anything_is_made(fmt, tmp_path):
    r = run("generate", "--system", "kotm", "--format", f"json,{fmt}", "-o", tmp_path / "out")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: format {fmt} writes d100 characters only (not kotm); "
                        "leave it out of --format for this system\n")
    assert not (tmp_path / "out").exists()


def test_batch_files_go_to_stdout_without_o():
    r = run("generate", "--system", "rtd", "--seed", "8", "--count", "3", "--format", "csv")
    assert r.exit_code == 0 and r.stdout_bytes.startswith(b"\xef\xbb\xbfindex,name,")
    assert r.stdout_bytes.count(b"\r\n") == 4
    r = run("generate", "--seed", "8", "--count", "2", "--format", "meg")
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == 2  # an enemies file (Roll20 pastes it)
    r = run("generate", "--seed", "8", "--format", "meg")
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == 1  # one character: an enemies list of one
    r = run("generate", "--seed", "8", "--count", "2", "--format", "foundry")
    assert r.exit_code == 0 and [a["type"] for a in json.loads(r.stdout)] == ["character", "character"]
    r = run("generate", "--seed", "8", "--format", "foundry_npc")
    assert r.exit_code == 0 and json.loads(r.stdout)["type"] == "npc"  # one character: its one actor


MIXED = ["generate", "--seed", "5", "--count", "4", "--format", "json,pdf,csv,meg,statblock", "--jobs", "2"]


def test_ctrl_c_while_sheets_are_drawn_with_batch_files_then_resume_gives_the_same_bytes(tmp_path, monkeypatch):
    from tests.test_batch_sheets import interrupt_after

    whole_dir = tmp_path / "whole"
    assert run(*MIXED, "-o", whole_dir).exit_code == 0
    m = json.loads((whole_dir / "manifest.json").read_text())
    assert list(m["batch_files"]) == ["party.pdf", "index.html", "roster.csv", "party.meg.json",
                                      "chargen-d100-layout.json"]
    out = tmp_path / "out"
    interrupt_after(monkeypatch, 2)
    r = run(*MIXED, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 130 and not (out / "roster.csv").exists() and not (out / "party.pdf").exists()
    assert run("generate", "-o", out, "--resume", "--jobs", "1").exit_code == 0
    assert snapshot(out) == snapshot(whole_dir)


def test_an_engine_without_its_own_columns_gets_the_common_ones():
    from chargen.formats import FORMATS, BatchInfo

    doc = {"system": {"id": "toy", "name": "Toy", "version": "1", "engine": "toy"}, "seed": {"batch": 1, "index": 2},
           "identity": {"name": "Pip", "sex": "", "age": 3}}
    csv_bytes = FORMATS["csv"].join([FORMATS["csv"].part(doc)], BatchInfo("toy", "t"))
    assert csv_bytes.decode("utf-8-sig") == "index,name,sex,age,system,seed,archetype\r\n2,Pip,,3,toy,1,\r\n"
    assert FORMATS["text"].part(doc) == "Pip\ntoy · Toy 1 · seed 1 · index 2 · 3\n"


def test_party_name_is_kept_by_resume_and_the_meg_batch_file_is_a_plain_enemies_array(tmp_path):
    """party.meg.json is what Roll20 pastes (it reads element [0]; # picks another): an array of NPCs,
    without MEG's party object, which no importer reads from a file."""
    out = tmp_path / "out"
    r = run("generate", "--seed", "3", "--count", "2", "--format", "meg", "--party-name", "Ford bandits", "-o", out)
    assert r.exit_code == 0, r.output
    enemies = json.loads((out / "party.meg.json").read_text())
    assert isinstance(enemies, list) and len(enemies) == 2 and "Ford bandits" not in (out / "party.meg.json").read_text()
    assert json.loads((out / "manifest.json").read_text())["party_name"] == "Ford bandits"
    r = run("generate", "-o", out, "--resume", "--party-name", "Others")
    assert r.exit_code == 1 and "--party-name: Ford bandits in the manifest, Others now" in r.stderr


def test_worker_processes_give_the_same_batch_files(tmp_path, monkeypatch):
    from chargen.run import pipeline as batchmod

    monkeypatch.setattr(batchmod, "PARALLEL_MIN", 4)
    monkeypatch.setattr(batchmod, "CHUNK", 3)
    one, two = tmp_path / "one", tmp_path / "two"
    assert run("generate", "--seed", "3", "--count", "10", "--format", "csv,text,meg", "-o", one, "--jobs", "1").exit_code == 0
    assert run("generate", "--seed", "3", "--count", "10", "--format", "csv,text,meg", "-o", two, "--jobs", "2").exit_code == 0
    assert snapshot(one) == snapshot(two)
