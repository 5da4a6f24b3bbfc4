"""The user-agent stylesheet trimmed to a document's element names styles it exactly as the full one."""

import pytest
import weasyprint

from chargen.generate import make_character
from chargen.render.contain import uasheet
from chargen.run.sheets import SheetRenderer


def rules_of(css: weasyprint.CSS) -> int:
    return len(css.matcher.lower_local_name_selectors) + len(css.matcher.other_selectors)


def parsed(html: str) -> weasyprint.HTML:
    return weasyprint.HTML(string=html)


@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_sheet_comes_out_byte_for_byte_as_with_the_full_stylesheet(request, monkeypatch, system, paper):
    module = request.getfixturevalue(system)
    renderer = SheetRenderer(paper=paper, modules=(module,))
    html = renderer.html(make_character(module, 42, 7), False)
    trimmed = renderer.pdf(html, "sheet")
    monkeypatch.setattr(uasheet, "use_for", lambda *args: None)
    assert renderer.pdf(html, "sheet") == trimmed


def test_the_names_include_the_elements_the_parser_implies():
    names = uasheet.names_in(parsed("<table><tr><td>x</td></tr></table>"))
    assert {"html", "head", "body", "table", "tbody", "tr", "td"} <= names


def test_rules_for_absent_elements_are_left_out_and_present_ones_kept():
    small = uasheet.stylesheet_for(uasheet.names_in(parsed("<p>x</p>")))
    listy = uasheet.stylesheet_for(uasheet.names_in(parsed("<ul><li><ul><li>x</li></ul></li></ul>")))
    assert rules_of(small) < rules_of(listy) < rules_of(weasyprint.CSS(string=uasheet.UA))
    assert "ul" in listy.matcher.lower_local_name_selectors
    assert "ul" not in small.matcher.lower_local_name_selectors


@pytest.mark.parametrize("selector,html,possible", [
    ("td", "<p>x</p>", False),
    ("td", "<table><tr><td>x</td></tr></table>", True),
    (":is(dir, menu, ol, ul) ul", "<ul><li>x</li></ul>", True),
    (":is(dir, menu, ol) ul", "<ul><li>x</li></ul>", False),
    ("[dir=rtl i] :is(ol, ul)", "<p>x</p>", False),
    ("[hidden]", "<p>x</p>", True),
    ("p:not(ul)", "<p>x</p>", True),
    (":where(ol) li, p", "<p>x</p>", True),
    ("::marker", "<p>x</p>", True),
])
def test_a_selector_is_possible_unless_it_needs_an_element_name_the_document_lacks(selector, html, possible):
    import tinycss2
    from cssselect2 import parser

    names = uasheet.names_in(parsed(html))
    compiled = list(parser.parse(tinycss2.parse_component_value_list(selector)))
    assert any(uasheet.possible(s, names) for s in compiled) is possible


def test_a_list_in_a_document_is_still_indented_and_bulleted():
    html = "<ul><li>one</li><li>two<ul><li>inner</li></ul></li></ul>"
    document = parsed(html)
    uasheet.use_for(document)
    trimmed = document.write_pdf()
    assert weasyprint.HTML(string=html).write_pdf() == trimmed


@pytest.mark.parametrize("html", [
    "<ul><li>one</li><li>two<ul><li>inner</li></ul></li></ul>",
    '<div style="display: list-item">a made list item</div>',
    '<p>text<span style="float: footnote">a footnote</span></p>',
    "<details><summary>more</summary>hidden</details>",
])
def test_lists_and_footnotes_keep_their_pseudo_element_rules(html):
    document = parsed(html)
    uasheet.use_for(document, (html, ""))
    assert document.write_pdf() == weasyprint.HTML(string=html).write_pdf()


@pytest.mark.parametrize("texts,features", [
    (("<p>x</p>", "p { color: red }"), set()),
    (("<p>x</p>", "p { display: list-item }"), {"lists"}),
    (("<p>x</p>", ".f { float: footnote }"), {"footnotes"}),
    (("<p>x</p>", ".n { position: note(side) }"), {"notes"}),
    (('<link rel="stylesheet" href="more.css"><p>x</p>', ""), {"lists", "footnotes", "notes"}),
    (("<p>x</p>", '@import "more.css";'), {"lists", "footnotes", "notes"}),
])
def test_what_a_document_may_have_is_read_from_its_html_and_stylesheets(texts, features):
    names = uasheet.names_in(parsed(texts[0]))
    assert uasheet.features_of(names, texts) == features


def test_a_document_without_lists_or_footnotes_gets_no_universal_pseudo_element_rules():
    names = uasheet.names_in(parsed("<p>x</p>"))
    bare, full = uasheet.stylesheet_for(names, frozenset()), uasheet.stylesheet_for(names)
    assert rules_of(bare) < rules_of(full)
