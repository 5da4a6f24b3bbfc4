"""Bounds that scale with what chargen makes (issue 22, point 13): the built-in index of 20,000
sheets and the block layout's encounter sheet of 1,000 NPCs are rendered; a hostile template
that blows up its output is still refused, at a bound proportional to the batch."""

import pytest

from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.contain import bounds
from chargen.edits import reproduce
from chargen.render.html import Figured, HtmlRenderer
from chargen.render.templates import TemplateSet
from chargen.run.figures import figured
from chargen.run.partyfiles import SheetSummary, write_index
from chargen.run.spec import SheetOptions


def stubs(n):
    return [SheetSummary(f"{i:04d}-character-{i}", i, f"Character {i}", "D100 II 1.0", 42,
                         {"json": f"{i:04d}-character-{i}.json", "html": f"{i:04d}-character-{i}.html",
                          "pdf": f"{i:04d}-character-{i}.pdf"}, 2, [["HP", 12], ["Broadsword", "55%"]])
            for i in range(n)]


def test_the_built_in_index_of_20000_sheets_is_written(tmp_path):
    write_index(stubs(20_000), {"party_pdf": "party.pdf"}, tmp_path, SheetOptions(formats=("html",)))
    html = (tmp_path / "index.html").read_text()
    assert html.count('<td class="num">') == 20_000 and len(html) > bounds.MAX_OUTPUT


def test_the_encounter_sheet_of_1000_blocks_is_rendered(d100):
    docs = [make_character(d100, 5, i) for i in range(20)] * 50  # 1,000 blocks (20 characters, 50 times each)
    party = {"name": "The horde", "systems": ["D100 II"], "seeds": [5], "count": len(docs)}
    html = HtmlRenderer(TemplateSet.load()).collection([figured(d, (), "block") for d in docs], "block", False, party=party)
    assert html.count('class="block-index"') == 1_000 and html.count("<") > bounds.MAX_TAGS


@pytest.mark.parametrize("n", [1_000, 2_000])
def test_a_hostile_index_is_refused_at_a_bound_proportional_to_the_batch(tmp_path, n):
    (tmp_path / "index.html.j2").write_text("{% for ch in party.characters %}{% for i in range(100) %}"
                                          + "x" * 1000 + "{% endfor %}{% endfor %}")  # output, nothing built
    renderer = HtmlRenderer(TemplateSet.load(tmp_path))
    party = {"name": "P", "characters": [{"index": i} for i in range(n)]}
    limit = bounds.PER_CHARACTER["output"] * n
    with pytest.raises(RenderError) as e:
        renderer.index(party)
    assert f"the output is over the limit of {limit:,} characters" in str(e.value)
    assert bounds.limits(n)["output"] == limit > bounds.MAX_OUTPUT and bounds.limits(1)["output"] == bounds.MAX_OUTPUT


def test_a_hostile_block_is_refused_at_a_bound_proportional_to_the_batch(tmp_path, d100):
    (tmp_path / "d100-block.html.j2").write_text("<b>" * 5000)  # 5,000 elements a block, nothing built
    docs = [make_character(d100, 5, i) for i in range(3)] * 100
    with pytest.raises(RenderError) as e:
        HtmlRenderer(TemplateSet.load(tmp_path)).collection([Figured(d, {}, reproduce(d)) for d in docs], "block", False)
    assert f"the output has over {bounds.PER_CHARACTER['tags'] * 300:,} elements, the limit" in str(e.value)
