"""Character documents to and from JSON and YAML, in a stable key order."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterable, Iterator
from importlib import resources
from json import encoder
from typing import TextIO

import yaml

from chargen import engines
from chargen.digits import whole
from chargen.errors import CharacterError, RulesError
from chargen.fill import fill_document
from chargen.rules import load_builtin
from chargen.rules.yamlio import MAX_DEPTH, load_text

SCHEMA_FILE = "character-1.json"


def _chunker():
    """``chunks(o)``: the compact one-line JSON of ``o`` as string pieces, by the C encoder."""
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


def to_json_stream(docs: Iterable[dict]) -> str:
    """Several documents as one JSON array."""
    return "".join(json_pieces(docs))


def json_pieces(docs: Iterable[dict]) -> Iterator[str]:
    """:func:`to_json_stream`'s text, one document's piece at a time (nothing held but the one)."""
    sep = "[\n"
    for d in docs:
        yield sep + to_json(d).rstrip("\n")
        sep = ",\n"
    yield "[\n\n]\n" if sep == "[\n" else "\n]\n"


def to_yaml(doc: object) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)


def to_yaml_stream(docs: Iterable[dict], out: TextIO | None = None) -> str | None:
    """Several documents as YAML, each after ``---``; into ``out`` as each is made, when given
    (PyYAML's emitter writes a document to the stream as it goes: nothing else is held)."""
    return yaml.safe_dump_all(docs, out, sort_keys=False, allow_unicode=True, default_flow_style=False,
                              width=100, explicit_start=True)


def write_stream(fmt: str, docs: Iterable[dict], out: TextIO) -> None:
    """Several documents in ``fmt`` (json: one array; yaml: ``---`` documents) into ``out``, each
    written as it is made, so memory does not grow with the count: the bytes of
    :func:`to_json_stream` or :func:`to_yaml_stream`."""
    if fmt == "json":
        for piece in json_pieces(docs):
            out.write(piece)
    else:
        to_yaml_stream(docs, out)


DUMPERS = {"json": to_json, "yaml": to_yaml}


def envelope_schema() -> dict:
    """The character schema without any engine's body: the envelope and the shared definitions."""
    return json.loads(resources.files("chargen").joinpath("schema", SCHEMA_FILE).read_text("utf-8"))


def engine_schema(engine, rules: object = None) -> dict:
    """The schema of a character of ``engine``: the envelope, and the engine's body under
    ``$defs/<engine id>`` with the bounds its characters can reach under ``rules`` (if given)."""
    s = envelope_schema()
    body = copy.deepcopy(dict(engine.schema))
    if rules is not None:
        for pointer, (low, high) in engine.bounds(rules).items():
            node = body
            for part in pointer.strip("/").split("/"):
                node = node[part]
            node["minimum"], node["maximum"] = low, high
    s["$defs"][engine.id] = body
    s["allOf"] = [{"$ref": f"#/$defs/{engine.id}"}]
    return s


def schema() -> dict:
    """The whole character schema: the envelope, and each registered engine's body (built-in rules' bounds)
    for a character whose ``system.engine`` names it."""
    s = envelope_schema()
    s["allOf"] = []
    for engine in engines.all_engines():
        rules = load_builtin(engine.id).rules if engine.id in engines.BUILTIN else None
        s["$defs"][engine.id] = engine_schema(engine, rules)["$defs"][engine.id]
        s["allOf"].append({"if": {"properties": {"system": {"properties": {"engine": {"const": engine.id}}}}},
                           "then": {"$ref": f"#/$defs/{engine.id}"}})
    return s


_VALIDATORS: dict = {}


def _validator(engine, rules: object):
    import jsonschema

    bounds = tuple(sorted(engine.bounds(rules).items())) if engine is not None and rules is not None else ()
    key = (engine.id if engine else None, id(engine), bounds)
    if key not in _VALIDATORS:
        s = engine_schema(engine, rules) if engine is not None else envelope_schema()
        if len(_VALIDATORS) > 32:
            _VALIDATORS.clear()
        _VALIDATORS[key] = jsonschema.Draft202012Validator(s, format_checker=None)
    return _VALIDATORS[key]


def validate(doc: object, name: str = "character", rules: object = None) -> None:
    """Raise :class:`CharacterError` naming the first schema violation.

    The body is checked against its engine's schema, with the bounds the rules
    allow when ``rules`` (the typed rules the character was made with) are given,
    and then by the engine for ids the rules must know (an RTD body part);
    a character of an engine chargen does not know is checked for its envelope only.
    """
    system = doc.get("system") if isinstance(doc, dict) else None
    engine_id = system.get("engine") if isinstance(system, dict) else None
    engine = engines.get(engine_id) if isinstance(engine_id, str) else None
    errors = schema_problems(doc, engine, rules)
    if errors:
        raise CharacterError(f"{name}: {one_line(errors)}")
    problems = engine.check_document(doc, rules) if engine is not None and rules is not None else []
    if problems:
        raise CharacterError(f"{name}: {problems[0]}")


def schema_problems(doc: object, engine, rules: object = None, skip: tuple[str, ...] = ()) -> list[str]:
    """Every schema violation as ``path: message`` (``path`` dotted, list items by position),
    but those under a path of ``skip`` (entries already reported)."""
    out = []
    for e in sorted(_validator(engine, rules).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        path = ".".join(str(p) for p in e.absolute_path) or "(top level)"
        if not any(path == s or path.startswith(s + ".") for s in skip):
            out.append(f"{path}: {e.message}")
    return out


def _unfilled(doc: dict, problem: str) -> bool:
    """A "required property" problem of an entry given by id that was not filled (the other problems say why)."""
    path, _, message = problem.partition(": ")
    key, _, n = path.partition(".")
    items = doc.get(key)
    i = whole(n)
    return (message.endswith("is a required property") and i is not None and isinstance(items, list)
            and i < len(items) and isinstance(items[i], dict) and "id" in items[i])


def one_line(problems: list[str], most: int = 12) -> str:
    """Every problem at once (the first ``most``), on one line."""
    more = f"; and {len(problems) - most} more" if len(problems) > most else ""
    return "; ".join(problems[:most]) + more


def builtin_rules_of(doc: dict) -> object:
    """The typed rules of the built-in module a character was made with, if it used one without
    house rules and records its hash (the bounds a saved character is checked against when no
    rules are given), else None."""
    from chargen.rules.saved import find

    module = find(doc)
    return None if module is None else module.rules


def parse_document(text: str, name: str) -> dict:
    """Read one saved character (JSON or YAML), safely, and validate it.

    Refused on read, each with one line: duplicate keys, non-finite numbers
    (NaN, Infinity), integers too long to read, nesting too deep to walk.
    """
    stripped = text.lstrip()
    if stripped.startswith("{"):
        doc = _read_json(text, name)
    else:
        try:
            doc = load_text(text, name).data
        except RulesError as e:
            raise CharacterError(str(e)) from None
    if not isinstance(doc, dict):
        raise CharacterError(f"{name}: expected one character document (a mapping)")
    check_values(doc, name)
    rules = builtin_rules_of(doc)
    problems = fill_document(doc, rules)  # entries added by hand by id alone, completed from the rules
    if problems:  # with the schema's problems elsewhere: all at once
        entries = tuple(p.split(":")[0].rsplit(".", 1)[0].replace("[", ".").replace("]", "") for p in problems)
        engine = engines.get(doc["system"]["engine"])
        rest = [p for p in schema_problems(doc, engine, rules, entries) if not _unfilled(doc, p)]
        raise CharacterError(f"{name}: {one_line(problems + rest)}")
    validate(doc, name, rules)  # with the built-in rules' bounds when it was made with them
    return doc


def _unique_keys(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise CharacterError(f"duplicate key '{key[:60]}'")
        out[key] = value
    return out


def _no_constant(word: str):
    raise CharacterError(f"{word} is not a number a character can hold")


def _read_json(text: str, name: str) -> object:
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise CharacterError(f"{name}:{e.lineno}: not valid JSON: {e.msg}") from None
    except CharacterError as e:
        raise CharacterError(f"{name}: not a character document: {e}") from None
    except ValueError as e:  # an integer longer than Python reads
        raise CharacterError(f"{name}: not a character document: {str(e)[:80]}") from None
    except RecursionError:
        raise CharacterError(f"{name}: not a character document: nested deeper than {MAX_DEPTH} levels") from None
    check_values(data, name)
    return data


def check_values(doc: object, name: str) -> None:
    """Refuse, walking without recursion, what no character holds and later code would choke on:
    nesting deeper than ``MAX_DEPTH`` (YAML's limit), NaN and infinities (YAML's .nan and .inf;
    JSON's are refused on read), and text no file can hold (a lone surrogate such as JSON's ``\\ud800``)."""
    stack: list = [(doc, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise CharacterError(f"{name}: not a character document: nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, float) and not math.isfinite(item):
            raise CharacterError(f"{name}: not a character document: {item} is not a number a character can hold")
        if isinstance(item, str):
            _check_text(item, name)
        elif isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def _check_text(text: str, name: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = text[e.start]
        raise CharacterError(f"{name}: not a character document: '{text[:e.start][-40:]}' is followed by a lone "
                             f"surrogate (\\u{ord(bad):04x}), which is not a character any file can hold") from None
