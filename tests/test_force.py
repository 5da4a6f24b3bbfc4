"""--force over another batch (issue 22, point 4): the old batch's files go, two batches never mix."""

import json
from pathlib import Path

from click.testing import CliRunner

from chargen.cli import cli

HEAD = "name: Bandits\nsystem: d100\nseed: 20261201\nformats: [json, csv]\nmembers:\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def listed(folder: Path) -> set[str]:
    m = json.loads((folder / "manifest.json").read_text())
    return {n for c in m["characters"] for n in c["files"].values()} | set(m.get("batch_files", {})) | {"manifest.json"}


def test_party_force_replaces_the_old_party(tmp_path):
    party, out = tmp_path / "p.yaml", tmp_path / "out"
    party.write_text(HEAD + "  - {archetype: bandit_chief, name: Red Ulf}\n  - {archetype: bandit, count: 3}\n")
    assert run("party", party, "-o", out).exit_code == 0
    (out / "notes.txt").write_text("mine")
    old = sorted(p.name for p in out.iterdir() if p.name not in ("manifest.json", "notes.txt"))
    party.write_text(HEAD + "  - {archetype: thief, count: 2}\n  - {archetype: bandit_chief, name: Red Ulf}\n")
    r = run("party", party, "-o", out, "--force")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0] == f"chargen: --force: removed the {len(old)} files of the batch that was in {out}"
    assert {p.name for p in out.iterdir()} == listed(out) | {"notes.txt"}  # the new batch, and what is not chargen's
    assert len(list(out.glob("*red-ulf.json"))) == 1
    r = run("render", *sorted(out.glob("0*.json")), "-o", tmp_path / "sheets", "--format", "html")
    assert r.exit_code == 0, r.output


def test_generate_force_replaces_a_bigger_batch(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--system", "d100", "--seed", "1", "--count", "5", "-o", out).exit_code == 0
    r = run("generate", "--system", "d100", "--seed", "2", "--count", "2", "-o", out, "--force")
    assert r.exit_code == 0, r.output
    assert "removed the 5 files of the batch that was in" in r.stderr
    assert {p.name for p in out.iterdir()} == listed(out) and len(listed(out)) == 3


def test_force_refuses_a_batch_it_cannot_remove_whole(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--system", "d100", "--seed", "1", "--count", "2", "-o", out).exit_code == 0
    stray = out / "0007-someone-else.json"  # written by a run stopped before its manifest listed it
    stray.write_text("{}")
    before = sorted(p.name for p in out.iterdir())
    r = run("generate", "--system", "d100", "--seed", "2", "--count", "2", "-o", out, "--force")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: --force: output folder '{out}' holds chargen files its manifest.json does not list "
                        "(0007-someone-else.json); nothing removed, so that two batches do not mix (remove them "
                        "yourself, or write elsewhere)\n")
    assert sorted(p.name for p in out.iterdir()) == before


def test_force_never_removes_outside_the_folder(tmp_path):
    out, outside = tmp_path / "out", tmp_path / "keep.json"
    outside.write_text("keep")
    assert run("generate", "--system", "d100", "--seed", "1", "--count", "1", "-o", out).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m["characters"][0]["files"]["json"] = "../keep.json"
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "--system", "d100", "--seed", "2", "-o", out, "--force")
    assert r.exit_code == 1 and r.stderr.startswith("Error: --force: ") and r.stderr.count("\n") == 1
    assert "'../keep.json', not a file of the batch in the folder; nothing removed" in r.stderr
    assert outside.read_text() == "keep"
    link = out / m["characters"][0]["files"]["json"].replace("../keep.json", "0000-link.json")
    m["characters"][0]["files"]["json"] = link.name
    (out / "manifest.json").write_text(json.dumps(m))
    link.symlink_to(outside)  # a listed name that is a link: the link goes, never what it points to
    for p in out.glob("0000-*.json"):
        if p != link:
            p.unlink()
    r = run("generate", "--system", "d100", "--seed", "2", "-o", out, "--force")
    assert r.exit_code == 0, r.output
    assert outside.read_text() == "keep" and not link.is_symlink()
