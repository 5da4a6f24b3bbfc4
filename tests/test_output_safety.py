"""What is planted in or around an output folder cannot be written through, hang a run, or pass for
a finished batch: links and pipes at temporary names, a batch killed or stopped mid-sheets, files
changed after they were recorded, two runs into one folder, a manifest's numbers, stray workers and
their temporary folders, and a batch to stdout that would not fit in memory."""

import errno
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests import ctrl_c

from chargen.run import files as output
from chargen.cli import cli
from chargen.render import pdfmerge
from chargen.run import sheets as bundle
from chargen.render.templates import builtin_dir

ROOT = Path(__file__).resolve().parent.parent
STEMS = ("0000-isgerd-frostbeard", "0001-ulla-millbrook")  # d100, seed 42
BATCH = ["generate", "--seed", "42", "--count", "2", "--format", "json,pdf", "--jobs", "2"]
SHEETS = ["generate", "--seed", "9", "--count", "5", "--format", "json,pdf", "--jobs", "2"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def chargen(*args, env=None, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "chargen", *map(str, args)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def every_temporary(folder: Path) -> list[Path]:
    names = [f"{s}.{ext}" for s in STEMS for ext in ("json", "pdf")] + ["party.pdf", "index.html", "manifest.json"]
    return [folder / f".tmp-{n}.part" for n in names]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """The uninterrupted batches, run once for the module (no test changes these folders: a test
    that starts from a complete BATCH works on a copy, :func:`complete_batch`)."""
    out = {}
    for name, args in (("batch", BATCH), ("sheets", SHEETS)):
        folder = tmp_path_factory.mktemp("whole") / name
        assert run(*args, "-o", folder).exit_code == 0
        out[name] = folder
    return out


@pytest.fixture(scope="module")
def whole(made) -> dict[str, dict[str, bytes]]:
    """The uninterrupted batches the stopped ones must end as."""
    return {name: snapshot(folder) for name, folder in made.items()}


def complete_batch(made: dict[str, Path], out: Path) -> None:
    """A complete BATCH in ``out``, as BATCH run into ``out`` leaves it: a copy of the module's
    own run of it (the same bytes, see ``whole``), not a run of its own each time."""
    shutil.copytree(made["batch"], out)


def victim(tmp_path: Path) -> Path:
    v = tmp_path / "victim"
    v.write_text("secret")
    v.chmod(0o600)
    return v


def assert_untouched(v: Path) -> None:
    assert v.read_text() == "secret" and stat.S_IMODE(v.stat().st_mode) == 0o600


# --- 1. links at temporary names -------------------------------------------------------------


@pytest.mark.parametrize("resume", [False, True])
def test_a_link_at_any_temporary_name_is_never_written_through(tmp_path, made, whole, resume):
    v = victim(tmp_path)
    out = tmp_path / "out"
    if resume:  # a batch stopped before its sheets and party.pdf: --resume writes them
        complete_batch(made, out)
        for name in (f"{STEMS[1]}.pdf", "party.pdf", "index.html"):
            (out / name).unlink()
        m = json.loads((out / "manifest.json").read_text())
        m.update(complete=False, characters=m["characters"][:1], batch_files={})
        (out / "manifest.json").write_text(json.dumps(m))
    else:
        out.mkdir()
    for tmp in every_temporary(out):
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(v)
    r = run(*(["generate", "-o", out, "--resume"] if resume else [*BATCH, "-o", out, "--force"]))
    assert r.exit_code == 0, r.output
    assert_untouched(v)
    assert snapshot(out) == whole["batch"] and not any(os.path.islink(p) for p in out.iterdir())


def test_the_party_pdf_writer_refuses_a_link_planted_after_the_removal(tmp_path, monkeypatch):
    """A link planted between removing the temporary name and creating it: O_EXCL fails, nothing written."""
    v = victim(tmp_path)
    tmp = tmp_path / ".tmp-party.pdf.part"
    real_lexists = os.path.lexists

    def plant(path):
        found = real_lexists(path)
        if str(path) == str(tmp) and not real_lexists(tmp):
            tmp.symlink_to(v)
        return found

    monkeypatch.setattr(output.os.path, "lexists", plant)
    with pytest.raises(output.OutputError, match="cannot write in .*File exists"):
        bundle.PartyPdf(tmp_path, bundle.SheetOptions())
    assert_untouched(v)


def test_files_are_created_with_the_usual_mode_through_the_descriptor(made):
    out = made["batch"]  # as BATCH's run created them (the module's run of it; never changed)
    mask = os.umask(0)
    os.umask(mask)
    assert {stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()} == {0o666 & ~mask}


# --- 15. named pipes at temporary names ------------------------------------------------------


@pytest.mark.parametrize("resume", [False, True])
def test_a_named_pipe_at_any_temporary_name_does_not_hang_the_run(tmp_path, made, whole, resume):
    out = tmp_path / "out"
    if resume:
        complete_batch(made, out)
        (out / "party.pdf").unlink()
    else:
        out.mkdir()
    for tmp in every_temporary(out):
        os.mkfifo(tmp)
    args = ["generate", "-o", out, "--resume"] if resume else [*BATCH, "-o", out, "--force"]
    proc = chargen(*args)
    try:
        _, err = proc.communicate(timeout=120)  # a guard against a hang, not a measure of speed
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert snapshot(out) == whole["batch"]


# --- 5. a batch stopped while its sheets are drawn ---------------------------------------------


def wait_for(predicate, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300  # a guard: the batch finishes in seconds
    while not predicate():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_kill_9_while_the_sheets_are_drawn_then_resume_gives_the_same_bytes(tmp_path, whole):
    out = tmp_path / "out"
    scratch = tmp_path / "tmp"  # a killed run's own temporary folders stay behind: not in the real one
    scratch.mkdir()
    proc = chargen(*SHEETS, "-o", out, start_new_session=True, env={"TMPDIR": str(scratch)})
    try:
        wait_for(lambda: out.is_dir() and any(p.suffix == ".pdf" for p in out.iterdir()), proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the process, its fork server and workers
        proc.wait()
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] is False
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert snapshot(out) == whole["sheets"] and temporaries(out) == []


def test_a_full_disk_while_party_pdf_grows_stops_the_batch_and_resume_finishes(tmp_path, monkeypatch, whole):
    out = tmp_path / "out"
    real = pdfmerge.PdfConcatenator._write
    calls = []

    def write(self, data):
        calls.append(len(data))
        if len(calls) > 40:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, data)

    monkeypatch.setattr(pdfmerge.PdfConcatenator, "_write", write)
    r = run(*SHEETS, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 1 and "Error: batch incomplete: No space left on device;" in r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] is False and "party.pdf" not in m["batch_files"] and temporaries(out) == []
    assert run("generate", "-o", out, "--resume").exit_code == 0
    assert snapshot(out) == whole["sheets"] and temporaries(out) == []


def test_a_full_disk_after_some_files_stops_the_batch_and_resume_finishes(tmp_path, monkeypatch, whole):
    out = tmp_path / "out"
    real, written = output.os.replace, []

    def replace(src, dst):
        written.append(dst)
        if len(written) == 5:  # the manifest, then character 0's json, the manifest, ...
            raise OSError(errno.ENOSPC, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(output.os, "replace", replace)
    r = run(*SHEETS, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 1 and "No space left on device" in r.stderr and "batch incomplete" in r.stderr
    assert json.loads((out / "manifest.json").read_text())["complete"] is False and temporaries(out) == []
    assert run("generate", "-o", out, "--resume").exit_code == 0
    assert snapshot(out) == whole["sheets"] and temporaries(out) == []


def test_a_cover_that_fails_leaves_the_batch_incomplete_and_resume_finishes(tmp_path, whole):
    broken, fixed = tmp_path / "broken", tmp_path / "fixed"
    broken.mkdir()
    fixed.mkdir()
    (broken / "cover.html.j2").write_text("{{ 1 / 0 }}")  # only the cover: the sheets are the built-in ones
    (fixed / "cover.html.j2").write_bytes((builtin_dir() / "cover.html.j2").read_bytes())
    out = tmp_path / "out"
    r = run(*SHEETS, "-o", out, "--template-dir", broken)
    assert r.exit_code == 1 and "cover.html.j2:1: ZeroDivisionError" in r.stderr and "batch incomplete" in r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] is False and len(m["characters"]) == 5 and m["batch_files"] == {}
    assert not (out / "party.pdf").exists() and temporaries(out) == []
    assert run("generate", "-o", out, "--resume", "--template-dir", fixed).exit_code == 0
    assert snapshot(out) == whole["sheets"] and temporaries(out) == []


# --- 6. --resume checks what the manifest records --------------------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_resume_makes_again_a_changed_file_and_one_replaced_by_a_link(tmp_path, made, whole):
    v = victim(tmp_path)
    out = tmp_path / "out"
    complete_batch(made, out)
    (out / f"{STEMS[0]}.json").write_text("{}")
    (out / f"{STEMS[1]}.pdf").unlink()
    (out / f"{STEMS[1]}.pdf").symlink_to(v)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0] == ("chargen: resume: made 2 recorded files again "
                                        "(1 changed since written, 1 not a regular file)")
    assert snapshot(out) == whole["batch"]
    assert_untouched(v)


def test_the_redone_line_counts_each_reason(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--seed", "3", "--count", "4", "-o", out).exit_code == 0
    files = sorted(p for p in out.iterdir() if p.name != "manifest.json")
    files[0].write_text("changed")
    files[1].unlink()
    files[2].unlink()
    os.mkfifo(files[2])
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == ("chargen: resume: made 3 recorded files again "
                                        "(1 changed since written, 1 missing, 1 not a regular file)")


def test_an_edited_manifest_pointing_at_a_link_to_a_system_file_is_not_counted_done(tmp_path, made, whole):
    out = tmp_path / "out"
    complete_batch(made, out)
    fake = out / "0001-passwd.json"
    fake.symlink_to("/etc/passwd")
    m = json.loads((out / "manifest.json").read_text())
    m["characters"][1]["files"]["json"] = fake.name
    m["characters"][1]["sha256"]["json"] = sha256(Path("/etc/passwd").read_bytes())
    (out / "manifest.json").write_text(json.dumps(m))
    before = {p.name: os.readlink(p) if p.is_symlink() else p.read_bytes() for p in out.iterdir()}
    r = run("generate", "-o", out, "--resume")
    # issue 26 (finding 5): a file name the run would not write is a changed manifest, refused naming the key
    assert r.exit_code == 1 and r.stderr == (f"Error: {out / 'manifest.json'}: characters[1].files.json: "
                                             "'0001-passwd.json' is not this character's file name\n")
    assert {p.name: os.readlink(p) if p.is_symlink() else p.read_bytes() for p in out.iterdir()} == before


def test_a_complete_batch_with_a_corrupted_file_is_not_already_complete(tmp_path, made, whole):
    out = tmp_path / "out"
    complete_batch(made, out)
    with (out / "party.pdf").open("r+b") as f:
        f.seek(100)
        f.write(b"X")
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == "chargen: resume: made 1 recorded file again (1 changed since written)"
    assert snapshot(out) == whole["batch"]


def test_a_recorded_sha256_that_is_not_one_is_refused(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--seed", "3", "--count", "2", "-o", out).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m["characters"][0]["sha256"]["json"] = "../../etc/passwd"
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.stderr == f"Error: {out / 'manifest.json'}: characters[0].sha256.json: expected a SHA-256 (64 hex digits)\n"


# --- 7. one run at a time in a folder ----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["generate", "--seed", "1", "--count", "2", "--force"],
    ["generate", "--resume"],
    ["render", "--format", "html", "--force"],
])
def test_a_second_run_into_a_locked_folder_fails_at_once(tmp_path, args):
    out = tmp_path / "out"
    assert run("generate", "--seed", "1", "--count", "2", "-o", out).exit_code == 0
    before = snapshot(out)
    if args[0] == "render":
        args = [args[0], *sorted(out.glob("0*.json")), *args[1:]]
    with output.lock_folder(out):  # another run holds it
        r = run(*args, "-o", out)
    assert r.exit_code == 1
    assert r.stderr == (f"Error: output folder '{out}' is in use by another chargen run "
                        "(wait for it to finish, or write elsewhere)\n")
    assert snapshot(out) == before


def test_two_runs_at_once_one_fails_and_the_folder_holds_one_batch(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    first = chargen("generate", "--seed", "1", "--count", "4", "--format", "json,pdf", "--jobs", "1", "-o", out,
                    "--force")
    wait_for(lambda: (out / "manifest.json").exists(), first)
    second = chargen("generate", "--seed", "2", "--count", "4", "-o", out, "--force")
    _, err = second.communicate(timeout=120)
    assert second.returncode == 1 and err.decode().startswith(f"Error: output folder '{out}' is in use")
    first.communicate(timeout=300)
    assert first.returncode == 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["seed"] == 1 and m["complete"] is True
    for c in m["characters"]:
        assert c["sha256"] == {f: sha256((out / n).read_bytes()) for f, n in c["files"].items()}


def test_the_lock_leaves_nothing_in_the_folder(tmp_path):
    out = tmp_path / "out"
    with output.lock_folder(tmp_path):
        pass
    assert list(tmp_path.iterdir()) == []
    assert run("generate", "--seed", "1", "-o", out).exit_code == 0
    assert len(list(out.iterdir())) == 2 and (out / "manifest.json").is_file()


# --- 11. a manifest's numbers and formats ------------------------------------------------------


@pytest.mark.parametrize("key, value, says", [
    ("first_index", 10**9, "first_index: 1,000,000,000 is out of range (expected 0 to 1,000,000)"),
    ("count", 10**6, "count: 1,000,000 is out of range (expected 1 to 100,000)"),
    ("count", 0, "count: 0 is out of range (expected 1 to 100,000)"),
    ("seed", 2**64, "seed: 18,446,744,073,709,551,616 is out of range (expected 0 to 18,446,744,073,709,551,615)"),
    ("seed", -1, "seed: -1 is out of range (expected 0 to 18,446,744,073,709,551,615)"),
    ("seed", 10**300, "seed: an integer of 997 bits is out of range (expected 0 to 18,446,744,073,709,551,615)"),
    ("formats", [""], "formats: unknown format '' (expected some of: json, yaml, html, pdf, csv, text, meg, foundry, "
                      "statblock, foundry_npc)"),  # found by tests/test_fuzz.py: it was a KeyError
])
def test_a_manifest_holds_only_values_generate_accepts(tmp_path, key, value, says):
    out = tmp_path / "out"
    assert run("generate", "--seed", "3", "--count", "2", "-o", out).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m[key] = value
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1 and r.stderr == f"Error: {out / 'manifest.json'}: {says}\n"


def test_a_manifest_listing_more_characters_than_its_count_is_refused(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--seed", "3", "--count", "2", "-o", out).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m["characters"] *= 2
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1 and r.stderr == f"Error: {out / 'manifest.json'}: characters: 4 listed, more than count (2)\n"


def test_a_manifest_listing_a_character_twice_is_refused(tmp_path):
    out = tmp_path / "out"
    assert run("generate", "--seed", "3", "--count", "2", "-o", out).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m["characters"][1] = m["characters"][0]
    (out / "manifest.json").write_text(json.dumps(m))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1 and r.stderr == f"Error: {out / 'manifest.json'}: characters[1].index: 0 is listed twice\n"


# --- 12. workers and their temporary folders -------------------------------------------------


def test_never_more_sheet_workers_than_pieces_of_work(tmp_path, monkeypatch):
    """One worker a character, and one for party.pdf's cover (laid out beside the sheets)."""
    started = []
    real = bundle._pool

    def pool(options, formats, modules, workers, scratch, *recycle):
        started.append(workers)
        return real(options, formats, modules, workers, scratch, *recycle)

    monkeypatch.setattr(bundle, "_pool", pool)
    assert run("generate", "--seed", "1", "--format", "pdf", "--jobs", "256", "-o", tmp_path / "a").exit_code == 0
    assert run("generate", "--seed", "1", "-o", tmp_path / "b").exit_code == 0
    saved = next((tmp_path / "b").glob("0000-*.json"))
    assert run("render", saved, "--format", "html", "--jobs", "64", "-o", tmp_path / "c").exit_code == 0
    assert started == [2, 1]


@pytest.mark.parametrize("args", [
    ["generate", "--seed", "1", "--count", "3", "--format", "json,pdf", "--jobs", "8", "-o", "{out}"],
    ["generate", "--seed", "1", "--format", "pdf"],
])
def test_sheet_runs_leave_nothing_in_the_temporary_folder(tmp_path, args):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = chargen(*[a.format(out=tmp_path / "out") for a in args], env={"TMPDIR": str(scratch)})
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert list(scratch.iterdir()) == []


def test_a_stopped_sheet_batch_leaves_nothing_in_the_temporary_folder(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    out = tmp_path / "out"
    with ctrl_c.as_from_a_terminal():
        proc = chargen(*SHEETS, "-o", out, env={"TMPDIR": str(scratch)})
    wait_for(lambda: out.is_dir() and any(p.suffix == ".pdf" for p in out.iterdir()), proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert list(scratch.iterdir()) == []


# --- 13. a batch to stdout streams ------------------------------------------------------------


def streamed_peak(tmp_path: Path, fmt: str, count: int, monkeypatch) -> tuple[int, int]:
    """tracemalloc's peak while ``count`` characters go to stdout (a file), and the file's size."""
    from chargen.rules import load_builtin
    from chargen.run.pipeline import Pipeline
    from chargen.run.spec import RunSpec
    from chargen.run.stream import stream

    module = load_builtin("d100")
    target = tmp_path / f"{fmt}-{count}"
    with target.open("w", encoding="utf-8") as f:
        monkeypatch.setattr(sys, "stdout", f)
        tracemalloc.start()
        try:
            stream(Pipeline(RunSpec("d100", 42, 0, count, (fmt,)), module), f)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            monkeypatch.undo()
    return peak, target.stat().st_size


# The sizes are the least at which holding the batch fails both memory limits below (tried by making
# stream keep every character: json 50 -> 500 peaks at 19 MB, limits 4 MB and 1.3 MB). yaml's writer
# keeps about 0.5 MB whatever the count, so its large batch must be 3 MB of text for size / 5 to pass.
@pytest.mark.parametrize("fmt, small, large", [("json", 50, 500), ("yaml", 30, 300)])
def test_a_batch_to_stdout_keeps_memory_flat(tmp_path, monkeypatch, fmt, small, large):
    peak_small, size_small = streamed_peak(tmp_path, fmt, small, monkeypatch)
    peak_large, size_large = streamed_peak(tmp_path, fmt, large, monkeypatch)
    assert size_large > 9 * size_small  # ten times the text
    assert peak_large < 1.5 * peak_small + 1_000_000  # not ten times the memory
    assert peak_large < size_large / 5
