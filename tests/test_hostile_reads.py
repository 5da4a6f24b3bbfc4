"""Issue 26, findings 10 and 11: character files and PDFs read back are bounded, and what is
refused is one ``Error:`` line (no RecursionError, UnicodeEncodeError, pypdf traceback or
MemoryError); what chargen writes itself still reads back (a 1,000-character party.pdf)."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.errors import CharacterError
from chargen.generate import make_character
from chargen.run.readers import read_pdf
from chargen.serialize import to_json, to_yaml
from tests import hostile_pdfs as H


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_error(r, *words: str) -> None:
    """A refusal: exit 1, one ``Error:`` line naming ``words``, no traceback."""
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    assert "Traceback" not in r.output and not isinstance(r.exception, (RecursionError, UnicodeError)), r.exception
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def doc(d100):
    return make_character(d100, 42, 3)


@pytest.fixture(scope="module")
def sheet(tmp_path_factory, doc):
    """One sheet PDF chargen drew."""
    folder = tmp_path_factory.mktemp("sheet")
    (folder / "c.json").write_text(to_json(doc))
    assert run("render", folder / "c.json", "-o", folder / "out").exit_code == 0
    return next((folder / "out").glob("0*.pdf")).read_bytes()


# --- finding 11: character files --------------------------------------------------------

def _deep(doc: dict, where: str, depth: int = 900) -> dict:
    d = json.loads(json.dumps(doc))
    nested: object = {}
    for _ in range(depth):
        nested = {"a": nested} if where == "identity" else [nested]
    (d["identity"] if where == "identity" else d)["deep"] = nested
    return d


@pytest.mark.parametrize("command", ["render", "check"])
@pytest.mark.parametrize("where", ["identity", "top"])
def test_json_nested_deep_is_one_error_line(command, where, doc, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(_deep(doc, where)))
    args = [command, path] + (["-o", tmp_path / "out"] if command == "render" else [])
    one_error(run(*args), "nested deeper than 32 levels")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("text", ["{\"a\":" * 3000 + "1" + "}" * 3000, "[" * 900 + "]" * 900])
@pytest.mark.parametrize("command", ["render", "check"])
def test_bare_deep_json_is_one_error_line(text, command, tmp_path):
    (tmp_path / "c.json").write_text(text)
    one_error(run(command, tmp_path / "c.json"), "nested deeper than 32 levels")


def test_a_document_as_deep_as_yaml_allows_still_reads(doc, tmp_path):
    d = json.loads(json.dumps(doc))
    d["identity"]["deep"] = _deep({}, "top", 28)["deep"]  # 32 levels with identity's
    (tmp_path / "c.json").write_text(json.dumps(d))
    r = run("check", tmp_path / "c.json")
    assert "nested deeper" not in r.output


@pytest.mark.parametrize("form", ["json", "yaml"])
@pytest.mark.parametrize("command", ["render", "check"])
def test_a_lone_surrogate_in_a_name_is_one_error_line(form, command, doc, tmp_path):
    path = tmp_path / f"c.{form}"
    text = to_json(doc) if form == "json" else to_yaml(doc)
    name = doc["identity"]["name"]
    assert text.count(name) >= 1
    path.write_text(text.replace(name, "Bad\\ud800name" if form == "json" else name, 1) if form == "json"
                    else text.replace(f"name: {name}", 'name: "Bad\\ud800name"', 1))
    one_error(run(command, path, *(["-o", tmp_path / "out"] if command == "render" else [])), "surrogate", "ud800")


def test_a_lone_surrogate_in_a_party_file_is_one_error_line(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text('name: "Watch\\udc00"\nsystem: d100\nseed: 1\nmembers:\n  - {archetype: town_guard, count: 2}\n'
                    "formats: [json]\n")
    one_error(run("party", path, "-o", tmp_path / "out"), "p.yaml:1", "surrogate")
    assert not (tmp_path / "out").exists()


# --- finding 10: PDFs read back --------------------------------------------------------

def test_one_character_embedded_2000_times_is_refused_at_once(sheet, doc, tmp_path):
    raw = to_json(doc).encode()
    H.embedding(tmp_path / "same.pdf", sheet, [raw] * 2000)
    one_error(run("render", tmp_path / "same.pdf", "-o", tmp_path / "out"), "the same contents as another")
    H.one_stream_many_names(tmp_path / "names.pdf", sheet, raw, 2000)
    one_error(run("render", tmp_path / "names.pdf", "-o", tmp_path / "out"), "embedded twice")


def test_a_compressed_bomb_is_refused(sheet, doc, tmp_path):
    docs = [json.dumps({**json.loads(to_json(doc)), "notes": " " * 900_000, "n": i}).encode() for i in range(40)]
    H.embedding(tmp_path / "bomb.pdf", sheet, docs)
    with pytest.raises(CharacterError, match="decompress to more than 20 times"):
        read_pdf(tmp_path / "bomb.pdf")
    docs = [json.dumps({"notes": " " * 1_100_000}).encode()]
    H.embedding(tmp_path / "big.pdf", sheet, docs)
    with pytest.raises(CharacterError, match="larger than 1000000 bytes"):
        read_pdf(tmp_path / "big.pdf")


def test_an_embedded_json_nested_900_deep_is_one_error_line(sheet, doc, tmp_path):
    H.embedding(tmp_path / "deep.pdf", sheet, [H.deep_json(doc)])
    one_error(run("render", tmp_path / "deep.pdf", "-o", tmp_path / "out"), "nested deeper than 32 levels")


def test_a_party_pdf_of_1000_characters_reads_back(sheet, doc, tmp_path):
    """The other side of the bounds: a party.pdf as chargen writes it (every character embedded once,
    with the sheets' pages and the manifest) of 1,000 characters reads back whole."""
    docs = H.distinct_docs(json.loads(to_json(doc)), 1000)
    H.embedding(tmp_path / "party.pdf", sheet, docs)
    read = read_pdf(tmp_path / "party.pdf")
    assert len(read) == 1000 and [d["identity"]["name"] for _, d in read][-1] == "Copy 999"


HOSTILE_SHEETS = {
    "deep page tree": (H.deep_page_tree, "page tree depth"),
    "one page 200,000 times": (H.one_page_many_times, "not a sheet PDF chargen can read"),
    "one page 2,000 times": (lambda p: H.one_page_many_times(p, 2_000), "2,000 pages, 1,999 of them repeated"),
    "garbage": (H.garbage, "not a sheet PDF chargen can read"),
    # the file was 3 GB; every size past a sheet's limit (pdfmerge.MAX_INPUT_BYTES, 100,000,000)
    # takes the one path it checks, and each byte is hashed twice here (the plant, --resume's check): twice the limit
    "sparse file twice the size limit": (lambda p: H.sparse(p, 200_000_000), "200,000,000 bytes"),
}


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("batch") / "b"
    assert run("generate", "--seed", "1", "--count", "2", "--format", "pdf", "-o", folder).exit_code == 0
    return folder


@pytest.mark.parametrize("case", HOSTILE_SHEETS, ids=lambda c: c.replace(" ", "-"))
def test_a_hostile_sheet_recorded_in_the_manifest_is_one_error_line_on_resume(case, batch, tmp_path):
    make, words = HOSTILE_SHEETS[case]
    folder = tmp_path / "b"
    shutil.copytree(batch, folder)
    name = next(folder.glob("0001-*.pdf")).name
    H.plant(folder, name, make(tmp_path / "hostile.pdf"))
    r = run("generate", "--seed", "1", "--count", "2", "--format", "pdf", "-o", folder, "--resume")
    one_error(r, name, words, "delete it to have it drawn again")
    assert not list(folder.glob(".*")), "a temporary file left behind"
    (folder / name).unlink()  # as the line says: then --resume finishes the batch
    assert run("generate", "--seed", "1", "--count", "2", "--format", "pdf", "-o", folder, "--resume").exit_code == 0
    assert (folder / "party.pdf").read_bytes() == (batch / "party.pdf").read_bytes()

