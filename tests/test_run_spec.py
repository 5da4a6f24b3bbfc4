"""RunSpec: the manifest's identity (to_manifest, from_manifest, differences), and render/ writing nothing."""

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from chargen.errors import OutputError
from chargen.generate import GenerationRequest
from chargen.run.spec import RunSpec, SheetOptions


@pytest.fixture
def spec(d100):
    sheets = SheetOptions(formats=("pdf",), paper="letter", party_name="The Red Lanterns", layout="card",
                          cards_per_page=9)
    request = GenerationRequest(archetype="bandit", pins=(("identity.name", "Red Ulf"),))
    return RunSpec("d100", 42, 3, 6, ("json", "pdf", "csv"), request, sheets).with_module(d100)


def test_to_manifest_is_the_identity_in_the_manifests_order(spec, d100):
    m = spec.to_manifest()
    assert list(m) == ["schema", "chargen", "character_schema", "system", "seed", "seed_derivation", "first_index",
                       "count", "formats", "request", "paper", "party_name", "layout", "cards_per_page", "pins"]
    assert m["system"]["rules_hash"] == d100.hash and m["first_index"] == 3 and m["count"] == 6
    assert m["cards_per_page"] == 9 and m["pins"] == [["identity.name", "Red Ulf"]]


def test_from_manifest_round_trips(spec):
    again = RunSpec.from_manifest(spec.to_manifest(), {})
    assert again.to_manifest() == spec.to_manifest()
    assert again.differences(spec) == [] and spec.differences(again) == []


def test_data_only_runs_record_the_party_name_only_with_a_batch_file(d100):
    plain = RunSpec("d100", 1, 0, 2, ("json",)).with_module(d100).to_manifest()
    assert "party_name" not in plain and "paper" not in plain
    assert RunSpec("d100", 1, 0, 2, ("json", "csv")).with_module(d100).to_manifest()["party_name"] == "The party"


def test_differences_name_what_changed(spec):
    other = replace(spec, seed=43, formats=("json", "pdf"))
    assert other.differences(spec) == ["seed: 42 in the manifest, 43 now",
                                       "formats: json,pdf,csv in the manifest, json,pdf now"]


def test_from_manifest_refuses_an_option_given_again_differently(spec):
    with pytest.raises(OutputError, match=r"cannot resume: 'out' holds a different batch \(--seed: 42 in the "
                                          r"manifest, 7 now; --paper: letter in the manifest, a4 now\)"):
        RunSpec.from_manifest(spec.to_manifest(), {"seed": 7, "paper": "a4", "count": 6}, Path("out"))


RENDER = Path(__file__).parent.parent / "chargen" / "render"
FORBIDDEN = ("chargen.run", "chargen.output", "chargen.batch", "chargen.manifest", "chargen.party",
             "chargen.readers", "chargen.generate", "chargen.require")


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


@pytest.mark.parametrize("path", sorted(RENDER.rglob("*.py")), ids=lambda p: p.name)
def test_render_writes_no_files_and_runs_nothing(path):
    bad = sorted(n for n in imported(path) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))
    assert bad == []


def test_render_imports_no_edits_or_rules_loading():
    bad = {n for p in RENDER.rglob("*.py") for n in imported(p)
           if n.startswith("chargen.edits") or n.startswith("chargen.rules.saved") or n.startswith("chargen.rules.load")}
    assert bad == set()
