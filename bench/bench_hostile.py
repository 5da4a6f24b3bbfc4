"""How long and how much memory each hostile input costs before chargen refuses it.

Run: python bench/bench_hostile.py   (figures only; the tests never assert times)
"""

from __future__ import annotations

import os
import tempfile
import time
import tracemalloc
from pathlib import Path

from chargen.errors import ChargenError
from chargen.rules import load_builtin, load_module
from chargen.rules.yamlio import load_file, load_text

TEMPLATES = {  # a --template-dir's d100.html.j2
    "template: 'x' * 10**10": "{{ 'x' * 10**10 }}",
    "template: nested range loops": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "template: 'x' | center(10**9)": "{{ 'x' | center(10**9) }}",
    "template: '%999999999s' | format": "{{ '%999999999s' | format('x') }}",
    "template: lipsum(n=10**9)": "{{ lipsum(n=10**9) }}",
    "template: doubling with ~": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "template: 2**60 macro calls": "{% macro f(n) %}{% if n %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(60) }}",
    "template: 1 / 0": "{{ 1 / 0 }}",
    "template: include of a 3 GB file": "{% include 'big.html.j2' %}",
}


def alias_bomb() -> str:
    return ("a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
            "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n")


def cases(tmp: Path) -> dict:
    big = tmp / "big.yaml"
    big.write_bytes(b"a: " + b"x" * 2_000_000)
    near = tmp / "near.yaml"  # just under the 1 MB cap: the most a single file can cost
    near.write_text("items:\n" + "  - {id: x, label: y, base: 1}\n" * 31_000)
    overlay = tmp / "dice.yaml"
    overlay.write_text("overlay: d100\nname: x\nchanges:\n  characteristics:\n    set:\n"
                       "      characteristics[id=str].dice: 1000000D1000000\n")
    fifo = tmp / "fifo.yaml"
    os.mkfifo(fifo)
    return {
        "alias bomb (252 bytes)": lambda: load_text(alias_bomb(), "f"),
        "nesting 10,000 deep": lambda: load_text("[" * 10_000 + "]" * 10_000, "f"),
        "2 MB file": lambda: load_file(big),
        "0.98 MB of valid YAML (parsed)": lambda: load_file(near),
        "integer of 5,000 digits": lambda: load_text("n: " + "9" * 5000, "f"),
        "/dev/zero": lambda: load_file(Path("/dev/zero")),
        "named pipe": lambda: load_file(fifo),
        "overlay with 1000000D1000000": lambda: load_module("d100", [overlay]),
        **{name: _template(tmp / f"tpl{n}", body) for n, (name, body) in enumerate(TEMPLATES.items())},
        "sheet: 100,000 HP, 9 tracks (PDF)": _huge_sheet(),
        "--party-name of 131,000 characters": _party_name("x" * 131_000),
        "--party-name with an emoji": _party_name("The \U0001F409 band"),
        **output_cases(tmp),
    }


def output_cases(tmp: Path) -> dict:
    """What is planted in an output folder, a hostile manifest, a batch to stdout (item by item of issue 15)."""
    return {
        "link at .tmp-party.pdf.part (2 sheets)": _planted(tmp / "link", "pdf", os.symlink),
        "named pipe at every temporary name": _planted(tmp / "fifo", "json", lambda _, p: os.mkfifo(p)),
        "manifest with first_index 10**9": _manifest(tmp / "range", first_index=10**9),
        "--resume: 9 files changed or linked": _tampered(tmp / "tampered"),
        "--jobs 256 for one character (PDF)": _many_jobs(tmp / "jobs"),
        "stdout: 20,000 JSON characters": _stdout(tmp / "stdout.json", "json", 20_000),
        "stdout: 1,000 YAML characters": _stdout(tmp / "stdout.yaml", "yaml", 1_000),
    }


def _victim(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    victim = folder / "victim"
    victim.write_text("secret")
    victim.chmod(0o600)
    return victim


def _planted(folder: Path, fmt: str, plant):
    from chargen.run.files import character_stem
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec, SheetOptions

    module = load_builtin("d100")
    victim = _victim(folder)

    def run() -> str:
        out = folder / "out"
        if out.exists():
            for p in out.iterdir():
                p.unlink()
        out.mkdir(exist_ok=True)
        names = [f"{character_stem(i, n)}.{fmt}" for i, n in ((0, "isgerd-frostbeard"), (1, "ulla-millbrook"))]
        for name in names + ["party.pdf", "index.html", "manifest.json"]:
            plant(victim, out / f".tmp-{name}.part")
        run_batch(RunSpec("d100", 42, 0, 2, (fmt,), sheets=SheetOptions(formats=(fmt,), jobs=2)), module, out, jobs=2)
        intact = victim.read_text() == "secret" and victim.stat().st_mode & 0o777 == 0o600
        return "written; victim untouched" if intact else "VICTIM WRITTEN"
    return run


def _manifest(folder: Path, **changes):
    from chargen.run.files import read_manifest
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec

    folder.mkdir()
    run_batch(RunSpec("d100", 3, 0, 2, ("json",)), load_builtin("d100"), folder)
    path = folder / "manifest.json"
    path.write_text(path.read_text().replace('"first_index": 0', f'"first_index": {changes["first_index"]}'))
    return lambda: RunSpec.from_manifest(read_manifest(folder), {}, folder)


def _tampered(folder: Path):
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec

    module = load_builtin("d100")
    folder.mkdir()
    victim = _victim(folder.parent / "tampered-victim")

    def run() -> str:
        (folder / "out").mkdir(exist_ok=True)
        run_batch(RunSpec("d100", 11, 0, 9, ("json",)), module, folder / "out")
        for n, p in enumerate(sorted((folder / "out").glob("0*.json"))):
            p.unlink()
            p.symlink_to(victim) if n % 2 else p.write_text("{}")
        result = run_batch(RunSpec("d100", 11, 0, 9, ("json",)), module, folder / "out", resume=True)
        return f"redone {result.redone}"
    return run


def _many_jobs(folder: Path):
    from chargen.run import sheets as bundle
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec

    module = load_builtin("d100")
    folder.mkdir()

    def run() -> str:
        started = []
        real = bundle._pool
        before = set(Path(tempfile.gettempdir()).glob("chargen-sheets-*"))

        def pool(*args):
            started.append(args[3])
            return real(*args)

        bundle._pool = pool
        try:
            out = Path(tempfile.mkdtemp(dir=folder))
            run_batch(RunSpec("d100", 1, 0, 1, ("pdf",), sheets=bundle.SheetOptions(jobs=256)), module, out)
        finally:
            bundle._pool = real
        left = set(Path(tempfile.gettempdir()).glob("chargen-sheets-*")) - before
        return f"{started[0]} workers started; {len(left)} temporary folders left"
    return run


def _stdout(target: Path, fmt: str, count: int):
    import sys

    from chargen.run.pipeline import Pipeline
    from chargen.run.spec import RunSpec
    from chargen.run.stream import stream

    module = load_builtin("d100")

    def run() -> str:
        real = sys.stdout
        with target.open("w", encoding="utf-8") as sys.stdout:
            try:
                stream(Pipeline(RunSpec("d100", 42, 0, count, (fmt,)), module), sys.stdout)
            finally:
                sys.stdout = real
        return f"streamed {target.stat().st_size / 1e6:.1f} MB"
    return run


def _template(folder: Path, body: str):
    from chargen.generate import make_character
    from chargen.edits import reproduce
    from chargen.render.html import Figured, HtmlRenderer
    from chargen.render.templates import TemplateSet

    folder.mkdir()
    (folder / "d100.html.j2").write_text(body)
    with (folder / "big.html.j2").open("wb") as f:
        f.truncate(3 * 2**30)  # sparse
    doc = make_character(load_builtin("d100"), 42, 7)
    return lambda: HtmlRenderer(TemplateSet.load(folder)).sheet(Figured(doc, {}, reproduce(doc)), False)


def _huge_sheet():
    from chargen.generate import make_character
    from chargen.render.html import HtmlRenderer
    from chargen.render.pdf import PdfMaker
    from chargen.run.figures import figured
    from chargen.render.templates import TemplateSet

    doc = make_character(load_builtin("d100"), 42, 7)
    doc["combat"].update(hit_points=100_000, pow_points=99_999)
    for loc in doc["hit_locations"]:
        loc["hp"] = 99_999
    templates = TemplateSet.load()
    return lambda: PdfMaker(templates).render(HtmlRenderer(templates).sheet(figured(doc), False))


def _party_name(name: str):
    from chargen.render.contain.names import check_party_name
    from chargen.render.templates import TemplateSet

    return lambda: check_party_name(name, TemplateSet.load())


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        print(f"{'input':<38} {'time':>11} {'peak mem':>10}  outcome")
        for name, fn in cases(Path(d)).items():
            t = time.perf_counter()
            outcome = _outcome(fn)
            elapsed = time.perf_counter() - t
            tracemalloc.start()  # a second run for memory: tracing slows it down
            _outcome(fn)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{name:<38} {elapsed * 1000:8.1f} ms {peak / 1e6:7.1f} MB  {outcome}")


def _outcome(fn) -> str:
    try:
        said = fn()
        return said if isinstance(said, str) else "loaded"
    except ChargenError as e:
        return str(e)[:70]


# --- issue 26, the run wing (helper i26-run): manifests on --resume, YAML numbers, --set numbers -------------
# Each input is a whole `python -m chargen` run in a child process: wall time and the peak RSS of the
# largest process of its tree (getrusage RUSAGE_CHILDREN), as a user would see it.

def run_wing_cases(tmp: Path) -> dict:
    import json
    import subprocess
    import sys

    def chargen(*args):
        return [sys.executable, "-m", "chargen", *map(str, args)]

    batch = tmp / "i26-batch"
    subprocess.run(chargen("generate", "--seed", "3", "--count", "2", "-o", batch), check=True, capture_output=True)
    head = (batch / "manifest.json").read_text()
    head = head[:head.index('"characters"')]

    def folder(name: str, manifest: str) -> Path:
        out = tmp / name
        out.mkdir()
        (out / "manifest.json").write_text(manifest)
        return out
    empty180 = folder("i26-180mb", head + '"characters": [' + ",".join(["{}"] * 60_000_000) + "]}\n")
    empty1m = folder("i26-1m", head + '"characters": [' + ",".join(["{}"] * 1_000_000) + "]}\n")
    m = json.loads((batch / "manifest.json").read_text())
    layout = folder("i26-layout", json.dumps({**m, "paper": "a4", "layout": "zzz", "party_name": "P"}))
    deep = folder("i26-deep", json.dumps({**m, "request": {"archetype": "x"}})
                  .replace('"x"', "[" * 900 + "]" * 900))
    party = tmp / "i26-party.yaml"
    party.write_text("name: P\nsystem: d100\nseed: 0x2a\nmembers:\n  - {archetype: bandit, count: 2}\n")
    return {
        "manifest: 180 MB of empty objects": chargen("generate", "-o", empty180, "--resume"),
        "manifest: 1,000,000 empty objects": chargen("generate", "-o", empty1m, "--resume"),
        "manifest: unknown layout": chargen("generate", "-o", layout, "--resume"),
        "manifest: nested 900 deep": chargen("generate", "-o", deep, "--resume"),
        "party file: seed 0x2a": chargen("party", party, "-o", tmp / "i26-party-out"),
        "--set characteristics.str=+16": chargen("generate", "--seed", "1", "--set", "characteristics.str=+16"),
    }


_TREE = ("import json, resource, subprocess, sys, time\nt = time.perf_counter()\n"
         "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
         "print(json.dumps([time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
         " p.returncode, (p.stderr.strip().splitlines() or [''])[-1]]))\n")


def run_wing_main() -> None:
    import json
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as d:
        print(f"\n{'issue 26 run wing: whole run':<38} {'time':>11} {'peak RSS':>10}  outcome")
        for name, args in run_wing_cases(Path(d)).items():
            out = subprocess.run([sys.executable, "-c", _TREE, *args], capture_output=True, text=True).stdout
            seconds, kb, code, said = json.loads(out)
            print(f"{name:<38} {seconds * 1000:8.1f} ms {kb / 1024:7.1f} MB  exit {code}: {said[:90]}")


if __name__ == "__main__":
    main()
    run_wing_main()
