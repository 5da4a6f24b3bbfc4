"""One declaration per choice (chargen.choices, the engines' layouts): --help and the errors list
what is declared; generate, render and party share the sheet options; a party file's layout and
cards_per_page are checked against the same declarations; a command-line sheet option overrides
the party file's key, and --resume needs it again."""

import json
import shutil

import pytest
from click.testing import CliRunner

from chargen import choices
from chargen.cli import cli
from chargen.render.templates import builtin_dir

SHEET_OPTIONS = {"paper", "template_dir", "party_name", "layout", "cards_per_page", "pdf_variant"}
PARTY = ("name: Road ambush\nsystem: d100\nseed: 11\nformats: [json, {formats}]\n{extra}"
         "members:\n  - {{archetype: bandit, count: 2}}\n")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def ok(*args):
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r


def party_file(tmp_path, formats="html", extra=""):
    path = tmp_path / "ambush.yaml"
    path.write_text(PARTY.format(formats=formats, extra=extra), encoding="utf-8")
    return path


def manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


@pytest.mark.parametrize("command", ["generate", "render", "party"])
def test_the_commands_share_the_sheet_options(command):
    params = {p.name: p for p in cli.commands[command].params}
    assert SHEET_OPTIONS <= set(params)
    generate = {p.name: p for p in cli.commands["generate"].params}
    for name in SHEET_OPTIONS:
        assert params[name].help == generate[name].help and params[name].default == generate[name].default


@pytest.mark.parametrize("command", ["generate", "render", "party"])
def test_help_lists_the_declared_choices(command):
    text = run(command, "--help").output
    assert "--paper [a4|letter]" in text and "--cards-per-page [4|9]" in text
    assert "--layout [sheet|block|card]" in text and "--pdf-variant [pdf/ua-1]" in text
    assert "4 (2x2) or 9 (3x3)" in " ".join(text.split())  # help wraps lines


@pytest.mark.parametrize("command", ["generate", "render", "party"])
def test_a_paper_added_to_the_declaration_is_offered_and_drawn(command, monkeypatch):
    monkeypatch.setitem(choices.PAPERS, "a5", choices.Paper("a5", "A5", "148mm", "210mm"))
    assert "--paper [a4|letter|a5]" in run(command, "--help").output
    html = ok("generate", "--seed", 3, "--format", "html", "--paper", "a5").stdout
    assert "size: A5;" in html and 'class="paper-a5"' in html


@pytest.mark.parametrize("command", ["generate", "render", "party"])
def test_a_layout_added_to_the_registry_is_offered(command):
    from tests import strip_layout

    strip_layout.register()
    try:
        assert "--layout [sheet|block|card|strip]" in run(command, "--help").output
    finally:
        strip_layout.unregister()
    assert "--layout [sheet|block|card]" in run(command, "--help").output


def test_a_bad_choice_is_a_usage_error_naming_the_declared_ones(tmp_path):
    r = run("party", party_file(tmp_path), "-o", tmp_path / "out", "--paper", "a3")
    assert r.exit_code == 2 and "'a3' is not one of 'a4', 'letter'." in r.stderr
    r = run("party", party_file(tmp_path), "-o", tmp_path / "out", "--pdf-variant", "pdf/a-3b")
    assert r.exit_code == 2 and "'pdf/a-3b' is not 'pdf/ua-1'." in r.stderr
    r = run("generate", "--layout", "cards")
    assert r.exit_code == 2 and "'cards' is not one of 'sheet', 'block', 'card'." in r.stderr


def test_help_does_not_import_weasyprint_or_every_engine():
    import subprocess
    import sys

    code = ("import sys\nfrom click.testing import CliRunner\nfrom chargen.cli import cli\n"
            "for c in ('generate', 'render', 'party'):\n    assert CliRunner().invoke(cli, [c, '--help']).exit_code == 0\n"
            "print(sorted(m for m in sys.modules if m == 'weasyprint' or m in ('chargen.systems.kotm', 'chargen.systems.rtd')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_party_file_is_checked_against_the_declared_cards_and_layouts(tmp_path):
    path = party_file(tmp_path, extra="layout: strip\ncards_per_page: 6\n")
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {path}:5: layout: 'strip' is not one of: block, card, sheet\n"
                        f"Error: {path}:6: cards_per_page: 6 is not one of: 4, 9\n")


def test_party_takes_a_template_dir(tmp_path):
    tdir = tmp_path / "templates"
    tdir.mkdir()
    base = (builtin_dir() / "base.html.j2").read_text(encoding="utf-8")
    (tdir / "base.html.j2").write_text(base.replace('<meta name="generator" content="chargen">',
                                                    '<meta name="generator" content="chargen, our table">'))
    out = tmp_path / "out"
    ok("party", party_file(tmp_path), "-o", out, "--template-dir", tdir)
    sheets = sorted(out.glob("0*.html"))
    assert len(sheets) == 2 and all("chargen, our table" in p.read_text() for p in sheets)
    r = run("party", party_file(tmp_path), "-o", tmp_path / "other", "--template-dir", tmp_path / "missing")
    assert r.exit_code == 2 and "'--template-dir'" in r.stderr and "does not exist" in r.stderr


def test_party_takes_a_pdf_variant_and_resumes_with_it(tmp_path):
    path = party_file(tmp_path, formats="pdf")
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    ok("party", path, "-o", whole, "--pdf-variant", "pdf/ua-1")
    shutil.copytree(whole, cut)  # the same batch, cut below (not a second run of the same command)
    assert manifest(whole)["pdf_variant"] == "pdf/ua-1"
    (cut / "party.pdf").unlink()
    next(cut.glob("0001-*.pdf")).unlink()
    r = run("party", path, "-o", cut, "--resume")
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: cannot resume: '{cut}' holds a different batch (")
    assert "pdf_variant: pdf/ua-1 in the manifest, None now" in r.stderr
    ok("party", path, "-o", cut, "--resume", "--pdf-variant", "pdf/ua-1")
    assert {p.name: p.read_bytes() for p in whole.iterdir()} == {p.name: p.read_bytes() for p in cut.iterdir()}


def test_command_line_sheet_options_override_the_party_file(tmp_path):
    path = party_file(tmp_path, extra="layout: block\n")
    out = tmp_path / "out"
    ok("party", path, "-o", out, "--layout", "card", "--cards-per-page", "9", "--party-name", "The toll gate")
    m = manifest(out)
    assert (m["layout"], m["cards_per_page"], m["party_name"]) == ("card", 9, "The toll gate")
    assert m["party"]["name"] == "Road ambush"  # the file's own name stays in its record
    same = tmp_path / "same"
    ok("party", path, "-o", same)
    assert (manifest(same)["layout"], manifest(same)["party_name"]) == ("block", "Road ambush")
    r = run("party", path, "-o", out, "--resume")
    assert r.exit_code == 1 and "layout: card in the manifest, block now" in r.stderr
    r = ok("party", path, "-o", out, "--resume", "--layout", "card", "--cards-per-page", "9",
           "--party-name", "The toll gate")
    assert "chargen: resumed Road ambush" in r.stderr
