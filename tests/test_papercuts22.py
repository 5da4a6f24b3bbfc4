"""Issue 22 point 14: papercuts (archetypes --format json, choices in any case, the pinned sex, the
reproduce command's wrapping, the screen stylesheet)."""

import json

import pytest
from click.testing import CliRunner

from chargen.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_archetypes_format_json_as_systems_has_it():
    r = run("archetypes", "--system", "kotm", "--format", "json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    text = run("archetypes", "--system", "kotm").output.splitlines()
    assert len(rows) == len(text) and rows[0].keys() == {"system", "id", "label", "varies"}
    assert all(row["system"] == "kotm" for row in rows)
    assert text[0].split()[1] == rows[0]["id"]
    assert {r["system"] for r in json.loads(run("archetypes", "--format", "JSON").output)} >= {"d100", "kotm", "rtd"}


@pytest.mark.parametrize("args", [
    ("generate", "--system", "D100", "--seed", 1, "--format", "JSON"),
    ("generate", "--system", "Kotm", "--seed", 1, "--format", "yaml"),
    ("stats", "--system", "RTD", "-n", 3, "--seed", 1),
    ("archetypes", "--system", "D100"),
    ("roll", "--system", "D100", "--seed", 1, "--chance", 50),
    ("rules", "show", "KOTM", "--file", "levels"),
])
def test_system_ids_and_choices_in_any_case(args):
    r = run(*args)
    assert r.exit_code == 0, r.output


def test_pdf_variant_layout_and_paper_in_any_case(tmp_path):
    r = run("generate", "--seed", 1, "--format", "PDF", "--pdf-variant", "PDF/UA-1", "--paper", "Letter",
            "--layout", "Sheet", "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert (manifest["pdf_variant"], manifest["paper"], manifest["layout"]) == ("pdf/ua-1", "letter", "sheet")
