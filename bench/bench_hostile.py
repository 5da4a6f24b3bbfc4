"""How long and how much memory each hostile input costs before chargen refuses it.

Run: python bench/bench_hostile.py   (figures only; the tests never assert times)
     python bench/bench_hostile.py processes [NAME PART]   (only issue 26's block of whole process trees)
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


# --- issue 26, findings 1 and 9 (helper i26-html): hostile --template-dir files and templates ---------------
# Each case is a whole `chargen generate` in a subprocess: its time and the peak resident memory of the
# process tree (the child and its waited-for children, from wait4).

ISSUE26_EXPRESSIONS = {  # a --template-dir's d100.html.j2
    "template: c|tojson(indent=10**6)": "{{ c | tojson(indent=10**6) }}",
    "template: bytes.center(10**10)": "{{ 'x'.encode().center(10**10) }}",
    "template: 'x'.encode() * 10**10": "{{ 'x'.encode() * 10**10 }}",
    "template: str.translate x100,000": "{{ ('a' * 1000).translate({97: 'x' * 100000}) }}",
    "template: range(3)|slice(1999999)": "{{ range(3) | slice(1999999) | list }}",
    "template: range(3)|batch(1999999, 0)": "{{ range(3) | batch(1999999, 0) | list }}",
    "standalone: <!-- --!><img src=...> -->": "<!DOCTYPE html><html><head>{{ stylesheet }}</head><body>"
                                              "<!-- x --!><img src=\"http://127.0.0.1:9/x\"> --></body></html>",
    "standalone: <svg><style><img src=...>": "<!DOCTYPE html><html><head>{{ stylesheet }}</head><body>"
                                            "<svg><style><img src=\"http://127.0.0.1:9/x\"></style></svg></body></html>",
}


def _sparse(path: Path, size: int = 3 * 2**30) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.truncate(size)


def issue26_template_cases(tmp: Path) -> dict:
    """name: (templates folder, format) for the hostile files and templates of issue 26."""
    sheet = (Path(__file__).resolve().parent.parent / "templates" / "d100.html.j2").read_text("utf-8")
    cases = {}

    def folder(name: str, fmt: str, files: dict) -> None:
        d = tmp / f"i26-{len(cases)}"
        d.mkdir()
        for rel, content in files.items():
            if content is None:
                _sparse(d / rel)
            else:
                (d / rel).parent.mkdir(parents=True, exist_ok=True)
                (d / rel).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        cases[name] = (d, fmt)

    folder("3 GB sheet.css (html)", "html", {"sheet.css": None})
    folder("3 GB sheet.css (pdf)", "pdf", {"sheet.css": None})
    folder("3 GB layouts.css", "html", {"layouts.css": None})
    folder("3 GB browser.css", "html", {"browser.css": None})
    folder("3 GB font (html)", "html", {"fonts/Karla-Regular.otf": None})
    folder("3 GB font (pdf)", "pdf", {"fonts/Karla-Regular.otf": None})
    folder("Latin-1 sheet.css", "html", {"sheet.css": b"/* caf\xe9 */\nbody { margin: 0; }\n"})
    folder("3 GB asset() in a template", "html", {"big.png": None, "d100.html.j2": sheet.replace(
        "<h2>Notes</h2>", "<h2>Notes</h2><img src=\"{{ asset('big.png') }}\">", 1)})
    folder("3 GB image in a PDF", "pdf", {"big.png": None, "d100.html.j2": sheet.replace(
        "<h2>Notes</h2>", "<h2>Notes</h2><img src=\"big.png\">", 1)})
    for name, body in ISSUE26_EXPRESSIONS.items():
        folder(name, "html", {"d100.html.j2": body})
    return cases


def issue26_run(folder: Path, fmt: str, out: Path) -> tuple[float, int, int, str]:
    """Seconds, peak resident KB (the largest process of the tree, and the sum of every process's peak:
    tests/treepeak.py) and the last line of stderr."""
    import subprocess
    import sys

    peak = Path(__file__).resolve().parent.parent / "tests" / "treepeak.py"
    args = [sys.executable, str(peak), sys.executable, "-m", "chargen", "generate", "--system", "d100", "--seed",
            "42", "--count", "1", "--format", fmt, "--template-dir", str(folder), "-o", str(out), "--jobs", "1"]
    done = subprocess.run(args, capture_output=True, text=True)
    _, largest, total, seconds = done.stdout.split()
    return float(seconds), int(largest), int(total), (done.stderr.strip().splitlines() or [""])[-1]


def main_issue26_templates() -> None:
    with tempfile.TemporaryDirectory() as d:
        print("\nissue 26 (findings 1, 9): whole `chargen generate` runs, time and peak memory of the process tree")
        print(f"{'input':<42} {'time':>8} {'peak mem':>10} {'(sum)':>9}  outcome")
        for n, (name, (folder, fmt)) in enumerate(issue26_template_cases(Path(d)).items()):
            seconds, largest, total, said = issue26_run(folder, fmt, Path(d) / f"out{n}")
            shown = said.replace(str(folder), "<dir>")
            print(f"{name:<42} {seconds:6.2f} s {largest / 1024:7.1f} MB {total / 1024:6.1f} MB  {shown[:100]}")


# --- issue 26 (i26-proc): read back, signals, dead workers; whole process trees ----------------
# Each input is one chargen command in a subprocess of its own session; the figures are its wall
# time (for a stop or a kill: from the signal to the end) and the peak of the summed RSS of every
# process of that session (/proc polled every 20 ms). The hostile PDFs are built by tests/hostile_pdfs.py.

def process_cases(tmp: Path) -> dict:
    """name -> (setup() -> (argv, stop), where stop(proc, folder) signals the run or is None)."""
    import json
    import shutil
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests import hostile_pdfs as H

    def prepared():
        base = tmp / "base"
        if not base.exists():
            _chargen("generate", "--seed", "1", "--count", "2", "--format", "pdf", "-o", base)
            _chargen("generate", "--seed", "1", "--format", "json", "-o", tmp / "one")
        return base, next(base.glob("0000-*.pdf")).read_bytes(), json.loads(next((tmp / "one").glob("0*.json")).read_text())

    def pdf(name, make, read_only=False):
        """``chargen render`` of the PDF; ``read_only``: only what render does before any sheet (every
        character read and validated, :func:`chargen.run.saved.plan`), for inputs it would then draw."""
        def setup():
            base, sheet, doc = prepared()
            make(tmp / name, sheet, doc)
            if read_only:
                return [READ_ONLY, tmp / name, "-o", tmp / f"out-{name}"], None
            return ["render", tmp / name, "--format", "html", "-o", tmp / f"out-{name}"], None
        return setup

    def resume(name, make):
        def setup():
            base, _, _ = prepared()
            folder = tmp / f"resume-{name}"
            shutil.copytree(base, folder)
            H.plant(folder, next(folder.glob("0001-*.pdf")).name, make(tmp / f"{name}.pdf"))
            return ["generate", "--seed", "1", "--count", "2", "--format", "pdf", "-o", folder, "--resume"], None
        return setup

    def text(name, body):
        def setup():
            _, _, doc = prepared()
            (tmp / name).write_text(body(doc))
            return ["render", tmp / name, "-o", tmp / f"out-{name}"], None
        return setup

    def stopped(name, args, stop, after):
        def setup():
            return [*args, "-o", tmp / f"out-{name}"], lambda proc, folder: _stop_after(proc, folder, stop, after)
        return setup

    sheets = ["generate", "--seed", "7", "--count", "16", "--format", "pdf", "--jobs", "2"]
    return {
        "PDF: one character embedded 2,000 times": pdf("same.pdf", lambda p, s, d: H.embedding(
            p, s, [json.dumps(d).encode()] * 2000)),
        "PDF: one stream named 2,000 times": pdf("names.pdf", lambda p, s, d: H.one_stream_many_names(
            p, s, json.dumps(d).encode(), 2000)),
        "PDF: 5,000 distinct characters (read)": pdf("distinct.pdf", lambda p, s, d: H.embedding(
            p, s, H.distinct_docs(d, 5000)), read_only=True),
        "PDF: embedded JSON nested 900 deep": pdf("deep.pdf", lambda p, s, d: H.embedding(p, s, [H.deep_json(d)])),
        "PDF: 1,000 characters (legit, read)": pdf("party.pdf", lambda p, s, d: H.embedding(
            p, s, H.distinct_docs(d, 1000)), read_only=True),
        "--resume: deep page tree": resume("deep-tree", H.deep_page_tree),
        "--resume: one page 200,000 times": resume("many", H.one_page_many_times),
        "--resume: garbage PDF": resume("garbage", H.garbage),
        "--resume: 3 GB sparse PDF": resume("sparse", H.sparse),
        "JSON nested 900 deep": text("deep.json", lambda d: H.deep_json(d).decode()),
        "lone surrogate in a name": text("surrogate.json", lambda d: json.dumps(
            {**d, "identity": {**d["identity"], "name": "Bad\ud800"}})),
        "SIGTERM in the sheet phase (16 PDFs)": stopped("term", sheets, "SIGTERM", 2),
        "SIGHUP to the group, data phase (6,000 json)": stopped(
            "hup", ["generate", "--seed", "7", "--count", "6000", "--format", "json", "--jobs", "2"], "SIGHUP", 200),
        "kill -9 of a sheet worker (16 PDFs)": stopped("kill", sheets, "worker", 2),
        "kill -9 of the fork server (16 PDFs)": stopped("server", sheets, "server", 2),
    }


READ_ONLY = "(read only)"  # argv[0] of a case that runs render's reading phase alone
_READ = ("import sys; from pathlib import Path; from chargen.errors import ChargenError; from chargen.run.saved import plan\n"
         "try: print(len(plan([Path(sys.argv[1])])), 'characters read', file=sys.stderr)\n"
         "except ChargenError as e: sys.exit(f'Error: {e}')")


def _chargen(*args, session: bool = False):
    import subprocess
    import sys

    code = "from chargen.cli import main; main()"
    if args and args[0] == READ_ONLY:
        code, args = _READ, args[1:2]
    argv = [sys.executable, "-c", code, *map(str, args)]
    if session:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    return subprocess.run(argv, capture_output=True)


def _tree_rss(group: int) -> int:
    total = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == group:
                    total += int(Path(f"/proc/{entry}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError):
                pass
    return total


def _stop_after(proc, folder: Path, how: str, after: int) -> float:
    """Wait until ``folder`` holds ``after`` files, then send the stop; the time it was sent."""
    import signal

    while proc.poll() is None and (not folder.is_dir() or sum(1 for _ in folder.iterdir()) < after):
        time.sleep(0.02)
    children = lambda pid: [int(c) for t in Path(f"/proc/{pid}/task").glob("*")  # noqa: E731
                            for c in (t / "children").read_text().split()]
    try:
        if how in ("SIGTERM", "SIGHUP"):
            (os.kill if how == "SIGTERM" else os.killpg)(proc.pid, getattr(signal, how))
        else:
            server = next(c for c in children(proc.pid) if b"forkserver" in Path(f"/proc/{c}/cmdline").read_bytes())
            os.kill(server if how == "server" else children(server)[0], signal.SIGKILL)
    except (OSError, StopIteration):
        return float("nan")  # it ended first
    return time.perf_counter()


def main_processes(only: str = "") -> None:
    """The block's cases (those whose name holds ``only``)."""
    with tempfile.TemporaryDirectory() as d:
        print(f"\n{'input (whole process tree)':<44} {'time':>9} {'tree peak':>10}  outcome")
        for name, setup in process_cases(Path(d)).items():
            if only not in name:
                continue
            argv, stop = setup()
            folder = Path(argv[argv.index("-o") + 1])
            argv = argv[:2] if argv[0] == READ_ONLY else argv
            t = time.perf_counter()
            proc = _chargen(*argv, session=True)
            peak, since = 0, t
            if stop is not None:
                import threading

                box = []
                threading.Thread(target=lambda: box.append(stop(proc, folder)), daemon=True).start()
            while proc.poll() is None:
                peak = max(peak, _tree_rss(proc.pid))
                time.sleep(0.02)
            err = proc.stderr.read().strip().splitlines()
            if stop is not None and box and box[0] == box[0]:
                since = box[0]
            elapsed = time.perf_counter() - since
            outcome = f"exit {proc.returncode}: " + (err[-1][:90] if err else "")
            print(f"{name:<44} {elapsed:7.2f} s {peak / 1e6:7.0f} MB  {outcome}", flush=True)


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
    import sys

    if sys.argv[1:2] != ["processes"]:  # python bench/bench_hostile.py processes [NAME PART]: issue 26's block
        main()
        main_issue26_templates()
        run_wing_main()
    main_processes(" ".join(sys.argv[2:]))
