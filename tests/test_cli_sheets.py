"""generate and render with html/pdf: bundles, party.pdf, stdout, and the user errors."""

import hashlib
import io
import json
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from tests.sheetvalues import missing, pdf_text

from chargen.cli import cli
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet
from chargen.formats import names

FORMATS_LIST = names()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(*args, ok=True):
    result = CliRunner().invoke(cli, list(map(str, args)))
    if ok:
        assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def party(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("party") / "party"
    run("generate", "--system", "d100", "--seed", 42, "--count", 3, "--format", "json,html,pdf",
        "-o", out, "--party-name", "The Red Lanterns", "--jobs", 2)
    return out


def test_generate_writes_one_file_per_character_per_format_and_the_bundle(party):
    names = sorted(p.name for p in party.iterdir())
    stems = ["0000-isgerd-frostbeard", "0001-ulla-millbrook", "0002-jorun-goodwater"]
    assert names == sorted([f"{s}.{x}" for s in stems for x in ("json", "html", "pdf")]
                           + ["index.html", "manifest.json", "party.pdf"])
    manifest = json.loads((party / "manifest.json").read_text())
    # every format in one list, every file of every character with its sha256, the batch files too
    assert manifest["complete"] is True and manifest["formats"] == ["json", "html", "pdf"]
    assert (manifest["paper"], manifest["party_name"]) == ("a4", "The Red Lanterns")
    assert manifest["batch_files"] == {name: sha256(party / name) for name in ("party.pdf", "index.html")}
    entry = manifest["characters"][1]
    assert entry["files"] == {x: f"0001-ulla-millbrook.{x}" for x in ("json", "html", "pdf")}
    assert entry["sha256"] == {x: sha256(party / name) for x, name in entry["files"].items()}


def test_party_pdf_is_the_cover_then_every_sheet(party):
    data = (party / "party.pdf").read_bytes()
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1 + 3
    cover = " ".join(reader.pages[0].extract_text().split())
    assert "The Red Lanterns" in cover and "batch seed 42" in cover
    assert "0 Isgerd Frostbeard Barbarian · HP 12 · POW 9 · DM 0 · Hand axe 20% 1" in cover
    assert "2 Jorun Goodwater Peasant · HP 9 · POW 8 · DM 0 · Belt knife 25% 3" in cover and "cover page i of i" in cover
    assert [o.title for o in reader.outline] == ["The Red Lanterns", "Isgerd Frostbeard", "Ulla Millbrook", "Jorun Goodwater"]
    assert reader.page_labels == ["i", "1", "2", "3"]  # the roster's page numbers
    sheet = pypdf.PdfReader(str(party / "0001-ulla-millbrook.pdf")).pages[0].extract_text()
    assert reader.pages[2].extract_text() == sheet


def test_index_html_links_every_file(party):
    index = (party / "index.html").read_text()
    for name in ("party.pdf", "0000-isgerd-frostbeard.html", "0000-isgerd-frostbeard.pdf", "0002-jorun-goodwater.json"):
        assert f'href="{name}"' in index
    assert "The Red Lanterns" in index and "<style>" in index and "http:" not in index.split("<style>")[0] and "https:" not in index.split("<style>")[0]


def test_render_reads_saved_characters_with_hand_edits(party, tmp_path):
    saved = tmp_path / "saved"
    saved.mkdir()
    for p in party.glob("*.json"):  # manifest.json too, as party/*.json would match it
        (saved / p.name).write_text(p.read_text())
    edited = json.loads((saved / "0000-isgerd-frostbeard.json").read_text())
    edited["identity"]["name"] = "Isgerd the Unready"
    edited["equipment"] += [f"Trophy {i} from the Barrow Wars" for i in range(70)]
    edited["notes"] = "Swore an oath to the river god. " * 120
    (saved / "0000-isgerd-frostbeard.json").write_text(json.dumps(edited))
    result = run("render", *sorted(saved.glob("*.json")), "--format", "pdf", "-o", tmp_path / "prints")
    assert result.output == f"chargen: rendered 3 sheets and party.pdf to {tmp_path / 'prints'}\n"
    prints = tmp_path / "prints"
    assert sorted(p.name for p in prints.iterdir()) == [
        "0000-isgerd-the-unready.pdf", "0001-ulla-millbrook.pdf", "0002-jorun-goodwater.pdf", "index.html", "party.pdf"]
    text, pages = pdf_text((prints / "0000-isgerd-the-unready.pdf").read_bytes(), "Isgerd the Unready")
    assert pages >= 2 and missing(edited, text) == []
    party_pages = len(pypdf.PdfReader(str(prints / "party.pdf")).pages)
    assert party_pages == 1 + pages + 1 + 1  # cover, the long sheet, two one-page sheets
    cover = " ".join(pypdf.PdfReader(str(prints / "party.pdf")).pages[0].extract_text().split())
    assert f"1 Ulla Millbrook Peasant · HP 11 · POW 8 · DM 0 · Belt knife 35% {1 + pages}" in cover
    # the same character gives the same bytes from a batch and from a saved file, in other processes
    assert (prints / "0001-ulla-millbrook.pdf").read_bytes() == (party / "0001-ulla-millbrook.pdf").read_bytes()


def test_render_one_character_to_stdout(party):
    result = run("render", party / "0002-jorun-goodwater.json", "--format", "html")
    doc = json.loads((party / "0002-jorun-goodwater.json").read_text())
    assert result.stdout == HtmlRenderer(TemplateSet.load()).sheet(figured(doc))
    assert result.stdout == (party / "0002-jorun-goodwater.html").read_text()


def test_generate_one_pdf_to_stdout_matches_the_batch(party):
    result = CliRunner().invoke(cli, ["generate", "--seed", "42", "--index", "1", "--format", "pdf"])
    assert result.exit_code == 0
    assert result.stdout_bytes == (party / "0001-ulla-millbrook.pdf").read_bytes()


def test_render_refuses_an_invalid_character(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "chargen-character/1"}))
    result = run("render", bad, "-o", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert result.output == (f"Error: {bad}: (top level): 'system' is a required property; (top level): 'seed' is a "
                             f"required property; (top level): 'identity' is a required property; (top level): "
                             f"'rolls' is a required property\n")  # every problem at once
    assert not (tmp_path / "out").exists()


def test_render_refuses_two_characters_with_one_name(party, tmp_path):
    copy = tmp_path / "copy.json"
    copy.write_text((party / "0000-isgerd-frostbeard.json").read_text())
    result = run("render", party / "0000-isgerd-frostbeard.json", copy, "-o", tmp_path / "out", ok=False)
    assert result.exit_code == 1
    assert result.output == (f"Error: {party / '0000-isgerd-frostbeard.json'} and {copy} would both be written as "
                             f"0000-isgerd-frostbeard.* (the same number and name; rename one or render them separately)\n")


@pytest.mark.parametrize("args,message", [
    (["generate", "--count", "2", "--format", "html"],
     "Error: without -o, html is written for one character only (use -o DIR for a batch)"),
    (["generate", "--format", "json,pdf"], "Error: without -o, give exactly one --format (" + ", ".join(FORMATS_LIST[:-1]) + " or " + FORMATS_LIST[-1] + ")"),
    (["generate", "--format", "docx"],
     "Error: Invalid value for '--format': docx is not a format (expected a comma list of: " + ", ".join(FORMATS_LIST) + ")"),
    (["render", "--format", "docx", "x.json"],
     "Error: Invalid value for '--format': docx is not a format (expected a comma list of: " + ", ".join(FORMATS_LIST) + ")"),
    (["render", "--format", "json,csv", "x.json"], "Error: without -o, give one --format; use -o DIR for several"),
    (["generate", "--paper", "a3"], "Error: Invalid value for '--paper': 'a3' is not one of 'a4', 'letter'."),
])
def test_usage_errors(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.json").write_text("{}")
    result = run(*args, ok=False)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == message


def test_render_two_files_without_output_is_a_usage_error(party):
    result = run("render", party / "0000-isgerd-frostbeard.json", party / "0001-ulla-millbrook.json", ok=False)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "Error: without -o, give one file and one --format (html or pdf); use -o DIR for more")


def test_a_broken_template_dir_fails_the_batch_with_one_error_line(tmp_path):
    # A --template-dir overrides single files (the rest come from the built-in folder):
    # its one broken stylesheet stops the batch with one line.
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "sheet.css").write_text("@font-face { font-family: X; src: url(fonts/missing.otf) }")
    result = run("generate", "--seed", "1", "--format", "pdf", "-o", tmp_path / "out", "--template-dir",
                 tmp_path / "tpl", ok=False)
    assert result.exit_code == 1
    assert result.output == f"Error: {(tmp_path / 'tpl').resolve()}: 'fonts/missing.otf' does not exist\n"
    assert list((tmp_path / "out").iterdir()) == []  # the templates are checked before anything is written


@pytest.mark.parametrize("command", ["generate", "render"])
def test_help_ends_with_examples(command):
    help_text = run(command, "--help").output
    assert "Example" in help_text and "--paper" in help_text and "--template-dir" in help_text


def test_progress_bar_only_on_a_terminal(monkeypatch):
    from chargen.cli import options as cli_module

    class Terminal(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    for tty, shown in ((True, True), (False, False)):
        err = Terminal(tty)
        monkeypatch.setattr(cli_module.sys, "stderr", err)
        with cli_module.progress_bar(3, "sheets") as progress:
            assert (progress is not None) == shown
            if progress:
                progress(3)
        assert ("sheets" in err.getvalue() and "100%" in err.getvalue()) == shown
    with cli_module.progress_bar(1, "sheets") as progress:  # one sheet: no bar
        assert progress is None


def test_resume_renders_the_recorded_sheet_formats_again(tmp_path):
    out = tmp_path / "out"
    run("generate", "--seed", 42, "--count", 2, "--format", "json,html", "-o", out, "--party-name", "Resumed")
    first = (out / "0001-ulla-millbrook.html").read_text()
    (out / "0001-ulla-millbrook.html").unlink()
    result = run("generate", "-o", out, "--resume")
    assert (out / "0001-ulla-millbrook.html").read_text() == first
    manifest = json.loads((out / "manifest.json").read_text())
    assert (manifest["formats"], manifest["paper"], manifest["party_name"]) == (["json", "html"], "a4", "Resumed")
    assert manifest["complete"] is True and manifest["batch_files"] == {"index.html": sha256(out / "index.html")}
    assert "<title>Resumed</title>" in (out / "index.html").read_text()
    assert "resumed: wrote 0 more d100 characters" in result.output


def test_a_renamed_character_rendered_into_its_folder_replaces_its_old_sheet(tmp_path):
    out = tmp_path / "p"
    run("generate", "--seed", "42", "--count", "2", "--format", "json,html", "-o", out)
    old = sorted(out.glob("0001-*.json"))[0]
    doc = json.loads(old.read_text())
    doc["identity"]["name"] = "Bold Brand"
    (out / "edited.json").write_text(json.dumps(doc))
    result = run("render", out / "edited.json", "--format", "html", "-o", out, "--force")
    assert sorted(p.name for p in out.glob("0001-*.html")) == ["0001-bold-brand.html"]
    assert (out / old.name).exists() and len(list(out.glob("0000-*.html"))) == 1  # data and others untouched
    assert f"removed 1 sheet of an earlier name ({old.stem}.html)" in result.stderr
