"""A character no installed font can draw fails its own sheet only: one line naming the
character, the code point and the package; the rest of the batch is written; --resume
finishes it once the machine has a font for it (here a font made for the test, found
through a fontconfig file, stands in for the package being installed)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.render.contain.glyphs import describe, missing_glyph, package_for

ROOT = Path(__file__).resolve().parents[1]
PUA = 0xF0001  # a private-use code point: no installed font has it
OVERLAY = f"""overlay: rtd
name: Odd glyph
changes:
  names:
    set:
      bynames: [Ashcombe, Bramble, Cinderby, "Oddglyph\\U{PUA:08X}"]
"""


def chargen(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "chargen", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=300)


def font_with_the_glyph(folder: Path) -> dict:
    """A font that draws U+F0001 (Karla's "A" under that code point), and a fontconfig file adding it."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = TTFont(ROOT / "templates" / "fonts" / "Karla-Regular.otf")
    glyph = font.getBestCmap()[ord("A")]
    table = CmapSubtable.newSubtable(12)
    table.platformID, table.platEncID, table.language = 3, 10, 0
    table.cmap = {**font.getBestCmap(), PUA: glyph}
    font["cmap"].tables.append(table)
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "chargen test glyph"
    fonts = folder / "fonts"
    fonts.mkdir(parents=True)
    font.save(fonts / "chargen-test-glyph.otf")
    conf = folder / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>{fonts}</dir>
<cachedir>{folder / 'cache'}</cachedir></fontconfig>""", "utf-8")
    return {"FONTCONFIG_FILE": str(conf)}


def test_the_message_names_the_character_and_the_package():
    assert package_for(ord("山")) == "fonts-noto-cjk" and package_for(ord("김")) == "fonts-noto-cjk"
    assert package_for(0x1F409) == "fonts-noto-color-emoji" and package_for(ord("ก")) == "fonts-noto-core"
    assert package_for(PUA) is None and package_for(0x0378) is None  # private use; unassigned
    error = missing_glyph('.notdef glyph rendered for Unicode string unsupported by fonts: "山" (U+5C71)',
                          "sheet of '山田'")
    assert str(error) == ("sheet of '山田': no installed font can draw '山' U+5C71 (cjk unified ideograph-5c71); "
                          "install the Debian package fonts-noto-cjk ('make system-deps' does)")
    assert describe(PUA) == "U+F0001 (a private-use character)"
    assert missing_glyph("some other warning", "x") is None


@pytest.mark.skipif(not Path("/etc/fonts/fonts.conf").is_file(), reason="needs fontconfig's /etc/fonts/fonts.conf")
@pytest.mark.parametrize("layout", ["sheet", "block --each-pdf", "block"])  # party.pdf's cover, or its collection,
def test_a_missing_glyph_fails_its_sheet_alone_and_resume_finishes_the_batch(tmp_path, layout):  # is laid out early
    """In the block layout without --each-pdf a character's only PDF is its block in party.pdf: it
    fails alone all the same (its task checks its glyphs), and party.pdf is laid out without it."""
    (tmp_path / "odd.yaml").write_text(OVERLAY, "utf-8")
    each = layout == "sheet" or "--each-pdf" in layout
    args = ("generate", "--system", "rtd", "--seed", 3, "--count", 6, "--rules", "odd.yaml", "--layout",
            *layout.split(), "--format", "json,pdf", "-o", "out", "--jobs", 2)
    first = chargen(*args, cwd=tmp_path)
    assert first.returncode == 1
    line = first.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: batch incomplete: 2 sheets could not be drawn: sheet of 'Abe Oddglyph")
    assert "(index 0): no installed font can draw U+F0001 (a private-use character)" in line
    assert "(index 4)" in line and "4 of 6 characters complete" in line and "--resume" in line
    out = tmp_path / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    assert not manifest["complete"] and [c["index"] for c in manifest["characters"]] == [1, 2, 3, 5]
    assert (out / "party.pdf").is_file() and not list(out.glob("0000-*.pdf"))

    font = font_with_the_glyph(tmp_path)
    again = chargen(*args, "--resume", cwd=tmp_path, env=font)
    assert again.returncode == 0, again.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and [c["index"] for c in manifest["characters"]] == list(range(6))
    assert len(list(out.glob("000*.pdf"))) == (6 if each else 0)

    whole = chargen(*args[:-4], "-o", "whole", cwd=tmp_path, env=font)
    assert whole.returncode == 0, whole.stderr
    for name in sorted(p.name for p in (tmp_path / "whole").iterdir() if p.name != "manifest.json"):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


def test_render_draws_the_rest_and_names_the_one_it_cannot(tmp_path):
    done = chargen("generate", "--system", "d100", "--seed", 4, "--count", 2, "-o", "saved", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    files = sorted((tmp_path / "saved").glob("000*.json"))
    doc = json.loads(files[0].read_text())
    doc["identity"]["name"] = "Bob \U000f0001"
    files[0].write_text(json.dumps(doc), "utf-8")
    result = chargen("render", *files, "-o", "prints", cwd=tmp_path)
    assert result.returncode == 1
    assert "1 sheet could not be drawn: sheet of 'Bob \\U000f0001' (index 0): no installed font can draw U+F0001" \
        in result.stderr
    assert len(list((tmp_path / "prints").glob("0001-*.pdf"))) == 1


def test_a_missing_glyph_crosses_from_a_worker_intact():
    """Raised in a worker (party.pdf's cover is laid out while a sheet that fails is still in
    flight), it is pickled to the main process: unpicklable, it stopped the pool for good."""
    import pickle

    from chargen.render.contain.glyphs import MissingGlyph

    e = pickle.loads(pickle.dumps(MissingGlyph("party cover", "U+E000 is in no installed font", 0xE000)))
    assert isinstance(e, MissingGlyph)
    assert (str(e), e.detail, e.code_point) == ("party cover: U+E000 is in no installed font",
                                                "U+E000 is in no installed font", 0xE000)
