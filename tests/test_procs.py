"""Issue 26, findings 6 and 7, with real processes: SIGTERM or SIGHUP at the sheet phase and at the
data phase stop a run as Ctrl-C does; a sheet worker (generate, render, party), a --jobs data worker
or the fork server killed with SIGKILL ends the run with one line. Each time: one ``Error:`` line,
nothing left under a temporary name in the folder, nothing in the workers' temporary folder (a
private TMPDIR), no process of the run left behind, and ``--resume`` (render: ``--force``) then
finishes to the bytes of an uninterrupted run.

The workers' process ids are read from /proc (children of the chargen process, and the fork
server's children); no hook in the product. The 120 s timeouts detect a hang; no test asserts a time.
"""

from __future__ import annotations

import filecmp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir() or not hasattr(signal, "SIGHUP"),
                                reason="needs Linux's /proc and POSIX signals")

HANG = 120  # seconds: a run still going this long after its worker died hangs
# The stop comes after 2 of 6 sheets (sheet phase: 4 left for two workers, then party.pdf) or 200 of
# 2,000 characters (data phase: 8 chunks of 250 for two workers), so each run is stopped a second or
# more before it could end, and resumed to the end.
SHEETS = ["--seed", "7", "--count", "6", "--format", "pdf,json", "--jobs", "2"]
DATA = ["--seed", "7", "--count", "2000", "--format", "json", "--jobs", "2"]
PARTY = ("name: Six\nsystem: d100\nseed: 5\nmembers:\n  - {archetype: town_guard, count: 6}\n"
         "formats: [pdf]\n")


def chargen(*args: object, tmp: Path, **kw) -> subprocess.Popen:
    """chargen as a user runs it (its own session, so the test can signal its whole group)."""
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.Popen([sys.executable, "-c", "from chargen.cli import main; main()", *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, **kw)


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def fork_server(pid: int) -> int | None:
    return next((c for c in children(pid) if "multiprocessing.forkserver" in cmdline(c)), None)


def sheet_workers(pid: int) -> list[int]:
    server = fork_server(pid)
    return children(server) if server else []


def data_workers(pid: int) -> list[int]:
    return [c for c in children(pid) if "multiprocessing" not in cmdline(c)]  # forked: chargen's own command line


def when(proc: subprocess.Popen, ready, timeout: float = HANG):
    """Poll ``ready()`` until it gives something (the run must still be going)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, f"the run ended before it could be stopped: {proc.stderr.read()}"
        found = ready()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("the run never reached the point to stop it at")


def files(folder: Path, suffix: str) -> int:
    return sum(1 for p in folder.glob(f"*{suffix}")) if folder.is_dir() else 0


def stopped(proc: subprocess.Popen, tmp: Path, folder: Path) -> tuple[int, str]:
    """The run's exit status and its stderr line, after checking it left nothing behind."""
    try:
        _, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"the run still went on {HANG} s after it was stopped") from None
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".")], "a temporary file left in the folder"
    assert not _left(proc.pid), f"processes of the run left behind: {_left(proc.pid)}"
    assert not list(tmp.iterdir()), f"left in the workers' temporary folder: {list(tmp.iterdir())}"
    return proc.returncode, lines[0]


def _left(group: int) -> list[str]:
    """The processes of the run's group still there 10 s after it ended (the fork server and the
    resource tracker end when they see the run's end)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return []
        time.sleep(0.1)
    return [cmdline(p) for p in map(int, filter(str.isdigit, os.listdir("/proc"))) if _group(p) == group]


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def same_folders(a: Path, b: Path) -> None:
    cmp = filecmp.dircmp(a, b)
    assert not cmp.left_only and not cmp.right_only, (cmp.left_only, cmp.right_only)
    names = [p.name for p in a.iterdir()]
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    assert not mismatch and not errors, (mismatch, errors)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Uninterrupted runs to compare with, made on first use: one a command (the sheet phase's
    signal tests and the sheet kills compare with the same run)."""
    made: dict = {}
    base = tmp_path_factory.mktemp("reference")

    def get(*args):
        if args not in made:
            folder = base / f"run{len(made)}"
            proc = chargen(*args, "-o", folder, tmp=base)
            _, err = proc.communicate(timeout=600)
            assert proc.returncode == 0, err
            made[args] = folder
        return made[args]
    return get


@pytest.fixture
def tmp(tmp_path):
    (tmp_path / "tmp").mkdir()
    return tmp_path / "tmp"


# --- finding 6: SIGTERM and SIGHUP ---------------------------------------------------------

STOPS = {  # (what is run, when to stop it)
    "sheet phase": (SHEETS, lambda folder: files(folder, ".pdf") >= 2),
    "data phase": (DATA, lambda folder: files(folder, ".json") >= 200),
}


# Covering rule: every (signal, phase) sent to the group, where the workers, the fork server and the
# resource tracker get the signal too and each signal has its own handling there (SIGTERM ends a worker,
# SIGHUP is ignored or blocked); sent to the process alone, only chargen's one handler for both signals
# sees it: once at each phase, each signal once. Every pair of values occurs; 6 of the 8 combinations.
STOP_CASES = [("group", "sheet phase", signal.SIGTERM), ("group", "sheet phase", signal.SIGHUP),
              ("group", "data phase", signal.SIGTERM), ("group", "data phase", signal.SIGHUP),
              ("process", "sheet phase", signal.SIGTERM), ("process", "data phase", signal.SIGHUP)]


@pytest.mark.parametrize("to, phase, signum", STOP_CASES,
                         ids=[f"{to}-{phase}-{signal.Signals(s).name}" for to, phase, s in STOP_CASES])
def test_a_stop_signal_stops_the_run_as_ctrl_c_does(phase, signum, to, tmp, tmp_path, reference):
    """Sent to chargen alone (``timeout``, ``kill``) or to its whole group (a closed terminal, a shutdown),
    at the sheet phase (the fork server's sheet workers drawing PDFs) and at the data phase (the --jobs
    data workers writing JSON): 6 runs, each stopped and resumed."""
    args, ready = STOPS[phase]
    folder = tmp_path / "out"
    proc = chargen("generate", *args, "-o", folder, tmp=tmp)
    when(proc, lambda: ready(folder))
    (os.kill if to == "process" else os.killpg)(proc.pid, signum)
    status, line = stopped(proc, tmp, folder)
    name = signal.Signals(signum).name
    assert status == 128 + signum  # as a shell reports a process the signal ended (Ctrl-C: 130 = 128 + SIGINT)
    assert line.startswith(f"Error: batch incomplete: stopped by {name}; ") and line.endswith(
        "run the same command with --resume to finish it"), line
    resumed = chargen("generate", *args, "-o", folder, "--resume", tmp=tmp)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    same_folders(folder, reference("generate", *args))


# --- finding 7: a worker that dies ----------------------------------------------------------

def _kill_when(proc: subprocess.Popen, folder: Path, pick, suffix: str, after: int) -> int:
    victim = when(proc, lambda: files(folder, suffix) >= after and pick(proc.pid))
    os.kill(victim, signal.SIGKILL)
    return victim


KILLS = {
    "a sheet worker": (lambda pid: (sheet_workers(pid) or [None])[0], ".pdf", 2,
                       "a sheet worker (process {victim}) was killed by SIGKILL"),
    "the fork server": (lambda pid: fork_server(pid) if sheet_workers(pid) else None, ".pdf", 2,
                        "the fork server of the sheet workers died"),
}


@pytest.mark.parametrize("case", KILLS)
def test_generate_ends_in_one_line_when_a_sheet_process_dies(case, tmp, tmp_path, reference):
    pick, suffix, after, said = KILLS[case]
    folder = tmp_path / "out"
    proc = chargen("generate", *SHEETS, "-o", folder, tmp=tmp)
    victim = _kill_when(proc, folder, pick, suffix, after)
    status, line = stopped(proc, tmp, folder)
    assert status == 1
    assert line.startswith("Error: batch incomplete: " + said.format(victim=victim)), line
    assert " characters complete in " in line and line.endswith("run the same command with --resume to finish it")
    resumed = chargen("generate", *SHEETS, "-o", folder, "--resume", tmp=tmp)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    same_folders(folder, reference("generate", *SHEETS))


def test_a_dead_data_worker_ends_the_run_in_one_line(tmp, tmp_path, reference):
    folder = tmp_path / "out"
    proc = chargen("generate", *DATA, "-o", folder, tmp=tmp)
    victim = _kill_when(proc, folder, lambda pid: (data_workers(pid) or [None])[0], ".json", 200)
    status, line = stopped(proc, tmp, folder)
    assert status == 1
    assert line.startswith(f"Error: batch incomplete: a --jobs data worker (process {victim}) was killed by SIGKILL")
    assert line.endswith("run the same command with --resume to finish it")
    resumed = chargen("generate", *DATA, "-o", folder, "--resume", tmp=tmp)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    same_folders(folder, reference("generate", *DATA))


def test_a_dead_sheet_worker_ends_party_in_one_line(tmp, tmp_path, reference):
    (tmp_path / "p.yaml").write_text(PARTY)
    folder = tmp_path / "out"
    proc = chargen("party", tmp_path / "p.yaml", "-o", folder, tmp=tmp)
    victim = _kill_when(proc, folder, lambda pid: (sheet_workers(pid) or [None])[0], ".pdf", 2)
    status, line = stopped(proc, tmp, folder)
    assert status == 1 and f"a sheet worker (process {victim}) was killed by SIGKILL" in line, line
    assert "--resume" in line
    resumed = chargen("party", tmp_path / "p.yaml", "-o", folder, "--resume", tmp=tmp)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    same_folders(folder, reference("party", tmp_path / "p.yaml"))


def test_a_dead_sheet_worker_ends_render_in_one_line(tmp, tmp_path, reference):
    saved = reference("generate", *SHEETS)  # its six JSON files, as a json-only run of seed 7 writes them
    jsons = sorted(saved.glob("0*.json"))
    folder = tmp_path / "out"
    proc = chargen("render", *jsons, "-o", folder, tmp=tmp)
    victim = _kill_when(proc, folder, lambda pid: (sheet_workers(pid) or [None])[0], ".pdf", 2)
    status, line = stopped(proc, tmp, folder)
    assert status == 1
    assert line.startswith(f"Error: a sheet worker (process {victim}) was killed by SIGKILL"), line
    assert " of 6 sheets drawn in " in line and line.endswith("run the same command with --force to draw them all")
    again = chargen("render", *jsons, "-o", folder, "--force", tmp=tmp)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    whole = tmp_path / "whole"
    proc = chargen("render", *jsons, "-o", whole, tmp=tmp)
    assert proc.communicate(timeout=600) and proc.returncode == 0
    same_folders(folder, whole)


def test_workers_replaced_after_their_tasks_are_not_taken_for_dead(monkeypatch, tmp_path):
    """A worker replaced after RECYCLE sheets ends with status 0 and the run goes on: with one sheet
    a worker, 24 replacements (each one's status read by the pool's thread alone, so never the 255 of a
    race between two readers)."""
    from chargen.rules import load_builtin
    from chargen.run import sheets
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec, SheetOptions

    monkeypatch.setattr(sheets, "RECYCLE", 1)
    spec = RunSpec("d100", 3, 0, 24, ("html",), sheets=SheetOptions(formats=("html",), jobs=2))
    (tmp_path / "out").mkdir()
    result = run_batch(spec, load_builtin("d100"), tmp_path / "out", jobs=2)
    assert result.complete and len(list((tmp_path / "out").glob("0*.html"))) == 24
