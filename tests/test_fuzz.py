"""Property-based fuzzing: whatever the overlay, character file, manifest or options,
never a traceback, never a partial file, never a write outside the output folder.

Example counts are kept small so the suite stays quick; multiply them with
``CHARGEN_FUZZ_SCALE=20`` when hunting.
"""

import contextlib
import copy
import json
import os
import shutil
import tempfile
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from chargen.cli import cli
from chargen.errors import ChargenError, CharacterError
from chargen.generate import make_character
from chargen.rules import load_builtin, load_module
from chargen.serialize import parse_document, to_json, to_yaml, validate

SCALE = int(os.environ.get("CHARGEN_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None, suppress_health_check=list(HealthCheck))


BASE = load_builtin("d100").data


def _paths(node, prefix=""):
    """Every (path, value) of the d100 data, in overlay path syntax."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        if isinstance(node, dict):
            p = f"{prefix}.{k}" if prefix else str(k)
        else:
            p = prefix + (f"[id={v['id']}]" if isinstance(v, dict) and "id" in v else f"[{k}]")
        out.append((p, v))
        out += _paths(v, p)
    return out


ALL = [(stem, p, v) for stem in BASE for p, v in _paths(BASE[stem])]
LEAVES = [x for x in ALL if not isinstance(x[2], (list, dict))]
LISTS = [x for x in ALL if isinstance(x[2], list) and x[2]]
MAPS = [x for x in ALL if isinstance(x[2], dict)]

dice = st.builds(lambda n, s, c: f"{n}D{s}" + (f"+{c}" if c else ""),
                 st.integers(1, 12), st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]), st.integers(0, 12))
hostile = st.sampled_from(["1000000D1000000", "1000D1000", "<script>alert(1)</script>", "../../etc/passwd",
                           "\x07bell", "", " ", "0", "00", "1-100", "20+", "{given}", 10**400, -10**400, 1e308,
                           float("inf"), None, True, [], {}, "D%", "-1D4", "1-6", "6-1"])
scalar = st.one_of(st.integers(-2000, 2000), st.text(max_size=12), dice, hostile)
value = st.recursive(scalar, lambda ch: st.one_of(st.lists(ch, max_size=3),
                                                  st.dictionaries(st.sampled_from(["id", "label", "base", "dice",
                                                                                   "category", "roll", "x"]), ch,
                                                  max_size=4)), max_leaves=8)


def _near(old, benign: bool):
    """A value like ``old``: plausible when ``benign``, sometimes hostile otherwise."""
    if isinstance(old, bool):
        return st.booleans() if benign else st.booleans() | hostile
    if isinstance(old, int):
        return st.integers(min(old, max(0, old - 5)), old + 5) if benign else st.integers(-50, 200) | st.integers() | hostile
    if isinstance(old, str):
        return st.just(old) | dice if benign else \
            dice | st.sampled_from(["1-6", "01-30", "00", "{given} {byname}", "Ragna"]) | hostile
    return st.just(old) if benign else value


@st.composite
def overlays(draw) -> dict:
    """Half the time plausible house rules (most load), half the time anything (most are refused)."""
    benign = draw(st.booleans())
    changes: dict = {}
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["set", "set", "add", "remove"] + ([] if benign else ["bad"])))
        if kind == "set":
            stem, path, old = draw(st.sampled_from(LEAVES))
            v = draw(_near(old, benign))
        elif kind == "remove":
            stem, path, old = draw(st.sampled_from(LISTS + MAPS))
            keys = list(old) if isinstance(old, dict) else [e.get("id", "?") if isinstance(e, dict) else e for e in old]
            names = st.sampled_from([str(k) for k in keys])
            v = draw(st.lists(names if benign else names | st.text(max_size=5), min_size=1, max_size=3, unique=True))
        elif kind == "add":
            stem, path, old = draw(st.sampled_from(LISTS))
            entry = copy.deepcopy(draw(st.sampled_from(old)))
            if isinstance(entry, dict) and "id" in entry:
                entry["id"] = draw(st.sampled_from(["newcomer", "x2"] + ([] if benign else [entry["id"]])))
            elif isinstance(entry, str):
                entry += draw(st.sampled_from(["a", "son", " II"]))
            v = [entry if benign else draw(st.just(entry) | value)]
        else:
            stem, kind = draw(st.sampled_from(list(BASE) + ["nosuchfile"])), draw(st.sampled_from(["set", "add", "remove"]))
            path, v = draw(st.text(max_size=20)), draw(value)
        changes.setdefault(stem, {}).setdefault(kind, {})[path] = v
    target = "d100" if benign else draw(st.sampled_from(["d100", "d100", "kotm"]))
    return {"overlay": target, "name": draw(st.text(max_size=30) | st.just("x")), "changes": changes}


def _dump(data) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@fuzz(150)
@given(overlays(), st.integers(0, 2**64 - 1))
def test_any_overlay_is_a_rules_error_or_makes_valid_characters(overlay, seed):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "o.yaml"
        path.write_text(_dump(overlay), encoding="utf-8")
        try:
            module = load_module("d100", [path])
        except ChargenError as e:
            assert str(e) and "\n" not in str(e).split(" (and ")[0]
            event("refused")
            return
    event("loaded")
    for i in range(3):
        doc = make_character(module, seed, i)
        validate(doc)  # every character a loadable module makes fits the schema
        assert parse_document(to_yaml(doc), "c.yaml") == parse_document(to_json(doc), "c.json") == doc


# -- the CLI ---------------------------------------------------------------------------


@contextlib.contextmanager
def sandbox():
    """A fresh folder five levels deep, as the working directory: '..' in -o stays inside it."""
    root = Path(tempfile.mkdtemp())
    work = root / "a" / "b" / "c" / "d" / "e"
    work.mkdir(parents=True)
    old = os.getcwd()
    os.chdir(work)
    try:
        yield root, work
    finally:
        os.chdir(old)
        shutil.rmtree(root)


def _files(root: Path) -> dict[Path, tuple]:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def _invoke_and_check(root: Path, work: Path, args: list[str], output: str | None):
    before = _files(root)
    r = CliRunner().invoke(cli, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    assert r.exit_code in (0, 1, 2)
    if r.exit_code:
        assert r.stderr.startswith(("Error: ", "Usage: ", "chargen: ")), r.stderr
        assert "Traceback" not in r.output
    changed = [p for p, s in _files(root).items() if before.get(p) != s]
    assert not [p for p in changed if p.name.endswith(".part")]
    if output is not None:
        folder = (work / output).resolve()
        assert all(p.parent.resolve() == folder for p in changed), (changed, folder)
        for p in changed:
            if p.suffix == ".json":
                json.loads(p.read_text())
            elif p.suffix == ".yaml":
                yaml.safe_load(p.read_text())
    else:
        assert not changed
    return r


segments = st.sampled_from(["out", "..", ".", "party", "a b", "-o", "~", "nul", "CON", "😀", "x" * 60, "y" * 300])
outputs = st.lists(segments, min_size=1, max_size=3).map("/".join)
format_values = st.sampled_from(["json", "yaml", "json,yaml", "JSON", "pdf", "../x", "", ",", "json,json"])
numbers = st.sampled_from(["0", "1", "3", "-1", "1e3", "18446744073709551616", "abc", "", "0x10"])


@st.composite
def generate_args(draw) -> tuple[list[str], str | None]:
    args = ["generate"]
    output = None
    for option in draw(st.lists(st.sampled_from(["--seed", "--count", "--index", "--format", "-o", "--force",
                                                 "--resume", "--system", "--rules"]), max_size=6, unique=True)):
        if option in ("--force", "--resume"):
            args.append(option)
        elif option == "-o":
            output = draw(outputs)
            args += [option, output]
        elif option == "--format":
            args += [option, draw(format_values)]
        elif option == "--system":
            args += [option, draw(st.sampled_from(["d100", "D100", "../d100", "kotm", ""]))]
        elif option == "--rules":
            args += [option, draw(st.sampled_from(["good.yaml", "bad.yaml", "bin.yaml", "none.yaml", ".", "/dev/zero"]))]
        elif option == "--count":
            args += [option, draw(st.sampled_from(["1", "2", "3", "0", "-2", "x"]))]
        else:
            args += [option, draw(numbers)]
    return args, output


GOOD = "overlay: d100\nname: Tall\nchanges:\n  characteristics:\n    set:\n      characteristics[id=siz].dice: 2D6+6\n"
BAD = "overlay: d100\nname: Bad\nchanges:\n  characteristics:\n    set:\n      characteristics[id=siz].dice: 9D9999\n"


@fuzz(60)
@given(generate_args(), st.booleans())
def test_any_generate_options_are_a_clean_result(case, second_run):
    args, output = case
    with sandbox() as (root, work):
        (work / "good.yaml").write_text(GOOD)
        (work / "bad.yaml").write_text(BAD)
        (work / "bin.yaml").write_bytes(b"\x00\xff" * 10)
        _invoke_and_check(root, work, args, output)
        if second_run:  # the same command again: resume, refuse a non-empty folder, or replace with --force
            _invoke_and_check(root, work, args, output)


@fuzz(25)
@given(overlays())
def test_any_overlay_through_the_cli_writes_whole_files_inside_the_folder(overlay):
    with sandbox() as (root, work):
        (work / "o.yaml").write_text(_dump(overlay), encoding="utf-8")
        _invoke_and_check(root, work, ["generate", "--rules", "o.yaml", "--seed", "5", "--count", "3",
                                       "--format", "json,yaml", "-o", "out"], "out")
        _invoke_and_check(root, work, ["rules", "check", "o.yaml"], None)
        _invoke_and_check(root, work, ["rules", "show", "d100", "--rules", "o.yaml"], None)


# -- files chargen reads back ------------------------------------------------------------

SAMPLE = make_character(load_builtin("d100"), 1, 0)


def _mutated(draw) -> object:
    doc = copy.deepcopy(SAMPLE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from([p for _, p, _ in [("", p, v) for p, v in _paths(doc)]] or ["schema"]))
        node, keys = doc, path.replace("[", ".[").split(".")
        for k in keys[:-1]:
            if isinstance(node, dict) and k in node:
                node = node[k]
        last = keys[-1]
        if isinstance(node, dict) and last in node:
            node[last] = draw(value)
    return doc


@fuzz(150)
@given(st.data())
def test_any_character_file_is_a_character_or_a_character_error(data):
    kind = data.draw(st.sampled_from(["text", "json", "yaml", "bytes"]))
    if kind == "text":
        text = data.draw(st.text(max_size=200))
    elif kind == "bytes":
        text = data.draw(st.binary(max_size=200)).decode("utf-8", "replace")
    else:
        doc = _mutated(data.draw)
        text = json.dumps(doc) if kind == "json" else yaml.safe_dump(doc)
    try:
        doc = parse_document(text, "c")
    except CharacterError as e:
        assert str(e).startswith("c")
        return
    validate(doc)


@fuzz(40)
@given(st.data())
def test_any_manifest_is_resumed_or_refused_cleanly(data):
    with sandbox() as (root, work):
        out = work / "out"
        r = CliRunner().invoke(cli, ["generate", "--seed", "2", "--count", "3", "-o", "out"])
        assert r.exit_code == 0
        m = json.loads((out / "manifest.json").read_text())
        m["complete"] = False
        key = data.draw(st.sampled_from(list(m)))
        if key == "characters" and data.draw(st.booleans()):
            entry = data.draw(st.sampled_from(m["characters"]))
            field = data.draw(st.sampled_from(list(entry)))
            entry[field] = data.draw(value | st.just({"json": "../../escape.json"}))
        else:
            m[key] = data.draw(value)
        text = json.dumps(m) if data.draw(st.booleans()) else data.draw(st.text(max_size=50))
        (out / "manifest.json").write_text(text, encoding="utf-8")
        _invoke_and_check(root, work, ["generate", "-o", "out", "--resume"], "out")
