"""Character documents to and from JSON and YAML, in a stable key order."""

from __future__ import annotations

import json
from importlib import resources

import yaml

from chargen.errors import CharacterError
from chargen.rules.yamlio import load_text

SCHEMA_FILE = "character-1.json"


def to_json(doc: object) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_yaml(doc: object) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)


def to_yaml_stream(docs: list[dict]) -> str:
    return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True, default_flow_style=False,
                              width=100, explicit_start=True)


DUMPERS = {"json": to_json, "yaml": to_yaml}


def schema() -> dict:
    return json.loads(resources.files("chargen").joinpath("schema", SCHEMA_FILE).read_text("utf-8"))


_VALIDATOR = None


def validate(doc: object, name: str = "character") -> None:
    """Raise :class:`CharacterError` naming the first schema violation."""
    global _VALIDATOR
    if _VALIDATOR is None:
        import jsonschema

        s = schema()
        _VALIDATOR = jsonschema.Draft202012Validator(s, format_checker=None)
    errors = sorted(_VALIDATOR.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        e = errors[0]
        path = ".".join(str(p) for p in e.absolute_path) or "(top level)"
        raise CharacterError(f"{name}: {path}: {e.message}")


def parse_document(text: str, name: str) -> dict:
    """Read one saved character (JSON or YAML), safely, and validate it."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise CharacterError(f"{name}:{e.lineno}: not valid JSON: {e.msg}") from None
    else:
        from chargen.errors import RulesError

        try:
            doc = load_text(text, name).data
        except RulesError as e:
            raise CharacterError(str(e)) from None
    if not isinstance(doc, dict):
        raise CharacterError(f"{name}: expected one character document (a mapping)")
    validate(doc, name)
    return doc
