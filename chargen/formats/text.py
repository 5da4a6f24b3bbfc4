"""``text``: plain-text stat blocks, many to a file (``blocks.txt``), as game masters paste them.

The grammar (documented in the README; tests parse it with regular expressions):

* a block is lines ending in ``\\n``; blocks are separated by a line holding
  exactly :data:`SEPARATOR` (``---``);
* line 1 is the character's name; line 2 ``<system id> · <system name> <version>
  · seed <batch> · index <i>`` then the identity facts (sex, age, background or profession,
  d100 previous experience, the archetype), ``" · "`` between them;
* every further line is either figures (``STR 13 CON 15 ...`` and
  ``Label value`` pairs, ``" · "`` between concerns) or ``Label: item; item``
  (locations, weapons, skills, armour ...).

Every value is one line (runs of white space in a house rule's label become
one space), so a block never holds a separator line of its own.
"""

from __future__ import annotations

from chargen.formats import BatchInfo, Format
from chargen.view import CharacterView, Header, Line
from chargen.engines import view_of

SEPARATOR = "---"
DOT = " · "


def _one_line(value: object) -> str:
    text = " ".join(str(value).split())
    return "-- -" if text == SEPARATOR else text  # a name of exactly '---' must not end the block


def _list(label: str, items) -> str | None:
    items = [_one_line(i) for i in items]
    return f"{label}: {'; '.join(items)}" if items else None


def _head(h: Header) -> list[str]:
    line2 = [f"{h.system}{DOT}{h.system_name} {h.version}", f"seed {h.seed}", f"index {h.index}",
             *(v for v in (h.sex, h.age) if v not in (None, "")), *h.facts, *([h.archetype] if h.archetype else [])]
    return [_one_line(h.name), DOT.join(_one_line(f) for f in line2)]


def _figures(line: Line) -> str:
    return DOT.join(" ".join(f"{f.label} {f.value}" for f in g.figures) for g in line.groups)


def lines(view: CharacterView) -> list[str]:
    """A view's block, a line each: the head, the figure strip, then each list that has items, then the notes."""
    listed = [*((x.label, x.items) for x in view.lists), *((f.label, [f.value]) for f in view.flavour),
              ("Relations", view.relations or []), ("Notes", [view.notes] if view.notes else [])]
    return _head(view.header) + [_one_line(_figures(line)) for line in view.strip] + \
        [text for label, items in listed if (text := _list(label, items))]


def block(doc: dict) -> str:
    """One character's stat block, from its engine's view (:mod:`chargen.view`)."""
    return "".join(line + "\n" for line in lines(view_of(doc)))


class TextFormat(Format):
    name, suffix = "text", ".txt"
    per_character = False
    batch_file = "blocks.txt"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        return block(doc).encode("utf-8")

    def part(self, doc: dict) -> str:
        return block(doc)

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        return f"{SEPARATOR}\n".join(parts).encode("utf-8")
