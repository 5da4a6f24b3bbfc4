"""--set numbers are ASCII digits, as every number chargen reads (issue 26, finding 13, in part):
'+16', ' 16' and '16 ' are refused in one line; '16' and '-3' (with --force) are numbers."""

import pytest
from click.testing import CliRunner

from chargen.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


@pytest.mark.parametrize("value, message", [
    ("+16", "--set characteristics.str=+16: expected a whole number (ASCII digits 0-9, '-' for a negative one)"),
    (" 16", "--set characteristics.str=' 16': expected a whole number (ASCII digits 0-9, no spaces)"),
    ("16 ", "--set characteristics.str='16 ': expected a whole number (ASCII digits 0-9, no spaces)"),
    ("\uff11\uff16", "--set characteristics.str=\uff11\uff16: expected a whole number (ASCII digits 0-9, '-' for a negative one)"),
])
def test_a_set_number_in_another_form_is_refused(value, message):
    r = run("generate", "--seed", "1", "--set", f"characteristics.str={value}", "--format", "json")
    assert r.exit_code != 0 and message in r.output and r.output.count("Error:") == 1


def test_a_set_number_of_ascii_digits_is_pinned():
    r = run("generate", "--seed", "1", "--set", "characteristics.str=16", "--format", "json")
    assert r.exit_code == 0 and '"str": 16' in r.stdout
