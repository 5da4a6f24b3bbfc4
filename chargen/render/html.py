"""Character sheets, party covers and bundle indexes as HTML.

Two kinds of HTML come out of the same templates:

* standalone (``--format html``): the stylesheet sits in a ``<style>`` element
  with its fonts as ``data:`` URLs, so the file opens from disk anywhere, with
  no network and no other file, and looks as it prints;
* for PDF: no ``<style>`` at all; the PDF stage lays the page out with the
  folder's ``sheet.css``, parsed once per process, reading fonts from files
  under the templates folder.

The template context is documented in the README ("Character sheets").
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Mapping
from dataclasses import dataclass

import jinja2
from markupsafe import Markup

from chargen.choices import CARDS_PER_PAGE, PAPERS
from chargen.errors import RenderError
from chargen.render.contain import bounds
from chargen.render.contain import standalone as standalone_check
from chargen.render.env import build_environment
from chargen.render.templates import COLLECTION, COVER, GLANCE, INDEX, TemplateSet
from chargen.seeds import batch_number


def layout_of(doc: dict, layout: str = "sheet"):
    """The registry's (layout, engine) entry for a character, or None for an engine chargen does not know."""
    from chargen import engines

    return engines.layout(doc["system"]["engine"], layout)


@dataclass(frozen=True, slots=True)
class Figured:
    """A character document with what its sheet shows besides it, worked out by the caller
    (:func:`chargen.run.figures.figured`): its layout's figures (the template's ``extra``) and its
    reproduce line (``reproduce``: the command, or the values edited by hand)."""

    doc: dict
    extra: dict
    reproduce: dict


def continued(items: list[dict], parts: Mapping[int, list]) -> list[dict]:
    """``items`` with each card that continues (``parts``: its anchor to its parts' HTML) in
    its parts, one item each (``body``, ``part`` from 1, ``parts``)."""
    if not parts:
        return items
    out = []
    for item in items:
        bodies = parts.get(item["anchor"]) or [None]
        out += [item] if len(bodies) == 1 else [{**item, "body": body, "part": k, "parts": len(bodies)}
                                                for k, body in enumerate(bodies, 1)]
    return out


def duplex(items: list[dict], per_page: int) -> list[list]:
    """Cards for printing on both sides (--card-backs): pages in pairs, a front and its back. A
    card's first part is on a front, its second on the back of it, its third on the next front...;
    a back page lists each front place's back (None: an empty place) in the front's order, and
    ``collection.html.j2`` sets it from the right (float: right), so that the back of the card at
    row r, column c is at row r, column ``cols - 1 - c``, mirrored to the point: the sheet turned
    over its long edge."""
    sides = []  # (front, back or None)
    for _, group in itertools.groupby(items, key=lambda item: item["anchor"]):
        parts = list(group)
        sides += [(parts[k], parts[k + 1] if k + 1 < len(parts) else None) for k in range(0, len(parts), 2)]
    pages = []
    for start in range(0, len(sides), per_page):
        chunk = sides[start:start + per_page]
        back = [behind for _, behind in chunk]
        while back and back[-1] is None:
            back.pop()
        pages += [[front for front, _ in chunk], back]
    return pages


def group_by_archetype(items: list[dict]) -> list[dict]:
    """The items in groups of one archetype each (in order of first appearance), when any
    character has one (``doc["archetype"]``: id and label); else one group of all."""
    if not any(item["c"].get("archetype") for item in items):
        return [{"label": None, "members": items}]
    groups: dict = {}
    for item in items:
        arch = item["c"].get("archetype") or {}
        key = arch.get("id")
        group = groups.setdefault(key, {"label": arch.get("label") or ("Others" if key is None else key),
                                        "members": []})
        group["members"].append(item)
    return list(groups.values())


class HtmlRenderer:
    """Renders sheets, covers and indexes from one templates folder and paper size."""

    def __init__(self, templates: TemplateSet, paper: str = "a4", cards_per_page: int = 4, card_backs: bool = False):
        if paper not in PAPERS:
            raise RenderError(f"unknown paper '{paper}' (expected one of: {', '.join(PAPERS)})")
        if cards_per_page not in CARDS_PER_PAGE:
            raise RenderError(f"cards per page: {cards_per_page} (expected one of: "
                              f"{', '.join(map(str, CARDS_PER_PAGE))})")
        self.templates = templates
        self.paper = PAPERS[paper]
        self.cards_per_page = cards_per_page
        self.card_backs = card_backs  # a card's continuation on its back: pages in front and back pairs
        self.env = build_environment(templates)
        self._style: Markup | None = None

    def style(self, standalone: bool) -> Markup:
        if not standalone:
            return Markup("")
        if self._style is None:
            css = self.templates.inline_stylesheet()
            found = standalone_check.css_problem(css)
            if found:
                raise RenderError(f"{self.templates.label}: the stylesheet of standalone HTML may reference "
                                  f"nothing outside itself (only data: URLs), but it has {found}")
            self._style = Markup(f"<style>\n{css}</style>")
        return self._style

    def standalone(self, html: str, what: str) -> str:
        """``html`` with its Content-Security-Policy, once checked to reference nothing outside itself
        (the stylesheet is checked once: the check sees a mark where it sits)."""
        html = standalone_check.with_policy(html)
        marked = html.replace(self._style, standalone_check.STYLESHEET_MARK) if self._style else html
        standalone_check.check(marked, self.templates.label, what)
        return html

    def sheet(self, sheet: Figured, standalone: bool = True, layout: str = "sheet",
              parts: Mapping[int, list] | None = None) -> str:
        doc = sheet.doc
        entry = layout_of(doc, layout)
        if entry is None:
            from chargen import engines

            engine = engines.get(doc["system"]["engine"])
            why = "no such engine is registered" if engine is None else \
                f"it has: {', '.join(engine.layouts) or 'none'}"
            raise RenderError(f"{self.templates.label}: no {layout} layout for engine '{doc['system']['engine']}' "
                              f"({why})")
        if entry.fragment:
            return self.collection([sheet], layout, standalone, parts=parts)
        name = self.templates.sheet_template(entry)
        html = self._render(name, c=doc, extra=sheet.extra, paper=self.paper, stylesheet=self.style(standalone),
                            reproduce=sheet.reproduce)
        return self.standalone(html, f"sheet of '{doc['identity']['name']}'") if standalone else html

    def collection(self, entries: list[Figured], layout: str, standalone: bool = True, party: dict | None = None,
                   numbers: list[int] | None = None, parts: Mapping[int, list] | None = None) -> str:
        """Several characters' blocks or cards on pages, in reading order; with ``party`` (the
        encounter sheet, block layout) the roster first, and the blocks grouped by archetype when the
        characters have one. ``numbers``: each character's number in its batch (default
        :func:`chargen.seeds.batch_number`: a party file's character its file index). ``parts``: the
        cards that continue (:func:`chargen.render.cardfit.fit`), by their place in ``entries``: the
        HTML of each of their parts, each drawn as a card of its own marked 1/2, 2/2, ..."""
        items = []
        numbers = [batch_number(e.doc) for e in entries] if numbers is None else numbers
        for sheet, n in zip(entries, numbers):
            entry = layout_of(sheet.doc, layout)
            if entry is None or not entry.fragment:
                raise RenderError(f"{self.templates.label}: no {layout} layout for engine "
                                  f"'{sheet.doc['system']['engine']}'")
            item = {"n": n, "anchor": len(items), "reproduce": sheet.reproduce, "c": sheet.doc, "extra": sheet.extra,
                    "template": self.templates.sheet_template(entry), "body": None, "part": 0, "parts": 0}
            items.append(item)
        items = continued(items, parts or {})
        title = party["name"] if party else items[0]["c"]["identity"]["name"]
        scope = layout_of(entries[0].doc, layout)
        encounter = bool(party) and scope.encounter
        groups = group_by_archetype(items) if encounter else [{"label": None, "members": items}]
        per_page = scope.characters_a_page(self.cards_per_page)
        extra = {"pages": duplex(items, per_page)} if self.card_backs and scope.choices is not None else {}
        html = self._render(COLLECTION, len(items), items=items, groups=groups, party=party, layout=layout, title=title,
                            cards_per_page=self.cards_per_page, paper=self.paper, stylesheet=self.style(standalone),
                            per_page=per_page, encounter=encounter, **extra)
        what = f"{layout} of '{title}'"
        return self.standalone(html, what) if standalone else html

    def cover(self, party: dict) -> str:
        return self._render(COVER, len(party["characters"]), party=party, paper=self.paper, stylesheet=self.style(False))

    def glance(self, title: str, glances: list[dict]) -> str:
        """The party at a glance (:mod:`chargen.render.glance`): ``glances``, one per character, side by side."""
        from chargen.render.glance import pages

        return self._render(GLANCE, len(glances), title=title, pages=pages(glances), paper=self.paper,
                            stylesheet=self.style(False))

    def index(self, party: dict) -> str:
        html = self._render(INDEX, len(party["characters"]), party=party, paper=self.paper,
                            stylesheet=self.style(True))
        return self.standalone(html, "index page")

    def _render(self, name: str, characters: int = 1, **context) -> str:
        """Template ``name`` rendered, within the bounds of a render handed ``characters`` characters."""
        try:
            with bounds.budget(characters) as spent:
                return _generate(self.env.get_template(name), context, spent.limits)
        except RenderError:
            raise
        except jinja2.TemplateSyntaxError as e:
            raise RenderError(f"{self.templates.label}: {e.name or name}:{e.lineno}: {e.message}") from None
        except jinja2.TemplateNotFound as e:
            raise RenderError(f"{self.templates.label}: template '{e.name}' not found") from None
        except jinja2.TemplateError as e:
            raise RenderError(f"{self.templates.label}: {_where(e, name)}: {e.message or e}") from None
        except bounds.LimitExceeded as e:
            raise RenderError(f"{self.templates.label}: {_where(e, name)}: {e}") from None
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError,
                UnicodeError) as e:  # a runtime error in a template's expression, not chargen's
            raise RenderError(f"{self.templates.label}: {_where(e, name)}: {type(e).__name__}: {e}") from None


def _generate(template: jinja2.Template, context: dict, limits: dict) -> str:
    """The template's output, refused once it passes ``limits`` (:func:`bounds.limits`): its
    characters (``output``) or elements (``tags``)."""
    chunks, size, tags = [], 0, 0
    most, most_tags = limits["output"], limits["tags"]
    for chunk in template.generate(**context):
        size += len(chunk)
        tags += chunk.count("<")
        if size > most:
            raise bounds.LimitExceeded(f"the output is over the limit of {most:,} characters")
        if tags > most_tags:
            raise bounds.LimitExceeded(f"the output has over {most_tags:,} elements, the limit")
        chunks.append(chunk)
    return "".join(chunks)


def _where(error: Exception, default: str) -> str:
    """The template file and line an error was raised at, from Jinja's rewritten traceback."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith(".j2")]
    if not frames:
        return default
    last = frames[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
