"""Benchmark: a party's PDFs from chargen against headless Chromium printing the same sheets.

    python bench/bench_party.py                      # 50 d100 sheets, 3 alternating runs each
    python bench/bench_party.py --count 200 --runs 3
    python bench/bench_party.py --count 12 --layout block
    python bench/bench_party.py --cold               # only the single-sheet cold start

One side is ``chargen generate --system d100 --seed 42 --count N --format pdf -o DIR``
(N sheet PDFs and party.pdf, a fresh process each run: imports, workers and
all). The other is headless Chromium (Debian's ``chromium`` package) printing
the same N sheets' standalone HTML joined into one document
(``chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer
--print-to-pdf=out.pdf file://.../all.html``, each run with a fresh profile
folder). The two are run alternately, so load from other processes on the
machine falls on both alike; the medians and their ratio (chargen / Chromium:
below 1 means chargen is the quicker) are printed. Without Chromium the
comparison is skipped with a message and only chargen is timed.

``--cold`` (also run by default) times one character's PDF from a cold start,
``chargen generate --system d100 --seed 42 --index 7 --format pdf -o DIR``, and
splits it, in a fresh process of the same steps, into interpreter start,
chargen's imports, rolling the character, importing WeasyPrint, font and
stylesheet set-up, the sheet's HTML, laying it out and writing the PDF.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEED = 42
ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")


def env(root: Path = ROOT) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(root) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def chargen(*args: str, root: Path = ROOT) -> list[str]:
    """The command line of ``chargen`` from the checkout ``root``: its own virtual environment's Python
    where it has one (an editable install maps the package and its templates to its own checkout)."""
    python = root / ".venv" / "bin" / "python"
    return [str(python) if root != ROOT and python.exists() else sys.executable, "-m", "chargen", *args]


CPU: dict[int, list[float]] = {}  # id of a list of wall times -> the CPU seconds of the same runs


def _subreaper() -> bool:
    """Become the parent of orphaned descendants (Linux), so a run's whole process tree is reaped
    here and its CPU time counted (chargen's fork server outlives the main process by a moment)."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


SUBREAPER = _subreaper()


def _reap_all() -> None:
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.02)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], root: Path = ROOT, cpu: list[float] | None = None) -> float:
    """Wall seconds of ``cmd``; its process tree's CPU seconds appended to ``cpu``."""
    before = _cpu()
    start = time.perf_counter()
    # in the checkout's folder: `python -m` puts the current folder first on the module path
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(root), cwd=root)
    wall = time.perf_counter() - start
    _reap_all()
    if cpu is not None:
        cpu.append(_cpu() - before)
    return wall


def find_chromium() -> str | None:
    for name in CHROMIUM:
        path = shutil.which(name)
        if path:
            return path
    return None


def has_option(option: str) -> bool:
    out = subprocess.run(chargen("generate", "--help"), capture_output=True, text=True, env=env(), cwd=ROOT).stdout
    return option in out


def joined_html(folder: Path, out: Path) -> int:
    """The standalone sheets in ``folder`` as one HTML document (the first sheet's head, every
    sheet's <main>, each starting a page); returns how many sheets."""
    sheets = sorted(p for p in folder.glob("[0-9]*.html"))
    first = sheets[0].read_text("utf-8")
    head = first[:first.index("<body")]
    body = re.search(r"<body[^>]*>", first)[0]
    mains = []
    for p in sheets:
        text = p.read_text("utf-8")
        start, end = text.index("<main"), text.rindex("</main>") + len("</main>")
        mains.append(text[start:end])
    style = "<style>main + main { break-before: page; }</style>\n"
    out.write_text(head.replace("</head>", style + "</head>") + body + "\n" + "\n".join(mains) + "\n</body>\n</html>\n",
                   "utf-8")
    return len(sheets)


def side_by_side(count: int, runs: int, layout: str | None, before: Path | None = None) -> None:
    layout_args = ["--layout", layout] if layout else []
    label = f"{count} d100 sheets" + (f", {layout} layout" if layout else "")
    if layout and not has_option("--layout"):
        print(f"{label}: skipped: this chargen has no --layout option yet (issue 12 adds it)")
        return
    browser = find_chromium()
    work = Path(tempfile.mkdtemp(prefix="bench-party-"))
    try:
        base = ["generate", "--system", "d100", "--seed", str(SEED), "--count", str(count), *layout_args]
        html_dir = work / "html"
        subprocess.run(chargen(*base, "--format", "html", "-o", str(html_dir)), check=True,
                       stderr=subprocess.DEVNULL, env=env(), cwd=ROOT)
        joined = work / "all.html"
        joined_html(html_dir, joined)
        ours, theirs, old = [], [], []
        cpu_ours, cpu_theirs, cpu_old = [], [], []
        for run in range(runs):
            if before:
                old.append(timed(chargen(*base, "--format", "pdf", "-o", str(work / "before"), root=before), before, cpu_old))
                shutil.rmtree(work / "before")
            out = work / f"pdf-{run}"
            ours.append(timed(chargen(*base, "--format", "pdf", "-o", str(out)), cpu=cpu_ours))
            pages = _pages(out / "party.pdf")
            shutil.rmtree(out)
            if browser:
                profile = work / f"profile-{run}"
                theirs.append(timed([browser, "--headless", "--no-sandbox", "--disable-gpu",
                                     "--no-pdf-header-footer", f"--user-data-dir={profile}",
                                     f"--print-to-pdf={work / 'chromium.pdf'}", joined.as_uri()], cpu=cpu_theirs))
                shutil.rmtree(profile, ignore_errors=True)
            print(f"  run {run + 1}: " + (f"chargen before {old[-1]:.2f} s, " if before else "")
                  + f"chargen {ours[-1]:.2f} s (party.pdf {pages} pages)"
                  + (f", chromium {theirs[-1]:.2f} s ({_pages(work / 'chromium.pdf')} pages)" if browser else ""),
                  flush=True)
        print(f"{label}: chargen {_spread(ours)}", end="")
        if browser:
            ratio = statistics.median(ours) / statistics.median(theirs)
            print(f"; chromium {_spread(theirs)}; ratio chargen/chromium {ratio:.2f}"
                  f" ({'chargen quicker' if ratio < 1 else 'chromium quicker'})")
            if before:
                print(f"  before ({before}): chargen {_spread(old)}; ratio chargen/chromium "
                      f"{statistics.median(old) / statistics.median(theirs):.2f}")
            if SUBREAPER:
                print(f"  CPU seconds (whole process tree, medians; less moved by other load): chargen "
                      f"{statistics.median(cpu_ours):.2f}, chromium {statistics.median(cpu_theirs):.2f}, ratio "
                      f"{statistics.median(cpu_ours) / statistics.median(cpu_theirs):.2f}"
                      + (f"; before: chargen {statistics.median(cpu_old):.2f}, ratio "
                         f"{statistics.median(cpu_old) / statistics.median(cpu_theirs):.2f}" if before else ""))
        else:
            print("; chromium: skipped: no chromium on PATH (Debian: apt-get install chromium)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s ({min(xs):.2f}-{max(xs):.2f}, {len(xs)} runs)"


def _pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(pdf)).pages)


# --- the cold start of one sheet -------------------------------------------

def child_cold(out: str) -> dict:
    """The steps of ``generate --index 7 --format pdf``, timed one by one in this fresh process."""
    marks = [("start", time.perf_counter())]

    def mark(name: str) -> None:
        marks.append((name, time.perf_counter()))

    import chargen.cli  # noqa: F401 - the command line and what it imports
    from chargen.generate import make_character
    from chargen.rules import load_builtin
    mark("chargen imports")
    doc = make_character(load_builtin("d100"), SEED, 7)
    mark("rules and character")
    import chargen.render.pdf  # noqa: F401 - WeasyPrint
    mark("import WeasyPrint")
    from chargen.run.sheets import SheetRenderer
    renderer = SheetRenderer()
    mark("fonts and stylesheet set-up")
    html = renderer.html(doc, False)
    mark("sheet HTML (Jinja)")
    pdf = renderer.pdf(html, "sheet")
    mark("layout and PDF")
    Path(out).write_bytes(pdf)
    mark("write")
    return {"steps": [(name, marks[i + 1][1] - marks[i][1]) for i, (name, _) in enumerate(marks[1:])]}


def cold(runs: int, before: Path | None = None) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-cold-"))
    single = ("generate", "--system", "d100", "--seed", str(SEED), "--index", "7", "--format", "pdf", "-o")
    try:
        walls, old, interp, steps = [], [], [], []
        for run in range(runs):
            if before:
                old.append(timed(chargen(*single, str(work / f"before-{run}")), before))
            walls.append(timed(chargen(*single, str(work / f"cli-{run}"))))
            interp.append(timed([sys.executable, "-c", "pass"]))
            start = time.perf_counter()
            out = subprocess.run([sys.executable, __file__, "--child-cold", str(work / "x.pdf")], check=True,
                                 capture_output=True, text=True, env=env(), cwd=ROOT).stdout
            total = time.perf_counter() - start
            report = json.loads(out)["steps"]
            report.insert(0, ("interpreter start and exit", total - sum(s for _, s in report)))
            steps.append(report)
        print(f"one sheet from a cold start (--index 7 --format pdf -o DIR: the sheet, party.pdf, index.html): "
              f"{_spread(walls)}" + (f"; before: {_spread(old)}" if before else ""))
        print(f"  (a bare `python -c pass`: {statistics.median(interp):.3f} s)")
        names = [name for name, _ in steps[0]]
        medians = [statistics.median(r[i][1] for r in steps) for i in range(len(names))]
        total = sum(medians)
        startup = sum(m for n, m in zip(names, medians)
                      if n in ("interpreter start and exit", "chargen imports", "import WeasyPrint",
                               "fonts and stylesheet set-up"))
        for name, m in zip(names, medians):
            print(f"  {name:<28} {m:6.3f} s  {100 * m / total:4.0f}%")
        print(f"  start-up (interpreter, imports, font set-up) {startup:.2f} s of {total:.2f} s "
              f"({100 * startup / total:.0f}%), work {total - startup:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, action="append", help="sheets (repeatable; default 50)")
    parser.add_argument("--layout", help="a sheet layout (issue 12's --layout: sheet, block, card)")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs of each side (default 3)")
    parser.add_argument("--before", type=Path, help="a checkout of chargen from before a change: timed too, "
                        "alternating with this one (its chargen/ folder with _templates)")
    parser.add_argument("--cold", action="store_true", help="only the single-sheet cold start")
    parser.add_argument("--no-cold", action="store_true", help="skip the single-sheet cold start")
    parser.add_argument("--child-cold", help=argparse.SUPPRESS)
    a = parser.parse_args()
    if a.child_cold:
        print(json.dumps(child_cold(a.child_cold)))
        return
    print(f"chargen vs headless Chromium, seed {SEED}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
          flush=True)
    if not a.cold:
        for count in a.count or [50]:
            side_by_side(count, a.runs, a.layout, a.before)
    if not a.no_cold:
        cold(a.runs, a.before)


if __name__ == "__main__":
    main()
