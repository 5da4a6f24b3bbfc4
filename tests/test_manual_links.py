"""Every link of the manual (README.md and docs/*.md) resolves: a file it names exists, and an anchor
(`#...`, `docs/x.md#...`) is a heading of that page, by GitHub's anchor rules. Every page of docs/ is
linked from the README."""

import re
from pathlib import Path

import pytest

from tests import manual

FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: its text as shown (code and link markup dropped), lower case,
    every character but letters, digits, '_', '-' and spaces dropped, spaces turned into '-'."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings; a repeated one gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", text).splitlines():
        match = re.match(r"^#{1,6} (.*)", line)
        if match:
            base = anchor(match.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(text: str) -> list[str]:
    """The targets of a page's links and images, outside code blocks and code spans."""
    prose = re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))
    return re.findall(r"\]\(([^)\s]+)\)", prose)


def test_anchors_follow_githubs_rules():
    assert anchor("`chargen generate`") == "chargen-generate"
    assert anchor("Pins: `--set`") == "pins---set"
    assert anchor("Layouts: `--layout sheet|block|card`") == "layouts---layout-sheetblockcard"
    assert anchor("Previous experience (`professions.yaml`)") == "previous-experience-professionsyaml"
    assert anchor("A system's layouts: the engine contract") == "a-systems-layouts-the-engine-contract"
    assert anchors("# A\n```\n# not a heading\n```\n## A\n") == {"a", "a-1"}
    assert links("[a](#b) `[c](#d)` ![e](f.png)\n```\n[g](#h)\n```\n") == ["#b", "f.png"]


PAGES = manual.pages()


@pytest.mark.parametrize("page", PAGES, ids=manual.name)
def test_every_link_resolves(page: Path):
    broken = []
    for target in links(manual.read(page)):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif fragment and goal.suffix == ".md" and fragment not in anchors(goal.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading with that anchor in {manual.name(goal)}")
    assert broken == [], f"{manual.name(page)}: {broken}"


def test_every_page_of_docs_is_linked_from_the_readme():
    readme = manual.read(manual.ROOT / "README.md")
    linked = {target.partition("#")[0] for target in links(readme)}
    assert [manual.name(p) for p in PAGES[1:] if manual.name(p) not in linked] == []
