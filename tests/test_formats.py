"""The format registry: every registered format turns a character into its file's bytes,
declares its batch files, and is what --format offers."""

import io
import json

import pypdf
import pytest
from click.testing import CliRunner

from chargen import formats
from chargen.run.pipeline import run_batch
from chargen.run.spec import RunSpec
from chargen.cli import cli
from chargen.formats import BATCH_FILES, FORMATS, Format, batch_files, register
from chargen.generate import make_character
from chargen.run.sheets import SheetRenderer
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet
from chargen.serialize import parse_document


@pytest.fixture(scope="module")
def doc(d100):
    return make_character(d100, 42, 3)


@pytest.fixture(scope="module")
def renderer():
    return SheetRenderer()


@pytest.mark.parametrize("fmt", FORMATS.values(), ids=list(FORMATS))
def test_every_format_makes_a_file_or_a_batch_file(fmt, doc, renderer):
    data = fmt.to_bytes(doc, renderer if fmt.sheet else None)
    assert isinstance(data, bytes) and data
    assert fmt.suffix.startswith(".") and (fmt.per_character or fmt.batch_file)
    assert fmt.file_name("0003-faxi-the-grim") == f"0003-faxi-the-grim{fmt.suffix}"
    assert set(fmt.batch_files) <= set(BATCH_FILES) and bool(fmt.batch_files) == fmt.sheet
    if fmt.batch_file:  # one file for the batch, from every character's part
        assert fmt.join([fmt.part(doc)], formats.BatchInfo("d100", "x")) and "/" not in fmt.batch_file


@pytest.mark.parametrize("fmt", [FORMATS[n] for n in ("json", "yaml", "html", "pdf")], ids=str)
def test_chargens_own_formats_make_the_character_file(fmt, doc, renderer):
    data = fmt.to_bytes(doc, renderer if fmt.sheet else None)
    assert fmt.suffix == f".{fmt.name}" and fmt.per_character
    if not fmt.sheet:  # data: parses back to the document
        assert parse_document(data.decode("utf-8"), fmt.name) == doc
    elif fmt.name == "html":  # the standalone sheet
        assert data.decode("utf-8") == HtmlRenderer(TemplateSet.load()).sheet(figured(doc))
    else:
        reader = pypdf.PdfReader(io.BytesIO(data))
        assert len(reader.pages) == 1 and doc["identity"]["name"] in reader.pages[0].extract_text()


def test_sheet_formats_declare_the_batch_files():
    assert FORMATS["pdf"].batch_files == ("party.pdf", "index.html")
    assert FORMATS["html"].batch_files == ("index.html",)
    assert batch_files([FORMATS["json"]]) == ()
    assert batch_files([FORMATS["html"], FORMATS["pdf"]]) == ("party.pdf", "index.html")  # party.pdf first


def test_format_help_and_parsing_come_from_the_registry():
    help_text = " ".join(CliRunner().invoke(cli, ["generate", "--help"]).output.split())
    assert f"Comma list of: {', '.join(FORMATS)}." in help_text
    r = CliRunner().invoke(cli, ["generate", "--format", "docx"])
    assert r.exit_code == 2 and f"expected a comma list of: {', '.join(FORMATS)}" in r.output


class Upper(Format):
    name, suffix = "txt", ".txt"

    def to_bytes(self, doc, renderer=None):
        return doc["identity"]["name"].upper().encode()


@pytest.fixture
def txt():
    fmt = register(Upper())
    yield fmt
    del formats.FORMATS["txt"]


def test_a_registered_format_is_written_by_a_batch(txt, d100, tmp_path):
    result = run_batch(RunSpec("d100", 42, 0, 2, ("json", "txt")), d100, tmp_path)
    entry = result.written[1]
    assert list(entry["files"]) == ["json", "txt"]
    assert (tmp_path / entry["files"]["txt"]).read_text() == entry["name"].upper()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["formats"] == ["json", "txt"] and "batch_files" not in manifest
    r = CliRunner().invoke(cli, ["generate", "--seed", "42", "--format", "txt", "-o", str(tmp_path / "cli")])
    assert r.exit_code == 0, r.output


def test_a_name_is_registered_once(txt):
    with pytest.raises(ValueError, match="format 'txt' is already registered"):
        register(Upper())


class Summary(Upper):
    name, suffix, per_character = "summary", ".txt", False


def test_a_format_without_files_per_character_is_refused(d100, tmp_path):
    from chargen.errors import OutputError

    register(Summary())
    try:
        with pytest.raises(OutputError, match="format summary writes no file per character"):
            run_batch(RunSpec("d100", 1, 0, 1, ("json", "summary")), d100, tmp_path)
    finally:
        del formats.FORMATS["summary"]
    assert list(tmp_path.iterdir()) == []
