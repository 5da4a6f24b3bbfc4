"""Numbers in the YAML chargen reads (issue 26, finding 4): integers are ASCII digits with an
optional sign, as on the command line; YAML 1.1's other forms (``0x2a``, ``0o17``, ``0b101``,
``4_2``, ``12:30``) are text, so a key that wants a number refuses them naming file, line and key.
Party files, rules overlays and character YAML all go through the one loader."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.rules.yamlio import load_text

ROOT = Path(__file__).parent.parent
PARTY = "name: Bandits\nsystem: d100\nseed: {seed}\nmembers:\n  - {{archetype: bandit, count: 2}}\nformats: [json]\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


@pytest.mark.parametrize("form", ["0x2a", "4_2", "12:30", "0o17", "0b101", "1_000", "+0x2a", "1:02:03"])
def test_a_yaml_1_1_integer_form_is_text(form):
    from chargen.rules.yamlio import yaml11_number

    assert load_text(f"a: {form}\n", "f.yaml").data == {"a": form}
    assert yaml11_number(form)


@pytest.mark.parametrize("text, value", [("0123", 123), ("-7", -7), ("+16", 16), ("009", 9), ("42", 42),
                                         ("1.5", 1.5), ("-0.25", -0.25), ("1.0e+3", 1000.0), ("true", True),
                                         ("'0x2a'", "0x2a"), ("1_000.5", "1_000.5"), ("12:30.5", "12:30.5")])
def test_decimal_numbers_read_as_the_command_line_reads_them(text, value):
    assert load_text(f"a: {text}\n", "f.yaml").data == {"a": value}


@pytest.mark.parametrize("form", ["0x2a", "4_2", "12:30", "0o17", "0b101"])
def test_a_party_seed_in_a_yaml_1_1_form_is_one_error_naming_file_line_and_key(tmp_path, form):
    path = tmp_path / "party.yaml"
    path.write_text(PARTY.format(seed=form))
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 1
    assert r.output == (f"Error: {path}:3: seed: expected a whole number, got the text {form!r} (numbers are ASCII "
                        "digits 0-9 with an optional sign and decimal point; YAML 1.1's hex, octal, binary, '_' and "
                        "base-60 forms are not read as numbers)\n")
    assert not (tmp_path / "out").exists()


def test_a_party_seed_with_a_leading_zero_is_decimal_as_on_the_command_line(tmp_path):
    path = tmp_path / "party.yaml"
    path.write_text(PARTY.format(seed="0123"))
    assert run("party", path, "-o", tmp_path / "out").exit_code == 0
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["seed"] == 123  # not octal 83
    assert run("generate", "--seed", "0123").output == run("generate", "--seed", "123").output


def test_an_overlay_number_in_a_yaml_1_1_form_is_refused(tmp_path):
    text = (ROOT / "examples/house-rules/epic-kotm.yaml").read_text()
    assert "levels.max: 20\n" in text
    path = tmp_path / "ov.yaml"
    path.write_text(text.replace("levels.max: 20\n", "levels.max: 0x14\n"))
    r = run("rules", "check", path)
    assert r.exit_code == 1
    assert f"{path}:15: changes.levels.set.levels.max: expected a whole number, got the text '0x14'" in r.output


def test_a_character_yaml_number_in_a_yaml_1_1_form_is_refused(tmp_path):
    assert run("generate", "--system", "kotm", "--seed", "1", "--format", "yaml", "-o", tmp_path / "k").exit_code == 0
    (path,) = (tmp_path / "k").glob("0000-*.yaml")
    text = path.read_text()
    assert "\nlevel: 5\n" in text
    path.write_text(text.replace("\nlevel: 5\n", "\nlevel: 0b101\n"))
    r = run("check", path)
    assert r.exit_code == 1 and r.output == f"Error: {path}: level: '0b101' is not of type 'integer'\n"
