"""A cache for the HTML parser's patterns: the same parse, without compiling them again and again.

tinyhtml5 (the HTML parser WeasyPrint lays sheets out from, and
:mod:`chargen.render.contain.standalone` checks written HTML with) keeps the
pattern its ``chars_until`` builds for each set of characters in a module dict,
``characters_until_regex``; but 2.1.0 stores it under the wrong key (a chained
assignment rebinds ``characters`` to the pattern before the key is made), so
every run of text builds and compiles its pattern again: measured here (the same
process, alternating), about 4% of a sheet's PDF and a quarter of a 2,000-row
index.html's check.
:func:`cache_patterns` puts in its place a dict that makes, under the right key,
the very pattern ``chars_until`` makes; the parse, and every byte chargen
writes, are the same. With a tinyhtml5 that caches them itself, the lookup
finds them here first and nothing else changes.
"""

from __future__ import annotations

import re


class Patterns(dict):
    """``(characters, opposite) -> pattern``, as tinyhtml5's ``chars_until`` builds it, made on first use."""

    def __missing__(self, key: tuple) -> re.Pattern:
        characters, opposite = key
        regex = "".join([f"\\x{ord(character):02x}" for character in characters])
        if not opposite:
            regex = f"^{regex}"
        pattern = self[key] = re.compile(f"[{regex}]+")
        return pattern


def cache_patterns() -> None:
    """Give tinyhtml5 the cache (once a process; imported with the sheet stage)."""
    from tinyhtml5 import inputstream

    if not isinstance(inputstream.characters_until_regex, Patterns):
        inputstream.characters_until_regex = Patterns()
