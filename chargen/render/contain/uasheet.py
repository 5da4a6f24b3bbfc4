"""WeasyPrint's user-agent stylesheet without the rules that cannot match a given document.

WeasyPrint styles every document with its HTML user-agent stylesheet (about
170 rules). Rules whose selector ends in ``:is(...)`` or starts from an
attribute (``[dir=rtl i] :is(dir, menu, ol, ul)``, ``:is(colgroup, ..., th)[hidden]``)
cannot be indexed by element name, so they are tried against every element of
every sheet: about a tenth of the time a character sheet takes. A selector can
only match if every element name it requires (``td``, or one of the names in an
``:is()``/``:where()``) is in the document, so a document needs only the
selectors whose names it has. Likewise the stylesheet styles the pseudo-elements
``::marker``, ``::footnote-*`` and ``::note-*`` of *every* element, a few thousand
styles a sheet, that WeasyPrint only uses for list items, footnotes and notes: a
document without them (no ``li`` or ``summary``, no ``list-item``, ``footnote`` or
``note(`` in its HTML and stylesheets, nothing linked or imported) needs none.
:func:`stylesheet_for` returns the user-agent stylesheet with the other rules
left out (cached: a batch's sheets share a few element sets). The result styles
that document exactly as the full stylesheet does: what is left out could apply
to none of its elements.

WeasyPrint's major version is pinned (pyproject.toml): the user-agent
stylesheet is read from it, and :func:`use_for` sets it through
``HTML._ua_stylesheets``, the method WeasyPrint asks for it.
"""

from __future__ import annotations

from functools import lru_cache

import cssselect2
import tinycss2
import weasyprint
from cssselect2 import parser as selectors
from weasyprint.css.counters import CounterStyle
from weasyprint.html import UA, UA_FORM_STYLESHEET


def names_in(document: weasyprint.HTML) -> frozenset[str]:
    """The element names of a parsed document (with those the parser implied: tbody, head, ...)."""
    return frozenset(e.tag.lower() for e in document.etree_element.iter() if isinstance(e.tag, str))


# pseudo-elements WeasyPrint styles only for some boxes, by what makes such boxes
_PSEUDO_NEEDS = {"marker": "lists", "footnote-call": "footnotes", "footnote-marker": "footnotes",
                 "note-call": "notes", "note-marker": "notes", "note-callback": "notes"}


def features_of(names: frozenset[str], texts) -> frozenset[str]:
    """Which of lists, footnotes and notes a document may have, from its element names and the
    text of its HTML and stylesheets (anything linked or imported: all of them)."""
    texts = [t.lower() for t in texts]
    if any("<link" in t or "@import" in t for t in texts):
        return frozenset(_PSEUDO_NEEDS.values())
    found = set()
    if names & {"li", "summary"} or any("list-item" in t for t in texts):
        found.add("lists")
    if any("footnote" in t for t in texts):
        found.add("footnotes")
    if any("note(" in t for t in texts):
        found.add("notes")
    return frozenset(found)


def use_for(document: weasyprint.HTML, texts=()) -> None:
    """Lay ``document`` out with the user-agent rules that can apply to it; ``texts``: its HTML
    and the text of the stylesheets it is laid out with (without them, every pseudo-element rule is kept)."""
    names = names_in(document)
    sheet = stylesheet_for(names, features_of(names, texts) if texts else frozenset(_PSEUDO_NEEDS.values()))
    document._ua_stylesheets = lambda forms=False: [sheet] + ([UA_FORM_STYLESHEET] if forms else [])


def possible(node, names: frozenset[str]) -> bool:
    """False when ``node`` (a parsed selector) can match no element of a document with ``names``."""
    if isinstance(node, selectors.Selector):
        return node.parsed_tree is None or possible(node.parsed_tree, names)
    if isinstance(node, selectors.CombinedSelector):  # every compound must match an element
        return possible(node.left, names) and possible(node.right, names)
    if isinstance(node, selectors.CompoundSelector):
        return all(possible(s, names) for s in node.simple_selectors)
    if isinstance(node, selectors.LocalNameSelector):
        return node.lower_local_name in names
    if isinstance(node, (selectors.MatchesAnySelector, selectors.SpecificityAdjustmentSelector)):
        return any(possible(s, names) for s in node.selector_list)
    return True  # :not(), :has(), attributes, classes, pseudo-classes: not decided by names


def _split(prelude: list) -> list[list]:
    """A rule's prelude cut at its top-level commas (commas inside :is(...) belong to the function)."""
    parts, current = [], []
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append(current)
            current = []
        else:
            current.append(token)
    parts.append(current)
    return parts


def needed(selector, names: frozenset[str], features: frozenset[str]) -> bool:
    """Whether a parsed selector may apply to a document with these element names and features."""
    wants = _PSEUDO_NEEDS.get(selector.pseudo_element)
    return (wants is None or wants in features) and possible(selector, names)


@lru_cache(maxsize=32)
def stylesheet_for(names: frozenset[str], features: frozenset[str] = frozenset(_PSEUDO_NEEDS.values())) -> weasyprint.CSS:
    """The user-agent stylesheet for documents whose element names are ``names`` and which may
    have ``features`` (of lists, footnotes, notes)."""
    kept = []
    for rule in tinycss2.parse_stylesheet(UA, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            kept.append(tinycss2.serialize([rule]))  # @page, @counter-style: as they are
            continue
        wanted = []
        for part in _split(rule.prelude):
            try:
                parsed = list(selectors.parse(part))
            except cssselect2.SelectorError:
                wanted.append(part)  # WeasyPrint would skip it; leave that to WeasyPrint
                continue
            if any(needed(s, names, features) for s in parsed):
                wanted.append(part)
        if wanted:
            prelude = ",".join(tinycss2.serialize(p).strip() for p in wanted)
            kept.append(f"{prelude} {{{tinycss2.serialize(rule.content)}}}")
    # the counter styles are WeasyPrint's already (HTML._ua_counter_style): a throwaway registry here
    return weasyprint.CSS(string="\n".join(kept), counter_style=CounterStyle())
