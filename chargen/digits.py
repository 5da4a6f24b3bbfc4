"""Whole numbers in text a user wrote: ASCII digits 0-9 only, as every number chargen reads.

``str.isdigit`` is also true of superscripts (``²``), which ``int`` refuses with a traceback,
and of other scripts' digits (``٢``), which ``int`` reads; a regular expression's ``\\d`` matches
the latter too. A number read from a file, a path or a reference goes through :func:`whole`.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")


def is_whole(text: str) -> bool:
    """``text`` is one or more ASCII digits, nothing else."""
    return _DIGITS.fullmatch(text) is not None


def whole(text: str, max_digits: int = 18) -> int | None:
    """The number ``text`` writes in ASCII digits (at most ``max_digits`` of them), else None."""
    return int(text, 10) if len(text) <= max_digits and is_whole(text) else None
