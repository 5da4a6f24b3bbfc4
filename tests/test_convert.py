"""chargen render converts: from every readable input (chargen JSON and YAML, MEG, a Foundry actor,
a chargen PDF) to every registered format; what a format cannot write is one Error line and
nothing written."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.formats import FORMATS, names

MEG = Path(__file__).resolve().parents[1] / "examples" / "meg" / "bandits.meg.json"
HAND_MADE = Path(__file__).resolve().parents[1] / "examples" / "foundry" / "hand-made-sergeant.json"
DATA = [n for n in names(sheet=False)]
OUTPUTS = DATA + ["html"]  # pdf drawn in test_pdf_out_carries_the_document (one, it is slow)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Two d100 characters in every format generate writes, and a KoTM one."""
    out = tmp_path_factory.mktemp("made")
    r = run("generate", "--system", "d100", "--seed", "42", "--count", "2", "--format", ",".join(DATA + ["pdf"]),
            "-o", out / "d100")
    assert r.exit_code == 0, r.output
    assert run("generate", "--system", "kotm", "--seed", "1", "-o", out / "kotm").exit_code == 0
    return out


def inputs(made: Path) -> dict[str, list[Path]]:
    d = made / "d100"
    return {"json": sorted(p for p in d.glob("0*.json") if p.name.count(".") == 1),
            "yaml": sorted(d.glob("0*.yaml")), "meg": [d / "party.meg.json"], "foundry": [d / "party.foundry.json"],
            "foundry_npc": [d / "party.foundry-npc.json"], "pdf": [d / "party.pdf"], "meg-by-meg": [MEG],
            "foundry-by-hand": [HAND_MADE]}


@pytest.mark.parametrize("source", ["json", "yaml", "meg", "foundry", "foundry_npc", "pdf", "meg-by-meg", "foundry-by-hand"])
def test_every_input_to_every_output(made, tmp_path, source):
    files = inputs(made)[source]
    r = run("render", *files, "--format", ",".join(OUTPUTS), "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    out = tmp_path / "out"
    count = 1 if source.endswith(("-by-meg", "-by-hand")) else 2
    assert r.stderr.splitlines()[-1].startswith(f"chargen: rendered {count} sheet")
    for fmt in ("json", "yaml", "meg", "foundry", "foundry_npc", "statblock", "html"):
        assert len([p for p in out.glob("0*") if p.name.endswith(FORMATS[fmt].suffix)]) >= count, fmt
    for batch in ("roster.csv", "blocks.txt", "party.meg.json", "party.foundry.json", "chargen-d100-layout.json"):
        assert (out / batch).stat().st_size > 0
    assert len(json.loads((out / "party.foundry.json").read_text())) == count


@pytest.mark.parametrize("source", ["json", "yaml", "pdf", "foundry"])
def test_a_conversion_of_chargens_own_files_gives_generates_bytes(made, tmp_path, source):
    """What chargen wrote, read back in any of its forms, converts to the very bytes generate wrote."""
    r = run("render", *inputs(made)[source], "--format", "json,foundry,meg,csv", "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    d = made / "d100"
    for name in ("0000-isgerd-frostbeard.json", "0001-ulla-millbrook.foundry.json", "roster.csv"):
        assert (tmp_path / "out" / name).read_bytes() == (d / name).read_bytes(), name
    # party.meg.json is a plain enemies array (no party name in it): the same bytes
    assert (tmp_path / "out" / "party.meg.json").read_bytes() == (d / "party.meg.json").read_bytes()


def test_pdf_out_carries_the_document(made, tmp_path):
    r = run("render", HAND_MADE, "--format", "pdf,json", "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    r = run("render", tmp_path / "a" / "0000-hand-made-watch-sergeant.pdf", "--format", "json", "-o", tmp_path / "b")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "b" / "0000-hand-made-watch-sergeant.json").read_bytes() == \
        (tmp_path / "a" / "0000-hand-made-watch-sergeant.json").read_bytes()


def test_to_stdout(made):
    d = made / "d100"
    r = run("render", d / "party.pdf", "--format", "json")
    assert r.exit_code == 0 and [c["identity"]["name"] for c in json.loads(r.stdout)] == ["Isgerd Frostbeard", "Ulla Millbrook"]
    r = run("render", d / "0000-isgerd-frostbeard.yaml", "--format", "foundry")
    assert r.exit_code == 0 and r.stdout_bytes == (d / "0000-isgerd-frostbeard.foundry.json").read_bytes()
    r = run("render", d / "party.foundry.json", "--format", "csv")
    assert r.exit_code == 0 and r.stdout_bytes == (d / "roster.csv").read_bytes()


@pytest.mark.parametrize("fmt", ["meg", "foundry", "foundry_npc", "statblock"])
def test_a_d100_format_of_another_engine_is_one_error_line(made, tmp_path, fmt):
    kotm, = (made / "kotm").glob("0*.json")
    r = run("render", kotm, "--format", f"json,{fmt}", "-o", tmp_path / "out")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {kotm}: format {fmt} writes d100 characters only (not kotm); "
                        "leave it out of --format for this system\n")
    assert not (tmp_path / "out").exists()


def test_one_batch_file_of_two_engines_is_one_error_line(made, tmp_path):
    kotm, = (made / "kotm").glob("0*.json")
    d100 = made / "d100" / "0000-isgerd-frostbeard.json"
    r = run("render", kotm, d100, "--format", "csv", "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr == (
        f"Error: csv: one batch file holds one engine's characters, and these are of 2 (kotm: {kotm}, d100: {d100}); "
        "convert them separately\n")
    assert not (tmp_path / "out").exists()
    r = run("render", kotm, d100, "--format", "json", "-o", tmp_path / "out")  # a file each: fine
    assert r.exit_code == 0 and len(list((tmp_path / "out").glob("*.json"))) == 2


def test_without_o_one_format(made):
    r = run("render", made / "d100" / "party.pdf", "--format", "json,csv")
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == "Error: without -o, give one --format; use -o DIR for several"
