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


def csv_rows(output):
    return [line.split(",")[:3] for line in output.lstrip("\ufeff").splitlines()[1:]]


@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
def test_a_pinned_sex_draws_from_that_sex_list_and_leaves_every_other_character(system):
    plain = run("generate", "--system", system, "--seed", 3, "--count", 6, "--format", "json")
    base = json.loads(plain.stdout)
    flip = {d["seed"]["index"]: ("female" if d["identity"]["sex"] == "male" else "male") for d in base[1:3]}
    r = run("generate", "--system", system, "--seed", 3, "--count", 6, "--format", "json",
            *[a for i, sex in flip.items() for a in ("--set", f"{i}:identity.sex={sex}")])
    assert r.exit_code == 0, r.output
    docs = json.loads(r.stdout)
    for before, after in zip(base, docs):
        i = before["seed"]["index"]
        if i not in flip:
            assert after == before  # every other character, byte for byte
            continue
        assert after["identity"]["sex"] == flip[i] and after["pins"] == {"identity.sex": flip[i]}
        assert after["rolls"] == before["rolls"]  # the sex was still rolled, then replaced
    names = [d["identity"]["name"] for d in docs]
    assert len(set(names)) == len(names)


def test_a_pinned_name_and_sex_together():
    r = run("generate", "--system", "d100", "--seed", 3, "--index", 0, "--set", "identity.name=Red Ulf",
            "--set", "identity.sex=female", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["identity"]["name"] == "Red Ulf" and doc["identity"]["sex"] == "female"
    r = run("generate", "--system", "d100", "--seed", 3, "--set", "identity.sex=robot")
    assert r.exit_code == 1 and "expected one of: female, male" in r.output


def test_a_batch_pinned_to_one_sex_keeps_names_unique():
    r = run("generate", "--system", "d100", "--seed", 3, "--count", 200, "--format", "csv", "--set", "identity.sex=female")
    rows = csv_rows(r.stdout)
    assert {sex for _, _, sex in rows} == {"female"}
    assert len({name for _, name, _ in rows}) == 200


LONG_COMMAND = ("--seed", 123456789012345, "--index", 987654, "--archetype", "town_guard", "--set", "characteristics.str=17",
                "--set", "identity.name=Bartholomew Fitzgerald", "--require", "best_weapon.attack>=30",
                "--require", "combat.hit_points>=8")


@pytest.mark.parametrize("layout", ["sheet", "block", "card"])
def test_the_reproduce_command_breaks_only_between_arguments(tmp_path, layout):
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    r = run("generate", *LONG_COMMAND, "--format", "json,pdf", "--layout", layout, "--each-pdf", "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    pdf = next((tmp_path / "a").glob("9*.pdf"))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    command = ("chargen generate --system d100 --seed 123456789012345 --index 987654 --archetype town_guard "
               "--set characteristics.str=17 --set 'identity.name=Bartholomew Fitzgerald' "
               "--require 'best_weapon.attack>=30' --require 'combat.hit_points>=8'")
    start = text.index("chargen generate")
    printed = text[start:start + len(command) + 40]
    lines = printed.split("\n")
    joined, n = "", 0
    while len(joined) < len(command):  # the command's lines, joined where they broke
        joined = lines[0] if n == 0 else f"{joined} {lines[n]}"
        n += 1
    assert joined[:len(command)] == command, printed
    assert n > 1, "the command should be long enough to break"
    assert all(line.startswith("--") for line in lines[1:n]), printed
