"""The sheet fill (chargen.render.fill): a sheet filled into a laid-out form is the sheet a full layout
makes, byte for byte and pixel for pixel (pdftoppm); every sheet that cannot be filled exactly is laid
out in full. The forms are the built-in D100 II sheet (templates/d100.html.j2 marks its values)."""

import copy
import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chargen.generate import GenerationRequest, make_character
from chargen.render import fill
from chargen.rules import load_module
from chargen.run.workers import SheetRenderer

TEMPLATES = Path(__file__).parents[1] / "templates"
ARMOURY = Path(__file__).parent / "house" / "armoury.yaml"
LONG = "Bartholomew-Maximilian Fitzgerald-Aldersgate of the Windswept Northern Marches Ward"
NAMES = (("long name", LONG), ("Arabic name", "سلمى بنت حارث"), ("Greek name", "Ἀλέξανδρος"),
         ("Japanese name", "山田 太郎左衛門"), ("Latin name", "Ulla Millbrook"), ("another Latin name", "Osric Tallow"))


def pixels(pdf: bytes, folder: Path, tag: str) -> list[str]:
    """Each page of ``pdf`` drawn by pdftoppm at 80 dpi, as digests of its pixels."""
    path = folder / f"{tag}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "80", "-gray", str(path), str(folder / tag)], check=True)
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob(f"{tag}-*.pgm"))]


def pair(renderer, module, seed: int, request=None) -> list[dict]:
    """Two characters of one shape (the first becomes the form, the second is filled): characters of
    one kind share the sheet's shape, so ten always hold such a pair."""
    seen = {}
    for i in range(10):
        doc = make_character(module, seed, i, request)
        key = fill.shape_of(renderer.html(doc, False)).key
        if key in seen:
            return [seen[key], doc]
        seen[key] = doc
    raise AssertionError(f"ten characters of {request} and no two of one shape")


def below_minimum(renderer, module, seed: int = 42) -> list[dict]:
    """Two plain characters of one shape short of a weapon's STR/DEX minimum by different figures (the
    red cell and its "short" line are values of the form: only which rows are short makes the shape)."""
    seen = {}
    for i in range(200):
        doc = make_character(module, seed, i)
        html = renderer.html(doc, False)
        if 'class="below-min"' in html:
            key = fill.shape_of(html).key
            if key in seen and short(seen[key]) != short(doc):
                return [seen[key], doc]
            seen.setdefault(key, doc)
    raise AssertionError("two hundred characters and no two of one shape short of a weapon's minimum")


def short(doc: dict) -> list:
    """What a sheet's red cells say: each weapon's minimum and how far the character is short of it."""
    return [(w["min_str"], w["min_dex"], w["below_minimum"]) for w in doc["weapons"] if w["below_minimum"]]


def characters(renderer, armoury_renderer, archetypes) -> list[tuple[str, dict]]:
    """Plain characters, NPCs of the archetypes, names long and in other scripts, and armsmasters of
    a house rule with 14 weapons and 24 skills more."""
    d100, armoury = renderer.modules[0], armoury_renderer.modules[0]
    docs = [(f"plain {i}", doc) for i, doc in enumerate(pair(renderer, d100, 42))]
    docs += [(f"below minimum {i}", doc) for i, doc in enumerate(below_minimum(renderer, d100))]
    for archetype in archetypes:
        docs += [(f"{archetype} {i}", doc) for i, doc in
                 enumerate(pair(renderer, d100, 7, GenerationRequest(archetype=archetype, derivation=1)))]
    # derivation 1: the pairs this test was built on. Under seed derivation 2 the sailors' second of a shape
    # at seed 7 is a miss (laid out in full, so its bytes are right; the miss rate is bench_fill's measure)
    guard = docs[-1][1] if archetypes else pair(renderer, d100, 7, GenerationRequest(archetype="town_guard"))[1]
    for label, name in NAMES:
        doc = copy.deepcopy(guard)
        doc["identity"]["name"] = name
        docs.append((label, doc))
    docs += [(f"armoury {i}", doc) for i, doc in
             enumerate(pair(armoury_renderer, armoury, 5, GenerationRequest(archetype="armsmaster")))]
    return docs


SKILLS = """overlay: d100
name: Lore
changes:
  skills:
    add:
      skills:
        - {id: herb_lore, label: Herb Lore, category: knowledge, base: 5}
        - {id: heraldry, label: Heraldry of the Old Houses, category: knowledge, base: 5}
        - {id: sailing, label: Sailing, category: manipulation, base: 10}
"""


@pytest.mark.parametrize("paper, archetypes", [("a4", "all"), ("letter", ("bandit_chief",))])
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_filled_sheets_are_the_sheets_a_full_layout_makes(tmp_path, paper, archetypes):
    """Every sheet filled into a form has the bytes of its full layout, and (one in three) its pixels;
    A4 over every archetype, Letter over one (the same form, set tighter); a house rule with extra
    skills, and one with fourteen long-named weapons and twenty-four skills."""
    (tmp_path / "lore.yaml").write_text(SKILLS, encoding="utf-8")
    d100, armoury, lore = (load_module("d100"), load_module("d100", [ARMOURY]),
                           load_module("d100", [tmp_path / "lore.yaml"]))
    filled = {m.hash: SheetRenderer(None, paper, True, (m,)) for m in (d100, armoury, lore)}
    if archetypes == "all":
        archetypes = list(d100.rules.archetypes)
    docs = characters(filled[d100.hash], filled[armoury.hash], archetypes)
    docs += [(f"lore {i}", doc) for i, doc in enumerate(pair(filled[lore.hash], lore, 3))]
    full = SheetRenderer(None, paper, True, (d100, armoury, lore))
    outcomes = {}
    for k, (label, doc) in enumerate(docs):
        renderer = filled[doc["system"]["rules_hash"]]
        html = renderer.html(doc, False)
        before = dict(renderer.forms.counts) if renderer.forms else {}
        ours = renderer.pdf(html, label)
        counts = renderer.forms.counts
        outcome = outcomes[label] = next(key for key in counts if counts[key] != before.get(key, 0))
        if outcome != "filled":
            continue  # laid out in full: the path every sheet took before the fill
        theirs = full.maker().render(html, label).pdf  # laid out in full, never filled
        assert ours == theirs, f"{label}: filled, not the bytes of a full layout"
        if k % 3 == 0:
            assert pixels(ours, tmp_path, f"fill{k}") == pixels(theirs, tmp_path, f"full{k}"), label
    # each the second of its shape; the armsmasters' two pages (fourteen weapons, rows cut by the page
    # break) and long reproduce line (--rules) hold values that cannot move: laid out in full or filled
    seconds = [label for label, _ in docs if label.endswith(" 1") and not label.startswith("armoury")]
    assert [label for label in seconds if outcomes[label] != "filled"] == [], outcomes
    # a name set by hand: the small print says so (another shape); the second such sheet is filled
    assert (outcomes["Latin name"], outcomes["another Latin name"]) == ("new", "filled")
    assert outcomes["long name"] == "new"  # a smaller heading: another shape, laid out in full


def test_a_template_without_markers_is_laid_out_in_full(tmp_path):
    """A template folder whose sheet marks no value (an older copy of ours, a user's own): every sheet
    laid out in full, no form kept."""
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    sheet = folder / "d100.html.j2"
    text = sheet.read_text(encoding="utf-8").replace("{% set form = true %}", "")
    sheet.write_text(re.sub(r' data-fill(-count="[^"]*")?', "", text), encoding="utf-8")
    d100 = load_module("d100")
    renderer = SheetRenderer(folder, "a4", True, (d100,))
    for i in range(2):
        html = renderer.html(make_character(d100, 42, i), False)
        assert "data-fill" not in html
        renderer.pdf(html, "sheet")
    assert dict(renderer.forms.counts) == {"plain": 2} and not renderer.forms.forms


def test_another_weasyprint_version_is_never_filled(monkeypatch):
    import weasyprint

    d100 = load_module("d100")
    renderer = SheetRenderer(None, "a4", True, (d100,))
    html = renderer.html(make_character(d100, 42, 0), False)
    monkeypatch.setattr(weasyprint, "__version__", "71.0")
    assert fill.Form.build(html, renderer.maker().lay_out(html)) is None
    monkeypatch.undo()
    assert fill.Form.build(html, renderer.maker().lay_out(html)) is not None


@pytest.mark.parametrize("html, values", [
    ("<p>no markers</p>", None),
    ('<td data-fill>12 <b>and</b></td>', None),  # a marked value holding markup: no form
    ('<title>A &amp; B</title><td data-fill> 12  </td><span data-fill></span><i data-fill> </i>', (" 12  ", "", "")),
])
def test_the_shape_of_a_sheet(html, values):
    shape = fill.shape_of(html)
    assert (shape.values if shape else None) == values


def test_sheets_differing_in_values_and_title_only_share_a_shape():
    a = fill.shape_of('<title>Ann</title><h1 data-fill>Ann</h1><td data-fill>12</td>')
    b = fill.shape_of('<title>Bo</title><h1 data-fill>Bo</h1><td data-fill>7</td>')
    c = fill.shape_of('<title>Bo</title><h1 data-fill>Bo</h1><td data-fill></td>')  # an empty value: no text box
    assert a.key == b.key != c.key and (a.title, b.title) == ("Ann", "Bo")


@pytest.mark.parametrize("space, value, filled", [("normal", "Cy  \tDee", True), ("pre", "Cy  \tDee", False),
                                                   ("normal", "Cy Dee ", False)])
def test_white_space_a_full_layout_keeps_is_not_filled(space, value, filled):
    """A value with runs of spaces fills a cell that collapses them; where the style keeps them it is a
    miss, and so is a trailing space (WeasyPrint draws it though it trims it from the box)."""
    d100 = load_module("d100")
    maker = SheetRenderer(None, "a4", True, (d100,)).maker()

    def page(value):
        return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>'
                f'<p style="white-space: {space}" data-fill>{value}</p></body></html>')

    form = fill.Form.build(page("Ann Bo"), maker.lay_out(page("Ann Bo")))
    html = page(value)
    document = form.fill(fill.shape_of(html))
    assert (document is not None) == filled
    if filled:
        ours = maker.render(html, laid=document).pdf
        form.restore()
        assert ours == maker.render(html).pdf


def test_tick_tracks_and_the_margin_name_are_values_of_the_shape():
    def sheet(name, n, boxes=5):
        ticks = "".join(f'<span class="tick{" off" if i >= n else ""}"></span>' for i in range(boxes))
        return (f'<style>@page {{ size: A4; @bottom-left {{ content: "{name}"; }} }}</style>'
                f'<span class="ticks" data-fill-count="{n}">{ticks}</span>')

    a, b = fill.shape_of(sheet("Ann\\000027s", 2)), fill.shape_of(sheet("Bo", 4))
    assert a.key == b.key and (a.counts, a.margin, b.counts, b.margin) == ((2,), "Ann's", (4,), "Bo")
    assert fill.shape_of(sheet("Bo", 4, 6)).key != a.key  # room for more ticks: another form
    broken = sheet("Bo", 2).replace('class="tick"></span></span>', 'class="tick off"></span></span>')
    assert fill.shape_of(broken.replace('<span class="tick off">', '<span class="tick">', 1)) is None


def _page(body: str, style: str = "") -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title><style>{style}</style></head>'
            f'<body>{body}</body></html>')


@pytest.mark.parametrize("first, second, filled", [
    ("a paragraph of one value that takes two lines here", "another paragraph, as long, on two lines", True),
    ("a paragraph of one value that takes two lines here", "a short one", False),  # one line: a miss
])
def test_a_paragraph_is_filled_when_it_takes_as_many_lines(first, second, filled):
    style = "p { width: 50mm; font-size: 12pt; }"
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()
    html = _page(f"<p data-fill>{first}</p><p>after</p>", style)
    form = fill.Form.build(html, maker.lay_out(html))
    again = _page(f"<p data-fill>{second}</p><p>after</p>", style)
    document = form.fill(fill.shape_of(again))
    assert (document is not None) == filled, form.miss
    if filled:
        ours = maker.render(again, laid=document).pdf
        form.restore()
        assert ours == maker.render(again).pdf


@pytest.mark.parametrize("values, filled", [(("12", "7"), True), (("1,234,567", "8,901,234"), False)])
def test_several_values_on_a_line_are_filled_together_when_they_fit(values, filled):
    """Each value's change fits the line alone; together they may not: then it is a miss."""
    style = "p { width: 30mm; white-space: nowrap; font-size: 10pt; }"
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()

    def page(a, b):
        return _page(f'<p>A <span data-fill>{a}</span> B <span data-fill>{b}</span> end</p>', style)

    form = fill.Form.build(page("1", "2"), maker.lay_out(page("1", "2")))
    html = page(*values)
    document = form.fill(fill.shape_of(html))
    assert (document is not None) == filled, form.miss
    if filled:
        ours = maker.render(html, laid=document).pdf
        form.restore()
        assert ours == maker.render(html).pdf


def test_tick_boxes_shown_and_hidden_by_count():
    style = ".tick { display: inline-block; width: 3mm; height: 3mm; border: 0.6pt solid black; background: #fff; }" \
            " .tick.off { visibility: hidden; }"
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()

    def page(n):
        ticks = "".join(f'<span class="tick{" off" if i >= n else ""}"></span>' for i in range(8))
        return _page(f'<p><span class="ticks" data-fill-count="{n}">{ticks}</span></p>', style)

    form = fill.Form.build(page(3), maker.lay_out(page(3)))
    for n in (6, 0, 8, 3):
        document = form.fill(fill.shape_of(page(n)))
        ours = maker.render(page(n), laid=document).pdf
        form.restore()
        assert ours == maker.render(page(n)).pdf, n


def test_a_heading_of_two_lines_gives_its_bookmark_the_new_name():
    """A long name set on two lines (a paragraph slot): the PDF's outline names the new character."""
    style = "h1 { width: 40mm; font-size: 14pt; }"
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()

    def page(name):
        return _page(f"<h1 data-fill>{name}</h1><p>after</p>", style)

    first, second = page("Aldous Fitzwarren of Brightwater"), page("Rosalind Underhill of Coldmarsh")
    form = fill.Form.build(first, maker.lay_out(first))
    document = form.fill(fill.shape_of(second))
    assert document is not None, form.miss
    ours = maker.render(second, laid=document).pdf
    form.restore()
    assert ours == maker.render(second).pdf
    import io

    import pypdf

    assert [entry.title for entry in pypdf.PdfReader(io.BytesIO(ours)).outline] == ["Rosalind Underhill of Coldmarsh"]


def test_a_shape_becomes_a_form_when_it_repeats():
    """A shape's first sheet is laid out in full and kept as laid out; its slots are found only when a
    second sheet of its shape comes, which is filled (the same bytes as its full layout)."""
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()
    forms = fill.Forms()
    page = [_page(f'<p>Name <span data-fill>{name}</span></p>') for name in ("Ann", "Bo", "Cy")]
    alone = _page('<p>Rank <span data-fill>Captain</span></p>')
    outputs = [forms.render(maker, html, "t") for html in (page[0], alone, page[1], page[2])]
    assert forms.counts == {"new": 2, "filled": 2}
    kept = dict(forms.forms)
    assert isinstance(kept[fill.shape_of(alone).key][0], tuple)  # seen once: no form built
    assert isinstance(kept[fill.shape_of(page[0]).key][0], fill.Form)
    assert outputs[2:] == [maker.render(html).pdf for html in page[1:]]


@pytest.mark.parametrize("values", [("1", "22"), ("333", "4"), ("55", "")])
def test_a_value_in_an_inline_box_after_another_changed_value_moves_with_it(values):
    """Two changed values on one start-aligned line, each inside inline boxes: the second (and the
    text after it) moves by the first's change of width, as a full layout places it."""
    style = "p { width: 80mm; white-space: nowrap; font-size: 10pt; }"
    maker = SheetRenderer(None, "a4", True, (load_module("d100"),)).maker()

    def page(a, b):
        return _page(f'<p>A <b><span data-fill>{a}</span></b> B <i>(<span data-fill>{b or "&nbsp;"}</span> c)</i>'
                     f' end</p>', style)

    form = fill.Form.build(page("12", "7"), maker.lay_out(page("12", "7")))
    html = page(*values)
    document = form.fill(fill.shape_of(html))
    assert document is not None, form.miss
    ours = maker.render(html, laid=document).pdf
    form.restore()
    assert ours == maker.render(html).pdf
