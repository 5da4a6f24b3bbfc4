"""Seed derivation 2 (issue 35.5, no clones): one seed's characters of different archetypes are
different people; batches and parties recorded with derivation 1 resume with it, byte for byte.

``tests/golden/derivation-1/`` holds a ``generate --archetype`` batch and a party folder written by
the commit before derivation 2 (``watch.yaml`` says how): they are the reference a resume must meet.
"""

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_builtin
from chargen.seeds import SEED_DERIVATION, SEED_DERIVATION_1, archetype_seed, character_seed

OLD = Path(__file__).parent / "golden" / "derivation-1"
D100_ARCHETYPES = list(load_builtin("d100").rules.archetypes)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def person(doc: dict) -> tuple:
    fl = doc.get("flavour", {})
    return (doc["identity"]["name"], doc["seed"]["character"], *(fl[k]["value"] for k in sorted(fl)))


def test_one_seed_and_index_make_a_different_person_of_each_archetype(d100):
    made = {a: make_character(d100, 900, 0, GenerationRequest(archetype=a)) for a in D100_ARCHETYPES}
    names = [d["identity"]["name"] for d in made.values()]
    assert len(set(names)) >= 0.9 * len(names), names  # before: one name for every archetype
    assert len({d["seed"]["character"] for d in made.values()}) == len(made)
    for key in ("manner", "motive", "secret", "hook"):
        values = [d["flavour"][key]["value"] for d in made.values()]
        assert len(set(values)) > len(values) / 3, (key, values)  # before: one value for every archetype
    for a, doc in made.items():
        assert doc["seed"] == {"batch": 900, "index": 0, "character": character_seed(archetype_seed(900, a), 0),
                               "derivation": 2}


def test_derivation_1_made_the_same_person_of_every_archetype(d100):
    """The defect derivation 2 mends, kept reachable for old batches: index 0 of seed 900 is one person."""
    made = [make_character(d100, 900, 0, GenerationRequest(archetype=a, derivation=1)) for a in D100_ARCHETYPES]
    names = Counter(d["identity"]["name"] for d in made)  # the name depends on the background drawn only
    assert len(names) <= len(made) / 3 and names["Wat Fenwick"] >= 2, names
    assert len({d["seed"]["character"] for d in made}) == 1
    assert len({tuple(v["value"] for v in d["flavour"].values()) for d in made}) <= len(made) / 3  # by background
    assert all("derivation" not in d["seed"] for d in made)


def test_characters_without_an_archetype_are_as_before(d100):
    doc = make_character(d100, 42, 3, GenerationRequest())
    assert doc["seed"] == {"batch": 42, "index": 3, "character": character_seed(42, 3)}
    assert doc["identity"]["name"] == "Faxi the Grim"  # the README's character 3 of seed 42


def test_a_character_alone_is_the_one_in_its_batch(tmp_path):
    assert run("generate", "--system", "d100", "--seed", 5, "--archetype", "bandit", "--count", 4,
               "-o", tmp_path / "b").exit_code == 0
    third = json.loads(next((tmp_path / "b").glob("0002-*.json")).read_text())
    alone = run("generate", "--system", "d100", "--seed", 5, "--archetype", "bandit", "--index", 2)
    assert alone.exit_code == 0, alone.output
    assert json.loads(alone.stdout) == third
    assert json.loads((tmp_path / "b" / "manifest.json").read_text())["seed_derivation"] == SEED_DERIVATION


def test_names_stay_unique_within_an_archetype_batch(d100):
    names = [make_character(d100, 11, i, GenerationRequest(archetype="town_guard"))["identity"]["name"]
             for i in range(200)]
    assert len(set(names)) == len(names)


def _interrupted(src: Path, dst: Path, removed: tuple[str, ...]) -> dict[str, bytes]:
    shutil.copytree(src, dst)
    before = {p.name: p.read_bytes() for p in dst.iterdir()}
    for name in removed:
        (dst / name).unlink()
    return before


def test_a_derivation_1_batch_resumes_to_the_same_bytes(tmp_path):
    out = tmp_path / "bandits"
    before = _interrupted(OLD / "bandits", out, ("0001-wat-fenwick.json", "roster.csv"))
    assert json.loads(before["manifest.json"])["seed_derivation"] == SEED_DERIVATION_1
    r = run("generate", "--system", "d100", "--seed", 900, "--archetype", "bandit", "--count", 3,
            "--format", "json,csv", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_derivation_1_party_resumes_to_the_same_bytes(tmp_path):
    shutil.copy(OLD / "watch.yaml", tmp_path / "watch.yaml")
    out = tmp_path / "watch"
    before = _interrupted(OLD / "watch", out, ("0002-giselle-fletcher.json", "roster.csv"))
    r = run("party", tmp_path / "watch.yaml", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    again = run("party", tmp_path / "watch.yaml", "-o", tmp_path / "new")  # a new run: derivation 2
    assert again.exit_code == 0, again.output
    new = json.loads((tmp_path / "new" / "manifest.json").read_text())
    assert new["seed_derivation"] == SEED_DERIVATION
    assert [c["name"] for c in new["characters"]] != [c["name"] for c in json.loads(before["manifest.json"])["characters"]]


@pytest.mark.parametrize("value", ["sha256(b'chargen/3')", 7, None])
def test_a_manifest_naming_an_unknown_derivation_is_refused(tmp_path, value):
    out = tmp_path / "bandits"
    _interrupted(OLD / "bandits", out, ("roster.csv",))
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["seed_derivation"] = value
    (out / "manifest.json").write_text(json.dumps(manifest))
    r = run("generate", "--system", "d100", "--seed", 900, "--archetype", "bandit", "--count", 3,
            "--format", "json,csv", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output.startswith(f"Error: {out / 'manifest.json'}: seed_derivation")
    assert len(r.output.strip().splitlines()) == 1
    assert not (out / "roster.csv").exists()
