"""The cold start: the fork server started before the command line is imported (chargen.launch), and
fontTools.subset (unused where HarfBuzz subsets fonts) loaded only when used (chargen.render.contain.deferred)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.cli import cli
from chargen.launch import SHEET_COMMANDS, SHEETS, sheet_formats

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args, formats", [
    (["generate", "--seed", "1", "--format", "pdf", "-o", "out"], ("pdf",)),
    (["--debug", "generate", "--format=json,html,pdf", "--output=out"], ("html", "pdf")),
    (["generate", "-oout", "--format", "HTML"], ("html",)),
    (["generate", "--seed", "1", "-o", "out"], ()),  # json by default
    (["generate", "--format", "pdf"], ()),  # to stdout: laid out in this process
    (["generate", "--format", "pdf", "-o", "out", "--resume"], ()),  # formats in the manifest
    (["generate", "--format", "pdf", "-o", "out", "--help"], ()),
    (["render", "a.json", "-o", "out"], ("pdf",)),  # pdf by default
    (["render", "a.json", "--format", "csv", "-o", "out"], ()),
    (["party", "ambush.yaml", "-o", "out"], ()),
    (["roll", "3D6"], ()),
    ([], ()),
])
def test_the_launcher_reads_which_sheets_a_command_draws_into_a_folder(args, formats):
    assert sheet_formats(args) == formats


def test_the_launcher_knows_the_commands_defaults_and_sheet_formats():
    from chargen.formats import names

    assert SHEETS == names(sheet=True)
    for command, default in SHEET_COMMANDS.items():
        option = next(p for p in cli.commands[command].params if p.name == "formats")
        assert option.default == default, command


def _python(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                          cwd=ROOT, timeout=120).stdout.strip()


def test_weasyprint_is_imported_without_fonttools_subset_and_subsets_with_it_when_needed():
    """With HarfBuzz-Subset, a PDF is made without ever loading fontTools.subset; without it (WeasyPrint
    falls back on fontTools), the deferred module loads on first use and the PDF is made all the same."""
    code = """
import chargen.render.pdf as pdf
from chargen.render.contain.deferred import is_loaded
from chargen.render.templates import TemplateSet
from weasyprint.pdf import fonts
print(is_loaded("fontTools.subset"), is_loaded("weasyprint"), bool(fonts.harfbuzz_subset))
maker = pdf.PdfMaker(TemplateSet.load(None))
html = '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>Ab</p></body></html>'
maker.render(html)
print(is_loaded("fontTools.subset"))
fonts.harfbuzz_subset = None
import logging
logging.getLogger("weasyprint").setLevel(logging.ERROR)
out = maker.render(html.replace("Ab", "Cd")).pdf
print(is_loaded("fontTools.subset"), out[:5] == b"%PDF-")
"""
    lines = _python(code).splitlines()
    if lines[0] == "False True False":
        pytest.skip("no libharfbuzz-subset here: WeasyPrint subsets with fontTools")
    assert lines == ["False True True", "False", "True True"]


def test_the_deferral_does_nothing_to_a_module_already_imported():
    code = """
import fontTools.subset
from chargen.render.contain.deferred import defer, is_loaded
print(defer("fontTools.subset"), is_loaded("fontTools.subset"), defer("no_such_module_here"))
"""
    assert _python(code) == "False True False"
