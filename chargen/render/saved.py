"""Saved characters (JSON or YAML, possibly edited by hand) read back for rendering.

Every file is read and validated against the schema before any sheet is
written, so a bad file stops the command with nothing half done; then the
documents are read again one at a time while the sheets are rendered, so a
thousand files never sit in memory together.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from chargen.errors import CharacterError, RulesError
from chargen.output import character_stem
from chargen.rules.yamlio import read_text
from chargen.serialize import parse_document


def _text(path: Path) -> str:
    try:
        return read_text(path, str(path))
    except RulesError as e:
        raise CharacterError(str(e)) from None


def read_character(path: Path) -> dict:
    return parse_document(_text(path), str(path))


def is_manifest(path: Path) -> bool:
    """A batch's manifest.json (which ``party/*.json`` matches too)."""
    from chargen.output import MANIFEST_SCHEMA

    try:
        return json.loads(_text(path)).get("schema") == MANIFEST_SCHEMA
    except (ValueError, AttributeError):
        return False


def plan(paths: list[Path]) -> list[tuple[Path, str]]:
    """Validate every file and name its sheets; two characters may not share a name.

    Batch manifests among the files are left out.
    """
    stems: dict[str, Path] = {}
    out = []
    for path in paths:
        if is_manifest(path):
            continue
        doc = read_character(path)
        _check_rules(doc, path)
        stem = character_stem(doc["seed"]["index"], doc["identity"]["name"])
        if stem in stems:
            raise CharacterError(f"{stems[stem]} and {path} would both be written as {stem}.* "
                                 f"(same index and name; rename one or render them separately)")
        stems[stem] = path
        out.append((path, stem))
    return out


def _check_rules(doc: dict, path: Path) -> None:
    """A sheet that shows odds needs the rules the character was made with: a built-in module
    without house rules (the only rules ``chargen render`` has)."""
    from chargen.errors import RenderError
    from chargen.render.html import needs_rules, sheet_rules

    if needs_rules(doc["system"]["engine"]):
        try:
            sheet_rules(doc)
        except RenderError as e:
            raise CharacterError(f"{path}: {e}") from None


def characters(planned: list[tuple[Path, str]]) -> Iterator[tuple[str, dict, dict]]:
    for path, stem in planned:
        yield stem, read_character(path), {}
