"""Issue 39, item 6: ``--resume`` takes a manifest's pins as ``--set`` takes them (in the rules' range,
or past it only when the batch was made with ``--force``, which the manifest then records), and never
leaves a batch's files disagreeing: a recorded character whose request, pins or requirements the
manifest no longer gives is refused, before anything is written. The reported case: a pin of STR
1,000,000 written into the manifest of a json,csv batch whose ``roster.csv`` is missing rewrote the
roster with STR 1,000,000, every JSON keeping 13."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli

PARTY = "name: Bandits\nsystem: d100\nseed: 7\nmembers:\n  - {archetype: bandit, count: 3}\nformats: [json, csv]\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Complete batches: json,csv; json,csv with a pin --force took; a party (json, csv)."""
    base = tmp_path_factory.mktemp("pins")
    assert run("generate", "--seed", 11, "--count", 4, "--format", "json,csv", "-o", base / "plain").exit_code == 0
    assert run("generate", "--seed", 11, "--count", 4, "--format", "json,csv", "--set", "characteristics.str=30",
               "--force", "-o", base / "forced").exit_code == 0
    (base / "party.yaml").write_text(PARTY)
    assert run("party", base / "party.yaml", "-o", base / "party").exit_code == 0
    return {"plain": base / "plain", "forced": base / "forced", "party": base / "party", "file": base / "party.yaml"}


def stopped(made, name: str, tmp_path: Path, change=None, lose=("roster.csv",)) -> Path:
    """A copy of batch ``name`` with ``lose`` deleted and its manifest changed by ``change``."""
    out = tmp_path / name
    shutil.copytree(made[name], out)
    m = json.loads((out / "manifest.json").read_text())
    if change is not None:
        change(m)
    (out / "manifest.json").write_text(json.dumps(m, indent=2))
    for pattern in lose:
        for p in out.glob(pattern):
            p.unlink()
    return out


def resume(made, name: str, out: Path):
    return run(*(["party", made["file"]] if name == "party" else ["generate"]), "-o", out, "--resume")


def str_pin(value, force=False):
    def change(m):
        m["pins"] = [["characteristics.str", value]]
        if force:
            m["force"] = True
    return change


def years(m):
    m["request"] = {"profession": "soldier", "years": "5"}


CASES = {
    "pin past the range": (str_pin(1000000), "pins: --set characteristics.str=1000000: the rules give 3 to 19 "
                           "(3D6 in characteristics.yaml, or an archetype's dice); the batch was not made with --force"),
    "pin past the range, force added": (str_pin(1000000, True), "is not the character the manifest's options make"),
    "pin in the range": (str_pin(14), "is not the character the manifest's options make"),
    "request added": (years, "is not the character the manifest's options make"),
}


@pytest.mark.parametrize("lose", [("roster.csv",), ("roster.csv", "0002-*.json"), ()])
@pytest.mark.parametrize("case", list(CASES))
def test_a_changed_manifest_is_refused_and_nothing_is_written(made, tmp_path, case, lose):
    change, message = CASES[case]
    out = stopped(made, "plain", tmp_path, change, lose)
    before = snapshot(out)
    r = resume(made, "plain", out)
    assert r.exit_code == 1 and r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"Error: {out / 'manifest.json'}: ") and message in r.output
    assert snapshot(out) == before


def test_a_party_folder_whose_manifest_gains_a_pin_is_refused(made, tmp_path):
    out = stopped(made, "party", tmp_path, str_pin(1000000, True))
    before = snapshot(out)
    r = resume(made, "party", out)
    assert r.exit_code == 1 and r.output.startswith("Error: ") and r.output.count("\n") == 1, r.output
    assert snapshot(out) == before


@pytest.mark.parametrize("lose", [("roster.csv",), ("roster.csv", "0002-*.json")])
def test_a_batch_made_with_force_resumes_to_the_same_bytes(made, tmp_path, lose):
    m = json.loads((made["forced"] / "manifest.json").read_text())
    assert m["pins"] == [["characteristics.str", 30]] and m["force"] is True
    out = stopped(made, "forced", tmp_path, None, lose)
    r = resume(made, "forced", out)
    assert r.exit_code == 0, r.output
    assert snapshot(out) == snapshot(made["forced"])
    assert all(json.loads(p.read_text())["characteristics"]["str"] == 30 for p in out.glob("0*.json"))


def test_the_plain_batch_resumes_to_the_same_bytes_and_records_no_force(made, tmp_path):
    assert "force" not in json.loads((made["plain"] / "manifest.json").read_text())
    out = stopped(made, "plain", tmp_path, None, ("roster.csv", "0001-*.json"))
    assert resume(made, "plain", out).exit_code == 0
    assert snapshot(out) == snapshot(made["plain"])


def test_force_is_recorded_only_for_a_pin_past_the_range(tmp_path):
    r = run("generate", "--seed", 11, "--count", 2, "--format", "json", "--set", "characteristics.str=14", "--force",
            "-o", tmp_path / "in")
    assert r.exit_code == 0 and "force" not in json.loads((tmp_path / "in" / "manifest.json").read_text())
