"""--each-pdf: in the block and card layouts party.pdf (the encounter sheet, the cards) is what a pdf
batch makes; a PDF of each character's block or card only when asked, recorded in the manifest."""

import json
import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from chargen.cli import cli

BLOCK = ["generate", "--system", "d100", "--seed", 8, "--count", 3, "--format", "json,pdf", "--layout", "block",
         "--jobs", 2]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def pages(pdf: Path) -> list[bytes]:
    """Each page's drawing (its content stream): the same pages, whatever else the file embeds."""
    return [page.get_contents().get_data() for page in pypdf.PdfReader(pdf).pages]


@pytest.fixture(scope="module")
def block(tmp_path_factory) -> Path:
    """BLOCK's batch, run once for the module (a test that changes it works on a copy)."""
    out = tmp_path_factory.mktemp("block") / "out"
    r = run(*BLOCK, "-o", out)
    assert r.exit_code == 0, r.output
    return out


def test_the_block_layout_makes_party_pdf_alone_by_default(block):
    names = sorted(p.name for p in block.iterdir())
    assert [n for n in names if n.endswith(".pdf")] == ["party.pdf"]
    assert len([n for n in names if n.endswith(".json") and n != "manifest.json"]) == 3
    manifest = json.loads((block / "manifest.json").read_text())
    assert "each_pdf" not in manifest and manifest["complete"]
    assert [list(c["files"]) for c in manifest["characters"]] == [["json"]] * 3
    index = (block / "index.html").read_text()
    assert ".pdf\"" not in index.replace('href="party.pdf"', "")


def test_each_pdf_adds_the_blocks_and_leaves_the_encounter_sheet_as_it_is(block, tmp_path):
    r = run(*BLOCK, "--each-pdf", "-o", tmp_path / "each")
    assert r.exit_code == 0, r.output
    each = tmp_path / "each"
    assert len(list(each.glob("000*.pdf"))) == 3
    manifest = json.loads((each / "manifest.json").read_text())
    assert manifest["each_pdf"] is True
    assert [list(c["files"]) for c in manifest["characters"]] == [["json", "pdf"]] * 3
    assert pages(each / "party.pdf") == pages(block / "party.pdf")


def test_resume_compares_each_pdf_and_finishes_a_batch_without_it(block, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(block, out)
    refused = run("generate", "-o", out, "--resume", "--each-pdf")
    assert refused.exit_code == 1
    assert "each_pdf: None in the manifest, True now" in refused.output
    whole = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "party.pdf").unlink()
    next(out.glob("0001-*.json")).unlink()
    again = run("generate", "-o", out, "--resume")
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == whole


def test_the_card_layout_and_render_follow_the_same_rule(tmp_path):
    assert run("generate", "--system", "kotm", "--seed", 4, "--count", 2, "-o", tmp_path / "saved").exit_code == 0
    saved = sorted((tmp_path / "saved").glob("000*.json"))
    r = run("render", *saved, "--layout", "card", "-o", tmp_path / "cards")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "cards").glob("*.pdf")) == ["party.pdf"]
    assert r.stderr.splitlines()[-1] == f"chargen: rendered party.pdf (2 characters) to {tmp_path / 'cards'}"
    r = run("render", *saved, "--layout", "card", "--each-pdf", "-o", tmp_path / "each")
    assert r.exit_code == 0, r.output
    assert len(list((tmp_path / "each").glob("000*.pdf"))) == 2
    assert pages(tmp_path / "each" / "party.pdf") == pages(tmp_path / "cards" / "party.pdf")


def test_each_pdf_changes_nothing_in_the_sheet_layout(tmp_path):
    args = ["generate", "--system", "rtd", "--seed", 2, "--count", 2, "--format", "pdf", "--jobs", 2]
    assert run(*args, "-o", tmp_path / "plain").exit_code == 0
    assert run(*args, "--each-pdf", "-o", tmp_path / "each").exit_code == 0
    plain = {p.name: p.read_bytes() for p in (tmp_path / "plain").iterdir()}
    assert len([n for n in plain if n.startswith("000")]) == 2
    assert {p.name: p.read_bytes() for p in (tmp_path / "each").iterdir()} == plain
