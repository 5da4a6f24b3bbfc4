"""A layout declares its scope, and a new layout is one template and one registration: the test
layout "strip" (tests/strip_layout.py, three d100 characters a page) through generate, render,
party and --resume."""

import io
import json
import shutil

import pypdf
import pytest
from click.testing import CliRunner

from chargen import engines
from chargen.cli import cli


@pytest.fixture
def strip():
    from tests import strip_layout

    if "strip" not in engines.require("d100").layouts:
        strip_layout.register()
    yield strip_layout.STRIP
    strip_layout.unregister()


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def pages(path) -> int:
    return len(pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_the_built_in_layouts_declare_their_scope():
    d100 = engines.require("d100")
    assert not d100.layouts["sheet"].fragment
    assert d100.layouts["block"].characters_a_page(9) is None and d100.layouts["block"].encounter
    assert d100.layouts["card"].characters_a_page(9) == 9 and d100.layouts["card"].chunk == 72


def test_a_new_layout_is_listed_and_generates_three_a_page(strip, tmp_path):
    assert "strip" in engines.layout_ids() and strip.characters_a_page(4) == 3
    out = tmp_path / "out"
    run("generate", "--seed", 5, "--count", 7, "--format", "json,pdf", "--layout", "strip", "--each-pdf", "-o", out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["layout"] == "strip" and "cards_per_page" not in manifest and manifest["complete"]
    assert pages(out / "party.pdf") == 3  # seven characters, three a page
    assert pages(next(out.glob("0000-*.pdf"))) == 1


def test_a_new_layout_renders_saved_characters(strip, tmp_path):
    out = tmp_path / "out"
    run("generate", "--seed", 5, "--count", 4, "--format", "json", "-o", out)
    again = tmp_path / "again"
    run("render", *sorted(out.glob("0*.json")), "--layout", "strip", "-o", again)
    assert pages(again / "party.pdf") == 2


def test_a_new_layout_resumes_to_the_same_bytes(strip, tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    run("generate", "--seed", 9, "--count", 5, "--format", "json,pdf", "--layout", "strip", "--each-pdf",
        "-o", whole)
    shutil.copytree(whole, cut)  # the same batch, cut below (not a second run of the same command)
    (cut / "party.pdf").unlink()
    next(cut.glob("0002-*.pdf")).unlink()
    r = run("generate", "-o", cut, "--resume")
    assert "made 2 recorded files again (2 missing)" in r.stderr and "and 1 sheet" in r.stderr
    assert {p.name: p.read_bytes() for p in whole.iterdir()} == {p.name: p.read_bytes() for p in cut.iterdir()}


def test_a_party_file_names_a_new_layout(strip, tmp_path):
    party = tmp_path / "ambush.yaml"
    party.write_text("name: Strip ambush\nsystem: d100\nseed: 3\nformats: [pdf]\nlayout: strip\n"
                     "members:\n  - archetype: bandit\n    count: 4\n", encoding="utf-8")
    out = tmp_path / "out"
    run("party", party, "-o", out)
    assert pages(out / "party.pdf") == 2
    assert json.loads((out / "manifest.json").read_text())["layout"] == "strip"
