"""The block layout's encounter sheet (party.pdf), issue 23: laid out by the sheet workers without
the main process importing WeasyPrint."""

import subprocess
import sys

import pytest


def test_the_main_process_of_a_block_batch_does_not_import_weasyprint(tmp_path):
    code = ("import sys\nfrom chargen.launch import main\n"
            f"sys.argv = ['chargen', 'generate', '--system', 'd100', '--seed', '42', '--count', '3', '--layout', 'block',"
            f" '--format', 'pdf', '-o', {str(tmp_path / 'out')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('weasyprint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"
    assert (tmp_path / "out" / "party.pdf").stat().st_size > 0


def _named(doc: dict, name: str) -> dict:
    import copy

    doc = copy.deepcopy(doc)
    doc["identity"]["name"] = name
    return doc


def test_a_glyph_check_lays_out_only_a_text_with_characters_not_drawn_before(d100, monkeypatch):
    """A block-layout character whose only PDF is its part of party.pdf has its text checked for
    missing glyphs; a text every character of which an earlier check drew is not laid out again."""
    from chargen.generate import make_character
    from chargen.render.contain.glyphs import MissingGlyph
    from chargen.run.workers import SheetRenderer

    renderer = SheetRenderer(layout="block", modules=(d100,))
    laid = []
    real = renderer.maker().render
    monkeypatch.setattr(renderer.maker(), "render", lambda html, what, *a, **k: laid.append(what) or real(html, what, *a, **k))
    first = make_character(d100, 42, 0)
    renderer.check_glyphs(first)
    renderer.check_glyphs(_named(first, "Aldo Ashford"))
    assert len(laid) == 1  # the first text, laid out; the second's characters all drawn by it
    renderer.check_glyphs(_named(first, "Ørjan Þórsson"))  # letters not drawn before
    renderer.check_glyphs(_named(first, "Ørjan Þórsson"))  # known now
    assert len(laid) == 2
    renderer.check_glyphs(_named(first, "Aldo Ashford\u0301"))  # a combining mark: laid out each time
    renderer.check_glyphs(_named(first, "Aldo Ashford\u0301"))
    renderer.check_glyphs(_named(first, "Иван Ашфорд"))  # Cyrillic: known once drawn
    renderer.check_glyphs(_named(first, "Иван"))
    renderer.check_glyphs(_named(first, "علي"))  # Arabic (shaped): laid out each time
    renderer.check_glyphs(_named(first, "علي"))
    assert len(laid) == 7
    with pytest.raises(MissingGlyph, match="U\\+F0001"):  # a character no font has: still found
        renderer.check_glyphs(_named(first, "Aldo \U000F0001"))
