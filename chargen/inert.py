"""User text made inert for the virtual tabletops that read chargen's Foundry and MEG output.

Foundry VTT enriches HTML on display (``TextEditor.enrichHTML``): it parses the HTML and matches
patterns in each *text node*, after entities are decoded, so escaping a bracket as ``&#91;``
changes nothing. Its patterns: ``[[/r 1d6]]`` (an inline roll, also ``[[/check ...]]`` and the
other ``[[/...]]`` a system adds), ``@UUID[...]{label}`` and ``@Actor[...]`` (document links,
``@Embed[...]`` and the ``@Check[...]`` kind a system adds), ``&Reference[...]`` (dnd5e) and
``http://...`` (a link). Roll20, which imports MEG JSON through its Mythras sheet, evaluates
``[[...]]``, ``@{attribute}``, ``%{ability}``, ``&{template:...}`` and ``?{query}`` wherever an
attribute holding them is sent to chat. :func:`inert` puts one space after the character that
starts each of them (``[ [/r 1000d1000]]``, ``@ UUID[Macro.x]{click me}``, ``http: //x``): the
text reads as written, with a visible, printable break no pattern matches, that survives any
re-encoding (an entity or an empty element would not survive an editor's save). It is applied
to every string of a Foundry actor (but its ``flags``, which Foundry never shows) and of a MEG
NPC; ``inert(inert(t)) == inert(t)``, and text without these sequences (everything the built-in
rules make) is unchanged.
"""

from __future__ import annotations

import re

_LIVE = re.compile(r"""
      \[(?=\[)                                   # [[ ... ]]: an inline roll (Foundry, Roll20)
    | [@%&?](?=\{)                               # @{attr} %{ability} &{template:} ?{query}: Roll20
    | [@&](?=[A-Za-z][A-Za-z0-9_.-]*[\[{(])      # @UUID[..]{..} @Embed[..] &Reference[..] @roll(..): Foundry
    | (?<=http):(?=//) | (?<=https):(?=//)        # a URL Foundry makes a link of
""", re.VERBOSE | re.IGNORECASE)


def inert(text: str) -> str:
    """``text`` with a space after the first character of each live sequence (see the module)."""
    return _LIVE.sub(lambda m: m.group() + " ", text)


def inert_strings(value: object) -> object:
    """``value`` (JSON data) with :func:`inert` applied to every string in it, keys left as they are."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, list):
        return [inert_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: inert_strings(v) for k, v in value.items()}
    return value
