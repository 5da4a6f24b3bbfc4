"""Batches with sheets: one pipeline for every format; a batch stopped while its sheets are drawn
says so in its manifest, and --resume finishes it with the bytes of an uninterrupted run."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests import ctrl_c

from chargen.run import record as recordmod
from chargen.cli import cli
from chargen.render import pdfmerge
from chargen.render.templates import builtin_dir

COUNT = 4
JSON_PDF = ["generate", "--seed", "5", "--count", COUNT, "--format", "json,pdf", "--jobs", "2"]
PDF = ["generate", "--system", "kotm", "--seed", "6", "--count", COUNT, "--format", "pdf", "--jobs", "2"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def watch_manifests(monkeypatch, folder: Path) -> list[tuple[dict, set[str]]]:
    """Every manifest the batch writes, with the names of the files in the folder at that moment."""
    seen = []
    real = recordmod.write_manifest

    def spy(where, manifest):
        real(where, manifest)
        seen.append((json.loads((folder / "manifest.json").read_text()), {p.name for p in folder.iterdir()}))

    monkeypatch.setattr(recordmod, "write_manifest", spy)
    return seen


def assert_true_manifest(manifest: dict, present: set[str], folder: Path | None = None) -> None:
    """Complete only if every file asked for exists; every listed file exists (with its sha256)."""
    listed = [name for c in manifest["characters"] for name in c["files"].values()]
    assert set(listed) <= present and set(manifest["batch_files"]) <= present
    if folder is not None:
        for c in manifest["characters"]:
            assert c["sha256"] == {f: sha256((folder / n).read_bytes()) for f, n in c["files"].items()}
    if manifest["complete"]:
        assert len(manifest["characters"]) == manifest["count"]
        assert {"party.pdf", "index.html"} <= present and set(manifest["batch_files"]) == {"party.pdf", "index.html"}


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> dict[str, dict[str, bytes]]:
    """The uninterrupted runs, with every manifest they wrote checked against the folder."""
    out = {}
    for name, args in (("json,pdf", JSON_PDF), ("pdf", PDF)):
        folder = tmp_path_factory.mktemp("whole") / name
        with pytest.MonkeyPatch.context() as mp:
            seen = watch_manifests(mp, folder)
            assert run(*args, "-o", folder).exit_code == 0
        assert [m["complete"] for m, _ in seen] == [False] * (len(seen) - 1) + [True]
        both = ["party.pdf", "index.html"]
        assert [list(m["batch_files"]) for m, _ in seen[-3:]] == [["party.pdf"], both, both]  # each once written
        for manifest, present in seen:
            assert_true_manifest(manifest, present)
        assert_true_manifest(seen[-1][0], seen[-1][1], folder)
        out[name] = snapshot(folder)
    return out


def interrupt_after(monkeypatch, sheets: int) -> None:
    """Ctrl-C in the main process while it appends sheet ``sheets + 1`` to party.pdf."""
    real = pdfmerge.PdfConcatenator.add
    calls = []

    def add(self, source, bookmark=None, front=False):
        calls.append(source)
        if len(calls) > sheets:
            raise KeyboardInterrupt
        return real(self, source, bookmark, front)

    monkeypatch.setattr(pdfmerge.PdfConcatenator, "add", add)


@pytest.mark.parametrize("kind, args, system, seed", [("json,pdf", JSON_PDF, "d100", 5), ("pdf", PDF, "kotm", 6)])
def test_ctrl_c_while_sheets_are_drawn_then_resume_gives_the_same_bytes(kind, args, system, seed, whole, tmp_path,
                                                                        monkeypatch):
    out = tmp_path / "out"
    interrupt_after(monkeypatch, 2)
    seen = watch_manifests(monkeypatch, out)
    r = run(*args, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 130
    assert r.stderr == (f"Error: batch incomplete: interrupted; 2 of {COUNT} characters complete in '{out}'; "
                        "run the same command with --resume to finish it\n")
    assert seen and not any(m["complete"] for m, _ in seen)  # never said complete
    for manifest, present in seen:
        assert_true_manifest(manifest, present)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["formats"] == kind.split(",") and [c["index"] for c in manifest["characters"]] == [0, 1]
    assert not (out / "party.pdf").exists() and not [p for p in out.iterdir() if p.name.endswith(".part")]
    r = run("generate", "-o", out, "--resume", "--jobs", "1")  # any --jobs: the same bytes
    assert r.exit_code == 0, r.output
    assert r.stderr == (f"chargen: resumed: wrote 2 more {system} characters and 2 sheets (seed {seed}) to {out}; "
                        f"{COUNT} of {COUNT} complete\n")
    assert snapshot(out) == whole[kind]


def test_a_batch_of_sheets_only_records_its_format(whole, tmp_path):
    manifest = json.loads(whole["pdf"]["manifest.json"])
    assert manifest["formats"] == ["pdf"] and manifest["complete"] is True
    assert manifest["characters"][0]["files"] == {"pdf": manifest["characters"][0]["files"]["pdf"]}
    out = tmp_path / "pdf"
    out.mkdir()
    for name, data in whole["pdf"].items():
        (out / name).write_bytes(data)
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0 and r.stderr == f"chargen: the batch in {out} is already complete ({COUNT} characters)\n"


def test_a_lost_sheet_or_party_pdf_is_made_again(whole, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name, data in whole["json,pdf"].items():
        (out / name).write_bytes(data)
    (out / "party.pdf").unlink()
    next(out.glob("0002-*.pdf")).unlink()
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0
    assert "wrote 0 more d100 characters and 1 sheet " in r.stderr
    assert snapshot(out) == whole["json,pdf"]


def test_a_failing_sheet_stops_the_batch_and_resume_finishes_it(tmp_path):
    templates = tmp_path / "tpl"
    shutil.copytree(builtin_dir(), templates, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    sheet = templates / "kotm.html.j2"
    good = sheet.read_text()
    args = ["generate", "--system", "kotm", "--seed", "3", "--count", 3, "--format", "html,pdf",
            "--template-dir", templates, "--jobs", 2]
    assert run(*args, "-o", tmp_path / "whole").exit_code == 0
    sheet.write_text("{% if c.seed.index == 1 %}{{ c.no_such_field }}{% endif %}" + good)
    out = tmp_path / "out"
    r = run(*args, "-o", out)
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: batch incomplete: ") and "no_such_field" in r.stderr
    assert r.stderr.endswith(f"; 1 of 3 characters complete in '{out}'; "
                             "run the same command with --resume to finish it\n")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["batch_files"] == {}
    sheet.write_text(good)
    assert run("generate", "-o", out, "--resume", "--template-dir", templates).exit_code == 0
    assert snapshot(out) == snapshot(tmp_path / "whole")


def test_resume_refuses_other_sheet_options(whole, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name, data in whole["json,pdf"].items():
        (out / name).write_bytes(data)
    for extra, message in ((["--paper", "letter"], "--paper: a4 in the manifest, letter now"),
                           (["--party-name", "Others"], "--party-name: The party in the manifest, Others now"),
                           (["--format", "json"], "--format: json,pdf in the manifest, json now")):
        r = run("generate", "-o", out, "--resume", *extra)
        assert r.exit_code == 1
        assert r.stderr == f"Error: cannot resume: '{out}' holds a different batch ({message})\n"


def test_a_manifest_of_the_earlier_layout_is_refused(tmp_path):
    out = tmp_path / "old"
    assert run("generate", "--seed", "1", "--count", "2", "-o", out).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["sheets"] = {"formats": ["pdf"], "paper": "a4", "party_name": "The party"}
    (out / "manifest.json").write_text(json.dumps(manifest))
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {out / 'manifest.json'}: sheets: a manifest of an earlier chargen, which recorded "
                        "the sheets apart (and could call a batch complete before its sheets were drawn); it cannot "
                        "be resumed: make the batch again with --force\n")


def test_a_real_ctrl_c_while_sheets_are_drawn(whole, tmp_path):
    """SIGINT to a running ``chargen generate`` process once its manifest lists a character."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    args = [str(a) for a in JSON_PDF[:-1]] + ["1", "-o", str(out)]  # --jobs 1: slow enough to stop part-way
    with ctrl_c.as_from_a_terminal():
        proc = subprocess.Popen([sys.executable, "-m", "chargen", *args], env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if json.loads((out / "manifest.json").read_text())["characters"]:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and len(manifest["characters"]) >= 1
    assert f"characters complete in '{out}'; run the same command with --resume to finish it" in err
    assert not (out / "party.pdf").exists()
    assert run("generate", "-o", out, "--resume").exit_code == 0
    assert snapshot(out) == whole["json,pdf"]


def test_the_ctrl_c_tests_give_chargen_ctrl_cs_default_action_where_the_suite_ignores_it():
    """Run as a background job of a script, the suite ignores SIGINT, and so would every chargen it
    starts: the tests above that stop one with SIGINT would see it run on to its end."""
    import signal
    import subprocess
    import sys

    said = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ctrl_c.as_from_a_terminal():
            child = subprocess.run([sys.executable, "-c", said], capture_output=True, text=True)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # this process's own, put back
    finally:
        signal.signal(signal.SIGINT, old)
    assert child.stdout == "True\n", child.stderr


@pytest.mark.parametrize("formats, count", [("json,yaml", 20000), ("json,pdf", 40)])
def test_ctrl_c_to_the_whole_process_group_leaves_complete_files_and_one_line(tmp_path, formats, count):
    """Ctrl-C reaches the workers too (one process group): they leave the stop to the main process,
    which removes what was under a temporary name and prints one line (no 'Process ForkPoolWorker-1:')."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    args = ["generate", "--seed", "3", "--count", str(count), "--format", formats, "--jobs", "2", "-o", str(out)]
    with ctrl_c.as_from_a_terminal():
        proc = subprocess.Popen([sys.executable, "-m", "chargen", *args], env=env, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(list(out.glob("0*"))) < 20:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and err.startswith("Error: batch incomplete: interrupted; "), err
    assert [p.name for p in out.iterdir() if p.name.endswith(".part")] == []


@pytest.mark.parametrize("layout", ["sheet", "block", "card"])
def test_party_pdf_laid_out_beside_the_sheets_is_the_one_laid_out_after_them(tmp_path, monkeypatch, layout):
    """party.pdf's cover (sheet layout) or collection (block, card) is handed to the workers before
    the last sheets are done; the bytes are those of laying it out after every sheet."""
    from chargen.run.sheets import SheetStage

    # 3 characters: with 2 workers, 2 x 2 + 2 = 6 tasks in flight, every sheet of a batch of up to 6 is in
    # flight when the cover or collection is handed out, and 3 keep both workers drawing beside it
    args = ["generate", "--seed", "8", "--count", "3", "--format", "json,pdf", "--layout", layout, "--jobs", "2"]
    assert run(*args, "-o", tmp_path / "early").exit_code == 0
    monkeypatch.setattr(SheetStage, "cover_first", lambda self, in_flight: None)
    monkeypatch.setattr(SheetStage, "collection_first", lambda self, docs: None)
    assert run(*args, "-o", tmp_path / "late").exit_code == 0
    assert snapshot(tmp_path / "early") == snapshot(tmp_path / "late")


def test_a_cover_laid_out_on_a_wrong_guess_is_laid_out_again(tmp_path, monkeypatch):
    """The early cover guesses the page counts of the sheets still in flight; when the guess is
    wrong (here: made wrong on purpose), the cover is laid out again from the true counts."""
    from chargen.run import sheets as bundle

    args = ["generate", "--seed", "8", "--count", "3", "--format", "pdf", "--jobs", "2"]  # 3: as above
    assert run(*args, "-o", tmp_path / "right").exit_code == 0
    real, laid = bundle.PartyPdf.lay_out_cover, []

    def wrong(self, pool, party):
        laid.append(party["sheet_pages"])
        real(self, pool, {**party, "sheet_pages": party["sheet_pages"] + 1})

    monkeypatch.setattr(bundle.PartyPdf, "lay_out_cover", wrong)
    assert run(*args, "-o", tmp_path / "wrong").exit_code == 0
    assert laid == [3]
    assert snapshot(tmp_path / "wrong") == snapshot(tmp_path / "right")


def test_render_lays_out_its_collection_beside_the_blocks_with_the_same_bytes(tmp_path, monkeypatch):
    from chargen.run.sheets import SheetStage

    assert run("generate", "--seed", "8", "--count", "3", "-o", tmp_path / "saved").exit_code == 0
    saved = sorted((tmp_path / "saved").glob("000*.json"))
    args = ["render", *saved, "--format", "pdf", "--layout", "block", "--jobs", "2"]
    assert run(*args, "-o", tmp_path / "early").exit_code == 0
    monkeypatch.setattr(SheetStage, "collection_first", lambda self, docs: None)
    assert run(*args, "-o", tmp_path / "late").exit_code == 0
    assert snapshot(tmp_path / "early") == snapshot(tmp_path / "late")


def test_a_lost_block_and_party_pdf_are_made_again_with_the_same_bytes(tmp_path):
    """--resume in the block layout: the characters done are made again for the encounter sheet,
    which is laid out first, beside the one block still to draw."""
    args = ["generate", "--seed", "8", "--count", "4", "--format", "json,pdf", "--layout", "block", "--each-pdf",
            "--jobs", "2"]
    assert run(*args, "-o", tmp_path / "whole").exit_code == 0
    whole = snapshot(tmp_path / "whole")
    out = tmp_path / "out"
    out.mkdir()
    for name, data in whole.items():
        (out / name).write_bytes(data)
    (out / "party.pdf").unlink()
    next(out.glob("0002-*.pdf")).unlink()
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert snapshot(out) == whole


def test_a_large_collection_is_laid_out_after_the_blocks(tmp_path, monkeypatch):
    """Past EARLY_COLLECTION characters, they are not all made and held first: the collection
    is laid out at the end, as before, with the same bytes."""
    from chargen.run import sheets as bundle

    args = ["generate", "--seed", "8", "--count", "3", "--format", "pdf", "--layout", "card", "--jobs", "2"]
    assert run(*args, "-o", tmp_path / "early").exit_code == 0
    monkeypatch.setattr(bundle, "EARLY_COLLECTION", 2)
    called = []
    monkeypatch.setattr(bundle.SheetStage, "collection_first", lambda self, docs: called.append(docs))
    assert run(*args, "-o", tmp_path / "late").exit_code == 0
    assert called == []
    assert snapshot(tmp_path / "early") == snapshot(tmp_path / "late")


@pytest.mark.parametrize("count, early", [(2, True), (3, False)])
def test_a_cover_of_up_to_six_pages_is_laid_out_beside_the_last_sheets(tmp_path, monkeypatch, count, early):
    """The cover is laid out early (beside the sheets still in flight) when it has at most
    EARLY_COVER (6) pages, else after every sheet; the bytes are the same either way. Here with one
    roster row a page and the bound set to 2 pages, so that 2 and 3 characters (not 6 and 7: 26 sheets
    for the four runs) meet it on either side: 2 make 2 pages, 3 make 3."""
    from chargen.run import partyfiles
    from chargen.run import sheets as bundle

    assert bundle.EARLY_COVER == 6
    monkeypatch.setattr(bundle, "EARLY_COVER", 2)
    monkeypatch.setattr(partyfiles, "ROSTER_ROWS", (1, 1))
    monkeypatch.setattr(bundle, "ROSTER_ROWS", (1, 1))
    real, laid = bundle.PartyPdf.lay_out_cover, []
    monkeypatch.setattr(bundle.PartyPdf, "lay_out_cover",
                        lambda self, pool, party: laid.append(party["count"]) or real(self, pool, party))
    args = ["generate", "--seed", "8", "--count", str(count), "--format", "pdf", "--jobs", "2"]
    assert run(*args, "-o", tmp_path / "early").exit_code == 0
    assert laid == ([count] if early else [])
    monkeypatch.setattr(bundle.SheetStage, "cover_first", lambda self, in_flight: None)
    assert run(*args, "-o", tmp_path / "late").exit_code == 0
    assert snapshot(tmp_path / "early") == snapshot(tmp_path / "late")
    assert pdfmerge.PdfReader(str(tmp_path / "early" / "party.pdf")).get_num_pages() == count + count
