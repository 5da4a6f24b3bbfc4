"""The launcher and ``chargen party`` (issue 23, item 4): the fork server starts before the command line is
imported when the party file's formats: key names a sheet format, read without a YAML parser."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.launch import party_formats, sheet_formats

ROOT = Path(__file__).resolve().parents[1]
HEAD = "name: Ambush\nsystem: d100\nseed: 1\nmembers:\n  - {archetype: bandit, count: 2}\n"


@pytest.mark.parametrize("tail, formats", [
    ("formats: [json, pdf]\nlayout: block\n", "json,pdf"),
    ("formats: ['pdf', \"html\"]   # both\n", "pdf,html"),
    ("formats:\n  - json\n  - html  # the sheets\n", "json,html"),
    ("formats:   # a comment\n- pdf\nlayout: block\n", "pdf"),
    ("formats: [json]\n", "json"),
    ("", ""),  # no formats: key (json)
    ("notes:\n  formats: [pdf]\n", ""),  # not at the top level
])
def test_the_launcher_reads_a_party_files_formats(tmp_path, tail, formats):
    path = tmp_path / "p.yaml"
    path.write_text(HEAD + tail, encoding="utf-8")
    assert party_formats(str(path)) == formats


def test_a_party_command_draws_the_sheets_its_file_names(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(HEAD + "formats: [json, html, pdf]\n", encoding="utf-8")
    assert sheet_formats(["party", str(path), "-o", "out"]) == ("html", "pdf")
    assert sheet_formats(["--debug", "party", str(path), "--output=out", "--layout", "block"]) == ("html", "pdf")
    assert sheet_formats(["party", str(path)]) == ()  # no folder: Click says what is missing
    assert sheet_formats(["party", str(path), "-o", "out", "--resume"]) == ()  # the manifest's formats
    assert sheet_formats(["party", "-o", "out", str(path)]) == ()  # not plain enough to tell
    assert sheet_formats(["party", str(tmp_path / "none.yaml"), "-o", "out"]) == ()
    assert sheet_formats(["party", str(tmp_path), "-o", "out"]) == ()  # a folder


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_party_file_that_is_a_pipe_is_not_read_by_the_launcher(tmp_path):
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    assert party_formats(str(fifo)) == ""  # returns at once: the command's own reading gets every byte


def test_the_fork_server_starts_before_the_command_line_is_imported_for_a_party_of_sheets(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(HEAD + "formats: [json, pdf]\nlayout: block\n", encoding="utf-8")
    code = f"""
import sys
import chargen.run.early as early
def start(pdf):
    print("server", pdf, "chargen.cli" in sys.modules)
    raise SystemExit(0)
early.start_forkserver = start
sys.argv = ["chargen", "party", {str(path)!r}, "-o", {str(tmp_path / "out")!r}]
from chargen.launch import main
main()
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                         cwd=ROOT, timeout=120).stdout.split()
    assert out == ["server", "True", "False"]
