"""Rules modules: folders of YAML files, loaded safely, validated into typed rules.

A module folder holds ``module.yaml`` (id, name, version, mechanic, engine) and
one YAML file per rules concern. The ``engine`` names the Python interpreter of
those files (see :mod:`chargen.systems`). The rules hash is the SHA-256 of the
module's data in canonical JSON: a character records it, so a changed table
shows as a changed hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from chargen.errors import ChargenError, RulesError
from chargen.rules.check import Cursor, Problems
from chargen.rules.yamlio import Located, load_file

BUILTIN_DIR = Path(__file__).parent
MAX_FILES_PER_MODULE = 64


@dataclass(frozen=True)
class RulesModule:
    id: str
    name: str
    version: str
    mechanic: str
    description: str
    engine: str
    path: str
    hash: str
    rules: object  # the engine's typed rules
    overlays: tuple = ()


def builtin_ids() -> list[str]:
    return sorted(p.name for p in BUILTIN_DIR.iterdir() if (p / "module.yaml").is_file())


def read_module_files(folder: Path, label: str) -> dict[str, Located]:
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml"))
    if len(files) > MAX_FILES_PER_MODULE:
        raise RulesError([f"{label}: {len(files)} YAML files (at most {MAX_FILES_PER_MODULE})"])
    docs: dict[str, Located] = {}
    for p in files:
        docs[p.stem] = load_file(p, f"{label}/{p.name}")
    if "module" not in docs:
        raise RulesError([f"{label}: no module.yaml (a rules module needs one: id, name, version, mechanic, engine)"])
    return docs


def rules_hash(docs: dict[str, Located]) -> str:
    canonical = json.dumps({k: docs[k].data for k in sorted(docs)}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def build_module(docs: dict[str, Located], path: str, overlays: tuple = ()) -> RulesModule:
    from chargen.systems import engine_for

    problems = Problems()
    meta = Cursor.root(docs["module"], problems)
    meta.mapping(required=("id", "name", "version", "mechanic"),
                 optional=("description", "engine", "currency"))
    ident = meta["id"].ident()
    name = meta["name"].str()
    version = meta["version"].str(40)
    mechanic = meta["mechanic"].str()
    description = meta["description"].str(1000) if meta["description"].present else ""
    engine_id = meta["engine"].str(40) if meta["engine"].present else ident
    problems.raise_if_any()
    engine = engine_for(engine_id)
    if engine is None:
        from chargen.systems import ENGINES

        meta["engine" if meta["engine"].present else "id"].fail(
            f"no engine '{engine_id}' (expected one of: {', '.join(sorted(ENGINES))})")
        problems.raise_if_any()
    typed = engine.build_rules(docs, problems)
    problems.raise_if_any()
    return RulesModule(ident, name, version, mechanic, description, engine_id, path,
                       rules_hash(docs), typed, overlays)


_CACHE: dict[str, RulesModule] = {}


def load_builtin(system_id: str) -> RulesModule:
    if system_id not in _CACHE:
        folder = BUILTIN_DIR / system_id
        if not (folder / "module.yaml").is_file():
            raise ChargenError(f"unknown system '{system_id}' (expected one of: {', '.join(builtin_ids())})")
        docs = read_module_files(folder, f"chargen/rules/{system_id}")
        _CACHE[system_id] = build_module(docs, f"chargen/rules/{system_id}")
    return _CACHE[system_id]
