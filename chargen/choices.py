"""The choices of how sheets are drawn, each declared once: papers, cards a page, PDF variants.

The command line builds its ``--paper``, ``--cards-per-page`` and ``--pdf-variant``
choices and their help from these; the renderer, party files and the manifest
check values against them. Layouts are declared by the engines that offer them
(:mod:`chargen.engines`: :data:`~chargen.engines.BUILTIN_LAYOUTS` and each engine's
``layouts``). This module imports nothing, so ``--help`` stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt


@dataclass(frozen=True, slots=True)
class Paper:
    id: str
    css: str      # the CSS page size keyword
    width: str
    height: str


PAPERS = {"a4": Paper("a4", "A4", "210mm", "297mm"), "letter": Paper("letter", "letter", "8.5in", "11in")}
DEFAULT_PAPER = "a4"

# the numbers of characters a page a layout that chooses them (the card layout) offers: n cards as a square grid
CARDS_PER_PAGE = (4, 9)
DEFAULT_CARDS_PER_PAGE = 4

# PDF variants (WeasyPrint's pdf_variant) a sheet may be made as, with what each gives
PDF_VARIANTS = {"pdf/ua-1": "tagged, accessible PDF sheets (a screen reader reads them in order); "
                            "costs about 10% more time"}


def paper_ids() -> list[str]:
    return list(PAPERS)


def cards_per_page_ids() -> list[str]:
    return [str(n) for n in CARDS_PER_PAGE]


def cards_grid(n: int) -> str:
    """How ``n`` cards sit on a page: ``2x2`` for 4."""
    side = isqrt(n)
    return f"{side}x{side}" if side * side == n else f"{n} a page"
