"""The command line: exact output and exact errors."""

import json

import pytest
from click.testing import CliRunner

from chargen import __version__
from chargen.cli import cli
from chargen.generate import make_character
from chargen.serialize import to_json
from chargen.formats import names

FORMATS_LIST = names()


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout == f"chargen, version {__version__}\n"


def test_systems_lists_id_name_version_mechanic():
    r = run("systems")
    assert r.exit_code == 0
    assert "d100   D100 II 1.0.0 - D100 roll-under, 01-100 (00 reads as 100); characteristics 3D6\n" in r.stdout


def test_systems_json():
    r = run("systems", "--format", "json")
    ids = [s["id"] for s in json.loads(r.stdout)]
    assert "d100" in ids


def test_generate_one_character_on_stdout(d100):
    r = run("generate", "--system", "d100", "--seed", "42", "--index", "7")
    assert r.exit_code == 0
    assert r.stdout == to_json(make_character(d100, 42, 7))
    assert r.stderr == "chargen: d100 seed 42, 1 character\n"


def test_generate_stream_is_a_json_array_and_yaml_documents(d100):
    r = run("generate", "--seed", "3", "--count", "3")
    assert [d["seed"]["index"] for d in json.loads(r.stdout)] == [0, 1, 2]
    r = run("generate", "--seed", "3", "--count", "2", "--format", "yaml")
    assert r.stdout.count("\n---") + r.stdout.startswith("---") == 2


def test_drawn_seed_is_reported():
    r = run("generate")
    assert r.exit_code == 0
    seed = int(r.stderr.split("seed ")[1].split(",")[0])
    assert json.loads(r.stdout)[0]["seed"]["batch"] == seed


def test_generate_to_folder_writes_files_and_manifest(tmp_path):
    out = tmp_path / "party"
    r = run("generate", "--seed", "42", "--count", "3", "--format", "json,yaml", "-o", str(out))
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert "manifest.json" in names and len(names) == 7
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is True and manifest["seed"] == 42 and manifest["count"] == 3
    first = manifest["characters"][0]
    assert first["files"]["json"].startswith("0000-") and (out / first["files"]["yaml"]).is_file()
    assert r.stderr == f"chargen: wrote 3 d100 characters (seed 42) to {out}\n"


def test_index_537_equals_the_538th_of_the_batch(tmp_path):
    run("generate", "--seed", "42", "--count", "1000", "-o", str(tmp_path / "a"))
    run("generate", "--seed", "42", "--count", "1000", "-o", str(tmp_path / "b"), "--jobs", "1")
    a = sorted((tmp_path / "a").iterdir())
    b = sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))  # 2 processes or 1: same bytes
    alone = run("generate", "--seed", "42", "--index", "537").stdout
    assert a[537].name.startswith("0537-") and a[537].read_text() == alone


def test_unknown_system():
    r = run("generate", "--system", "nope")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: unknown system 'nope' (expected one of: d100")


@pytest.mark.parametrize("args, code, message", [
    (["generate", "--count", "0"], 2, "Error: Invalid value for '--count' / '-n': 0 is not in the range 1<=x<=100000."),
    (["generate", "--count", "-3"], 2, "Error: Invalid value for '--count' / '-n': -3 is not in the range 1<=x<=100000."),
    (["generate", "--count", "x"], 2, "Error: Invalid value for '--count' / '-n': 'x' is not a valid integer range."),
    (["generate", "--seed", "abc"], 2, "Error: Invalid value for '--seed': 'abc' is not a valid integer range."),
    (["generate", "--seed", "-1"], 2, "Error: Invalid value for '--seed': -1 is not in the range 0<=x<=18446744073709551615."),
    (["generate", "--format", "xml"], 2, "Error: Invalid value for '--format': xml is not a format (expected a comma list of: " + ", ".join(FORMATS_LIST) + ")"),
    (["generate", "--count", "2", "--format", "json,yaml"], 2, "Error: without -o, give exactly one --format (" + ", ".join(FORMATS_LIST[:-1]) + " or " + FORMATS_LIST[-1] + ")"),
    (["roll", "3D"], 1, "Error: malformed dice '3D': unexpected 'D' at character 2 (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')"),
    (["roll", "1000000D1000000"], 1, "Error: dice '1000000D1000000': 1000000 dice in one term (expected 1 to 1000)"),
])
def test_bad_input_gets_one_clear_line(args, code, message):
    r = run(*args)
    assert r.exit_code == code
    assert r.stderr.splitlines()[-1] == message
    if code == 1:
        assert r.stderr == message + "\n"  # one line, no usage text, no traceback
    assert r.stdout == ""


def test_non_empty_output_folder_is_refused_and_left_alone(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    r = run("generate", "--seed", "1", "-o", str(tmp_path))
    assert r.exit_code == 1
    assert r.stderr == f"Error: output folder '{tmp_path}' is not empty (use --force to write into it anyway)\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
    r = run("generate", "--seed", "1", "-o", str(tmp_path), "--force")
    assert r.exit_code == 0 and (tmp_path / "keep.txt").read_text() == "mine"


def test_output_that_is_a_file_or_under_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = run("generate", "-o", str(f))
    assert r.exit_code == 2 and f"Directory '{f}' is a file." in r.stderr
    r = run("generate", "-o", str(f / "sub"))
    assert r.exit_code == 1 and r.stderr == f"Error: cannot create output folder '{f / 'sub'}': Not a directory\n"
    assert f.read_text() == "x"


def test_unknown_system_creates_no_folder(tmp_path):
    r = run("generate", "--system", "nope", "-o", str(tmp_path / "new"))
    assert r.exit_code == 1 and not (tmp_path / "new").exists()


def test_debug_shows_the_traceback():
    r = run("--debug", "generate", "--system", "nope")
    assert r.exit_code == 1 and r.exception is not None and type(r.exception).__name__ == "ChargenError"


def test_roll_shows_each_die():
    r = run("roll", "3D6+2", "--seed", "1")
    assert r.exit_code == 0
    assert r.stdout == "3D6+2 = 14\n  3D6: 1 6 5\n  +2\n"
    r = run("roll", "1D4+1D6-1D4", "--seed", "5", "--format", "json")
    assert json.loads(r.stdout) == {"expression": "1D4+1D6-1D4", "seed": 5, "rolled": [3, 5, 4], "total": 4}


def test_every_command_has_help_with_an_example_and_is_in_the_manual():
    """The manual's commands page (docs/commands.md) names every command; the README links to it."""
    from tests import manual

    page = manual.read(manual.COMMANDS_PAGE)

    def walk(group, prefix):
        for name, cmd in group.commands.items():
            yield prefix + [name], cmd
            if hasattr(cmd, "commands"):
                yield from walk(cmd, prefix + [name])

    for path, cmd in walk(cli, []):
        r = run(*path, "--help")
        assert r.exit_code == 0 and "Example" in r.stdout, path
        assert f"chargen {' '.join(path)}" in page, path


def test_output_folder_that_cannot_be_created():
    r = run("generate", "--seed", "1", "-o", "/proc/chargen-cannot-be-here")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: cannot create output folder '/proc/chargen-cannot-be-here': ")


def test_a_closed_pipe_ends_chargen_as_it_ends_a_unix_tool():
    """``chargen systems | head -0``: no 'Error: Broken pipe', killed by SIGPIPE (141 in a shell)."""
    import signal
    import subprocess
    import sys

    for args in (["systems"], ["generate", "--seed", "1", "--count", "2000"]):
        p = subprocess.Popen([sys.executable, "-m", "chargen", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.close()
        assert p.wait() == -signal.SIGPIPE, args
        assert p.stderr.read() == b""


def test_debug_after_the_subcommand_shows_the_traceback():
    r = run("generate", "--system", "nope", "--debug")
    assert r.exit_code == 1 and r.exception is not None and type(r.exception).__name__ == "ChargenError"


@pytest.mark.parametrize("args", [("--paper", "A4"), ("--paper", "Letter"), ("--format", "JSON")])
def test_choices_are_case_insensitive(args):
    command = ["roll", "3D6", "--seed", "1"] if args[0] == "--format" else ["generate", "--seed", "1", "--format", "html"]
    r = run(*command, *args)
    assert r.exit_code == 0, r.output
