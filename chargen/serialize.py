"""Character documents to and from JSON and YAML, in a stable key order."""

from __future__ import annotations

import json
from importlib import resources

import yaml

from chargen.errors import CharacterError
from chargen.rules.yamlio import load_text

SCHEMA_FILE = "character-1.json"


def _chunker():
    """``chunks(o)``: the compact one-line JSON of ``o`` as string pieces, by the C encoder."""
    from json import encoder

    if encoder.c_make_encoder is None:  # pragma: no cover - CPython always has it
        enc = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
        return lambda o: (enc(o),)

    def _default(o):
        raise TypeError(f"cannot encode {type(o).__name__} as JSON")

    c = encoder.c_make_encoder(None, _default, encoder.encode_basestring, None, ": ", ", ", False, False, True)
    return lambda o: c(o, 0)


_CHUNKS = _chunker()


def to_json(doc: dict) -> str:
    """A character document as JSON laid out for reading and diffing.

    One top-level key per line; a mapping one key per line; a list of records
    one record per line. Values are encoded by the C encoder and joined once,
    which is what makes writing thousands of files fast (``json.dumps`` with
    ``indent=`` falls back to pure Python and is four times slower).
    """
    out: list[str] = ["{\n"]
    add, chunks = out.append, _CHUNKS
    last = len(doc) - 1
    for n, (key, value) in enumerate(doc.items()):
        add("  ")
        out.extend(chunks(key))
        add(": ")
        if isinstance(value, list) and value and all(isinstance(x, (dict, list)) for x in value):
            add("[\n")
            for i, x in enumerate(value):
                add("    ")
                out.extend(chunks(x))
                add(",\n" if i < len(value) - 1 else "\n")
            add("  ]")
        elif isinstance(value, dict) and value:
            add("{\n")
            end = len(value) - 1
            for i, (k, v) in enumerate(value.items()):
                add("    ")
                out.extend(chunks(k))
                add(": ")
                out.extend(chunks(v))
                add(",\n" if i < end else "\n")
            add("  }")
        else:
            out.extend(chunks(value))
        add(",\n" if n < last else "\n")
    add("}\n")
    return "".join(out)


def to_json_stream(docs: list[dict]) -> str:
    """Several documents as one JSON array."""
    return "[\n" + ",\n".join(to_json(d).rstrip("\n") for d in docs) + "\n]\n"


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
