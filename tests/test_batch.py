"""Batches: atomic files, a manifest that says what is done, interruption and --resume."""

import errno
import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.run import pipeline as batchmod
from chargen.run import writer as writermod
from chargen.run import files as output
from chargen.run.pipeline import BatchIncomplete, run_batch
from chargen.run.spec import RunSpec
from chargen.cli import cli
from chargen.errors import ChargenError, OutputError
from chargen.formats import FORMATS, Format, register
from chargen.serialize import parse_document

ARGS = ["generate", "--seed", "11", "--count", "9", "--format", "json,yaml"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def fail_on(monkeypatch, prefix: str, exc: BaseException):
    """Make the rename that completes the first file whose name starts with ``prefix`` raise ``exc``."""
    real = os.replace

    def replace(src, dst):
        if Path(dst).name.startswith(prefix):
            raise exc
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", replace)


def assert_only_complete_files(folder: Path) -> dict:
    """No temporaries; every file is whole; the manifest lists exactly the complete characters."""
    names = sorted(p.name for p in folder.iterdir())
    assert not [n for n in names if n.endswith(".part")]
    m = json.loads((folder / "manifest.json").read_text())
    for entry in m["characters"]:
        for fmt, name in entry["files"].items():
            doc = parse_document((folder / name).read_text(), name)
            assert doc["seed"]["index"] == entry["index"]
    return m


@pytest.fixture
def whole(tmp_path) -> dict[str, bytes]:
    r = run(*ARGS, "-o", tmp_path / "whole")
    assert r.exit_code == 0
    return snapshot(tmp_path / "whole")


def test_a_full_disk_stops_the_batch_cleanly_and_resume_finishes_it_byte_for_byte(tmp_path, monkeypatch, whole):
    out = tmp_path / "out"
    out.mkdir()
    # the first rename is the manifest; then two files per character: the 12th is character 5's json
    fail_on(monkeypatch, "0005-", OSError(errno.ENOSPC, "No space left on device"))
    r = run(*ARGS, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 1
    name = next(n for n in whole if n.startswith("0005-") and n.endswith(".json"))
    assert r.stderr == (f"Error: batch incomplete: cannot write '{out / name}': No space left on device; "
                        f"5 of 9 characters complete in '{out}'; run the same command with --resume to finish it\n")
    m = assert_only_complete_files(out)
    assert m["complete"] is False and [e["index"] for e in m["characters"]] == [0, 1, 2, 3, 4]
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0
    assert r.stderr == f"chargen: resumed: wrote 4 more d100 characters (seed 11) to {out}; 9 of 9 complete\n"
    assert snapshot(out) == whole


def test_ctrl_c_exits_130_and_resume_finishes(tmp_path, monkeypatch, whole):
    out = tmp_path / "out"
    fail_on(monkeypatch, "0003-", KeyboardInterrupt())
    r = run(*ARGS, "-o", out)
    monkeypatch.undo()
    assert r.exit_code == 130
    assert r.stderr == (f"Error: batch incomplete: interrupted; 3 of 9 characters complete in '{out}'; "
                        "run the same command with --resume to finish it\n")
    assert len(assert_only_complete_files(out)["characters"]) == 3
    assert run(*ARGS, "-o", out, "--resume").exit_code == 0  # the same command, --resume added
    assert snapshot(out) == whole


def test_resume_twice_and_on_a_complete_batch_changes_nothing(tmp_path, whole):
    out = tmp_path / "whole"
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0 and r.stderr == f"chargen: the batch in {out} is already complete (9 characters)\n"
    assert snapshot(out) == whole


class Failing(Format):
    """A data format whose character 2 fails (as a sheet template might)."""

    name, suffix = "failing", ".fail"
    fail = True

    def to_bytes(self, doc, renderer=None):
        if doc["seed"]["index"] == 2 and Failing.fail:
            raise ChargenError("sheet template: 'skills' is undefined")
        return b"<html></html>"


def test_a_failing_format_stops_the_batch(tmp_path, d100):
    register(Failing())
    try:
        with pytest.raises(BatchIncomplete) as e:
            run_batch(RunSpec("d100", 5, 0, 4, ("json", "failing")), d100, tmp_path)
        assert str(e.value) == (f"batch incomplete: sheet template: 'skills' is undefined; 2 of 4 characters "
                                f"complete in '{tmp_path}'; run the same command with --resume to finish it")
        assert (e.value.done, e.value.total, e.value.exit_code) == (2, 4, 1)
        m = json.loads((tmp_path / "manifest.json").read_text())
        assert [c["index"] for c in m["characters"]] == [0, 1]
        # character 2's json was written before its file failed: a whole file, not listed as done
        assert sorted(p.name[:4] for p in tmp_path.iterdir() if p.name != "manifest.json") == \
            ["0000", "0000", "0001", "0001", "0002"]
        Failing.fail = False
        result = run_batch(RunSpec("d100", 5, 0, 4, ("json", "failing")), d100, tmp_path, resume=True)
        assert result.complete and result.new == 2
    finally:
        del FORMATS["failing"]


def test_an_unregistered_format_is_an_error(tmp_path, d100):
    with pytest.raises(OutputError) as e:
        run_batch(RunSpec("d100", 5, 0, 2, ("json", "docx")), d100, tmp_path)
    assert str(e.value) == f"no writer for format docx (known: {', '.join(FORMATS)})"
    assert list(tmp_path.iterdir()) == []


def test_after_a_hard_kill_resume_removes_temporaries_and_finishes(tmp_path, d100, whole):
    out = tmp_path / "whole"
    m = json.loads((out / "manifest.json").read_text())
    m["complete"], m["characters"] = False, m["characters"][:4]  # the checkpoint after 4 characters
    output.write_manifest(out, m)
    (out / ".tmp-abc123.part").write_bytes(b'{"half": ')
    (out / sorted(whole)[12]).unlink()  # a file after the checkpoint, missing
    r = run("generate", "-o", out, "--resume")
    assert r.exit_code == 0 and "wrote 5 more" in r.stderr
    assert snapshot(out) == whole


def test_a_done_character_whose_file_is_gone_is_made_again(tmp_path, whole):
    out = tmp_path / "whole"
    m = json.loads((out / "manifest.json").read_text())
    m["complete"] = False
    output.write_manifest(out, m)
    (out / m["characters"][2]["files"]["yaml"]).unlink()
    assert "wrote 1 more" in run("generate", "-o", out, "--resume").stderr
    assert snapshot(out) == whole


def test_checkpoints_after_1_2_4_8_characters():
    assert [n for n in range(1, 40) if batchmod._checkpoint(n)] == [1, 2, 4, 8, 16, 32]


def test_the_manifest_is_written_before_the_first_character(tmp_path, d100, monkeypatch):
    seen = []
    real = writermod.make_character

    def spy(module, seed, index, request=None, budget=None):
        seen.append(json.loads((tmp_path / "manifest.json").read_text()))
        return real(module, seed, index, request, budget)

    monkeypatch.setattr(writermod, "make_character", spy)
    run_batch(RunSpec("d100", 3, 0, 3, ("json",)), d100, tmp_path)
    assert [(m["complete"], len(m["characters"])) for m in seen] == [(False, 0), (False, 1), (False, 2)]


def test_manifest_layout_one_line_per_character(tmp_path, d100):
    run_batch(RunSpec("d100", 3, 0, 2, ("json",)), d100, tmp_path)
    text = (tmp_path / "manifest.json").read_text()
    lines = text.splitlines()
    assert lines[-4].startswith('    {"index": 0, "name": ') and lines[-3].startswith('    {"index": 1, ')
    m = json.loads(text)
    entry = m["characters"][0]
    import hashlib

    assert entry["sha256"]["json"] == hashlib.sha256((tmp_path / entry["files"]["json"]).read_bytes()).hexdigest()
    assert m["formats"] == ["json"] and m["complete"] is True


# -- resume refuses another batch -------------------------------------------------


@pytest.fixture
def stopped(tmp_path, monkeypatch) -> Path:
    out = tmp_path / "out"
    fail_on(monkeypatch, "0002-", KeyboardInterrupt())
    assert run(*ARGS, "-o", out).exit_code == 130
    monkeypatch.undo()
    return out


@pytest.mark.parametrize("extra, message", [
    (["--seed", "12"], "--seed: 11 in the manifest, 12 now"),
    (["--count", "10"], "--count: 9 in the manifest, 10 now"),
    (["--format", "json"], "--format: json,yaml in the manifest, json now"),
    (["--index", "3"], "--index: 0 in the manifest, 3 now"),
])
def test_resume_refuses_different_options(stopped, extra, message):
    r = run("generate", "-o", stopped, "--resume", *extra)
    assert r.exit_code == 1
    assert r.stderr == f"Error: cannot resume: '{stopped}' holds a different batch ({message})\n"


def test_resume_refuses_different_rules(stopped, write):
    path = write("h.yaml", "overlay: d100\nname: Tall\nchanges:\n  characteristics:\n    set:\n"
                           "      characteristics[id=siz].dice: 2D6+6\n")
    from chargen.rules.overlay import read_overlay

    r = run("generate", "-o", stopped, "--resume", "--rules", path)
    assert r.stderr == (f"Error: cannot resume: '{stopped}' holds a different batch (overlays: none in the manifest, "
                        f"Tall ({read_overlay(path).hash[:15]}...) now); give the options and --rules files it was "
                        "made with\n")


def test_resume_refuses_another_chargen_version(stopped):
    m = json.loads((stopped / "manifest.json").read_text())
    m["chargen"] = "0.0.1"
    output.write_manifest(stopped, m)
    r = run("generate", "-o", stopped, "--resume")
    assert r.stderr == (f"Error: cannot resume: '{stopped}' holds a different batch (chargen: 0.0.1 in the manifest, "
                        "0.1.0 now); give the options and --rules files it was made with\n")


def test_resume_needs_an_output_folder_and_a_manifest(tmp_path):
    r = run("generate", "--resume")
    assert r.exit_code == 2 and "--resume needs -o/--output: the folder of the interrupted batch" in r.stderr
    r = run("generate", "--resume", "-o", tmp_path)
    assert r.stderr == f"Error: no manifest.json in '{tmp_path}' to resume (run without --resume to start a batch)\n"


def test_a_folder_holding_an_interrupted_batch_suggests_resume(stopped):
    r = run(*ARGS, "-o", stopped)
    assert r.stderr == (f"Error: output folder '{stopped}' is not empty (use --resume to finish the batch in it, "
                        "or --force to start again)\n")


@pytest.mark.parametrize("text, message", [
    ("not json", "not a chargen manifest (Expecting value: line 1 column 1 (char 0))"),
    ("[" * 100_000, "not a chargen manifest (maximum recursion depth exceeded while decoding a JSON array from a unicode stri)"),
    ('{"schema": "x"}', "not a chargen manifest (expected schema 'chargen-batch/1')"),
    ('{"schema": "chargen-batch/1", "seed": "1"}', "chargen: expected str"),
    ("\xff", "not a chargen manifest ('utf-8' codec can't decode byte 0xff in position 0: invalid start byte)"),
])
def test_hostile_manifests_are_clear_errors(stopped, text, message):
    (stopped / "manifest.json").write_text(text, encoding="utf-8" if text != "\xff" else "latin-1")
    r = run("generate", "-o", stopped, "--resume")
    assert r.exit_code == 1
    assert r.stderr == f"Error: {stopped / 'manifest.json'}: {message}\n"


@pytest.mark.parametrize("change, message", [
    (lambda e: e.update(index=99), "{m}: characters[0].index: not an index of this batch (0 to 8)"),
    (lambda e: e["files"].update(json="../../etc/passwd"),
     "{m}: characters[0].files.json: '../../etc/passwd' is not this character's file name"),
    (lambda e: e["files"].update(json="0000-x/../../a.json"),
     "refusing to write '0000-x/../../a.json': not a plain file name"),
    (lambda e: e.pop("sha256"), "{m}: characters[0]: expected index, name, files and sha256"),
])
def test_manifest_entries_cannot_point_outside_the_folder(stopped, change, message):
    m = json.loads((stopped / "manifest.json").read_text())
    change(m["characters"][0])
    output.write_manifest(stopped, m)
    r = run("generate", "-o", stopped, "--resume")
    assert r.exit_code == 1
    assert r.stderr == "Error: " + message.replace("{m}", str(stopped / "manifest.json")) + "\n"


# -- files --------------------------------------------------------------------------


def test_a_planted_symlink_is_replaced_not_followed(tmp_path, d100):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    from chargen.generate import make_character
    from chargen.run.files import character_stem

    stem = character_stem(0, make_character(d100, 8, 0)["identity"]["name"])
    (out / f"{stem}.json").symlink_to(victim)
    (out / "manifest.json").symlink_to(victim)
    run_batch(RunSpec("d100", 8, 0, 1, ("json",)), d100, out)
    assert victim.read_text() == "keep me"
    assert not (out / f"{stem}.json").is_symlink() and not (out / "manifest.json").is_symlink()


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "a.json"
    target.write_text("old")

    class Boom(Exception):
        pass

    real_write = os.write

    def write(fd, data):
        real_write(fd, bytes(data[:4]))
        raise Boom

    monkeypatch.setattr(output.os, "write", write)
    with pytest.raises(Boom):
        output.atomic_write(target, "new content")
    monkeypatch.undo()
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_written_files_get_the_usual_mode(tmp_path, d100):
    run_batch(RunSpec("d100", 1, 0, 1, ("json",)), d100, tmp_path)
    mask = os.umask(0)
    os.umask(mask)
    for p in tmp_path.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~mask


def test_an_unwritable_folder_is_a_clear_error(tmp_path, d100, monkeypatch):
    real_open = os.open

    def refuse(path, *args, **kw):
        if str(path).endswith(".part"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, *args, **kw)

    monkeypatch.setattr(output.os, "open", refuse)
    with pytest.raises(OutputError) as e:
        output.atomic_write(tmp_path / "x.json", "{}")
    assert str(e.value) == f"cannot write in '{tmp_path}': Permission denied"
