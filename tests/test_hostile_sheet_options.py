"""Hostile sheet options and environments: --party-name, integer options, a non-UTF-8 --template-dir,
PYTHONIOENCODING=ascii, NaN and bidi controls on a sheet. One clear error line, or a right result."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.env import num
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet, builtin_dir

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def chargen(*args, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """chargen in a subprocess: argv given as bytes where a test needs bytes that are not UTF-8."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "chargen", *args], cwd=cwd, env=environment,
                          capture_output=True, timeout=300)


@pytest.mark.parametrize("name, says", [
    ("x" * 131_000, "the party name is 131,000 characters long (at most 100)"),
    ("The \U0001F409 band", "U+1F409 (dragon) is not a character the sheet fonts can draw"),
    ("Red\x07Lanterns", "U+0007 (unnamed) is not a character the sheet fonts can draw"),
    ("Red\u202eLanterns", "U+202E (right-to-left override) is not a character"),
    ("   ", "the party name is empty"),
])
def test_a_party_name_the_cover_cannot_draw_is_a_usage_error_before_any_character(tmp_path, name, says):
    r = run("generate", "--seed", "1", "--count", "3", "--format", "pdf", "-o", tmp_path / "out", "--party-name", name)
    assert r.exit_code == 2 and says in r.stderr and "Invalid value for '--party-name'" in r.stderr
    assert not (tmp_path / "out").exists()


def test_a_party_name_of_latin_letters_is_fine(tmp_path):
    r = run("generate", "--seed", "1", "--format", "json,html", "-o", tmp_path, "--party-name", "Les Épées d'Örebro")
    assert r.exit_code == 0, r.stderr
    assert "<title>Les Épées d&#39;Örebro</title>" in (tmp_path / "index.html").read_text()


def test_a_party_name_of_bytes_that_are_not_utf8_is_a_usage_error(tmp_path):
    p = chargen(b"generate", b"--seed", b"1", b"--format", b"pdf", b"-o", b"out", b"--party-name", b"The \xff band",
                cwd=tmp_path)
    assert p.returncode == 2 and b"Traceback" not in p.stderr
    assert b"U+DCFF" in p.stderr and not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [("--seed", "4_2"), ("--seed", "\u0664\u0662"), ("--seed", " 42"), ("--count", "1_0"),
                                  ("--index", "\u0663"), ("--jobs", "\uff12")])
def test_integer_options_take_ascii_digits_only(args):
    r = run("generate", *args)
    assert r.exit_code == 2 and "is not a valid integer (ASCII digits 0-9 only)" in r.stderr


def test_engine_integer_options_take_ascii_digits_only():
    r = run("roll", "--system", "d100", "--chance", "\u0664\u0662")
    assert r.exit_code == 2 and "Invalid value for '--chance'" in r.stderr
    assert run("roll", "--system", "d100", "--chance", "42", "--seed", "1").exit_code == 0


def test_nan_is_not_printed_on_a_sheet():
    assert num(2.0) == "2" and num(0.25) == "0.25"
    with pytest.raises(ValueError, match="num: nan is not a number a sheet can print"):
        num(float("nan"))


def test_a_nan_on_a_sheet_is_one_render_error(d100):
    doc = make_character(d100, 42, 7)
    doc["weapons"][0]["enc"] = float("nan")
    with pytest.raises(RenderError, match=r"built-in templates: d100.html.j2:\d+: ValueError: num: nan is not"):
        HtmlRenderer(TemplateSet.load()).sheet(figured(doc), False)


def test_bidi_controls_do_not_reach_the_title(d100):
    doc = make_character(d100, 42, 7)
    doc["identity"]["name"] = "Ulf \u202eHayward"
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc), False)
    assert "<title>Ulf Hayward - D100 II character</title>" in html
    assert re.search('<h1 class="character-name" style="[^"]*" data-fill>Ulf \u202eHayward</h1>', html)  # the name itself is the data


@pytest.mark.skipif(sys.platform != "linux", reason="a file name of any bytes")
def test_a_template_dir_whose_name_is_not_utf8_renders_pdf(tmp_path):
    folder = os.fsencode(tmp_path) + b"/tpl\xff"
    os.mkdir(folder)
    shutil.copy(builtin_dir() / "sheet.css", os.fsdecode(folder))
    p = chargen(b"generate", b"--seed", b"1", b"--format", b"pdf", b"-o", b"out", b"--template-dir", folder, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "out" / "party.pdf").read_bytes().startswith(b"%PDF-")


def test_ascii_stdout_and_stderr_with_names_that_are_not(tmp_path):
    doc = json.loads(chargen("generate", "--seed", "1", "--index", "0", "--format", "json", cwd=tmp_path).stdout)
    doc["identity"]["name"] = "Ärn Ölund"
    saved = tmp_path / "\u00e4rn.json"
    saved.write_text(json.dumps(doc), encoding="utf-8")
    ascii_env = {"PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    shown = chargen("render", saved.name, "--format", "html", cwd=tmp_path, env=ascii_env)
    assert shown.returncode == 0 and b"Traceback" not in shown.stderr, shown.stderr
    written = chargen("render", saved.name, "--format", "html", "-o", "s\u00e9", cwd=tmp_path, env=ascii_env)
    assert written.returncode == 0 and b"Traceback" not in written.stderr
    assert shown.stdout == next((tmp_path / "s\u00e9").glob("0000-*.html")).read_bytes()  # UTF-8, as the file
    failed = chargen("render", "n\u00e9ant.json", cwd=tmp_path, env=ascii_env)
    assert failed.returncode != 0 and b"Traceback" not in failed.stderr and b"Error: " in failed.stderr
