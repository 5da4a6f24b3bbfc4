"""A manifest read back on --resume (issue 26, findings 3, 5 and 12): the command that made the
folder is recognised, the whole manifest is checked on every --resume, complete or not (one
``Error:`` line naming the manifest and the key, nothing changed), and a manifest larger or of
more objects than chargen writes is refused before it is parsed."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.run import files as output
from chargen.seeds import MAX_COUNT

ROOT = Path(__file__).parent.parent
PARTY = "name: Bandits\nsystem: d100\nseed: 7\nmembers:\n  - {archetype: bandit, count: 3}\nformats: [json, csv]\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """A complete generate batch (json, html), a complete party (json, csv) and a render folder."""
    base = tmp_path_factory.mktemp("made")
    assert run("generate", "--seed", "3", "--count", "3", "--format", "json,html", "-o", base / "batch").exit_code == 0
    (base / "party.yaml").write_text(PARTY)
    assert run("party", base / "party.yaml", "-o", base / "party").exit_code == 0
    assert run("render", sorted((base / "batch").glob("0000-*.json"))[0], "--format", "html",
               "-o", base / "render").exit_code == 0
    return {"batch": base / "batch", "party": base / "party", "render": base / "render", "file": base / "party.yaml"}


def copy(made, name, tmp_path) -> Path:
    out = tmp_path / name
    shutil.copytree(made[name], out)
    return out


# --- finding 3: resume recognises what made the folder ---------------------------------------------


def test_generate_resume_on_a_party_folder_is_refused_naming_the_party_command(made, tmp_path):
    out = copy(made, "party", tmp_path)
    before = snapshot(out)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == (f"Error: cannot resume: '{out}' holds the party of party.yaml, made by chargen party; "
                        f"finish it with: chargen party party.yaml -o {out} --resume\n")
    assert snapshot(out) == before  # roster.csv and the party record as they were


def test_party_resume_on_a_generate_folder_is_refused_naming_the_generate_command(made, tmp_path):
    out = copy(made, "batch", tmp_path)
    before = snapshot(out)
    r = run("party", made["file"], "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == (f"Error: cannot resume: '{out}' holds a batch made by chargen generate (seed 3, 3 characters), "
                        f"not a party file's; finish it with: chargen generate -o {out} --resume\n")
    assert snapshot(out) == before


@pytest.mark.parametrize("command", ["generate", "party"])
def test_resume_on_a_render_folder_says_render_is_not_resumed(made, tmp_path, command):
    out = copy(made, "render", tmp_path)
    before = snapshot(out)
    r = run(*(["generate"] if command == "generate" else ["party", made["file"]]), "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == (f"Error: cannot resume: '{out}' holds sheets drawn by chargen render, which keeps no "
                        "manifest.json and is not resumed; render them again with --force\n")
    assert snapshot(out) == before


# --- finding 5: the whole manifest, checked on every --resume --------------------------------------

TAMPERED = {
    "layout": (lambda m: m.update(layout="zzz"), "layout: 'zzz' is not one chargen makes"),
    "cards": (lambda m: m.update(layout="card", cards_per_page=1000), "cards_per_page: '1000' is not one chargen makes"),
    "cards on sheets": (lambda m: m.update(cards_per_page=9), "cards_per_page: recorded for layout 'sheet'"),
    "variant": (lambda m: m.update(pdf_variant="garbage"), "pdf_variant: 'garbage' is not one chargen makes"),
    "paper": (lambda m: m.update(paper="tabloid"), "paper: 'tabloid' is not one chargen makes"),
    "control": (lambda m: m.update(party_name="a\x1b[31mred"), "party_name: U+001B is not a character chargen writes"),
    "bidi": (lambda m: m.update(party_name="a\u202ered"), "party_name: U+202E is not a character chargen writes"),
    "archetype": (lambda m: m.update(request={"archetype": "nosuch"}), "request: --archetype: unknown archetype 'nosuch'"),
    "years": (lambda m: m.update(request={"profession": "soldier", "years": "1000D1000"}),
              "request: --years: 1000D1000 can give 1000 to 1000000 years"),
    "pin path": (lambda m: m.update(pins=[["../../x", "1"]]), "pins: --set ../../x: not a path"),
    "pin shape": (lambda m: m.update(pins=[[{"a": 1}, 2]]), "pins[0]: not a pin chargen writes"),
    "requires": (lambda m: m.update(requires=["nonsense>=1"]), "requires: --require nonsense>=1"),
    "unknown key": (lambda m: m.update(zzz=1), "zzz: not a key chargen writes in a manifest"),
    "float": (lambda m: m["system"].update(rules_hash=1.5), "system: expected id, version, rules_hash and overlays"),
    "deep": (lambda m: m.update(request={"archetype": json.loads("[" * 50 + "]" * 50)}),
             "request.archetype[0][0][0][0][0]: nested deeper than a chargen manifest"),
    "entry name": (lambda m: m["characters"][1].update(name="x" * 300), "characters[1].name: expected the character's name"),
    "system key": (lambda m: m["system"].update(extra="x"), "system: expected id, version, rules_hash and overlays"),
}


@pytest.mark.parametrize("complete", [True, False])
@pytest.mark.parametrize("case", list(TAMPERED))
def test_a_tampered_manifest_is_one_error_naming_the_key(made, tmp_path, case, complete):
    out = copy(made, "batch", tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    m["complete"] = complete
    change, message = TAMPERED[case]
    change(m)
    (out / "manifest.json").write_text(json.dumps(m))
    before = snapshot(out)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output.startswith(f"Error: {out / 'manifest.json'}: {message}") and r.output.count("\n") == 1, r.output
    assert snapshot(out) == before


@pytest.mark.parametrize("raw, message", [
    (lambda t: t.replace('"count": 3', '"count": NaN'), "not a chargen manifest (NaN is not a number chargen writes)"),
    (lambda t: t.replace('"seed": 3,', '"seed": 3, "extra": Infinity,'),
     "not a chargen manifest (Infinity is not a number chargen writes)"),
    (lambda t: t.replace('"seed": 3,', '"seed": 3, "seed": 4,'), "not a chargen manifest (key 'seed' twice in one object)"),
    (lambda t: "\ufeff" + t, "not a chargen manifest (Unexpected UTF-8 BOM"),
    (lambda t: t.replace('"chargen": "', '"chargen": "\\ud800'), "chargen: U+D800 is not a character chargen writes"),
])
def test_a_manifest_chargen_would_not_write_is_refused_before_use(made, tmp_path, raw, message):
    out = copy(made, "batch", tmp_path)
    (out / "manifest.json").write_text(raw((out / "manifest.json").read_text()), encoding="utf-8", errors="surrogatepass")
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1 and r.output.startswith(f"Error: {out / 'manifest.json'}: {message}"), r.output


def _entry(m, i):
    return m["characters"][i]


def test_an_entry_renamed_with_its_files_is_refused(made, tmp_path):
    out = copy(made, "batch", tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    e = _entry(m, 1)
    real = e["name"]
    for fmt, name in e["files"].items():
        new = name.replace(name.split(".")[0], "0001-zed-zed")
        (out / name).rename(out / new)
        e["files"][fmt] = new
    e["name"] = "Zed Zed"
    output.write_manifest(out, m)
    before = snapshot(out)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == (f"Error: {out / 'manifest.json'}: characters: the entry of index 1 names 'Zed Zed', but this "
                        f"batch's character 1 is {real!r} (the manifest was changed; make the batch again with --force)\n")
    assert snapshot(out) == before


@pytest.mark.parametrize("complete", [True, False])
def test_an_entry_copied_from_another_is_refused(made, tmp_path, complete):
    out = copy(made, "batch", tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    m["complete"] = complete
    first, second = _entry(m, 0), _entry(m, 1)
    for name in second["files"].values():
        (out / name).unlink()
    copied = json.loads(json.dumps(first))
    copied["index"] = 1
    for fmt, name in first["files"].items():
        copied["files"][fmt] = "0001" + name[4:]
        shutil.copy(out / name, out / copied["files"][fmt])
    m["characters"][1] = copied
    output.write_manifest(out, m)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output.startswith(f"Error: {out / 'manifest.json'}: characters: the entry of index 1 names "
                               f"{first['name']!r}, but this batch's character 1 is {second['name']!r}")


def test_an_untouched_stopped_batch_still_resumes_to_the_same_bytes(made, tmp_path):
    out = copy(made, "batch", tmp_path)
    m = json.loads((out / "manifest.json").read_text())
    gone = m["characters"].pop()
    m["complete"] = False
    for name in gone["files"].values():
        (out / name).unlink()
    output.write_manifest(out, m)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert snapshot(out) == snapshot(made["batch"])


# --- finding 12: the manifest's size and shape, before it is parsed --------------------------------


def test_a_manifest_of_millions_of_empty_objects_is_refused_before_parsing(made, tmp_path, monkeypatch):
    from chargen.run import manifestcheck

    out = copy(made, "batch", tmp_path)
    text = (out / "manifest.json").read_text()
    head = text[:text.index('"characters"')]
    (out / "manifest.json").write_text(head + '"characters": [' + ",".join(["{}"] * 1_000_000) + "]}\n")

    def never(*a, **k):
        raise AssertionError("parsed")
    monkeypatch.setattr(manifestcheck.json, "loads", never)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == (f"Error: {out / 'manifest.json'}: not a chargen manifest (1,000,006 objects and lists, "
                        f"1,000,037 values; a batch of {MAX_COUNT:,} characters has at most 320,000 and 4,100,000)\n")


def test_a_manifest_larger_than_chargen_writes_is_refused_unread(made, tmp_path):
    from chargen.run import manifestcheck

    out = copy(made, "batch", tmp_path)
    with (out / "manifest.json").open("r+b") as f:
        f.truncate(manifestcheck.max_bytes() + 1)  # sparse: nothing read
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.output == f"Error: {out / 'manifest.json'}: file is {manifestcheck.max_bytes() + 1} bytes (at most {manifestcheck.max_bytes()})\n"


def big_manifest(made, count: int, formats: tuple[str, ...], name_length: int) -> dict:
    """A manifest as chargen writes it for ``count`` characters in ``formats`` (names of ``name_length``)."""
    from chargen.formats import FORMATS
    from chargen.run.files import character_stem

    m = json.loads((made["batch"] / "manifest.json").read_text())
    m.update(count=count, formats=list(formats), complete=False)
    entries = []
    for i in range(count):
        name = ("Á" * name_length)[:name_length]
        stem = character_stem(i, name)
        entries.append({"index": i, "name": name, "files": {f: FORMATS[f].file_name(stem) for f in formats
                                                              if FORMATS[f].per_character},
                        "sha256": {f: "a" * 64 for f in formats if FORMATS[f].per_character}})
    m["characters"] = entries
    return m


def test_a_20000_sheet_batch_manifest_is_read(made, tmp_path):
    from chargen.run import manifestcheck

    out = tmp_path / "big"
    out.mkdir()
    output.write_manifest(out, big_manifest(made, 20_000, ("json", "html", "pdf"), 40))
    assert (out / "manifest.json").stat().st_size <= manifestcheck.max_bytes()
    assert len(output.read_manifest(out)["characters"]) == 20_000


def test_the_largest_manifest_chargen_writes_is_within_every_bound(made):
    """MAX_COUNT characters in every format, names of 200 four-byte characters: measured on 1,000 entries."""
    from chargen.formats import FORMATS
    from chargen.run import manifestcheck

    sample = 1_000
    m = big_manifest(made, sample, tuple(FORMATS), 200)
    for e in m["characters"]:
        e["name"] = "\U0001f600" * 200
    head = output.manifest_text({**m, "characters": []}).encode()
    full = output.manifest_text(m).encode()

    def shape(raw):
        bare = manifestcheck._STRING.sub(b'""', raw)
        return len(raw), bare.count(b"{") + bare.count(b"["), bare.count(b",") + bare.count(b":")
    size, containers, values = ((a - b) / sample for a, b in zip(shape(full), shape(head)))
    assert size <= manifestcheck.ENTRY_BYTES and containers <= manifestcheck.ENTRY_CONTAINERS
    assert values <= manifestcheck.ENTRY_VALUES
    assert len(head) + size * MAX_COUNT <= manifestcheck.max_bytes()
