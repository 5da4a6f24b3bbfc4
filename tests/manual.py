"""The manual: README.md (the front page) and docs/*.md (one page per concern). The tests that run
the manual's examples, check its links and look for every command read these files."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
COMMANDS_PAGE = DOCS / "commands.md"
# Its console blocks abbreviate output with '...': tests/test_house_examples.py runs them.
HOUSE_RULES_PAGE = DOCS / "house-rules.md"


def pages() -> list[Path]:
    """README.md, then every page of docs/ in name order."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def read(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def whole() -> str:
    """Every page's text, one after the other."""
    return "\n".join(read(page) for page in pages())
